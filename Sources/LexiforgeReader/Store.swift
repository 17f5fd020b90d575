import Foundation
import GRDB
import LexiforgeText

/// Why a store could not be opened or queried.
public enum StoreError: Error, CustomStringConvertible, Sendable {
    case missing(String)
    case notAStore(String, String)
    case wrongVersion(String, found: Int, expected: Int)
    case noNgrams(String, order: Int, available: Int)
    case noLanguageModel(String)
    /// A `meta` value that is missing or not what the schema allows: path, key, value (nil: missing), what it must be.
    case badMeta(String, key: String, value: String?, expected: String)
    /// The store passed the application-id and version checks, but what it holds is not what its
    /// schema says: a missing table, an id outside the vocabulary, a count or value out of range
    /// or of the wrong type, an unknown `meta` value, or a page SQLite cannot read.
    case damaged(String, String)

    public var description: String {
        switch self {
        case .missing(let path):
            return "\(path): no such store; build one with `lexiforge ngrams CORPUS -o \(path)` or `make train`"
        case .notAStore(let path, let reason):
            return "\(path): not a Lexiforge store (\(reason)); build one with `lexiforge ngrams` or `lexiforge train`"
        case .wrongVersion(let path, let found, let expected):
            return "\(path): store schema version \(found), but this reader reads version \(expected); rebuild it with this toolchain (`make train` or `lexiforge train MODEL -o \(path)`)"
        case .noNgrams(let path, let order, let available):
            return "\(path): holds n-grams up to order \(available), not \(order); rebuild it with `lexiforge ngrams --order \(order)`"
        case .noLanguageModel(let path):
            return "\(path): a counts-only store without probabilities; rebuild it with `lexiforge ngrams --language-model` (or \"language_model\": true in the model file)"
        case .badMeta(let path, let key, let value, let expected):
            let found = value.map { "is \"\($0)\"" } ?? "is missing"
            return "\(path): meta \"\(key)\" \(found), but must be \(expected); the store is damaged: rebuild it (`lexiforge verify \(path)` lists what is wrong)"
        case .damaged(let path, let problem):
            return "\(path): damaged store: \(problem); rebuild it (`lexiforge verify \(path)` lists what is wrong)"
        }
    }
}

/// A next-word suggestion.
public struct Suggestion: Sendable, Equatable, CustomStringConvertible {
    public var word: String
    /// How often the word followed the context that produced it.
    public var count: Int64
    /// The order of the n-gram that produced it: 3 = two words of context matched, 2 = one word,
    /// 1 = no context (plain word frequency).
    public var order: Int
    /// `count` divided by the total count of that context's continuations (a maximum-likelihood
    /// estimate; smoothed probabilities arrive with the language-model stage).
    public var relativeFrequency: Double

    public var description: String { "\(word) (\(count), order \(order))" }
}

/// Size of one table or index in a store.
public struct TableStatistics: Sendable, Equatable {
    public var name: String
    public var rows: Int?
    public var bytes: Int

    /// Every table and index of the database, by name (``StoreDamage`` on odd values).
    static func fetchAll(_ db: Database) throws -> [TableStatistics] {
        let sizes = try Row.fetchAll(db, sql: "SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY name")
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        return try sizes.map { row in
            let name = try row.text(0, "dbstat", "name")
            // A name read from the store goes into SQL quoted (a crafted name is just a name).
            let rows = tables.contains(name) ? try Int.fetchOne(db, sql: "SELECT count(*) FROM \(StoreSchema.quoted(name))") : nil
            return TableStatistics(name: name, rows: rows, bytes: try row.int(1, "dbstat", "pgsize", in: 0...Int64.max))
        }
    }
}

/// A read-only connection to a Lexiforge store, for front ends and tools.
///
/// ```swift
/// let store = try TrainedStore(path: "Artifacts/dorian-gray-ch1.sqlite")
/// let next = try store.nextWords(after: ["I", "think"], limit: 3)
/// ```
/// Opening checks the `application_id` and the schema version (``StoreSchema/version``) and
/// refuses anything else with a message that says how to rebuild.
public final class TrainedStore: Sendable {
    public let path: String
    let queue: DatabaseQueue
    /// The store's n-gram order (1...5).
    public let order: Int
    /// Provenance: the `meta` table.
    public let meta: [String: String]
    /// ``textOptions``, parsed from `meta` at opening.
    let storedTextOptions: TextOptions
    let vocabularyCache = VocabularyCache()
    let wordTextCache = WordTextCache()

    public init(path: String) throws {
        let queue = try Self.openReadOnly(path: path)
        self.path = path
        self.queue = queue
        let meta: [String: String]
        let tables: Set<String>
        do {
            (meta, tables) = try queue.inDatabase { db in
                var meta: [String: String] = [:]
                let rows = try Row.fetchCursor(db, sql: "SELECT key, value FROM meta")
                while let row = try rows.next() {
                    meta[try row.text(0, "meta", "key")] = try row.text(1, "meta", "value")
                }
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                return (meta, Set(tables))
            }
        } catch let error as StoreDamage {
            throw StoreError.damaged(path, error.what)
        } catch let error as DatabaseError {
            throw StoreError.damaged(path, Self.describe(error))
        }
        self.meta = meta
        storedTextOptions = Self.textOptions(meta: meta)
        // The order says which n-gram tables there are: it must be known, and they must be there.
        // (A store written without provenance, by a tool or a test, has no `order` row: order 1;
        // stages that modify a store require the row, `StoreContents.load`.)
        let orderText = meta[StoreSchema.MetaKey.order] ?? "1"
        guard let order = Self.metaOrder(orderText) else {
            throw StoreError.badMeta(path, key: StoreSchema.MetaKey.order, value: orderText, expected: Self.orderExpectation)
        }
        self.order = order
        if tables.contains("vocab_entry") && !tables.contains("word_block") {
            throw StoreError.notAStore(path, "a vocabulary store, without n-grams or a lexicon; read it with `lexiforge vocab count|quiz` or `VocabularyStore`")
        }
        let required = ["word_block", "word_order", "word_count"] + (order >= 2 ? (2...order).map(StoreSchema.ngramTable(order:)) : [])
        if let absent = required.first(where: { !tables.contains($0) }) {
            throw StoreError.damaged(path, "table `\(absent)` is missing (`meta.order` is \(order))")
        }
    }

    /// What an `order` meta value must be, for messages.
    public static let orderExpectation = "a number from 1 to \(StoreSchema.maxOrder)"

    /// The `order` meta value as a number the schema knows (1...``StoreSchema/maxOrder``).
    public static func metaOrder(_ value: String) -> Int? {
        guard let order = Int(value), (1...StoreSchema.maxOrder).contains(order) else { return nil }
        return order
    }

    /// A meta count that may be absent (a store written without provenance: 0), but never unreadable.
    public func metaCount(_ key: String) throws -> Int {
        meta[key] == nil ? 0 : try requiredCount(key)
    }

    /// A meta value required to be a count (a whole number ≥ 0), or a ``StoreError/badMeta(_:key:value:expected:)``.
    public func requiredCount(_ key: String) throws -> Int {
        guard let value = meta[key], let n = Int(value), n >= 0, n <= Int(StoreSchema.maxCount) else {
            throw StoreError.badMeta(path, key: key, value: meta[key], expected: "a whole number ≥ 0")
        }
        return n
    }

    /// Whether the store holds language-model probabilities and backoffs (`logprob`/`backoff`
    /// columns, built with `--language-model`); counts-only stores have the foundation layout.
    public var hasLanguageModel: Bool { meta[StoreSchema.MetaKey.languageModel] != nil }

    /// Whether the store's tokens were lowercased at build time (so queries should be too).
    public var isLowercased: Bool { textOptions.lowercase }

    /// Whether punctuation tokens were counted at build time (so query contexts should keep them).
    public var keepsPunctuation: Bool { textOptions.keepPunctuation }

    /// The id of `word`, or nil when the store never saw it.
    public func id(of word: String) throws -> Int64? {
        try vocabulary().id(of: word)
    }

    /// The whole vocabulary (spellings, counts, byte order), read from the packed tables on first
    /// use and kept: about 60 bytes a word, about 0.1 s for en_US's 170,000 (half of it SQLite's own stepping).
    /// - Throws: ``StoreError/damaged(_:_:)`` when the packed tables disagree or hold values out
    ///   of range (a damaged store).
    public func vocabulary() throws -> StoreVocabulary {
        try vocabularyCache.get {
            try checked { db in try WordRows.read(db) }
        }
    }

    /// Is this vocabulary entry something a keyboard would offer (a word or number, not
    /// punctuation or a sentence marker)?
    public static func isSuggestible(_ word: String) -> Bool {
        guard let first = word.unicodeScalars.first else { return false }
        return first.properties.isAlphabetic || first.properties.numericType != nil
    }

    /// The most likely next words after `context` (the words typed so far, as tokens).
    ///
    /// Backs off from the longest context the store holds (up to order − 1 words) to shorter ones,
    /// filling the list in that order without repeats, and finally to the most frequent words.
    /// Only suggestible entries (``isSuggestible(_:)``) are returned. An empty context, or one of
    /// unknown words only, gives the most likely sentence-starting words; known words then a last
    /// word the store never saw give word frequency: the rule ``NgramPredictor`` follows.
    /// - Complexity: one indexed range scan per backoff level.
    public func nextWords(after context: [String], limit: Int = 3) throws -> [Suggestion] {
        let vocabulary = try vocabulary()
        return try checked { db in
            var ids: [Int64] = []
            for word in context.suffix(max(order - 1, 0)) {
                if let id = vocabulary.id(of: word) {
                    ids.append(id)
                } else {
                    ids.removeAll()   // an unknown word cuts the context
                }
            }
            // NgramPredictor's rule (`suggestionContext`): no context or only unknown words, a
            // sentence starts; known words then an unknown last word, word frequency.
            if ids.isEmpty && order >= 2 && !context.contains(where: { vocabulary.id(of: $0) != nil }) {
                ids = [StoreSchema.ReservedID.sentenceStart]
            }
            var result: [Suggestion] = []
            var seen = Set<String>()
            var k = ids.count
            while k >= 1 && result.count < limit {
                let suffix = Array(ids.suffix(k))
                for s in try continuations(db, vocabulary, context: suffix) where !seen.contains(s.word) {
                    seen.insert(s.word)
                    result.append(s)
                    if result.count == limit { break }
                }
                k -= 1
            }
            if result.count < limit {
                for s in topWords(vocabulary, limit: limit + 8) where !seen.contains(s.word) {
                    seen.insert(s.word)
                    result.append(s)
                    if result.count == limit { break }
                }
            }
            return result
        }
    }

    /// The most likely words to start a sentence (what `<s>` is followed by).
    public func startingWords(limit: Int = 3) throws -> [Suggestion] {
        try nextWords(after: [], limit: limit)
    }

    /// The most frequent suggestible words.
    public func topWords(limit: Int = 10) throws -> [Suggestion] {
        try topWords(vocabulary(), limit: limit)
    }

    private func topWords(_ vocabulary: StoreVocabulary, limit: Int) -> [Suggestion] {
        let first = Int(StoreSchema.ReservedID.firstWord)
        let total = vocabulary.wordTotal
        var result: [Suggestion] = []
        // Ids are assigned by descending count, so id order is frequency order.
        for id in vocabulary.texts.indices.dropFirst(first) where result.count < limit {
            let word = vocabulary.texts[id]
            guard Self.isSuggestible(word) else { continue }
            let count = vocabulary.counts[id]
            result.append(Suggestion(word: word, count: count, order: 1,
                                     relativeFrequency: total > 0 ? Double(count) / Double(total) : 0))
        }
        return result
    }

    /// All suggestible continuations of an id context, most frequent first.
    private func continuations(_ db: Database, _ vocabulary: StoreVocabulary, context: [Int64]) throws -> [Suggestion] {
        let n = context.count + 1
        guard n >= 2, n <= order else { return [] }
        let table = StoreSchema.ngramTable(order: n)
        let conditions = (1..<n).map { "g.w\($0) = ?" }.joined(separator: " AND ")
        let rows = try Row.fetchAll(db, sql: """
            SELECT g.w\(n), g.count FROM \(table) AS g
            WHERE \(conditions) ORDER BY g.count DESC, g.w\(n)
            """, arguments: StatementArguments(context))
        var total: Int64 = 0
        var checked: [(word: Int, count: Int64)] = []
        checked.reserveCapacity(rows.count)
        for row in rows {
            let word = try row.wordID(0, table, "w\(n)", words: vocabulary.texts.count)
            let count = try row.count(1, table)
            checked.append((word, count))
            let (sum, overflow) = total.addingReportingOverflow(count)
            guard !overflow else { throw StoreDamage("`\(table).count` values add up past \(Int64.max)") }
            total = sum
        }
        return checked.compactMap { row in
            let word = vocabulary.texts[row.word]
            guard Self.isSuggestible(word) else { return nil }
            return Suggestion(word: word, count: row.count, order: n, relativeFrequency: total > 0 ? Double(row.count) / Double(total) : 0)
        }
    }

    /// Row counts and on-disk bytes of every table and index (from SQLite's `dbstat`).
    public func tableStatistics() throws -> [TableStatistics] {
        try checked { db in try TableStatistics.fetchAll(db) }
    }

    /// The words with the most distinct continuations, and their top continuations (for `inspect`).
    public func topContinuations(words: Int = 5, each: Int = 3) throws -> [(word: String, next: [Suggestion])] {
        guard order >= 2 else { return [] }
        let top = try topWords(limit: words)
        return try top.map { s in (s.word, try nextWords(after: [s.word], limit: each).filter { $0.order == 2 }) }
    }
}

/// The vocabulary of a store, read once (see ``TrainedStore/vocabulary()``).
final class VocabularyCache: @unchecked Sendable {
    private var value: StoreVocabulary?
    private let lock = NSLock()

    func get(_ load: () throws -> StoreVocabulary) throws -> StoreVocabulary {
        lock.lock(); defer { lock.unlock() }
        if let value { return value }
        let loaded = try load()
        value = loaded
        return loaded
    }
}
