import Foundation
import GRDB

extension StoreError {
    /// One line for a store that has no hidden Markov tables.
    static func noHMM(_ path: String) -> StoreError {
        .notAStore(path, "it holds no hidden Markov tables; build a tagger store with `lexiforge hmm --tagged FILE -o \(path)` or word classes with `lexiforge hmm --states K CORPUS -o \(path)`")
    }
}

/// One state of a store's hidden Markov model, for `inspect`.
public struct HMMStateSummary: Sendable, Equatable {
    public var name: String
    public var count: Double
    /// The most likely words in this state, by log P(word | state).
    public var topWords: [(word: String, logprob: Double)]
    /// The most likely next states, by log P(next | state).
    public var next: [(state: String, logprob: Double)]

    public static func == (a: Self, b: Self) -> Bool {
        a.name == b.name && a.count == b.count && a.topWords.map(\.word) == b.topWords.map(\.word)
            && a.next.map(\.state) == b.next.map(\.state)
    }
}

extension TrainedStore {
    /// Whether the store holds hidden Markov tables (built by `lexiforge hmm`).
    public var hasHMM: Bool {
        (try? queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM hmm_state") ?? 0 }) ?? 0 > 0
    }

    /// Loads the store's hidden Markov tables.
    /// - Throws: ``StoreError`` when the store has none.
    public func hmmTables() throws -> HMMTables {
        guard hasHMM else { throw StoreError.noHMM(path) }
        return try queue.read { db in
            var states: [String] = [], counts: [Double] = [], logprobs: [Double] = []
            for row in try Row.fetchAll(db, sql: "SELECT id, name, count, logprob FROM hmm_state ORDER BY id") {
                guard (row[0] as Int) == states.count else {
                    throw StoreError.notAStore(path, "hmm_state ids are not dense 0...K")
                }
                states.append(row[1]); counts.append(row[2]); logprobs.append(row[3])
            }
            var initial = [Double](repeating: -.infinity, count: states.count)
            for row in try Row.fetchAll(db, sql: "SELECT state, logprob FROM hmm_initial") {
                initial[row[0] as Int] = row[1]
            }
            let transitions = try Row.fetchAll(db, sql: "SELECT s1, s2, logprob FROM hmm_transition").map {
                HMMTables.Transition($0[0], $0[1], $0[2])
            }
            let transitions2 = try Row.fetchAll(db, sql: "SELECT s1, s2, s3, logprob FROM hmm_transition2").map {
                HMMTables.Transition2($0[0], $0[1], $0[2], $0[3])
            }
            let vocabulary = try WordRows.read(db)
            let words = vocabulary.texts, wordCounts = vocabulary.counts
            var emissions: [HMMTables.Emission] = []
            let cursor = try Row.fetchCursor(db, sql: "SELECT word, state, logprob FROM hmm_emission")
            while let row = try cursor.next() { emissions.append(.init(word: row[0], state: row[1], logprob: row[2])) }
            let lexical = try Row.fetchAll(db, sql: "SELECT word, s1, s2, count FROM hmm_lexical").map {
                HMMTables.Lexical(word: $0[0], s1: $0[1], s2: $0[2], count: $0[3])
            }
            let emissions2 = try Row.fetchAll(db, sql: "SELECT word, s1, s2, count FROM hmm_emission2").map {
                HMMTables.Lexical(word: $0[0], s1: $0[1], s2: $0[2], count: $0[3])
            }
            var suffixes: [HMMTables.SuffixCount] = []
            for row in try Row.fetchAll(db, sql: "SELECT class, suffix, state, count FROM hmm_suffix") {
                guard let shape = WordShape(rawValue: row[0]) else {
                    throw StoreError.notAStore(path, "hmm_suffix has unknown word-shape class \(row[0] as Int)")
                }
                suffixes.append(.init(shape: shape, suffix: row[1], state: row[2], count: row[3]))
            }
            var parameters: [String: Double] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, value FROM hmm_parameter") { parameters[row[0]] = row[1] }
            return HMMTables(
                states: states, stateCounts: counts, stateLogprobs: logprobs, initial: initial,
                transitions: transitions, transitions2: transitions2, words: words, wordCounts: wordCounts,
                emissions: emissions, lexical: lexical, emissions2: emissions2, suffixes: suffixes, parameters: parameters)
        }
    }

    /// A Viterbi tagger over the store's hidden Markov tables (`beam`: see ``HMMTagger/beam``).
    public func hmmTagger(beam: Double? = nil) throws -> HMMTagger { HMMTagger(tables: try hmmTables(), beam: beam) }

    /// Every state (but `<s>`) with its top words and most likely next states (for `inspect`).
    public func hmmSummary(words: Int = 6, next: Int = 3) throws -> [HMMStateSummary] {
        guard hasHMM else { return [] }
        let vocabulary = try vocabulary()
        return try queue.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, name, count FROM hmm_state WHERE id > 0 ORDER BY count DESC, id")
            return try rows.map { row in
                let id: Int = row[0]
                let top = try Row.fetchAll(db, sql: """
                    SELECT e.word, e.logprob FROM hmm_emission AS e
                    WHERE e.state = ? ORDER BY e.logprob DESC, e.word LIMIT ?
                    """, arguments: [id, words]).map { (word: vocabulary.texts[Int($0[0] as Int64)], logprob: $0[1] as Double) }
                let following = try Row.fetchAll(db, sql: """
                    SELECT s.name, t.logprob FROM hmm_transition AS t JOIN hmm_state AS s ON s.id = t.s2
                    WHERE t.s1 = ? ORDER BY t.logprob DESC, t.s2 LIMIT ?
                    """, arguments: [id, next]).map { (state: $0[0] as String, logprob: $0[1] as Double) }
                return HMMStateSummary(name: row[1], count: row[2], topWords: top, next: following)
            }
        }
    }
}
