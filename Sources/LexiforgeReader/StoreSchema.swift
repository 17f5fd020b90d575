/// The one source of truth for the layout of a Lexiforge "Trained" store.
///
/// The writer creates exactly these tables and views, the reader refuses any store whose
/// `PRAGMA user_version` differs from ``StoreSchema/version``, and the tests use the same
/// constants. Change the layout here and bump ``version``.
///
/// Layout (version 2):
/// - `meta(key, value)`: provenance; see ``StoreSchema/MetaKey``.
/// - `word(id, text, count)`: the vocabulary. Ids are dense integers: 0 `<unk>`, 1 `<s>`,
///   2 `</s>`, then every word by descending count (ties by byte order), so frequent words
///   get the shortest varints. `count` is the unigram count (for `<s>`: the sentence count).
/// - `word_class(word, lemma, script)`, only in stores built with word classes
///   (`lexiforge ngrams --word-classes`; small keyboard stores keep their size budget without):
///   one row per word id. `lemma` is the word's tag-free lemma, NULL when it is the word itself
///   (indexed where not NULL: search with `lemma = ? OR (w.text = ? AND lemma IS NULL)`);
///   `script` is the script class code (``StoreSchema/scriptNames``, view `script_name`),
///   indexed, so `WHERE script = 4` selects every Han word with an index lookup. View
///   `word_class_view(word, lemma, script, count)` shows text.
/// - `bigram(w1, w2, count)`, `trigram(w1, w2, w3, count)`, `fourgram(...)`, `fivegram(...)`:
///   `WITHOUT ROWID` tables keyed by the id tuple, present up to the store's order.
/// - Views `unigram_view`, `bigram_view`, ... that show words instead of ids.
public enum StoreSchema {
    /// Bumped whenever a table, column, index or view changes meaning or shape.
    public static let version = 2

    /// Names of the `word.script` codes (index = code), as LexiforgeText's `ScriptClass` defines them.
    public static let scriptNames = [
        "other", "latin", "hiragana", "katakana", "han", "kanji_kana", "hangul", "cyrillic", "greek",
        "digits", "symbols", "mixed",
    ]

    /// `PRAGMA application_id`: "LXFG" (0x4C584647), so `file(1)`-style tools and our reader can tell
    /// a Lexiforge store from any other SQLite database.
    public static let applicationID: Int32 = 0x4C58_4647

    /// Reserved word ids.
    public enum ReservedID {
        public static let unknown: Int64 = 0
        public static let sentenceStart: Int64 = 1
        public static let sentenceEnd: Int64 = 2
        /// The first id given to a real word.
        public static let firstWord: Int64 = 3
    }

    public static let unknownToken = "<unk>"
    public static let sentenceStartToken = "<s>"
    public static let sentenceEndToken = "</s>"

    /// The highest n-gram order a store can hold.
    public static let maxOrder = 5

    /// Keys of the `meta` table.
    public enum MetaKey {
        public static let schemaVersion = "schema_version"
        public static let toolchain = "toolchain"
        public static let model = "model"
        public static let order = "order"
        /// JSON object of the text options (lowercase, invalid-UTF-8 handling, Gutenberg stripping).
        public static let textOptions = "text_options"
        /// JSON array of `{"file", "sha256", "bytes"}` for every input, in the order given.
        public static let inputs = "inputs"
        public static let tokens = "tokens"
        public static let sentences = "sentences"
        public static let vocabulary = "vocabulary"
        /// JSON object: where the `word.lemma` column's lemmatizer learned (`training` files, `wordnet` folder).
        public static let lemmatizer = "lemmatizer"
        /// Only written when the environment sets `SOURCE_DATE_EPOCH`, so builds stay byte-identical.
        public static let created = "created"
    }

    /// Name of the table holding n-grams of `order` (2...5). Unigrams live in `word`.
    public static func ngramTable(order: Int) -> String {
        precondition((2...maxOrder).contains(order), "n-gram tables exist for orders 2...\(maxOrder)")
        return ["bigram", "trigram", "fourgram", "fivegram"][order - 2]
    }

    /// Name of the human-readable view for `order` (1...5).
    public static func ngramView(order: Int) -> String {
        order == 1 ? "unigram_view" : ngramTable(order: order) + "_view"
    }

    /// The statements that create an empty store of the given order, in execution order.
    public static func creationStatements(order: Int, wordClasses: Bool = false) -> [String] {
        precondition((1...maxOrder).contains(order))
        var sql = [
            """
            CREATE TABLE meta (
                key TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE word (
                id INTEGER PRIMARY KEY,
                text TEXT NOT NULL,
                count INTEGER NOT NULL CHECK (count >= 0)
            )
            """,
            "CREATE UNIQUE INDEX word_by_text ON word(text)",
            """
            CREATE VIEW unigram_view AS
                SELECT text AS word, count FROM word
            """,
        ]
        if wordClasses {
            sql += [
                """
                CREATE TABLE word_class (
                    word INTEGER PRIMARY KEY REFERENCES word(id),
                    lemma TEXT,
                    script INTEGER NOT NULL CHECK (script BETWEEN 0 AND \(scriptNames.count - 1))
                )
                """,
                "CREATE INDEX word_class_by_lemma ON word_class(lemma) WHERE lemma IS NOT NULL",
                "CREATE INDEX word_class_by_script ON word_class(script)",
                "CREATE VIEW script_name(id, name) AS VALUES "
                    + scriptNames.enumerated().map { "(\($0.offset), '\($0.element)')" }.joined(separator: ", "),
                """
                CREATE VIEW word_class_view AS
                    SELECT w.text AS word, COALESCE(c.lemma, w.text) AS lemma, n.name AS script, w.count
                    FROM word_class AS c JOIN word AS w ON w.id = c.word JOIN script_name AS n ON n.id = c.script
                """,
            ]
        }
        if order >= 2 {
            for n in 2...order {
                let columns = (1...n).map { "w\($0)" }
                let table = ngramTable(order: n)
                sql.append("""
                    CREATE TABLE \(table) (
                        \(columns.map { "\($0) INTEGER NOT NULL" }.joined(separator: ",\n    ")),
                        count INTEGER NOT NULL CHECK (count > 0),
                        PRIMARY KEY (\(columns.joined(separator: ", ")))
                    ) WITHOUT ROWID
                    """)
                let joins = (1...n).map { "JOIN word AS t\($0) ON t\($0).id = g.w\($0)" }
                sql.append("""
                    CREATE VIEW \(ngramView(order: n)) AS
                        SELECT \((1...n).map { "t\($0).text AS w\($0)" }.joined(separator: ", ")), g.count
                        FROM \(table) AS g
                        \(joins.joined(separator: "\n    "))
                    """)
            }
        }
        return sql
    }
}
