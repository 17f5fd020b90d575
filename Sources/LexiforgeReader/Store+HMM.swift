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

/// Every row of `sql` (which reads `table`), transformed, read with raw column calls
/// (``RawColumn``) into an array allocated at the table's row count: no copy of every row first,
/// as `Row.fetchAll` makes (for `hmm_suffix`, 72,000 rows, 17 MB at once), and no `Row` per row.
func fetchRows<T>(_ db: Database, _ sql: String, table: String, _ transform: (OpaquePointer?) throws -> T) throws -> [T] {
    var out: [T] = []
    out.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0)
    try RawColumn.forEachRow(db, sql: sql) { out.append(try transform($0)) }
    return out
}

extension TrainedStore {
    /// Whether the store holds hidden Markov tables (built by `lexiforge hmm`).
    public var hasHMM: Bool {
        (try? queue.read { db in
            try db.tableExists("hmm_state") && (try Int.fetchOne(db, sql: "SELECT count(*) FROM hmm_state") ?? 0) > 0
        }) ?? false
    }

    /// Loads the store's hidden Markov tables, checking every id against the states and the
    /// vocabulary and every value against its type (a damaged store is an error, not a crash).
    /// - Throws: ``StoreError`` when the store has none, or they are damaged.
    public func hmmTables() throws -> HMMTables {
        guard hasHMM else { throw StoreError.noHMM(path) }
        let vocabulary = try vocabulary()
        return try checked { db in
            var states: [String] = [], counts: [Double] = [], logprobs: [Double] = []
            for row in try Row.fetchAll(db, sql: "SELECT id, name, count, logprob FROM hmm_state ORDER BY id") {
                guard try row.integer(0, "hmm_state", "id") == Int64(states.count) else {
                    throw StoreDamage("`hmm_state` ids are not dense 0...K")
                }
                states.append(try row.text(1, "hmm_state", "name"))
                counts.append(try row.real(2, "hmm_state", "count", finite: true))
                logprobs.append(try row.real(3, "hmm_state", "logprob"))
            }
            guard !states.isEmpty else { throw StoreDamage("`hmm_state` is empty") }
            let stateRange = Int64(0)...Int64(states.count - 1)
            // The other tables with raw column calls (the large ones through `fetchRows`), with the
            // same checks as the `Row` reads.
            func state(_ row: OpaquePointer?, _ i: Int32, _ table: String, _ column: String) throws -> Int32 {
                Int32(try RawColumn.integer(row, i, "`\(table).\(column)`", in: stateRange))
            }
            var initial = [Double](repeating: -.infinity, count: states.count)
            try RawColumn.forEachRow(db, sql: "SELECT state, logprob FROM hmm_initial") {
                initial[Int(try state($0, 0, "hmm_initial", "state"))] = try RawColumn.real($0, 1, "`hmm_initial.logprob`")
            }
            func word(_ row: OpaquePointer?, _ i: Int32, _ table: String) throws -> Int32 {
                Int32(try RawColumn.wordID(row, i, "`\(table).word`", words: vocabulary.texts.count))
            }
            func count32(_ row: OpaquePointer?, _ i: Int32, _ table: String) throws -> Int32 {
                Int32(try RawColumn.integer(row, i, "`\(table).count`", in: 0...Int64(Int32.max)))
            }
            let transitions = try fetchRows(db, "SELECT s1, s2, logprob FROM hmm_transition", table: "hmm_transition") {
                HMMTables.Transition(try state($0, 0, "hmm_transition", "s1"), try state($0, 1, "hmm_transition", "s2"),
                                     try RawColumn.real($0, 2, "`hmm_transition.logprob`"))
            }
            let transitions2 = try fetchRows(db, "SELECT s1, s2, s3, logprob FROM hmm_transition2", table: "hmm_transition2") {
                HMMTables.Transition2(try state($0, 0, "hmm_transition2", "s1"), try state($0, 1, "hmm_transition2", "s2"),
                                      try state($0, 2, "hmm_transition2", "s3"), try RawColumn.real($0, 3, "`hmm_transition2.logprob`"))
            }
            let words = vocabulary.texts, wordCounts = vocabulary.counts
            let emissions = try fetchRows(db, "SELECT word, state, logprob FROM hmm_emission", table: "hmm_emission") { row in
                HMMTables.Emission(word: try word(row, 0, "hmm_emission"), state: try state(row, 1, "hmm_emission", "state"),
                                   logprob: try RawColumn.real(row, 2, "`hmm_emission.logprob`"))
            }
            func lexicalRows(_ table: String) throws -> [HMMTables.Lexical] {
                try fetchRows(db, "SELECT word, s1, s2, count FROM \(table)", table: table) {
                    HMMTables.Lexical(word: try word($0, 0, table), s1: try state($0, 1, table, "s1"),
                                      s2: try state($0, 2, table, "s2"), count: try count32($0, 3, table))
                }
            }
            let lexical = try lexicalRows("hmm_lexical")
            let emissions2 = try lexicalRows("hmm_emission2")
            let suffixes = try fetchRows(db, "SELECT class, suffix, state, count FROM hmm_suffix", table: "hmm_suffix") { row in
                let shapeCode = try RawColumn.integer(row, 0, "`hmm_suffix.class`")
                guard let shape = UInt8(exactly: shapeCode).flatMap(WordShape.init(rawValue:)) else {
                    throw StoreDamage("`hmm_suffix` has unknown word-shape class \(shapeCode)")
                }
                return HMMTables.SuffixCount(shape: shape, suffix: try RawColumn.string(row, 1, "`hmm_suffix.suffix`"),
                                             state: try state(row, 2, "hmm_suffix", "state"), count: try count32(row, 3, "hmm_suffix"))
            }
            var parameters: [String: Double] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, value FROM hmm_parameter") {
                parameters[try row.text(0, "hmm_parameter", "name")] = try row.real(1, "hmm_parameter", "value", finite: true)
            }
            if let length = parameters[StoreSchema.HMMParameter.maxSuffixLength], !(0...1000).contains(length) {
                throw StoreDamage("`hmm_parameter.\(StoreSchema.HMMParameter.maxSuffixLength)` is \(length), outside 0...1000")
            }
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
        return try checked { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, name, count FROM hmm_state WHERE id > 0 ORDER BY count DESC, id")
            return try rows.map { row in
                let id = try row.integer(0, "hmm_state", "id")
                let top = try Row.fetchAll(db, sql: """
                    SELECT e.word, e.logprob FROM hmm_emission AS e
                    WHERE e.state = ? ORDER BY e.logprob DESC, e.word LIMIT ?
                    """, arguments: [id, words]).map {
                        (word: vocabulary.texts[try $0.wordID(0, "hmm_emission", "word", words: vocabulary.texts.count)],
                         logprob: try $0.real(1, "hmm_emission", "logprob"))
                    }
                let following = try Row.fetchAll(db, sql: """
                    SELECT s.name, t.logprob FROM hmm_transition AS t JOIN hmm_state AS s ON s.id = t.s2
                    WHERE t.s1 = ? ORDER BY t.logprob DESC, t.s2 LIMIT ?
                    """, arguments: [id, next]).map {
                        (state: try $0.text(0, "hmm_state", "name"), logprob: try $0.real(1, "hmm_transition", "logprob"))
                    }
                return HMMStateSummary(name: try row.text(1, "hmm_state", "name"), count: try row.real(2, "hmm_state", "count"),
                                       topWords: top, next: following)
            }
        }
    }
}
