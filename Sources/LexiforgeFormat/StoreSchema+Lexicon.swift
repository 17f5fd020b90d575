import Foundation

/// The lexicon tables: a keyboard wordlist in the store, sharing the vocabulary, `word` (one id per word
/// for the wordlist, the n-grams and every later stage).
///
/// Present only in stores built from a wordlist (`lexiforge wordlist import`, or `train` with a
/// model naming `wordlists`). Layout:
/// - `lexicon_frequency(first_id, frequency)`: `f=` (0-255; merged with corpus counts by `train`) run
///   length encoded over word ids: word `id` has the frequency of the row with the greatest
///   `first_id <= id`; NULL marks ids without a lexicon entry (reserved tokens, bigram targets or
///   corpus words outside the list). Ids follow the list (or merged) frequency order, so a list
///   costs one row per distinct frequency (223 for en_US) instead of one per word.
/// - `lexicon_detail(word_id, original_frequency, flags, attributes)`: only the
///   entries that differ from the common case (`originalFreq=` equal to `f=`, `flags=` present and
///   empty, no ``LexiconAttributes``): 4,991 of 160,715 en_US entries. In
///   a row, `original_frequency` is `originalFreq=`, NULL when equal to the frequency unless
///   ``LexiconAttributes/noOriginalFrequency`` says the key is absent; `flags` is NULL when the line
///   has no `flags=`; `attributes` holds ``LexiconAttributes`` bits. Entries are in id order, which
///   is export order. A word's lemma and script class are not lexicon columns: they are the shared
///   `word_class` table's (one row per word id, indexed), which stores built with word classes
///   have (`wordlist import --word-classes`, or `train` with `"word_classes": true`).
/// - `lexicon_key(word_id, position, key, value)`: keys of an entry line without a column of their
///   own (`whitelist=`, unknown keys), verbatim, with their position among the line's keys.
/// - `lexicon_shortcut(word_id, position, target, frequency, extra)`, `lexicon_bigram(word_id, position,
///   next_word_id, frequency, extra)`, `lexicon_child_line(word_id, position, line)`: the child lines
///   under an entry; `position` orders them across the three tables. A shortcut's `frequency` NULL
///   is `f=whitelist`. Bigram targets are word ids (a target outside the list still gets a `word` row).
/// - `lexicon_header(list, position, key, value)`: the header attributes of each imported list.
/// - `lexicon_folded(key, word_id)`: the folded key (``LexiconKey/fold(_:)``) of every word whose
///   spelling is not its folded key in lower, Capitalized or UPPER case (PlayStation, McDonald,
///   café: 1,891 of en_US). Every other word is found through the `word_order` index with those three
///   spellings of the folded prefix, so prefix lookups are range scans without a second copy of
///   160,000 words.
/// - `lexicon_prefix(prefix, rank, word_id)`: the top ``lexiconPrefixTop`` completions of every folded
///   prefix matching more than ``lexiconPrefixThreshold`` words, so short prefixes ("t", "th") cost
///   one short range scan, not a sort of thousands of rows.
/// - `lexicon_scale(frequency, probability)`: the 256 values of p = 1.15^(f − 255).
/// - View `lexicon_view`: one row per entry: word text, frequency, probability, original_frequency
///   and flags decoded (the common case filled in), and the lemma and script name from
///   `word_class` (NULL in stores without word classes).
///
/// Schema version 3 replaced version 2's one `lexicon` row per entry (2.45 MB for en_US) with
/// `lexicon_frequency` + `lexicon_detail` (122,880 bytes): measured with dbstat in
/// `Tests/Bench/bench-wordlist.sh`. Version 4 dropped `lexicon_detail`'s lemma and script
/// columns for the `word_class` table.
extension StoreSchema {
    /// The frequency of the word whose id is the SQL expression `id` (NULL: no lexicon entry).
    public static func lexiconFrequencySQL(of id: String) -> String {
        "(SELECT frequency FROM lexicon_frequency WHERE first_id <= \(id) ORDER BY first_id DESC LIMIT 1)"
    }

    /// Whether an entry is the common case and gets no `lexicon_detail` row: `originalFreq=` equal
    /// to `f=`, `flags=` present and empty, no attributes.
    public static func lexiconNeedsDetail(_ entry: LexiconEntry) -> Bool {
        !(entry.originalFrequency == entry.frequency && entry.flags == "" && entry.attributes.isEmpty)
    }

    /// Completions stored per hot prefix in `lexicon_prefix`.
    public static let lexiconPrefixTop = 16
    /// A folded prefix gets `lexicon_prefix` rows when it matches more than this many words; any
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
    /// `wordClasses`: the store has the `word_class` table, which `lexicon_view` then shows.
    public static func lexiconCreationStatements(wordClasses: Bool = false) -> [String] {
        [
            """
            CREATE TABLE lexicon_frequency (
                first_id INTEGER PRIMARY KEY,
                frequency INTEGER CHECK (frequency BETWEEN 0 AND 255)
            )
            """,
            """
            CREATE TABLE lexicon_detail (
                word_id INTEGER PRIMARY KEY,
                original_frequency INTEGER CHECK (original_frequency >= 0),
                flags TEXT,
                attributes INTEGER NOT NULL DEFAULT 0 CHECK (attributes >= 0)
            )
            """,
            """
            CREATE TABLE lexicon_key (
                word_id INTEGER NOT NULL,
                position INTEGER NOT NULL CHECK (position >= 1),
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (word_id, position)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexicon_shortcut (
                word_id INTEGER NOT NULL,
                position INTEGER NOT NULL,
                target TEXT NOT NULL,
                frequency INTEGER CHECK (frequency >= 0),
                extra TEXT,
                PRIMARY KEY (word_id, position)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexicon_bigram (
                word_id INTEGER NOT NULL,
                position INTEGER NOT NULL,
                next_word_id INTEGER NOT NULL,
                frequency INTEGER NOT NULL CHECK (frequency BETWEEN 0 AND 255),
                extra TEXT,
                PRIMARY KEY (word_id, position)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexicon_child_line (
                word_id INTEGER NOT NULL,
                position INTEGER NOT NULL,
                line TEXT NOT NULL,
                PRIMARY KEY (word_id, position)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexicon_header (
                list INTEGER NOT NULL,
                position INTEGER NOT NULL,
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (list, position)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexicon_folded (
                key TEXT NOT NULL,
                word_id INTEGER NOT NULL,
                PRIMARY KEY (key, word_id)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexicon_prefix (
                prefix TEXT NOT NULL,
                rank INTEGER NOT NULL CHECK (rank >= 0),
                word_id INTEGER NOT NULL,
                PRIMARY KEY (prefix, rank)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexicon_scale (
                frequency INTEGER PRIMARY KEY CHECK (frequency BETWEEN 0 AND 255),
                probability REAL NOT NULL
            )
            """,
            """
            CREATE VIEW lexicon_view AS
                SELECT w.id AS id, w.text AS word, r.frequency, s.probability,
                       CASE WHEN coalesce(d.attributes, 0) & \(LexiconAttributes.noOriginalFrequency.rawValue) THEN NULL
                            ELSE coalesce(d.original_frequency, r.frequency) END AS original_frequency,
                       CASE WHEN d.word_id IS NULL THEN '' ELSE d.flags END AS flags,
                       (coalesce(d.attributes, 0) & \(LexiconAttributes.notAWord.rawValue)) != 0 AS notAWord,
                       (coalesce(d.attributes, 0) & \(LexiconAttributes.possiblyOffensive.rawValue)) != 0 AS possiblyOffensive,
                       (coalesce(d.attributes, 0) & \(LexiconAttributes.notInList.rawValue)) != 0 AS notInList,
                       (SELECT value FROM lexicon_key AS k WHERE k.word_id = w.id AND k.key = 'whitelist') AS whitelist,
                       w.count AS corpusCount, \(wordClasses ? "coalesce(c.lemma, w.text) AS lemma, n.name AS script" : "NULL AS lemma, NULL AS script")
                FROM word AS w
                JOIN lexicon_frequency AS r ON r.first_id = (SELECT max(first_id) FROM lexicon_frequency WHERE first_id <= w.id)
                JOIN lexicon_scale AS s ON s.frequency = r.frequency
                LEFT JOIN lexicon_detail AS d ON d.word_id = w.id\(wordClasses ? """

                LEFT JOIN word_class AS c ON c.word = w.id LEFT JOIN script_name AS n ON n.id = c.script
                """ : "")
                ORDER BY w.id
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

    /// The spellings of a folded key (or prefix) that the `word_order` index is searched with: as is,
    /// Capitalized and UPPER case. A word whose spelling is none of these for its own folded key
    /// is listed in `lexicon_folded` (see ``needsFoldedRow(word:folded:)``).
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
    public static func upperBound(of prefix: String) -> String {
        prefix + "\u{10FFFF}"
    }
}
