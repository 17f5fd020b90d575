// MARK: - Text classifiers and language identification (`classify train`, `langid train`)

extension StoreSchema {
    /// The tables of a text classifier (`lexiforge classify train`): a linear model over word
    /// n-gram features, whatever algorithm trained it.
    ///
    /// A text's score for label `l` is `bias(l) + Σ value(f) · weight(f, l)` over the features `f`
    /// of the text that are in `classifier_feature`, where `value(f)` is the feature's count in the
    /// text, or 1 when the `classifier` meta row says `"binary": true`; the probabilities are the
    /// softmax of the scores times the meta row's `probability_scale` (1 for naive Bayes, whose
    /// scores are log joint probabilities; fitted on cross-validated scores for the discriminative
    /// models).
    /// - `classifier_label(id, name, bias, documents)`: labels (ids dense from 0, in name order),
    ///   the bias in units of 1/``classifierWeightScale``, and the training documents per label.
    /// - `classifier_feature(id, text, documents)`: the features, word n-grams of lowercased
    ///   tokens joined by one space (`"not good"`), ids dense from 0 in text byte order, and the
    ///   number of training documents holding each.
    /// - `classifier_weight(feature, label, weight)`: the weights, in units of
    ///   1/``classifierWeightScale`` (a naive Bayes log probability −9.21034 is −92103).
    /// - `classifier_lemma(form, lemma)`: with lemma features (meta `lemmas`, the row count), each
    ///   token form (as featurized) whose lemma differs, and that lemma, which replaces it before
    ///   n-grams are formed (``ClassifierFeatures``); empty otherwise, absent in stores from before it.
    /// - View `classifier_weight_view(feature, label, weight)`: texts and real weights.
    public static let classifierCreationStatements: [String] = [
        """
        CREATE TABLE classifier_label (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            bias INTEGER NOT NULL,
            documents INTEGER NOT NULL CHECK (documents >= 0)
        )
        """,
        """
        CREATE TABLE classifier_feature (
            id INTEGER PRIMARY KEY,
            text TEXT NOT NULL UNIQUE,
            documents INTEGER NOT NULL CHECK (documents >= 0)
        )
        """,
        """
        CREATE TABLE classifier_weight (
            feature INTEGER NOT NULL REFERENCES classifier_feature(id),
            label INTEGER NOT NULL REFERENCES classifier_label(id),
            weight INTEGER NOT NULL,
            PRIMARY KEY (feature, label)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE classifier_lemma (
            form TEXT NOT NULL PRIMARY KEY,
            lemma TEXT NOT NULL
        ) WITHOUT ROWID
        """,
        """
        CREATE VIEW classifier_weight_view AS
            SELECT f.text AS feature, l.name AS label, w.weight / \(classifierWeightScale) AS weight
            FROM classifier_weight AS w JOIN classifier_feature AS f ON f.id = w.feature
            JOIN classifier_label AS l ON l.id = w.label
        """,
    ]

    /// Classifier weights and biases are stored as integers in units of 1/this.
    public static let classifierWeightScale = 10_000.0

    /// The tables of a language identifier (`lexiforge langid train`): a linear model over hashed
    /// character n-grams.
    ///
    /// Every character n-gram of the text (orders 1 to the meta row's `max_order`, over the text
    /// with a space before and after, letters folded to lowercase) is hashed to one of `buckets`
    /// buckets (``LanguageIDFeatures``); a language's score is its bias plus the sum of its
    /// weights of those buckets; probabilities are the softmax of the scores (over the allowed
    /// languages, with hints as priors: ``LanguageRecognizer``).
    /// - `langid_language(id, code, bias, sentences)`: languages (ISO 639-1 codes, ids dense from 0
    ///   in code order), the bias in units of 1/``langidWeightScale``, and training sentences.
    /// - `langid_weight(language, block, weights)`: the weights of one language for buckets
    ///   `block·langidBlockSize ..< (block+1)·langidBlockSize`, as little-endian Int16 in units of
    ///   1/``langidWeightScale``.
    /// - `langid_script(pattern, language, sentences)`: script evidence (``WritingSystems``): how
    ///   many training sentences of each language had each script pattern ("Latn", "Hani+Latn");
    ///   absent in stores from before it (no evidence then).
    /// - `langid_char(gram, backoff, logprobs)`: the character trigram models
    ///   (``LanguageCharModel``): with `backoff` 0, an n-gram of 1 to 3 folded characters (context
    ///   then character; the text's start padded with U+0002; '' for a character no language saw)
    ///   and each language's log p of it; with `backoff` 1, a context of 1 or 2 characters and each
    ///   language's log backoff weight (0 where it never saw it). `logprobs` holds one little-endian
    ///   Int16 per language id, in units of 1/``langidWeightScale`` nats. Empty without the models
    ///   (meta `char_weight` 0), absent in stores from before them.
    /// - `langid_alphabet(language, letters, runs, foreign_runs)`: alphabet evidence
    ///   (``LanguageAlphabets``): each language's alphabet (lowercase letters in code-point order,
    ///   then scripts counted whole as their ISO 15924 code in braces: `{Hani}{Hrkt}`), the runs of
    ///   letters in its training sentences and how many had a letter outside it. Empty without the
    ///   evidence (meta `alphabet_weight` 0), absent in stores from before it.
    /// - Views `langid_language_view(code, sentences, bias, blocks)` and
    ///   `langid_alphabet_view(code, letters, runs, foreign_runs, foreign_share)`.
    public static let langidCreationStatements: [String] = [
        """
        CREATE TABLE langid_language (
            id INTEGER PRIMARY KEY,
            code TEXT NOT NULL UNIQUE,
            bias INTEGER NOT NULL,
            sentences INTEGER NOT NULL CHECK (sentences >= 0)
        )
        """,
        """
        CREATE TABLE langid_weight (
            language INTEGER NOT NULL REFERENCES langid_language(id),
            block INTEGER NOT NULL CHECK (block >= 0),
            weights BLOB NOT NULL,
            PRIMARY KEY (language, block)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE langid_script (
            pattern TEXT NOT NULL,
            language INTEGER NOT NULL REFERENCES langid_language(id),
            sentences INTEGER NOT NULL CHECK (sentences > 0),
            PRIMARY KEY (pattern, language)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE langid_char (
            gram TEXT NOT NULL,
            backoff INTEGER NOT NULL CHECK (backoff IN (0, 1)),
            logprobs BLOB NOT NULL,
            PRIMARY KEY (gram, backoff)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE langid_alphabet (
            language INTEGER PRIMARY KEY REFERENCES langid_language(id),
            letters TEXT NOT NULL,
            runs INTEGER NOT NULL CHECK (runs >= 0),
            foreign_runs INTEGER NOT NULL CHECK (foreign_runs BETWEEN 0 AND runs)
        )
        """,
        """
        CREATE VIEW langid_alphabet_view AS
            SELECT l.code, a.letters, a.runs, a.foreign_runs,
                   round(1.0 * a.foreign_runs / max(a.runs, 1), 5) AS foreign_share
            FROM langid_alphabet AS a JOIN langid_language AS l ON l.id = a.language
        """,
        """
        CREATE VIEW langid_language_view AS
            SELECT l.code, l.sentences, l.bias / \(langidWeightScale) AS bias,
                   (SELECT count(*) FROM langid_weight AS w WHERE w.language = l.id) AS blocks
            FROM langid_language AS l
        """,
    ]

    /// Language-ID weights are stored as Int16 in units of 1/this (weights are clamped to ±32767/this).
    public static let langidWeightScale = 1000.0

    /// Buckets per `langid_weight` row.
    public static let langidBlockSize = 4096

    /// Meta keys of classifier and language-ID stores.
    public enum ClassifyMetaKey {
        /// JSON object: algorithm, n-gram order, binary, lowercase, probability_scale, options, cross-validation.
        public static let classifier = "classifier"
        /// JSON object: buckets, max_order, algorithm, options, cross-validation.
        public static let langid = "langid"
    }
}
