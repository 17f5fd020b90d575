/// The vocabulary tables: a study list (JLPT or any other) laid out for instant random questions.
///
/// Present in stores built by `lexiforge vocab import` or a model naming `vocabulary`. Layout
/// (``StoreSchema/Vocab/version`` 1, in meta `vocab_schema`):
/// - `vocab_level(id, name)`: the list's levels; `id` is the level's bit in `vocab_bucket.levels`.
/// - `vocab_category(id, name)`: the eight categories of ``VocabCategory``.
/// - `vocab_bucket(id, levels, category, has_reading, has_meaning, first_entry, entries)`: one row per
///   distinct (level set, category, reading present, meaning present) of the entries, with the
///   bucket's entries as the id range `first_entry ..< first_entry + entries`. Every predicate over
///   levels, categories and present fields is decided per bucket, so a query reads this small
///   table (a few dozen rows) and never the entries it matches.
/// - `vocab_entry(id, bucket, expression, reading, meaning, tags)`: ids follow (bucket, expression,
///   reading, meaning) in byte order, so each bucket is one id range and, inside it, entries with
///   a text prefix are one sub-range; one range scan of `vocab_entry_by_expression(expression,
///   bucket)` over the prefix finds each bucket's sub-range (first id and count).
///   `reading` and `meaning` are NULL when the list has none (never empty); `tags` keeps the
///   list's tags that are not level tags (space-separated, NULL when none).
/// - Views `vocab_view(id, expression, reading, meaning, levels, category, tags)` and
///   `vocab_bucket_view` for `sqlite3`.
extension StoreSchema {
    public enum Vocab {
        /// Bumped whenever a vocabulary table, index or view changes; the reader refuses others.
        public static let version = 1
        /// Level bits available in `vocab_bucket.levels` (a signed 64-bit integer).
        public static let maxLevels = 62

        public enum MetaKey {
            /// ``Vocab/version`` of the vocabulary tables.
            public static let schema = "vocab_schema"
            /// Entries in `vocab_entry`.
            public static let entries = "vocab_entries"
            /// JSON object: how the lists were read (format, columns, level scheme, rows, merged, skipped).
            public static let importOptions = "vocab_import"
        }

        /// Every statement creating a vocabulary store, `meta` (as in every store) first.
        public static func creationStatements() -> [String] {
            let meta = StoreSchema.creationStatements(order: 1).filter { $0.contains("CREATE TABLE meta") }
            return meta + [
                "CREATE TABLE vocab_level (id INTEGER PRIMARY KEY CHECK (id BETWEEN 0 AND \(maxLevels - 1)), name TEXT NOT NULL UNIQUE)",
                "CREATE TABLE vocab_category (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
                """
                CREATE TABLE vocab_bucket (
                    id INTEGER PRIMARY KEY,
                    levels INTEGER NOT NULL CHECK (levels >= 0),
                    category INTEGER NOT NULL REFERENCES vocab_category(id),
                    has_reading INTEGER NOT NULL CHECK (has_reading IN (0, 1)),
                    has_meaning INTEGER NOT NULL CHECK (has_meaning IN (0, 1)),
                    first_entry INTEGER NOT NULL CHECK (first_entry >= 1),
                    entries INTEGER NOT NULL CHECK (entries >= 1)
                )
                """,
                """
                CREATE TABLE vocab_entry (
                    id INTEGER PRIMARY KEY,
                    bucket INTEGER NOT NULL REFERENCES vocab_bucket(id),
                    expression TEXT NOT NULL CHECK (expression <> ''),
                    reading TEXT CHECK (reading <> ''),
                    meaning TEXT CHECK (meaning <> ''),
                    tags TEXT CHECK (tags <> '')
                )
                """,
                """
                CREATE VIEW vocab_view AS
                SELECT e.id, e.expression, e.reading, e.meaning,
                       (SELECT group_concat(l.name, ' ') FROM vocab_level l WHERE (b.levels >> l.id) & 1) AS levels,
                       c.name AS category, e.tags
                FROM vocab_entry e JOIN vocab_bucket b ON b.id = e.bucket JOIN vocab_category c ON c.id = b.category
                """,
                """
                CREATE VIEW vocab_bucket_view AS
                SELECT b.id, (SELECT group_concat(l.name, ' ') FROM vocab_level l WHERE (b.levels >> l.id) & 1) AS levels,
                       c.name AS category, b.has_reading, b.has_meaning, b.first_entry, b.entries
                FROM vocab_bucket b JOIN vocab_category c ON c.id = b.category
                """,
            ]
        }

        /// Created after the rows are in.
        public static let indexStatements = [
            "CREATE INDEX vocab_entry_by_expression ON vocab_entry(expression, bucket)",
        ]

        /// Tables a vocabulary store must have.
        public static let tables = ["vocab_level", "vocab_category", "vocab_bucket", "vocab_entry"]
    }
}

/// The category of a vocabulary entry, as the JLPT study app of the seed sorts its words.
///
/// Raw values are the codes in `vocab_bucket.category` (names in `vocab_category`).
public enum VocabCategory: Int, CaseIterable, Sendable, Comparable, Hashable, CustomStringConvertible {
    /// Only katakana (with the long-vowel mark ー): テレビ.
    case katakana = 0
    /// Only hiragana: ああ, すっと.
    case hiragana = 1
    /// Only kanji (with 々): 現像, 様々.
    case kanji = 2
    /// Kanji and hiragana: 会う, 青い.
    case kanjiHiragana = 3
    /// A prefix: marked by a trailing ～ (故～, お～) or a "prefix" meaning note.
    case prefix = 4
    /// A suffix: marked by a leading ～ (～区, ～たち) or a "suffix" meaning note.
    case suffix = 5
    /// Anything else: katakana with kanji (マイ～ aside), Latin letters, digits, several forms.
    case miscellaneous = 6
    /// No reading or no meaning: nothing to test.
    case untestable = 7

    /// The name used in options, views and output.
    public var name: String {
        switch self {
        case .katakana: "katakana"
        case .hiragana: "hiragana"
        case .kanji: "kanji"
        case .kanjiHiragana: "kanji+hiragana"
        case .prefix: "prefix"
        case .suffix: "suffix"
        case .miscellaneous: "miscellaneous"
        case .untestable: "untestable"
        }
    }

    public var description: String { name }

    /// Parses ``name`` (also `kanji-hiragana`, `misc`).
    public init?(name: String) {
        switch name.lowercased() {
        case "kanji-hiragana", "kanji_hiragana", "kanjihiragana": self = .kanjiHiragana
        case "misc": self = .miscellaneous
        default:
            guard let found = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
            self = found
        }
    }

    /// Every category but ``untestable`` has a reading and a meaning.
    public var isTestable: Bool { self != .untestable }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The bit of this category in a category mask.
    public var bit: Int64 { 1 << Int64(rawValue) }
    /// Every category's bit.
    public static let allMask: Int64 = (1 << Int64(allCases.count)) - 1
}
