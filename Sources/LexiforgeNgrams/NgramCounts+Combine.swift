import LexiforgeFormat

/// Merging count sets and shrinking the vocabulary: the operations behind `lexiforge merge`,
/// `lexiforge learn` and `--vocab-size`.
///
/// Both produce exactly what ``NgramCounter`` would have produced on the combined input: words
/// re-ranked by descending count (ties by byte order) after the reserved ids, every table sorted
/// by id tuple with duplicates summed.
extension NgramCounts {
    /// The counts of two corpora counted separately, combined as if counted in one run.
    ///
    /// Orders must match. Words are matched by their text, so the two inputs may have different ids.
    /// - Complexity: O(V log V + E log E) for V words and E n-gram entries in total.
    public func merged(with other: NgramCounts) -> NgramCounts {
        precondition(order == other.order, "merging stores of different orders")
        var totals: [String: UInt64] = [:]
        totals.reserveCapacity(words.count + other.words.count)
        for (id, word) in words.enumerated() { totals[word, default: 0] += unigramCounts[id] }
        for (id, word) in other.words.enumerated() { totals[word, default: 0] += other.unigramCounts[id] }
        let reserved = [StoreSchema.unknownToken, StoreSchema.sentenceStartToken, StoreSchema.sentenceEndToken]
        let ranked = Self.rank(totals.filter { !reserved.contains($0.key) })
        let newWords = reserved + ranked
        var newIDs: [String: UInt32] = [:]
        newIDs.reserveCapacity(newWords.count)
        for (id, word) in newWords.enumerated() { newIDs[word] = UInt32(id) }
        let mapA = words.map { newIDs[$0]! }
        let mapB = other.words.map { newIDs[$0]! }
        var newTables: [Table] = []
        for k in 0..<tables.count {
            let a = tables[k], b = other.tables[k]
            var keys = a.keys.map { mapA[Int($0)] }
            keys.append(contentsOf: b.keys.map { mapB[Int($0)] })
            newTables.append(Self.sortedSummed(n: a.n, keys: keys, counts: a.counts + b.counts))
        }
        return NgramCounts(order: order, words: newWords, unigramCounts: newWords.map { totals[$0] ?? 0 },
                           tables: newTables, tokens: tokens + other.tokens, sentences: sentences + other.sentences)
    }

    /// Keeps the `size` most frequent words (reserved tokens not included in `size`); every other
    /// word becomes `<unk>`, in the unigram counts and inside n-grams alike.
    /// - Complexity: O(E log E).
    public func limitingVocabulary(to size: Int) -> NgramCounts {
        let first = Int(StoreSchema.ReservedID.firstWord)
        guard words.count > first + size else { return self }
        // Ids are already in frequency order, so the kept words keep their ids.
        let keep = first + size
        let map = (0..<words.count).map { $0 < keep ? UInt32($0) : UInt32(StoreSchema.ReservedID.unknown) }
        var unigrams = Array(unigramCounts[0..<keep])
        unigrams[Int(StoreSchema.ReservedID.unknown)] += unigramCounts[keep...].reduce(0, +)
        let newTables = tables.map { t in
            Self.sortedSummed(n: t.n, keys: t.keys.map { map[Int($0)] }, counts: t.counts)
        }
        return NgramCounts(order: order, words: Array(words[0..<keep]), unigramCounts: unigrams,
                           tables: newTables, tokens: tokens, sentences: sentences)
    }

    /// Words (not reserved) by descending count, ties by UTF-8 byte order, as ``NgramCounter`` ranks them.
    static func rank(_ counts: [String: UInt64]) -> [String] {
        let entries = counts.map { (word: $0.key, bytes: Array($0.key.utf8), count: $0.value) }
        return entries.sorted { a, b in
            a.count != b.count ? a.count > b.count : a.bytes.lexicographicallyPrecedes(b.bytes)
        }.map(\.word)
    }

    /// Sorts entries by id tuple and sums the counts of equal tuples (a sum past `UInt32.max`
    /// stays there, as in ``NgramCounter``).
    static func sortedSummed(n: Int, keys: [UInt32], counts: [UInt32]) -> Table {
        let total = counts.count
        var order = Array(0..<total)
        keys.withUnsafeBufferPointer { k in
            order.sort { a, b in
                for j in 0..<n where k[a * n + j] != k[b * n + j] { return k[a * n + j] < k[b * n + j] }
                return false
            }
        }
        var outKeys: [UInt32] = []
        var outCounts: [UInt32] = []
        outKeys.reserveCapacity(keys.count)
        outCounts.reserveCapacity(total)
        for source in order {
            let base = source * n
            if let last = outCounts.indices.last,
               (0..<n).allSatisfy({ outKeys[last * n + $0] == keys[base + $0] }) {
                let (sum, overflow) = outCounts[last].addingReportingOverflow(counts[source])
                outCounts[last] = overflow ? .max : sum
            } else {
                for j in 0..<n { outKeys.append(keys[base + j]) }
                outCounts.append(counts[source])
            }
        }
        return Table(n: n, keys: outKeys, counts: outCounts)
    }
}
