/// The one source of truth for the layout of a Lexiforge "Trained" store.
///
/// The writer creates exactly these tables and views, the reader refuses any store whose
/// `PRAGMA user_version` differs from ``StoreSchema/version``, and the tests use the same
/// constants. Change the layout here and bump ``version``.
///
/// Layout (version 1):
/// - `meta(key, value)`: provenance; see ``StoreSchema/MetaKey``.
/// - `word(id, text, count)`: the vocabulary. Ids are dense integers: 0 `<unk>`, 1 `<s>`,
///   2 `</s>`, then every word by descending count (ties by byte order), so frequent words
///   get the shortest varints. `count` is the unigram count (for `<s>`: the sentence count).
/// - `bigram(w1, w2, count)`, `trigram(w1, w2, w3, count)`, `fourgram(...)`, `fivegram(...)`:
///   `WITHOUT ROWID` tables keyed by the id tuple, present up to the store's order.
/// - Views `unigram_view`, `bigram_view`, ... that show words instead of ids.
/// - Version 2 adds the hidden Markov tables (`hmm_*`, see ``StoreSchema/HMM``), present only in
///   stores built by `lexiforge hmm`, and the `lexicon*` tables of a keyboard wordlist
///   (``lexiconCreationStatements()``), in stores built from one; word ids then follow the list
///   (or merged) frequency order.
/// - Version 2 stores may also hold the swipe tables (`swipeLayout`, `swipeFeature`, see
///   ``swipeCreationStatements()``), added by `lexiforge swipe features` or `swipe_layouts` in a model.
public enum StoreSchema {
    /// Bumped whenever a table, column, index or view changes meaning or shape.
    public static let version = 2

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
    public static func creationStatements(order: Int) -> [String] {
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

// MARK: - Hidden Markov tables (schema version 2)

extension StoreSchema {
    /// The tables of a hidden Markov model (a part-of-speech tagger or K word classes).
    ///
    /// State 0 is the sentence boundary `<s>` (it also stands for `</s>` as a transition target);
    /// real states are 1...K. Word ids are those of the `word` table. Probabilities are natural logs.
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
                word INTEGER NOT NULL REFERENCES word(id),
                state INTEGER NOT NULL REFERENCES hmm_state(id),
                logprob REAL NOT NULL CHECK (logprob <= 0),
                PRIMARY KEY (word, state)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE hmm_lexical (
                word INTEGER NOT NULL REFERENCES word(id),
                s1 INTEGER NOT NULL REFERENCES hmm_state(id),
                s2 INTEGER NOT NULL REFERENCES hmm_state(id),
                count INTEGER NOT NULL CHECK (count > 0),
                PRIMARY KEY (word, s1, s2)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE hmm_emission2 (
                word INTEGER NOT NULL REFERENCES word(id),
                s1 INTEGER NOT NULL REFERENCES hmm_state(id),
                s2 INTEGER NOT NULL REFERENCES hmm_state(id),
                count INTEGER NOT NULL CHECK (count > 0),
                PRIMARY KEY (word, s1, s2)
            ) WITHOUT ROWID
            """,
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
