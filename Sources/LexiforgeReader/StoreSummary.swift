import Foundation

/// What `lexiforge inspect` prints, as values: schema version, provenance, rows and bytes per
/// table, vocabulary, word classes, form rules, top and starting words, top continuations and the
/// hidden Markov model's states. `InspectReport` (LexiforgeEvaluation) renders it as text, the
/// playground (`lexiforge-serve`) as JSON: one collection, two presentations.
public struct StoreSummary: Sendable, Equatable, Codable {
    public struct Table: Sendable, Equatable, Codable {
        public var name: String
        /// Nil for an index.
        public var rows: Int?
        public var bytes: Int
    }

    public struct Word: Sendable, Equatable, Codable {
        public var word: String
        public var count: Int64
    }

    public struct Continuations: Sendable, Equatable, Codable {
        public var word: String
        public var next: [Word]
    }

    public struct WordClasses: Sendable, Equatable, Codable {
        public var classes: Int
        public var words: Int
        public var ngrams: Int
        /// The class model's interpolation weight in predictions.
        public var weight: Double
    }

    public struct HMM: Sendable, Equatable, Codable {
        public struct State: Sendable, Equatable, Codable {
            public var name: String
            public var count: Double
            public var topWords: [String]
            /// The most likely next states with P(next | state).
            public var next: [Next]
        }

        public struct Next: Sendable, Equatable, Codable {
            public var state: String
            public var probability: Double
        }

        /// Hidden states without the start state.
        public var states: Int
        public var emissions: Int
        public var transitions: Int
        public var transitions2: Int
        public var suffixes: Int
        public var lexical: Int
        public var parameters: [String: Double]
        public var stateSummaries: [State]
    }

    /// The path the store was opened with.
    public var path: String
    public var schemaVersion: Int
    public var meta: [String: String]
    public var tables: [Table]
    public var totalBytes: Int
    public var order: Int
    public var vocabulary: Int
    /// Words packed to a row of `word_block` and `word_order`.
    public var wordBlockSize: Int
    public var wordClasses: WordClasses?
    public var formRules: Int?
    public var hasLanguageModel: Bool
    public var swipeLayouts: [String]
    public var topWords: [Word]
    /// Empty for an order-1 store (as are ``topContinuations``).
    public var startingWords: [Word]
    public var topContinuations: [Continuations]
    public var hmm: HMM?

    /// Reads the summary (`topWords` most frequent words, `startingWords` sentence starts,
    /// `continuationWords` words with `continuationsEach` continuations each).
    /// - Complexity: one pass over `dbstat` and a count per table; small next to opening the store.
    public init(store: TrainedStore, topWords: Int = 10, startingWords: Int = 5,
                continuationWords: Int = 5, continuationsEach: Int = 3) throws {
        path = store.path
        schemaVersion = StoreSchema.version
        meta = store.meta
        tables = try store.tableStatistics().map { Table(name: $0.name, rows: $0.rows, bytes: $0.bytes) }
        totalBytes = tables.reduce(0) { $0 + $1.bytes }
        order = store.order
        vocabulary = try store.vocabulary().texts.count
        wordBlockSize = StoreSchema.wordBlockSize
        wordClasses = try store.clusterSummary().map {
            WordClasses(classes: $0.classes, words: $0.words, ngrams: $0.ngrams, weight: NgramPredictor.clusterWeight(store.meta))
        }
        formRules = try store.formRuleCount()
        hasLanguageModel = store.hasLanguageModel
        swipeLayouts = try store.swipeLayouts()
        self.topWords = try store.topWords(limit: topWords).map { Word(word: $0.word, count: $0.count) }
        if store.order >= 2 {
            self.startingWords = try store.startingWords(limit: startingWords).map { Word(word: $0.word, count: $0.count) }
            topContinuations = try store.topContinuations(words: continuationWords, each: continuationsEach).map {
                Continuations(word: $0.word, next: $0.next.map { Word(word: $0.word, count: $0.count) })
            }
        } else {
            self.startingWords = []
            topContinuations = []
        }
        if store.hasHMM {
            let t = try store.hmmTables()
            hmm = HMM(states: t.stateCount - 1, emissions: t.emissions.count, transitions: t.transitions.count,
                      transitions2: t.transitions2.count, suffixes: t.suffixes.count, lexical: t.lexical.count,
                      parameters: t.parameters,
                      stateSummaries: try store.hmmSummary().map { s in
                          HMM.State(name: s.name, count: s.count, topWords: s.topWords.map(\.word),
                                    next: s.next.map { HMM.Next(state: $0.state, probability: exp($0.logprob)) })
                      })
        } else {
            hmm = nil
        }
    }
}
