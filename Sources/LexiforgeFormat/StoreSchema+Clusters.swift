// MARK: - Word classes of the language model (optional, `ngrams --classes K`)

extension StoreSchema {
    /// The class-based model a language-model store may carry beside its word n-grams: K word
    /// classes learnt by the exchange algorithm and a Kneser-Ney n-gram model over them. Front ends
    /// interpolate it with the word model: p(w | h) = (1 − λ) p_word(w | h) + λ p(c(w) | classes of
    /// h) p(w | c(w)), with λ the `cluster_weight` of the `language_model` meta row.
    ///
    /// - `cluster_member(word, cluster, logprob)`: each word's class and log10 p(word | class)
    ///   (store units, ``logScale``). `<unk>` is class 0 and `</s>` class 2, each alone (p = 1);
    ///   `<s>` (class 1, never predicted) has no row.
    /// - `cluster_ngram(context, cluster, logprob, backoff)`: the class model as an ARPA back-off
    ///   model: `context` is the class ids before, oldest first, separated by spaces ('' for the
    ///   unigrams); `logprob` is log10 p(cluster | context) and `backoff` the log10 backoff weight
    ///   of `context cluster` as a context (0 when it is none). Class 1 is `<s>`.
    /// - View `cluster_member_view`: class, word text and log10 p(word | class).
    public static let clusterCreationStatements: [String] = [
        """
        CREATE TABLE cluster_member (
            word INTEGER PRIMARY KEY,
            cluster INTEGER NOT NULL,
            logprob INTEGER NOT NULL
        )
        """,
        """
        CREATE TABLE cluster_ngram (
            context TEXT NOT NULL,
            cluster INTEGER NOT NULL,
            logprob INTEGER NOT NULL,
            backoff INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (context, cluster)
        ) WITHOUT ROWID
        """,
        """
        CREATE VIEW cluster_member_view AS
            SELECT m.cluster, w.text AS word, m.logprob / \(logScale) AS log10prob
            FROM cluster_member AS m JOIN word AS w ON w.id = m.word
        """,
    ]

    /// The class model's tables, `cluster_member` first.
    public static let clusterTables = ["cluster_member", "cluster_ngram"]

    /// Class ids go up to this (12 bits each, so a class n-gram of order ≤ 5 packs in 64 bits).
    public static let maxClusters = 4000
}
