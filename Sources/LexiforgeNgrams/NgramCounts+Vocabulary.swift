import LexiforgeFormat

extension NgramCounts {
    /// Counts of a vocabulary without n-grams (a wordlist-only store): no tokens, no tables.
    public init(order: Int, words: [String], unigramCounts: [UInt64]) {
        precondition(words.count == unigramCounts.count, "one count per word")
        self.init(order: order, words: words, unigramCounts: unigramCounts, tables: [], tokens: 0, sentences: 0)
    }

    /// The same counts with `extra` words appended (count 0) and then every id renumbered so that
    /// word `newOrder[k]` (an old id, reserved ids first and unchanged) gets id `k`. Tables are
    /// re-sorted by the new id tuples.
    ///
    /// Used by `train` to give a store built from corpora and a wordlist one id per word, in merged
    /// frequency order.
    /// - Complexity: O(V + E log E) for V words and E n-grams.
    public func renumbered(appending extra: [String], order newOrder: [Int]) -> NgramCounts {
        let allWords = words + extra
        let allCounts = unigramCounts + Array(repeating: 0, count: extra.count)
        precondition(newOrder.count == allWords.count, "newOrder must list every word once")
        var map = [UInt32](repeating: 0, count: allWords.count)
        for (newID, oldID) in newOrder.enumerated() { map[oldID] = UInt32(newID) }
        let reserved = Int(StoreSchema.ReservedID.firstWord)
        for id in 0..<reserved { precondition(map[id] == UInt32(id), "reserved ids keep their place") }
        var newTables: [Table] = []
        for table in tables {
            let n = table.n
            var order = Array(0..<table.entryCount)
            let remapped = table.keys.map { map[Int($0)] }
            remapped.withUnsafeBufferPointer { r in
                order.sort { a, b in
                    for j in 0..<n where r[a * n + j] != r[b * n + j] { return r[a * n + j] < r[b * n + j] }
                    return false
                }
            }
            var keys = [UInt32](); keys.reserveCapacity(remapped.count)
            var counts = [UInt32](); counts.reserveCapacity(table.entryCount)
            for e in order {
                keys.append(contentsOf: remapped[(e * n)..<((e + 1) * n)])
                counts.append(table.counts[e])
            }
            newTables.append(Table(n: n, keys: keys, counts: counts))
        }
        return NgramCounts(order: self.order, words: newOrder.map { allWords[$0] },
                           unigramCounts: newOrder.map { allCounts[$0] }, tables: newTables,
                           tokens: tokens, sentences: sentences)
    }
}
