import Foundation

/// The lexicon tables: a keyboard wordlist in the store, sharing the `word` table (one id per word
/// for the wordlist, the n-grams and every later stage).
///
/// Present only in stores built from a wordlist (`lexiforge wordlist import`, or `train` with a
/// model naming `wordlists`). Layout:
/// - `lexicon(wordId, frequency, originalFrequency, flags, attributes, lemma, scriptClass)`: one
///   row per entry, keyed by `word.id`. `frequency` is `f=` (0-255; merged with corpus counts by
///   `train`); `originalFrequency` is `originalFreq=`, **NULL when equal to `frequency`** (160,088 of
///   160,715 en_US entries) unless ``LexiconAttributes/noOriginalFrequency`` says the key is absent;
///   `flags` is NULL when the line has no `flags=`; `attributes` holds ``LexiconAttributes`` bits.
///   `lemma` and `scriptClass` are filled by the text-processing stage (NULL until it runs; see
///   `LexiconEnrichment` in LexiforgePipeline, the hook that stage plugs into). Rows are in id order, which is export order.
/// - `lexiconKey(wordId, position, key, value)`: keys of an entry line without a column of their
///   own (`whitelist=`, unknown keys), verbatim, with their position among the line's keys.
/// - `lexiconShortcut(wordId, position, target, frequency, extra)`, `lexiconBigram(wordId, position,
///   nextWordId, frequency, extra)`, `lexiconChildLine(wordId, position, line)`: the child lines
///   under an entry; `position` orders them across the three tables. A shortcut's `frequency` NULL
///   is `f=whitelist`. Bigram targets are word ids (a target outside the list still gets a `word` row).
/// - `lexiconHeader(list, position, key, value)`: the header attributes of each imported list.
/// - `lexiconFolded(key, wordId)`: the folded key (``LexiconKey/fold(_:)``) of every word whose
///   spelling is not its folded key in lower, Capitalized or UPPER case (PlayStation, McDonald,
///   café: 1,891 of en_US). Every other word is found through `word_by_text` with those three
///   spellings of the folded prefix, so prefix lookups are range scans without a second copy of
///   160,000 words.
/// - `lexiconPrefix(prefix, rank, wordId)`: the top ``lexiconPrefixTop`` completions of every folded
///   prefix matching more than ``lexiconPrefixThreshold`` words, so short prefixes ("t", "th") cost
///   one short range scan, not a sort of thousands of rows.
/// - `lexiconScale(frequency, probability)`: the 256 values of p = 1.15^(f − 255).
/// - View `lexicon_view`: word text, frequency, probability, originalFrequency and flags decoded.
extension StoreSchema {
    /// Completions stored per hot prefix in `lexiconPrefix`.
    public static let lexiconPrefixTop = 16
    /// A folded prefix gets `lexiconPrefix` rows when it matches more than this many words; any
    /// other prefix is answered by sorting at most this many rows.
    public static let lexiconPrefixThreshold = 48

    /// Extra `meta` keys of stores with a lexicon.
    public enum LexiconMetaKey {
        /// Entries in the lexicon.
        public static let entries = "lexicon_entries"
        /// JSON object describing how `train` merged list frequencies and corpus counts.
        public static let merge = "lexicon_merge"
    }

    /// The statements that create the lexicon tables and views, in execution order (indexes last).
    public static func lexiconCreationStatements() -> [String] {
        [
            """
            CREATE TABLE lexicon (
                wordId INTEGER PRIMARY KEY REFERENCES word(id),
                frequency INTEGER NOT NULL CHECK (frequency BETWEEN 0 AND 255),
                originalFrequency INTEGER CHECK (originalFrequency >= 0),
                flags TEXT,
                attributes INTEGER NOT NULL DEFAULT 0 CHECK (attributes >= 0),
                lemma TEXT,
                scriptClass TEXT
            )
            """,
            """
            CREATE TABLE lexiconKey (
                wordId INTEGER NOT NULL REFERENCES lexicon(wordId),
                position INTEGER NOT NULL CHECK (position >= 1),
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (wordId, position)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexiconShortcut (
                wordId INTEGER NOT NULL REFERENCES lexicon(wordId),
                position INTEGER NOT NULL,
                target TEXT NOT NULL,
                frequency INTEGER CHECK (frequency >= 0),
                extra TEXT,
                PRIMARY KEY (wordId, position)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexiconBigram (
                wordId INTEGER NOT NULL REFERENCES lexicon(wordId),
                position INTEGER NOT NULL,
                nextWordId INTEGER NOT NULL REFERENCES word(id),
                frequency INTEGER NOT NULL CHECK (frequency BETWEEN 0 AND 255),
                extra TEXT,
                PRIMARY KEY (wordId, position)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexiconChildLine (
                wordId INTEGER NOT NULL REFERENCES lexicon(wordId),
                position INTEGER NOT NULL,
                line TEXT NOT NULL,
                PRIMARY KEY (wordId, position)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexiconHeader (
                list INTEGER NOT NULL,
                position INTEGER NOT NULL,
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (list, position)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexiconFolded (
                key TEXT NOT NULL,
                wordId INTEGER NOT NULL REFERENCES lexicon(wordId),
                PRIMARY KEY (key, wordId)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexiconPrefix (
                prefix TEXT NOT NULL,
                rank INTEGER NOT NULL CHECK (rank >= 0),
                wordId INTEGER NOT NULL REFERENCES lexicon(wordId),
                PRIMARY KEY (prefix, rank)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexiconScale (
                frequency INTEGER PRIMARY KEY CHECK (frequency BETWEEN 0 AND 255),
                probability REAL NOT NULL
            )
            """,
            """
            CREATE VIEW lexicon_view AS
                SELECT w.id AS id, w.text AS word, l.frequency, s.probability,
                       CASE WHEN l.attributes & \(LexiconAttributes.noOriginalFrequency.rawValue) THEN NULL
                            ELSE coalesce(l.originalFrequency, l.frequency) END AS originalFrequency,
                       l.flags,
                       (l.attributes & \(LexiconAttributes.notAWord.rawValue)) != 0 AS notAWord,
                       (l.attributes & \(LexiconAttributes.possiblyOffensive.rawValue)) != 0 AS possiblyOffensive,
                       (l.attributes & \(LexiconAttributes.notInList.rawValue)) != 0 AS notInList,
                       (SELECT value FROM lexiconKey AS k WHERE k.wordId = l.wordId AND k.key = 'whitelist') AS whitelist,
                       w.count AS corpusCount, l.lemma, l.scriptClass
                FROM lexicon AS l JOIN word AS w ON w.id = l.wordId JOIN lexiconScale AS s ON s.frequency = l.frequency
            """,
        ]
    }
}

/// The key that makes completion case- and accent-insensitive.
public enum LexiconKey {
    /// Lowercase with diacritics removed: "Über" → "uber", "café" → "cafe", "PlayStation" →
    /// "playstation". Canonical decomposition (NFD), nonspacing marks dropped, each scalar lowercased.
    /// - Complexity: O(length); ASCII takes a byte-only fast path.
    public static func fold(_ text: String) -> String {
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            if !utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) { return text }
            return String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        var out = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            out.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
        }
        return String(out)
    }

    /// The spellings of a folded key (or prefix) that `word_by_text` is searched with: as is,
    /// Capitalized and UPPER case. A word whose spelling is none of these for its own folded key
    /// is listed in `lexiconFolded` (see ``needsFoldedRow(word:folded:)``).
    public static func spellings(ofFolded key: String) -> [String] {
        guard let first = key.first else { return [key] }
        let capitalized = String(first).uppercased() + key.dropFirst()
        let upper = key.uppercased()
        var result = [key]
        if capitalized != key { result.append(capitalized) }
        if upper != key && upper != capitalized { result.append(upper) }
        return result
    }

    /// Whether `word` can only be found by its folded key (not by a spelling of it).
    public static func needsFoldedRow(word: String, folded: String) -> Bool {
        !spellings(ofFolded: folded).contains(word)
    }

    /// The smallest string greater than every string starting with `prefix` (for `text < ?`).
    static func upperBound(of prefix: String) -> String {
        prefix + "\u{10FFFF}"
    }
}
