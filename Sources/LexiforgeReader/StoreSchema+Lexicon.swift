import Foundation
import GRDB

/// The lexicon tables: a keyboard wordlist in the store, sharing the vocabulary, `word` (one id per word
/// for the wordlist, the n-grams and every later stage).
///
/// Present only in stores built from a wordlist (`lexiforge wordlist import`, or `train` with a
/// model naming `wordlists`). Layout:
/// - `lexiconFrequency(firstId, frequency)`: `f=` (0-255; merged with corpus counts by `train`) run
///   length encoded over word ids: word `id` has the frequency of the row with the greatest
///   `firstId <= id`; NULL marks ids without a lexicon entry (reserved tokens, bigram targets or
///   corpus words outside the list). Ids follow the list (or merged) frequency order, so a list
///   costs one row per distinct frequency (223 for en_US) instead of one per word.
/// - `lexiconDetail(wordId, originalFrequency, flags, attributes)`: only the
///   entries that differ from the common case (`originalFreq=` equal to `f=`, `flags=` present and
///   empty, no ``LexiconAttributes``): 4,991 of 160,715 en_US entries. In
///   a row, `originalFrequency` is `originalFreq=`, NULL when equal to the frequency unless
///   ``LexiconAttributes/noOriginalFrequency`` says the key is absent; `flags` is NULL when the line
///   has no `flags=`; `attributes` holds ``LexiconAttributes`` bits. Entries are in id order, which
///   is export order. A word's lemma and script class are not lexicon columns: they are the shared
///   `word_class` table's (one row per word id, indexed), which stores built with word classes
///   have (`wordlist import --word-classes`, or `train` with `"word_classes": true`).
/// - `lexiconKey(wordId, position, key, value)`: keys of an entry line without a column of their
///   own (`whitelist=`, unknown keys), verbatim, with their position among the line's keys.
/// - `lexiconShortcut(wordId, position, target, frequency, extra)`, `lexiconBigram(wordId, position,
///   nextWordId, frequency, extra)`, `lexiconChildLine(wordId, position, line)`: the child lines
///   under an entry; `position` orders them across the three tables. A shortcut's `frequency` NULL
///   is `f=whitelist`. Bigram targets are word ids (a target outside the list still gets a `word` row).
/// - `lexiconHeader(list, position, key, value)`: the header attributes of each imported list.
/// - `lexiconFolded(key, wordId)`: the folded key (``LexiconKey/fold(_:)``) of every word whose
///   spelling is not its folded key in lower, Capitalized or UPPER case (PlayStation, McDonald,
///   café: 1,891 of en_US). Every other word is found through the `wordOrder` index with those three
///   spellings of the folded prefix, so prefix lookups are range scans without a second copy of
///   160,000 words.
/// - `lexiconPrefix(prefix, rank, wordId)`: the top ``lexiconPrefixTop`` completions of every folded
///   prefix matching more than ``lexiconPrefixThreshold`` words, so short prefixes ("t", "th") cost
///   one short range scan, not a sort of thousands of rows.
/// - `lexiconScale(frequency, probability)`: the 256 values of p = 1.15^(f − 255).
/// - View `lexicon_view`: one row per entry: word text, frequency, probability, originalFrequency
///   and flags decoded (the common case filled in), and the lemma and script name from
///   `word_class` (NULL in stores without word classes).
///
/// Schema version 3 replaced version 2's one `lexicon` row per entry (2.45 MB for en_US) with
/// `lexiconFrequency` + `lexiconDetail` (122,880 bytes): measured with dbstat in
/// `Tests/Bench/bench-wordlist.sh`. Version 4 dropped `lexiconDetail`'s lemma and script
/// columns for the `word_class` table.
extension StoreSchema {
    /// The frequency of the word whose id is the SQL expression `id` (NULL: no lexicon entry).
    public static func lexiconFrequencySQL(of id: String) -> String {
        "(SELECT frequency FROM lexiconFrequency WHERE firstId <= \(id) ORDER BY firstId DESC LIMIT 1)"
    }

    /// Whether an entry is the common case and gets no `lexiconDetail` row: `originalFreq=` equal
    /// to `f=`, `flags=` present and empty, no attributes.
    public static func lexiconNeedsDetail(_ entry: LexiconEntry) -> Bool {
        !(entry.originalFrequency == entry.frequency && entry.flags == "" && entry.attributes.isEmpty)
    }

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
    /// `wordClasses`: the store has the `word_class` table, which `lexicon_view` then shows.
    public static func lexiconCreationStatements(wordClasses: Bool = false) -> [String] {
        [
            """
            CREATE TABLE lexiconFrequency (
                firstId INTEGER PRIMARY KEY,
                frequency INTEGER CHECK (frequency BETWEEN 0 AND 255)
            )
            """,
            """
            CREATE TABLE lexiconDetail (
                wordId INTEGER PRIMARY KEY,
                originalFrequency INTEGER CHECK (originalFrequency >= 0),
                flags TEXT,
                attributes INTEGER NOT NULL DEFAULT 0 CHECK (attributes >= 0)
            )
            """,
            """
            CREATE TABLE lexiconKey (
                wordId INTEGER NOT NULL,
                position INTEGER NOT NULL CHECK (position >= 1),
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (wordId, position)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexiconShortcut (
                wordId INTEGER NOT NULL,
                position INTEGER NOT NULL,
                target TEXT NOT NULL,
                frequency INTEGER CHECK (frequency >= 0),
                extra TEXT,
                PRIMARY KEY (wordId, position)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexiconBigram (
                wordId INTEGER NOT NULL,
                position INTEGER NOT NULL,
                nextWordId INTEGER NOT NULL,
                frequency INTEGER NOT NULL CHECK (frequency BETWEEN 0 AND 255),
                extra TEXT,
                PRIMARY KEY (wordId, position)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexiconChildLine (
                wordId INTEGER NOT NULL,
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
                wordId INTEGER NOT NULL,
                PRIMARY KEY (key, wordId)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE lexiconPrefix (
                prefix TEXT NOT NULL,
                rank INTEGER NOT NULL CHECK (rank >= 0),
                wordId INTEGER NOT NULL,
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
                SELECT w.id AS id, w.text AS word, r.frequency, s.probability,
                       CASE WHEN coalesce(d.attributes, 0) & \(LexiconAttributes.noOriginalFrequency.rawValue) THEN NULL
                            ELSE coalesce(d.originalFrequency, r.frequency) END AS originalFrequency,
                       CASE WHEN d.wordId IS NULL THEN '' ELSE d.flags END AS flags,
                       (coalesce(d.attributes, 0) & \(LexiconAttributes.notAWord.rawValue)) != 0 AS notAWord,
                       (coalesce(d.attributes, 0) & \(LexiconAttributes.possiblyOffensive.rawValue)) != 0 AS possiblyOffensive,
                       (coalesce(d.attributes, 0) & \(LexiconAttributes.notInList.rawValue)) != 0 AS notInList,
                       (SELECT value FROM lexiconKey AS k WHERE k.wordId = w.id AND k.key = 'whitelist') AS whitelist,
                       w.count AS corpusCount, \(wordClasses ? "coalesce(c.lemma, w.text) AS lemma, n.name AS script" : "NULL AS lemma, NULL AS script")
                FROM word AS w
                JOIN lexiconFrequency AS r ON r.firstId = (SELECT max(firstId) FROM lexiconFrequency WHERE firstId <= w.id)
                JOIN lexiconScale AS s ON s.frequency = r.frequency
                LEFT JOIN lexiconDetail AS d ON d.wordId = w.id\(wordClasses ? """

                LEFT JOIN word_class AS c ON c.word = w.id LEFT JOIN script_name AS n ON n.id = c.script
                """ : "")
                ORDER BY w.id
            """,
        ]
    }
}

/// `lexiconFrequency` read whole: word `id` has the frequency of the run with the greatest
/// `firstId <= id`; nil where that run's frequency is NULL (no lexicon entry) or no run starts.
public struct LexiconFrequencyRuns: Sendable {
    let firsts: [Int64]
    let frequencies: [Int?]

    public init(_ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT firstId, frequency FROM lexiconFrequency ORDER BY firstId")
        firsts = try rows.map { try $0.integer(0, "lexiconFrequency", "firstId") }
        frequencies = try rows.map { try $0.optionalInt(1, "lexiconFrequency", "frequency", in: 0...255) }
    }

    /// The list frequency (0-255) of `id`, nil when it has no lexicon entry. O(log runs).
    public func frequency(of id: Int64) -> Int? {
        var lo = 0, hi = firsts.count
        while lo < hi { let mid = (lo + hi) / 2; if firsts[mid] <= id { lo = mid + 1 } else { hi = mid } }
        return lo == 0 ? nil : frequencies[lo - 1]
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

    /// The spellings of a folded key (or prefix) that the `wordOrder` index is searched with: as is,
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
