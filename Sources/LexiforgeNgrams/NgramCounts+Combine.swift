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
        return Self.combining([self, other])
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

extension NgramCounts {
    /// Count sets of one order (count shards) combined as if counted in one run, without a hash
    /// table: words are summed by text and ranked once, every part's tables are remapped to the
    /// final ids and sorted (on up to `threads` threads), and each order's sorted tables are
    /// merged in one linear pass, counts of equal n-grams summed (saturating at `UInt32.max`).
    /// - Complexity: O(V log V + E log E) for V words and E entries, memory about twice the entries.
    public static func combining(_ parts: [NgramCounts], threads: Int = 1) -> NgramCounts {
        precondition(!parts.isEmpty && parts.allSatisfy { $0.order == parts[0].order }, "combining counts of different orders")
        guard parts.count > 1 else { return parts[0] }
        var totals: [String: UInt64] = [:]
        for part in parts {
            for (id, word) in part.words.enumerated() { totals[word, default: 0] += part.unigramCounts[id] }
        }
        let reserved = [StoreSchema.unknownToken, StoreSchema.sentenceStartToken, StoreSchema.sentenceEndToken]
        let words = reserved + rank(totals.filter { !reserved.contains($0.key) })
        var ids: [String: UInt32] = [:]
        ids.reserveCapacity(words.count)
        for (id, word) in words.enumerated() { ids[word] = UInt32(id) }
        let idBits = max(1, Int.bitWidth - (max(words.count - 1, 1)).leadingZeroBitCount)
        let orders = parts[0].tables.count
        var jobs: [(table: Table, map: [UInt32])] = []
        for part in parts {
            let map = part.words.map { ids[$0]! }
            for table in part.tables { jobs.append((table, map)) }
        }
        let sorted = NgramCounter.perTable(jobs, threads: threads) { job in job.table.remapped(job.map, idBits: idBits) }
        jobs = []
        let byOrder = (0..<orders).map { k in stride(from: k, to: sorted.count, by: orders).map { sorted[$0] } }
        let tables = NgramCounter.perTable(byOrder, threads: threads) { Table.merging($0) }
        return NgramCounts(order: parts[0].order, words: words, unigramCounts: words.map { totals[$0] ?? 0 }, tables: tables,
                           tokens: parts.reduce(0) { $0 + $1.tokens }, sentences: parts.reduce(0) { $0 + $1.sentences })
    }
}

extension NgramCounts.Table {
    /// The table with every id rewritten through `map`, sorted again (entries stay distinct: `map`
    /// is one to one). Packs each tuple into a UInt64 when `idBits · n` fits.
    func remapped(_ map: [UInt32], idBits: Int) -> NgramCounts.Table {
        guard idBits * n <= 64 else {
            return NgramCounts.sortedSummed(n: n, keys: keys.map { map[Int($0)] }, counts: counts)
        }
        var packed = Self.pack(keys: keys, counts: counts, n: n, map: map, idBits: idBits)
        Self.radixSort(&packed, keyBits: idBits * n)
        return Self.unpack(packed, n: n, idBits: idBits)
    }

    /// Sorts packed entries by key (only the low `keyBits` bits may be set): least significant
    /// digit first, 16 bits a pass, all histograms from one read. About three times as fast as a
    /// comparison sort on gutenberg-100m's millions of trigrams. Equal keys keep their order
    /// (tables hold distinct n-grams, so none are equal there).
    package static func radixSort(_ items: inout [(UInt64, UInt32)], keyBits: Int) {
        let total = items.count
        guard total > 1 << 14 else {
            items.sort { $0.0 < $1.0 }
            return
        }
        let passes = max(1, (keyBits + 15) / 16)
        var histograms = [Int](repeating: 0, count: passes << 16)
        items.withUnsafeBufferPointer { a in
            histograms.withUnsafeMutableBufferPointer { h in
                for item in a {
                    for p in 0..<passes { h[(p << 16) | Int((item.0 >> UInt64(16 * p)) & 0xFFFF)] += 1 }
                }
            }
        }
        var other = [(UInt64, UInt32)](unsafeUninitializedCapacity: total) { _, count in count = total }
        for p in 0..<passes {
            let shift = UInt64(16 * p)
            items.withUnsafeBufferPointer { source in
                other.withUnsafeMutableBufferPointer { target in
                    histograms.withUnsafeMutableBufferPointer { h in
                        var offset = 0
                        for d in 0..<(1 << 16) {
                            let c = h[(p << 16) | d]
                            h[(p << 16) | d] = offset
                            offset += c
                        }
                        for item in source {
                            let d = (p << 16) | Int((item.0 >> shift) & 0xFFFF)
                            target[h[d]] = item
                            h[d] += 1
                        }
                    }
                }
            }
            swap(&items, &other)
        }
    }

    /// Each entry's ids through `map`, packed into one UInt64 (w1 most significant), with its count.
    static func pack(keys: [UInt32], counts: [UInt32], n: Int, map: [UInt32], idBits: Int) -> [(UInt64, UInt32)] {
        var packed = [(UInt64, UInt32)]()
        packed.reserveCapacity(counts.count)
        keys.withUnsafeBufferPointer { k in
            for e in 0..<counts.count {
                var key: UInt64 = 0
                for j in 0..<n { key = (key << UInt64(idBits)) | UInt64(map[Int(k[e * n + j])]) }
                packed.append((key, counts[e]))
            }
        }
        return packed
    }

    /// The table of packed entries (in their order).
    static func unpack(_ packed: [(UInt64, UInt32)], n: Int, idBits: Int) -> NgramCounts.Table {
        var outKeys = [UInt32](repeating: 0, count: packed.count * n)
        var outCounts = [UInt32](repeating: 0, count: packed.count)
        let idMask = (UInt64(1) << UInt64(idBits)) - 1
        for (e, (key, count)) in packed.enumerated() {
            var rest = key
            for j in stride(from: n - 1, through: 0, by: -1) {
                outKeys[e * n + j] = UInt32(rest & idMask)
                rest >>= UInt64(idBits)
            }
            outCounts[e] = count
        }
        return NgramCounts.Table(n: n, keys: outKeys, counts: outCounts)
    }
}
