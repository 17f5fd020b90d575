import Dispatch
import Foundation
import LexiforgeFormat

/// The n-gram tallies of a corpus, with final ids: a plain value the store writer takes.
///
/// Word ids follow the store's convention (``StoreSchema/ReservedID``): 0 `<unk>`, 1 `<s>`,
/// 2 `</s>`, then words by descending count, ties broken by byte order, so identical inputs give
/// identical ids. Tables hold orders 2...``order``, entries sorted by id tuple.
public struct NgramCounts: Sendable, Equatable {
    public struct Table: Sendable, Equatable {
        public var n: Int
        /// `n` ids per entry, entries sorted lexicographically.
        public var keys: [UInt32]
        public var counts: [UInt32]
        public var entryCount: Int { counts.count }

        /// A table from `n` ids per entry (sorted) and one count per entry.
        public init(n: Int, keys: [UInt32], counts: [UInt32]) {
            self.n = n
            self.keys = keys
            self.counts = counts
        }

        public func ids(of entry: Int) -> ArraySlice<UInt32> { keys[(entry * n)..<((entry + 1) * n)] }
    }

    public var order: Int
    /// `words[id]` is the word with that id.
    public var words: [String]
    /// Unigram counts by id; `<s>` carries the number of sentences, `<unk>` zero.
    public var unigramCounts: [UInt64]
    /// `tables[k]` holds the n-grams of order k + 2.
    public var tables: [Table]
    /// Word tokens counted (`<s>` and `</s>` not included).
    public var tokens: Int
    public var sentences: Int

    public func table(order n: Int) -> Table { tables[n - 2] }

    /// Counts from their parts (a store read back, a test fixture). Tables must be sorted by id
    /// tuple and closed under prefixes and suffixes, as ``NgramCounter`` makes them.
    public init(order: Int, words: [String], unigramCounts: [UInt64], tables: [Table], tokens: Int, sentences: Int) {
        self.order = order
        self.words = words
        self.unigramCounts = unigramCounts
        self.tables = tables
        self.tokens = tokens
        self.sentences = sentences
    }
}

/// Counts the n-grams of orders 1...N in sentences of tokens.
///
/// In: sentences as token byte strings (without `<s>`/`</s>`). Every sentence is padded as
/// `<s> w1 ... wk </s>` and every window of each order inside it is counted once, as KenLM's
/// `lmplz` does (so a trigram never starts with two `<s>`). Unigrams count every token and `</s>`;
/// `<s>` gets the number of sentences. Out: ``NgramCounts``.
///
/// ```swift
/// let counter = NgramCounter(order: 3)
/// counter.add(sentence: ["the", "cat"])
/// let counts = counter.finish()   // counts.table(order: 2) holds (<s> the), (the cat), (cat </s>)
/// ```
/// - Complexity: O(order) hash-table work per token; memory proportional to distinct n-grams.
public final class NgramCounter {
    public let order: Int
    private let vocabulary = Vocabulary(reserved: [
        StoreSchema.unknownToken, StoreSchema.sentenceStartToken, StoreSchema.sentenceEndToken,
    ])
    // One counting thread's state: no dynamic exclusivity checks in the per-token loop.
    @exclusivity(unchecked) private var unigrams: [UInt64] = [0, 0, 0]
    private var tables: [NgramTable]
    @exclusivity(unchecked) private var padded: [UInt32] = []
    @exclusivity(unchecked) public private(set) var tokens = 0
    @exclusivity(unchecked) public private(set) var sentences = 0

    public init(order: Int) {
        precondition((1...StoreSchema.maxOrder).contains(order), "order must be 1...\(StoreSchema.maxOrder)")
        self.order = order
        tables = order >= 2 ? (2...order).map { NgramTable(n: $0) } : []
    }

    /// Adds one sentence given as a count and a token accessor (so callers can lend borrowed bytes).
    public func addSentence(count: Int, token: (Int) -> UnsafeBufferPointer<UInt8>) {
        guard count > 0 else { return }
        padded.removeAll(keepingCapacity: true)
        padded.append(UInt32(StoreSchema.ReservedID.sentenceStart))
        for i in 0..<count {
            let id = vocabulary.intern(token(i))
            if id >= unigrams.count { unigrams.append(0) }
            unigrams[id] += 1
            padded.append(UInt32(id))
        }
        padded.append(UInt32(StoreSchema.ReservedID.sentenceEnd))
        unigrams[Int(StoreSchema.ReservedID.sentenceEnd)] += 1
        unigrams[Int(StoreSchema.ReservedID.sentenceStart)] += 1
        tokens += count
        sentences += 1
        if let limit = spillLimit, spillError == nil, tables.contains(where: { $0.entryCount + padded.count > limit }) {
            do throws(SpillError) { try spillTables() } catch { spillError = error }
        }
        padded.withUnsafeBufferPointer { ids in
            let base = ids.baseAddress!
            for table in tables where table.n <= ids.count {
                for start in 0...(ids.count - table.n) { table.add(base + start) }
            }
        }
    }

    /// Adds one sentence of string tokens.
    public func add(sentence: [String]) {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        for token in sentence {
            bytes.append(contentsOf: token.utf8)
            ends.append(bytes.count)
        }
        bytes.withUnsafeBufferPointer { b in
            addSentence(count: ends.count) { i in
                UnsafeBufferPointer(rebasing: b[(i == 0 ? 0 : ends[i - 1])..<ends[i]])
            }
        }
    }

    /// Additions that found an n-gram count already at `UInt32.max`, the largest a store holds;
    /// the count stays there (read it before ``finish()``).
    public var saturatedCounts: Int { tables.reduce(0) { $0 + $1.saturated } }

    /// Threads for the per-table work of ``finish()`` (each order's table is
    /// independent); the result does not depend on it.
    public var threads = 1

    /// `body` of every item, on up to `threads` threads, results in order.
    static func perTable<T, R>(_ items: [T], threads: Int, _ body: (T) -> R) -> [R] {
        guard threads > 1 && items.count > 1 else { return items.map(body) }
        let results = UnsafeMutableBufferPointer<R?>.allocate(capacity: items.count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        withoutActuallyEscaping(body) { body in
            let shared = Unchecked((items, body, results))
            // Largest tables (highest orders) first, so the longest job starts at once.
            let order = Array(items.indices.reversed())
            DispatchQueue.concurrentPerform(iterations: items.count) { i in
                let (items, body, results) = shared.value
                let k = order[i]
                results[k] = body(items[k])
            }
        }
        return results.map { $0! }
    }

    // MARK: Counting under a memory budget

    /// The spill folder and the most entries a table may hold before the tables are written out.
    private var spillFolder: SpillFolder?
    private var spillLimit: Int?
    /// Files of entries written out, per table (index 0 = order 2): local ids then the count,
    /// `n + 1` UInt32s per entry, in no particular order.
    private(set) var runs: [[String]] = []
    /// The first failure to write a run (counting stops adding n-grams after it); thrown by
    /// ``finishBounded(_:folder:budget:)``.
    public private(set) var spillError: SpillError?
    /// How many times the tables were written out.
    public private(set) var spills = 0

    /// Keeps this counter's tables within `bytes` (their growth included): when a table would grow
    /// past it, every table is written to `folder` as an unsorted run and emptied. The vocabulary
    /// stays in memory. Call before counting.
    public func bound(bytes: Int, folder: SpillFolder) {
        spillFolder = folder
        spillLimit = Self.entryLimit(order: order, bytes: bytes)
        runs = Array(repeating: [], count: tables.count)
    }

    /// The most entries per table such that the tables of orders 2...`order` at that size, and
    /// while growing to it (old and new arrays both alive), stay within `bytes`.
    package static func entryLimit(order: Int, bytes: Int) -> Int {
        guard order >= 2 else { return .max }
        var slots = 1024
        func total(_ s: Int) -> Int { (2...order).reduce(0) { $0 + NgramTable.bytes(n: $1, slots: s) } }
        // Tables never have fewer than 1,024 slots (a fixed slack); a smaller share (tests cap it
        // at a few kilobytes) still bounds the entries, so that tiny corpora spill too.
        if total(slots) + total(slots / 2) > bytes {
            return max(8, bytes / (2 * (2...order).reduce(0) { $0 + 4 * $1 + 20 }))
        }
        // At the last growth the arrays of `slots / 2` and `slots` slots are both alive.
        while total(slots * 2) + total(slots) <= bytes { slots *= 2 }
        return slots / 2
    }

    /// Writes every table out as a run and empties it.
    func spillTables() throws(SpillError) {
        guard let folder = spillFolder else { return }
        for (k, table) in tables.enumerated() where table.entryCount > 0 {
            let writer = try RecordWriter<UInt32>(folder, name: "counts\(table.n)")
            let n = table.n
            try table.forEachEntry { (ids, count) throws(SpillError) in
                for j in 0..<n { try writer.append(ids[j]) }
                try writer.append(count)
            }
            _ = try writer.finish()
            runs[k].append(writer.path)
            table.removeAll()
        }
        spills += 1
    }

    /// Distinct n-grams of order `n` (2...order) in the tables now (not those written out).
    public func entryCount(order n: Int) -> Int { tables.isEmpty ? 0 : tables[n - 2].entryCount }

    /// Distinct words seen so far (reserved tokens included).
    public var vocabularySize: Int { vocabulary.count }

    /// Assigns final ids and sorts every table. The counter should not be used afterwards.
    public func finish() -> NgramCounts { Self.finish([self], threads: threads) }

    /// The counters' vocabularies merged and ranked (reserved ids, then words by count descending,
    /// ties by bytes ascending): the words, their counts, and per counter its local id → final id.
    static func ranked(_ counters: [NgramCounter]) -> (words: [String], counts: [UInt64], maps: [[UInt32]]) {
        precondition(!counters.isEmpty && counters.allSatisfy { $0.order == counters[0].order }, "finishing counters of different orders")
        let first = counters[0]
        // One vocabulary: the first counter's, with the others' words interned into it.
        let vocabulary = first.vocabulary
        var unigrams = first.unigrams
        var maps: [[UInt32]] = [Array(0..<UInt32(vocabulary.count))]
        for other in counters.dropFirst() {
            var map = [UInt32](repeating: 0, count: other.vocabulary.count)
            for id in 0..<other.vocabulary.count {
                let mine = other.vocabulary.bytes(of: id).withUnsafeBufferPointer { vocabulary.intern($0) }
                while mine >= unigrams.count { unigrams.append(0) }
                unigrams[mine] += other.unigrams[id]
                map[id] = UInt32(mine)
            }
            maps.append(map)
        }
        let total = vocabulary.count
        // Final order: reserved ids stay; words by count descending, then bytes ascending.
        var ranked = Array(Int(StoreSchema.ReservedID.firstWord)..<total)
        let arena = vocabulary.arena
        let starts = vocabulary.starts
        ranked.sort { a, b in
            if unigrams[a] != unigrams[b] { return unigrams[a] > unigrams[b] }
            return arena[starts[a]..<starts[a + 1]].lexicographicallyPrecedes(arena[starts[b]..<starts[b + 1]])
        }
        let reserved = Int(StoreSchema.ReservedID.firstWord)
        var rank = [UInt32](repeating: 0, count: total)
        for id in 0..<reserved { rank[id] = UInt32(id) }
        var words = (0..<reserved).map { vocabulary.string(of: $0) }
        var counts = (0..<reserved).map { unigrams[$0] }
        words.reserveCapacity(total)
        counts.reserveCapacity(total)
        for (position, id) in ranked.enumerated() {
            rank[id] = UInt32(reserved + position)
            words.append(vocabulary.string(of: id))
            counts.append(unigrams[id])
        }
        let finalMaps = maps.indices.map { c in c == 0 ? rank : maps[c].map { rank[Int($0)] } }
        return (words, counts, finalMaps)
    }

    /// The counts of several counters (of several threads) as one: what one counter given all
    /// their sentences would have finished with. The counters' vocabularies are merged and ranked
    /// once; then every counter's tables are remapped to the final ids and sorted, on `threads`
    /// threads at once, and the sorted tables of each order are merged in one linear pass,
    /// counts of equal n-grams summed (saturating at `UInt32.max`). The counters should not be
    /// used afterwards.
    public static func finish(_ counters: [NgramCounter], threads: Int) -> NgramCounts {
        let first = counters[0]
        let (words, counts, maps) = ranked(counters)
        let total = words.count
        let idBits = max(1, Int.bitWidth - (max(total - 1, 1)).leadingZeroBitCount)
        // Every counter's every table, remapped and sorted: the biggest jobs first.
        var jobs: [(table: NgramTable, map: [UInt32])] = []
        for (c, counter) in counters.enumerated() {
            for table in counter.tables {
                table.dropIndex()
                jobs.append((table, maps[c]))
            }
        }
        let sortedJobs = perTable(jobs, threads: threads) { job in
            let (keys, tableCounts) = job.table.sortedEntries(remapping: job.map, idBits: idBits)
            return NgramCounts.Table(n: job.table.n, keys: keys, counts: tableCounts)
        }
        let orders = first.tables.count
        for counter in counters { counter.tables = [] }
        let parts = (0..<orders).map { k in stride(from: k, to: sortedJobs.count, by: orders).map { sortedJobs[$0] } }
        let merged = perTable(parts, threads: threads) { NgramCounts.Table.merging($0) }
        return NgramCounts(order: first.order, words: words, unigramCounts: counts, tables: merged,
                           tokens: counters.reduce(0) { $0 + $1.tokens }, sentences: counters.reduce(0) { $0 + $1.sentences })
    }
}

extension NgramCounter {
    /// What ``finish(_:threads:)`` gives, with the tables written to `folder` as sorted files
    /// instead of memory (``SortedNgrams``): for counters bounded with ``bound(bytes:folder:)``
    /// (others work too). Every counter's tables are written out as runs and freed; then, order by
    /// order (up to `threads` orders at once, sharing `budget` bytes), the runs are remapped to the
    /// final ids and fed to an ``ExternalSorter``, and its sorted stream, equal n-grams summed
    /// (saturating at `UInt32.max`), becomes the order's file. The counters should not be used
    /// afterwards.
    /// - Throws: the first ``spillError`` of a counter, a ``SpillError`` of the temporary folder,
    ///   or ``CountingLimit`` when the n-grams are too long for 128-bit keys.
    public static func finishBounded(_ counters: [NgramCounter], folder: SpillFolder, budget: Int, threads: Int) throws -> SortedNgrams {
        if let error = counters.lazy.compactMap(\.spillError).first { throw error }
        let first = counters[0]
        let (words, counts, maps) = ranked(counters)
        let bits = SortedNgrams.bits(forVocabulary: words.count)
        guard first.order * bits <= 128 else { throw CountingLimit(order: first.order, vocabulary: words.count) }
        for counter in counters {
            if counter.runs.count != counter.tables.count { counter.runs = Array(repeating: [], count: counter.tables.count) }
            counter.spillFolder = folder
            try counter.spillTables()
            counter.tables = []
        }
        let orders = max(0, first.order - 1)
        let concurrent = max(1, min(threads, orders))
        let shared = Unchecked((counters, maps))
        let results = perTable(Array(0..<orders), threads: concurrent) { k -> Result<(path: String, entries: Int), Error> in
            let (counters, maps) = shared.value
            return Result {
                try mergeRuns(order: k + 2, runs: counters.map { $0.runs[k] }, maps: maps, bits: bits,
                              folder: folder, budget: budget / concurrent)
            }
        }
        var paths: [String] = [], entries: [Int] = []
        for result in results {
            let (path, count) = try result.get()
            paths.append(path)
            entries.append(count)
        }
        return SortedNgrams(order: first.order, words: words, unigramCounts: counts,
                            tokens: counters.reduce(0) { $0 + $1.tokens }, sentences: counters.reduce(0) { $0 + $1.sentences },
                            idBits: bits, entryCounts: entries, folder: folder, tablePaths: paths)
    }

    /// The runs of one order (per counter, with its local → final id map) as one sorted file.
    static func mergeRuns(order n: Int, runs: [[String]], maps: [[UInt32]], bits: Int, folder: SpillFolder, budget: Int) throws -> (path: String, entries: Int) {
        let sorter = ExternalSorter<CountRecord>(folder: folder, name: "sort\(n)", budget: budget)
        for (c, paths) in runs.enumerated() {
            let map = maps[c]
            for path in paths {
                let reader = try RecordReader<UInt32>(path: path)
                while let head = try reader.next() {
                    var key = PackedKey()
                    key.append(map[Int(head)], bits: bits)
                    for _ in 1..<n {
                        guard let id = try reader.next() else { throw SpillError.readFailed(path, "it ends inside an n-gram") }
                        key.append(map[Int(id)], bits: bits)
                    }
                    guard let count = try reader.next() else { throw SpillError.readFailed(path, "it ends inside an n-gram") }
                    try sorter.append(CountRecord(key: key, count: count))
                }
                unlink(path)
            }
        }
        return try SortedNgrams.writeSummed(sorter, name: "table\(n)", folder: folder)
    }
}

/// N-grams too long for the 128-bit keys of counting under a memory budget.
public struct CountingLimit: Error, CustomStringConvertible, Sendable {
    public let order: Int
    public let vocabulary: Int
    public var description: String {
        "order \(order) over \(vocabulary) words needs more than 128 bits per n-gram (\(SortedNgrams.bits(forVocabulary: vocabulary)) bits per word); build without --memory, or with a lower order or a smaller vocabulary"
    }
}

extension NgramCounts.Table {
    /// Sorted tables of one order merged into one sorted table, counts of equal n-grams summed
    /// (saturating at `UInt32.max`, as counting does).
    static func merging(_ tables: [NgramCounts.Table]) -> NgramCounts.Table {
        guard tables.count > 1 else { return tables[0] }
        let n = tables[0].n
        var keys: [UInt32] = []
        var counts: [UInt32] = []
        let capacity = tables.map(\.entryCount).max()!
        keys.reserveCapacity(capacity * n)
        counts.reserveCapacity(capacity)
        var heads = [Int](repeating: 0, count: tables.count)
        func less(_ a: Int, _ b: Int) -> Bool {
            let x = tables[a], y = tables[b]
            let i = heads[a] * n, j = heads[b] * n
            for c in 0..<n where x.keys[i + c] != y.keys[j + c] { return x.keys[i + c] < y.keys[j + c] }
            return false
        }
        while true {
            var best = -1
            for t in tables.indices where heads[t] < tables[t].entryCount {
                if best < 0 || less(t, best) { best = t }
            }
            if best < 0 { break }
            let base = heads[best] * n
            let count = tables[best].counts[heads[best]]
            heads[best] += 1
            if let last = counts.indices.last, (0..<n).allSatisfy({ keys[last * n + $0] == tables[best].keys[base + $0] }) {
                let (sum, overflow) = counts[last].addingReportingOverflow(count)
                counts[last] = overflow ? .max : sum
            } else {
                keys.append(contentsOf: tables[best].keys[base..<(base + n)])
                counts.append(count)
            }
        }
        return NgramCounts.Table(n: n, keys: keys, counts: counts)
    }
}

/// A value handed to worker threads whose use is partitioned by the caller (each thread touches
/// only its own items).
struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
