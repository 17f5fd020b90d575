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

    /// The words in id order: text and row (`logprob` and `backoff` 0 in a counts-only store).
    public func forEachWord(_ body: (String, StoredRow) throws -> Void) throws {
        let vocabulary = try vocabulary()
        for (id, text) in vocabulary.texts.enumerated() {
            try body(text, StoredRow(ids: [Int64(id)], count: vocabulary.counts[id],
                                     logprob: Int64(vocabulary.logprobs[id]), backoff: Int64(vocabulary.backoffs[id])))
        }
    }

    /// The n-grams of order `n` (2...order) in id-tuple order.
    /// - Throws: ``StoreError/noNgrams(_:order:available:)`` when the store holds no such table.
    public func forEachNgram(order n: Int, _ body: (StoredRow) throws -> Void) throws {
        guard n >= 2, n <= order else { throw StoreError.noNgrams(path, order: n, available: order) }
        let columns = (1...n).map { "w\($0)" }.joined(separator: ", ")
        let table = StoreSchema.ngramTable(order: n)
        do {
            try queue.inDatabase { db in
                let rows = try GRDB.Row.fetchCursor(db, sql: """
                    SELECT \(columns), count, \(hasLanguageModel ? "logprob" : "0"), \(hasLanguageModel && n < order ? "backoff" : "0")
                    FROM \(table) ORDER BY \(columns)
                    """)
                var values = [Int64](repeating: 0, count: n + 3)
                while let row = try rows.next() {
                    // Checked conversions: a NULL or text where a number belongs is an error, not a trap.
                    for j in 0..<(n + 3) {
                        guard let value = Int64.fromDatabaseValue(row[j] as DatabaseValue) else {
                            throw StoreError.damaged(path, "\(table) holds \(row[j] as DatabaseValue) where an integer belongs")
                        }
                        values[j] = value
                    }
                    try body(StoredRow(ids: Array(values[0..<n]), count: values[n], logprob: values[n + 1], backoff: values[n + 2]))
                }
            }
        } catch let error as DatabaseError {
            throw StoreError.notAStore(path, "its \(table) table cannot be read: \(error.message ?? "\(error)")")
        }
    }
}
