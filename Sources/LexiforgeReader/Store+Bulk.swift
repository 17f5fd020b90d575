import GRDB

/// Whole-table reads, for tools that rewrite, compare or export a store (`learn`, `merge`,
/// `diff`, `export`). Front ends use the point queries of ``TrainedStore`` and ``NgramPredictor``.
extension TrainedStore {
    /// One row of `word` or of an n-gram table, ids first.
    public struct StoredRow: Sendable, Equatable {
        public var ids: [Int64]
        public var count: Int64
        /// In store units (``StoreSchema/logScale``).
        public var logprob: Int64
        public var backoff: Int64
    }

    /// Stops mapping the file into memory (a front end's connection maps it, for fast point
    /// queries). For a tool that reads whole tables once under a memory budget (the count-shard
    /// merge): mapped pages count in its resident memory, pages read through SQLite's small cache do not.
    public func stopMapping() throws {
        try queue.inDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 0") }
    }

    /// The words in id order: text and row (`logprob` and `backoff` 0 in a counts-only store).
    public func forEachWord(_ body: (String, StoredRow) throws -> Void) throws {
        let vocabulary = try vocabulary()
        for (id, text) in vocabulary.texts.enumerated() {
            try body(text, StoredRow(ids: [Int64(id)], count: vocabulary.counts[id],
                                     logprob: Int64(vocabulary.logprobs[id]), backoff: Int64(vocabulary.backoffs[id])))
        }
    }

    /// The n-grams of order `n` (2...order) in id-tuple order, each id checked to be in the
    /// vocabulary and each value in range (``StoreError/damaged(_:_:)`` otherwise).
    /// - Throws: ``StoreError/noNgrams(_:order:available:)`` when the store holds no such table.
    public func forEachNgram(order n: Int, _ body: (StoredRow) throws -> Void) throws {
        guard n >= 2, n <= order else { throw StoreError.noNgrams(path, order: n, available: order) }
        let words = try vocabulary().texts.count
        let table = StoreSchema.ngramTable(order: n)
        let columns = (1...n).map { "w\($0)" }.joined(separator: ", ")
        var failure: (any Error)?
        try checked { db in
            let rows = try GRDB.Row.fetchCursor(db, sql: """
                SELECT \(columns), count, \(hasLanguageModel ? "logprob" : "0"), \(hasLanguageModel && n < order ? "backoff" : "0")
                FROM \(table) ORDER BY \(columns)
                """)
            var ids = [Int64](repeating: 0, count: n)
            while let row = try rows.next() {
                for j in 0..<n { ids[j] = Int64(try row.wordID(j, table, "w\(j + 1)", words: words)) }
                let stored = StoredRow(ids: ids, count: try row.count(n, table), logprob: try row.logValue(n + 1, table, "logprob"),
                                       backoff: try row.logValue(n + 2, table, "backoff"))
                // The caller's own errors pass through unchanged (not as damage).
                do { try body(stored) } catch { failure = error; return }
            }
        }
        if let failure { throw failure }
    }
}
