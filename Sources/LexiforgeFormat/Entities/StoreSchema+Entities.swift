// MARK: - Named-entity tagger (optional, `lexiforge ner train`)

extension StoreSchema {
    /// The tables of a named-entity tagger: a structured averaged perceptron over BIO labels
    /// (``EntityModel``), written by `lexiforge ner train` beside an empty vocabulary.
    ///
    /// - `entity_label(id, name)`: the BIO labels, `O` first (id 0), then `B-T`, `I-T` for each
    ///   entity type T in byte order.
    /// - `entity_feature(key, weights)`: one row per hashed feature (``EntityFeatures``; `key` is
    ///   the 64-bit hash as a signed integer), `weights` its averaged weight per label, as
    ///   little-endian Float32, label order.
    /// - `entity_transition(prev, label, weight)`: the averaged transition weights; `prev` −1 is
    ///   the sentence start.
    /// - `entity_gazetteer(phrase, type, count)`: the names learnt from the training data,
    ///   lowercased, words separated by one space, with how often each was tagged as each type.
    /// - `entity_lexicon(phrase, mask)`: typed name lists from WordNet (``EntityLexicon``),
    ///   lowercased phrases with a bit mask of their categories: bit 2c an instance of category
    ///   c, bit 2c + 1 a class of it, c = 0 person, 1 location, 2 organization, 3 other
    ///   capitalized noun. Empty when trained without WordNet.
    /// - `entity_cluster(word, cluster)`: word classes learnt from unlabelled text
    ///   (``EntityClusters``): lowercase word and its class, 1...K. Empty when trained without.
    /// - Views `entity_transition_view(prev, label, weight)` and `entity_gazetteer_view`
    ///   (phrase, type, count, most frequent first) show names.
    /// With `ner train --upos-train`, the store also holds a UPOS hidden Markov tagger (the
    /// `hmm_*` tables over its vocabulary, ``StoreSchema/HMM``) whose tags are features.
    /// Meta row `entities` says how it was trained; its `feature_version` must be ``featureVersion``.
    public enum Entities {
        public static let tables = ["entity_label", "entity_feature", "entity_transition", "entity_gazetteer", "entity_lexicon", "entity_cluster"]

        /// Bumped whenever the feature templates change (a store's weights only mean something to
        /// the templates they were trained with).
        public static let featureVersion = 3

        public static let creationStatements: [String] = [
            "CREATE TABLE entity_label (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
            "CREATE TABLE entity_feature (key INTEGER PRIMARY KEY, weights BLOB NOT NULL)",
            """
            CREATE TABLE entity_transition (
                prev INTEGER NOT NULL,
                label INTEGER NOT NULL REFERENCES entity_label(id),
                weight REAL NOT NULL,
                PRIMARY KEY (prev, label)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE entity_gazetteer (
                phrase TEXT NOT NULL,
                type TEXT NOT NULL,
                count INTEGER NOT NULL CHECK (count > 0),
                PRIMARY KEY (phrase, type)
            ) WITHOUT ROWID
            """,
            "CREATE TABLE entity_lexicon (phrase TEXT PRIMARY KEY, mask INTEGER NOT NULL CHECK (mask BETWEEN 1 AND 255)) WITHOUT ROWID",
            "CREATE TABLE entity_cluster (word TEXT PRIMARY KEY, cluster INTEGER NOT NULL CHECK (cluster BETWEEN 1 AND 65535)) WITHOUT ROWID",
            """
            CREATE VIEW entity_transition_view AS
                SELECT COALESCE(p.name, '<s>') AS prev, l.name AS label, t.weight FROM entity_transition AS t
                LEFT JOIN entity_label AS p ON p.id = t.prev JOIN entity_label AS l ON l.id = t.label
            """,
            "CREATE VIEW entity_gazetteer_view AS SELECT phrase, type, count FROM entity_gazetteer ORDER BY count DESC, phrase",
        ]
    }
}

extension StoreSchema.MetaKey {
    /// JSON object: how the entity tagger was trained (files, weights, sentences, tokens, epochs,
    /// feature version).
    public static let entities = "entities"
    /// JSON object: how the lemma search index was built (documents, lemmatizer, tokenizer mode).
    public static let search = "search"
}
