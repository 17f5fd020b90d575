/// The one source of truth for the layout of a Lexiforge "Trained" store.
///
/// The writer creates exactly these tables and views, the reader refuses any store whose
/// `PRAGMA user_version` differs from ``StoreSchema/version``, and the tests use the same
/// constants. Change the layout here and bump ``version``.
///
/// Layout (version 2):
/// - `meta(key, value)`: provenance; see ``StoreSchema/MetaKey``.
/// - `word(id, text, count)`: the vocabulary, a view over the packed tables `word_block`,
///   `word_order` and `word_count` (version 5; see ``wordCreationStatements(languageModel:)``).
///   Ids are dense integers: 0 `<unk>`, 1 `<s>`, 2 `</s>`, then every word by descending count
///   (ties by byte order), so frequent words get the shortest varints. `count` is the unigram
///   count (for `<s>`: the sentence count).
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
/// - Version 2 adds the hidden Markov tables (`hmm_*`, see ``StoreSchema/HMM``), present in
///   stores built by `lexiforge hmm` and beside the n-grams in stores `train` builds from a model
///   with `hmm_tagged` or `hmm_states` (meta row `hmm` says how they were trained), and the `lexicon*` tables of a keyboard wordlist
///   (``lexiconCreationStatements()``), in stores built from one; word ids then follow the list
///   (or merged) frequency order.
/// - Language model (version 2, stores built with `--language-model`, which have a
///   `language_model` meta row): every `word` and n-gram row also has `logprob`, the interpolated
///   modified Kneser-Ney log10 probability of its last word given the others, and every row of an
///   order below the store's order has `backoff`, the log10 backoff weight of the n-gram as a
///   context (0 when it is none), both as integers in units of 1/``logScale`` (so `-2301` is
///   log10 p = −2.301): two bytes a value instead of eight. `<s>` has `logprob` −99000 as in ARPA.
///   Stores of 100,000 rows or more also get `<table>_top` tables: for each context with more than
///   ``busyContext`` continuations its ``topLength`` best, in one small blob, so next-word and
///   completion queries read the best continuations first (see ``topTable(order:)``).
///   The views show `log10prob` and `log10backoff` as reals.
///   Counts-only stores (the default) have neither column: the foundation layout, whose size budget
///   (chapter 1 at order 3 ≤ 160 KiB) the probability columns would exceed by a quarter.
/// - Version 2 also has the optional `word_class` table (lemma and script class per word, indexed),
///   in stores built with `--word-classes`.
/// - Version 3 stores a lexicon's frequencies run-length encoded and only its uncommon entries'
///   details (``lexiconCreationStatements()``).
/// - Version 4: a lexicon word's lemma and script class live in `word_class` only (version 3 also
///   had two always-empty columns for them in `lexicon_detail`).
/// - Version 5: the vocabulary is packed 64 words to a row (`word_block`, `word_order`,
///   `word_count`) behind the `word` view; versions up to 4 had a `word` table with one row and
///   one `word_by_text` index entry per word (5.8 of en_US's 6.3 MB).
/// - Version 6: one naming convention, snake_case, for every table and column (version 5 had
///   `wordBlock`, `lexiconFrequency(firstId …)`, `swipeFeature(layoutId …)` beside `word_class`
///   and `hmm_state`); the meta JSON values are Codable records written with sorted keys
///   (``MetaJSON``). The views and the documented sqlite3 recipes are unchanged.
/// - Stores may also hold the swipe tables (`swipe_layout`, `swipe_feature`, see
///   ``swipeCreationStatements()``), added by `lexiforge swipe features` or `swipe_layouts` in a model.
public enum StoreSchema {
    /// Bumped whenever a table, column, index or view changes meaning or shape.
    public static let version = 6

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

    /// `logprob` and `backoff` are log10 values times this, rounded to integers.
    public static let logScale = 1000.0

    /// Language-model stores with at least this many rows (words + n-grams) get the `_top` tables.
    public static let topContinuationThreshold = 100_000

    /// A context gets a row in its `_top` table when it has more continuations than this.
    /// Smaller contexts are read whole (at most this many rows: a few microseconds).
    public static let busyContext = 64

    /// How many best continuations a `_top` row lists.
    public static let topLength = 32

    /// Bytes of one `_top` entry: the word id (UInt32), then its logprob (Int16), little-endian.
    public static let topEntryBytes = 6

    /// Name of the table listing the best continuations of the busy contexts of order-n n-grams
    /// (2...5): `bigram_top(w1, continuations, top)`, `trigram_top(w1, w2, continuations, top)`...
    /// `continuations` is the context's number of rows in the n-gram table; `top` holds its
    /// ``topLength`` most probable continuations (logprob descending, ties by id) as
    /// ``topEntryBytes``-byte entries. Every continuation not listed has a logprob at most the last
    /// listed one's, which is what lets a ranked query stop after the list.
    public static func topTable(order n: Int) -> String { ngramTable(order: n) + "_top" }

    /// The statement creating ``topTable(order:)`` for order n (2...5).
    public static func topTableStatement(order n: Int) -> String {
        let context = (1..<n).map { "w\($0)" }
        return "CREATE TABLE \(topTable(order: n)) ("
            + context.map { "\($0) INTEGER NOT NULL, " }.joined()
            + "continuations INTEGER NOT NULL, top BLOB NOT NULL, PRIMARY KEY (\(context.joined(separator: ", ")))) WITHOUT ROWID"
    }

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
        /// JSON object describing the language model: smoothing, discounts per order, pruning.
        public static let languageModel = "language_model"
        /// JSON object: where the `word.lemma` column's lemmatizer learned (`training` files, `wordnet` folder).
        public static let lemmatizer = "lemmatizer"
        /// JSON object: how the `hmm_*` tables were trained (`training` "supervised" with `tagset`,
        /// or "baum-welch" with `states` and `seed`; `inputs`, `sentences`, `tokens`).
        public static let hmm = "hmm"
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
    /// `languageModel` adds the `logprob` and `backoff` columns; `topTables` adds the `_top`
    /// tables (see ``topContinuationThreshold``); `wordClasses` adds the `word_class` table;
    /// `clusters` the class-based model (``clusterCreationStatements``); `formRules` the suffix
    /// rules for unseen forms (``formRuleCreationStatements``).
    public static func creationStatements(order: Int, languageModel: Bool = false, topTables: Bool = false,
                                          wordClasses: Bool = false, clusters: Bool = false, formRules: Bool = false) -> [String] {
        precondition((1...maxOrder).contains(order))
        let lm = languageModel
        var sql = [
            """
            CREATE TABLE meta (
                key TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL
            ) WITHOUT ROWID
            """,
        ] + wordCreationStatements(languageModel: lm) + [
            """
            CREATE VIEW unigram_view AS
                SELECT text AS word, count\(lm ? ", logprob / \(logScale) AS log10prob, backoff / \(logScale) AS log10backoff" : "") FROM word
            """,
        ]
        if wordClasses {
            sql += [
                """
                CREATE TABLE word_class (
                    word INTEGER PRIMARY KEY,
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
                        count INTEGER NOT NULL CHECK (count > 0),\(lm ? "\n    logprob INTEGER NOT NULL," : "")\(lm && n < order ? "\n    backoff INTEGER NOT NULL DEFAULT 0," : "")
                        PRIMARY KEY (\(columns.joined(separator: ", ")))
                    ) WITHOUT ROWID
                    """)
                let joins = (1...n).map { "JOIN word AS t\($0) ON t\($0).id = g.w\($0)" }
                sql.append("""
                    CREATE VIEW \(ngramView(order: n)) AS
                        SELECT \((1...n).map { "t\($0).text AS w\($0)" }.joined(separator: ", ")), g.count\(lm ? ",\n        g.logprob / \(logScale) AS log10prob" : "")\(lm && n < order ? ", g.backoff / \(logScale) AS log10backoff" : "")
                        FROM \(table) AS g
                        \(joins.joined(separator: "\n    "))
                    """)
            }
            if lm && topTables { sql += (2...order).map { topTableStatement(order: $0) } }
        }
        if lm && clusters { sql += clusterCreationStatements }
        if lm && formRules { sql += formRuleCreationStatements }
        return sql
    }
}

// MARK: - Hidden Markov tables (schema version 2)

extension StoreSchema {
    /// The tables of a hidden Markov model (a part-of-speech tagger or K word classes).
    ///
    /// State 0 is the sentence boundary `<s>` (it also stands for `</s>` as a transition target);
    /// real states are 1...K. Word ids are those of the vocabulary (`word`). Probabilities are natural logs.
    /// - `hmm_state(id, name, count, logprob)`: tag names, training counts, unigram log P(t).
    /// - `hmm_initial(state, logprob)`: log P(t | <s>).
    /// - `hmm_transition(s1, s2, logprob)`: first order, log P(s2 | s1) (maximum likelihood).
    /// - `hmm_transition2(s1, s2, s3, logprob)`: second order, log P(s3 | s1, s2) (maximum
    ///   likelihood, observed triples only); the tagger interpolates orders with the
    ///   `lambda1..3` parameters (deleted interpolation, TnT).
    /// - `hmm_emission(word, state, logprob)`: log P(word | state).
    /// - `hmm_lexical(word, s1, s2, count)`: for frequent words w, how often tag s2 followed w
    ///   tagged s1; the tagger blends log P(s2 | w, s1) into the transition after w.
    /// - `hmm_emission2(word, s1, s2, count)`: for frequent words w, how often w was tagged s2
    ///   right after tag s1; the tagger uses P(w | s1, s2) smoothed towards P(w | s2)
    ///   (second-order emission, Thede & Harper 1999).
    /// - `hmm_suffix(class, suffix, state, count)`: the unknown-word model: tag counts of rare
    ///   training words by word-shape class and final letters (TnT's suffix tries).
    /// - `hmm_parameter(name, value)`: smoothing weights and limits (``HMMParameter``).
    /// - Views `hmm_*_view` show names instead of ids.
    public enum HMM {
        public static let tables = [
            "hmm_state", "hmm_initial", "hmm_transition", "hmm_transition2", "hmm_emission",
            "hmm_lexical", "hmm_emission2", "hmm_suffix", "hmm_parameter",
        ]

        public static let boundaryState: Int64 = 0
        public static let boundaryName = "<s>"

        /// The DDL of a (word, previous state, state) count table: `hmm_lexical` and `hmm_emission2`
        /// hold different counts in the same shape.
        static func stateContextCountTable(_ name: String) -> String {
            """
            CREATE TABLE \(name) (
                word INTEGER NOT NULL,
                s1 INTEGER NOT NULL REFERENCES hmm_state(id),
                s2 INTEGER NOT NULL REFERENCES hmm_state(id),
                count INTEGER NOT NULL CHECK (count > 0),
                PRIMARY KEY (word, s1, s2)
            ) WITHOUT ROWID
            """
        }

        public static let creationStatements: [String] = [
            """
            CREATE TABLE hmm_state (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                count REAL NOT NULL CHECK (count >= 0),
                logprob REAL NOT NULL
            )
            """,
            "CREATE UNIQUE INDEX hmm_state_by_name ON hmm_state(name)",
            """
            CREATE TABLE hmm_initial (
                state INTEGER PRIMARY KEY REFERENCES hmm_state(id),
                logprob REAL NOT NULL CHECK (logprob <= 0)
            )
            """,
            """
            CREATE TABLE hmm_transition (
                s1 INTEGER NOT NULL REFERENCES hmm_state(id),
                s2 INTEGER NOT NULL REFERENCES hmm_state(id),
                logprob REAL NOT NULL CHECK (logprob <= 0),
                PRIMARY KEY (s1, s2)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE hmm_transition2 (
                s1 INTEGER NOT NULL REFERENCES hmm_state(id),
                s2 INTEGER NOT NULL REFERENCES hmm_state(id),
                s3 INTEGER NOT NULL REFERENCES hmm_state(id),
                logprob REAL NOT NULL CHECK (logprob <= 0),
                PRIMARY KEY (s1, s2, s3)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE hmm_emission (
                word INTEGER NOT NULL,
                state INTEGER NOT NULL REFERENCES hmm_state(id),
                logprob REAL NOT NULL CHECK (logprob <= 0),
                PRIMARY KEY (word, state)
            ) WITHOUT ROWID
            """,
            stateContextCountTable("hmm_lexical"),
            stateContextCountTable("hmm_emission2"),
            """
            CREATE TABLE hmm_suffix (
                class INTEGER NOT NULL,
                suffix TEXT NOT NULL,
                state INTEGER NOT NULL REFERENCES hmm_state(id),
                count INTEGER NOT NULL CHECK (count > 0),
                PRIMARY KEY (class, suffix, state)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE hmm_parameter (
                name TEXT PRIMARY KEY NOT NULL,
                value REAL NOT NULL
            ) WITHOUT ROWID
            """,
            """
            CREATE VIEW hmm_initial_view AS
                SELECT s.name AS state, i.logprob FROM hmm_initial AS i JOIN hmm_state AS s ON s.id = i.state
            """,
            """
            CREATE VIEW hmm_transition_view AS
                SELECT a.name AS s1, b.name AS s2, t.logprob FROM hmm_transition AS t
                JOIN hmm_state AS a ON a.id = t.s1 JOIN hmm_state AS b ON b.id = t.s2
            """,
            """
            CREATE VIEW hmm_transition2_view AS
                SELECT a.name AS s1, b.name AS s2, c.name AS s3, t.logprob FROM hmm_transition2 AS t
                JOIN hmm_state AS a ON a.id = t.s1 JOIN hmm_state AS b ON b.id = t.s2
                JOIN hmm_state AS c ON c.id = t.s3
            """,
            """
            CREATE VIEW hmm_emission_view AS
                SELECT w.text AS word, s.name AS state, e.logprob FROM hmm_emission AS e
                JOIN word AS w ON w.id = e.word JOIN hmm_state AS s ON s.id = e.state
            """,
            """
            CREATE VIEW hmm_lexical_view AS
                SELECT w.text AS word, a.name AS s1, b.name AS s2, l.count FROM hmm_lexical AS l
                JOIN word AS w ON w.id = l.word JOIN hmm_state AS a ON a.id = l.s1
                JOIN hmm_state AS b ON b.id = l.s2
            """,
            """
            CREATE VIEW hmm_emission2_view AS
                SELECT w.text AS word, a.name AS s1, b.name AS s2, l.count FROM hmm_emission2 AS l
                JOIN word AS w ON w.id = l.word JOIN hmm_state AS a ON a.id = l.s1
                JOIN hmm_state AS b ON b.id = l.s2
            """,
            """
            CREATE VIEW hmm_suffix_view AS
                SELECT x.class, x.suffix, s.name AS state, x.count FROM hmm_suffix AS x
                JOIN hmm_state AS s ON s.id = x.state
            """,
        ]
    }

    /// Names of the `hmm_parameter` rows.
    public enum HMMParameter {
        /// Weights of the unigram, bigram and trigram transition estimates (sum to 1).
        public static let lambda1 = "lambda1"
        public static let lambda2 = "lambda2"
        public static let lambda3 = "lambda3"
        /// TnT's suffix smoothing weight θ (the standard deviation of the tag probabilities).
        public static let suffixTheta = "suffix_theta"
        /// Longest suffix in the suffix model.
        public static let maxSuffixLength = "max_suffix_length"
        /// Weight of the word-conditioned transition P(t | w, t-1) after frequent words.
        public static let lexicalWeight = "lexical_weight"
        /// K of the second-order emission (c(s1, s2, w) + K·P(w | s2)) / (c(s1, s2) + K); 0 = off.
        public static let emission2Weight = "emission2_weight"
        /// 1 when training lowercased the words (unsupervised stores), else 0.
        public static let lowercase = "lowercase"
    }
}
