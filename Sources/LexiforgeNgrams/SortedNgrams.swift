import Foundation
import LexiforgeFormat

/// One n-gram of a sorted table file: its ids packed (``PackedKey``) and its count.
struct CountRecord: SortableRecord {
    var key: PackedKey
    var count: UInt32

    @inline(__always)
    static func precedes(_ a: CountRecord, _ b: CountRecord) -> Bool { a.key < b.key }
}

/// The n-gram tallies of a corpus with final ids, like ``NgramCounts``, but with the tables of
/// orders 2...N in files of a ``SpillFolder`` instead of memory: what counting under a memory
/// budget (``NgramCounter/finishBounded(_:folder:budget:)``) produces, for streaming estimation.
///
/// Words, unigram counts and totals are in memory (they grow with the vocabulary, not with the
/// corpus). Table `n` is a file of ``CountRecord``s sorted by id tuple, each n-gram once, ids
/// packed with ``idBits`` bits each.
public final class SortedNgrams: @unchecked Sendable {
    public let order: Int
    public let words: [String]
    public let unigramCounts: [UInt64]
    public let tokens: Int
    public let sentences: Int
    /// Bits per id in the packed keys: enough for every id of `words`.
    public let idBits: Int
    /// Entries per order, index 0 = order 2.
    public let entryCounts: [Int]
    public let folder: SpillFolder
    /// The file of order n at index n − 2.
    let tablePaths: [String]

    init(order: Int, words: [String], unigramCounts: [UInt64], tokens: Int, sentences: Int, idBits: Int,
         entryCounts: [Int], folder: SpillFolder, tablePaths: [String]) {
        self.order = order
        self.words = words
        self.unigramCounts = unigramCounts
        self.tokens = tokens
        self.sentences = sentences
        self.idBits = idBits
        self.entryCounts = entryCounts
        self.folder = folder
        self.tablePaths = tablePaths
    }

    /// Bits per id for a vocabulary of `words` ids.
    static func bits(forVocabulary words: Int) -> Int { max(1, Int.bitWidth - max(words - 1, 1).leadingZeroBitCount) }

    /// Whether n-grams of `order` over `words` ids fit the 128-bit keys.
    public static func fits(order: Int, vocabulary words: Int) -> Bool { order * bits(forVocabulary: words) <= 128 }

    /// In-memory counts written to files (tests; and any caller holding counts that wants the
    /// streaming path).
    public convenience init(_ counts: NgramCounts, folder: SpillFolder) throws(SpillError) {
        let bits = Self.bits(forVocabulary: counts.words.count)
        precondition(counts.order * bits <= 128, "n-grams too long for packed keys")
        var paths: [String] = []
        for table in counts.tables {
            let writer = try RecordWriter<CountRecord>(folder, name: "table\(table.n)")
            try table.keys.withUnsafeBufferPointer { (k) throws(SpillError) in
                for e in 0..<table.entryCount {
                    try writer.append(CountRecord(key: PackedKey(k.baseAddress! + e * table.n, n: table.n, bits: bits), count: table.counts[e]))
                }
            }
            _ = try writer.finish()
            paths.append(writer.path)
        }
        self.init(order: counts.order, words: counts.words, unigramCounts: counts.unigramCounts, tokens: counts.tokens,
                  sentences: counts.sentences, idBits: bits, entryCounts: counts.tables.map(\.entryCount),
                  folder: folder, tablePaths: paths)
    }

    /// Calls `body` with every entry of order `n` (2...order) in id-tuple order: its ids (valid
    /// during the call only) and count.
    public func forEach(order n: Int, _ body: (UnsafeBufferPointer<UInt32>, UInt32) throws -> Void) throws {
        let reader = try RecordReader<CountRecord>(path: tablePaths[n - 2])
        var ids = [UInt32](repeating: 0, count: n)
        let bits = idBits
        try ids.withUnsafeMutableBufferPointer { ids in
            while let record = try reader.next() {
                for j in 0..<n { ids[j] = record.key.id(j, n: n, bits: bits) }
                try body(UnsafeBufferPointer(ids), record.count)
            }
        }
    }

    /// The counts in memory (for the stages that need them there).
    public func load() throws -> NgramCounts {
        var tables: [NgramCounts.Table] = []
        if order >= 2 {
            for n in 2...order {
                var keys: [UInt32] = [], counts: [UInt32] = []
                keys.reserveCapacity(entryCounts[n - 2] * n)
                counts.reserveCapacity(entryCounts[n - 2])
                try forEach(order: n) { ids, count in
                    keys.append(contentsOf: ids)
                    counts.append(count)
                }
                tables.append(.init(n: n, keys: keys, counts: counts))
            }
        }
        return NgramCounts(order: order, words: words, unigramCounts: unigramCounts, tables: tables,
                           tokens: tokens, sentences: sentences)
    }
}

extension SortedNgrams {
    /// ``NgramCounts/limitingVocabulary(to:)`` on disk: the `size` most frequent words (after the
    /// reserved ones) keep their ids, every other word becomes `<unk>` (its unigram count added to
    /// `<unk>`'s), and each table is remapped through an ``ExternalSorter`` of `budget` bytes, equal
    /// n-grams summed. The result's tables are new files in the same folder; this value's files
    /// are removed.
    public func limitingVocabulary(to size: Int, budget: Int) throws -> SortedNgrams {
        let keep = Int(StoreSchema.ReservedID.firstWord) + size
        guard words.count > keep else { return self }
        let unknown = UInt32(StoreSchema.ReservedID.unknown)
        var unigrams = Array(unigramCounts[0..<keep])
        unigrams[Int(unknown)] += unigramCounts[keep...].reduce(0, +)
        return try remapped(words: Array(words[0..<keep]), unigramCounts: unigrams,
                            map: (0..<words.count).map { $0 < keep ? UInt32($0) : unknown }, budget: budget)
    }

    /// ``NgramCounts/renumbered(appending:order:)`` on disk: `extra` words appended (count 0), then
    /// word `newOrder[k]` (an old id; reserved ids first and unchanged) gets id `k`; each table is
    /// re-sorted by the new ids through an ``ExternalSorter`` of `budget` bytes. This value's
    /// files are removed.
    public func renumbered(appending extra: [String], order newOrder: [Int], budget: Int) throws -> SortedNgrams {
        let allWords = words + extra
        let allCounts = unigramCounts + Array(repeating: 0, count: extra.count)
        precondition(newOrder.count == allWords.count, "newOrder must list every word once")
        var map = [UInt32](repeating: 0, count: allWords.count)
        for (newID, oldID) in newOrder.enumerated() { map[oldID] = UInt32(newID) }
        for id in 0..<Int(StoreSchema.ReservedID.firstWord) { precondition(map[id] == UInt32(id), "reserved ids keep their place") }
        return try remapped(words: newOrder.map { allWords[$0] }, unigramCounts: newOrder.map { allCounts[$0] },
                            map: Array(map[0..<words.count]), budget: budget)
    }

    /// Every table with its ids mapped by `map` (old id → new id among `words`), re-sorted and
    /// equal n-grams summed; the old table files are removed as each is replaced.
    func remapped(words newWords: [String], unigramCounts newCounts: [UInt64], map: [UInt32], budget: Int) throws -> SortedNgrams {
        let newBits = Self.bits(forVocabulary: newWords.count)
        guard order * newBits <= 128 else { throw CountingLimit(order: order, vocabulary: newWords.count) }
        // Words only appended (hidden Markov tables' words): the tables' keys stay as they are.
        if newBits == idBits && map.enumerated().allSatisfy({ $0.offset == Int($0.element) }) {
            return SortedNgrams(order: order, words: newWords, unigramCounts: newCounts, tokens: tokens, sentences: sentences,
                                idBits: idBits, entryCounts: entryCounts, folder: folder, tablePaths: tablePaths)
        }
        var paths: [String] = [], entries: [Int] = []
        if order >= 2 {
            for n in 2...order {
                let sorter = ExternalSorter<CountRecord>(folder: folder, name: "remapped\(n)", budget: budget)
                let reader = try RecordReader<CountRecord>(path: tablePaths[n - 2])
                while let record = try reader.next() {
                    var key = PackedKey()
                    for j in 0..<n { key.append(map[Int(record.key.id(j, n: n, bits: idBits))], bits: newBits) }
                    try sorter.append(CountRecord(key: key, count: record.count))
                }
                let (path, count) = try Self.writeSummed(sorter, name: "table\(n)", folder: folder)
                unlink(tablePaths[n - 2])
                paths.append(path)
                entries.append(count)
            }
        }
        return SortedNgrams(order: order, words: newWords, unigramCounts: newCounts, tokens: tokens,
                            sentences: sentences, idBits: newBits, entryCounts: entries, folder: folder, tablePaths: paths)
    }

    /// One count set read an n-gram at a time (a count shard in SQLite), for ``combining(_:order:folder:budget:)``.
    public struct Part {
        public let words: [String]
        public let unigramCounts: [UInt64]
        public let tokens: Int
        public let sentences: Int
        /// Calls its argument with every n-gram of order n (2...order): ids in the part's own
        /// vocabulary, and the count.
        public let forEachNgram: (Int, (UnsafeBufferPointer<UInt32>, UInt32) throws -> Void) throws -> Void

        public init(words: [String], unigramCounts: [UInt64], tokens: Int, sentences: Int,
                    forEachNgram: @escaping (Int, (UnsafeBufferPointer<UInt32>, UInt32) throws -> Void) throws -> Void) {
            self.words = words
            self.unigramCounts = unigramCounts
            self.tokens = tokens
            self.sentences = sentences
            self.forEachNgram = forEachNgram
        }
    }

    /// Count sets combined as ``NgramCounts/combining(_:threads:)`` combines them (words summed by
    /// text and ranked once, tables remapped, counts of equal n-grams summed, saturating), with the
    /// tables sorted on disk through an ``ExternalSorter`` of `budget` bytes instead of in memory:
    /// the count-shard merge under a memory budget.
    /// - Throws: ``CountingLimit`` when the n-grams are too long for 128-bit keys, a
    ///   ``SpillError``, or what a part's `forEachNgram` throws.
    public static func combining(_ parts: [Part], order: Int, folder: SpillFolder, budget: Int) throws -> SortedNgrams {
        precondition(!parts.isEmpty, "combining no count sets")
        var totals: [String: UInt64] = [:]
        for part in parts {
            for (id, word) in part.words.enumerated() { totals[word, default: 0] += part.unigramCounts[id] }
        }
        let reserved = [StoreSchema.unknownToken, StoreSchema.sentenceStartToken, StoreSchema.sentenceEndToken]
        let words = reserved + NgramCounts.rank(totals.filter { !reserved.contains($0.key) })
        var ids: [String: UInt32] = [:]
        ids.reserveCapacity(words.count)
        for (id, word) in words.enumerated() { ids[word] = UInt32(id) }
        let bits = bits(forVocabulary: words.count)
        guard order * bits <= 128 else { throw CountingLimit(order: order, vocabulary: words.count) }
        var paths: [String] = [], entries: [Int] = []
        if order >= 2 {
            for n in 2...order {
                let sorter = ExternalSorter<CountRecord>(folder: folder, name: "shards\(n)", budget: budget)
                for part in parts {
                    let map = part.words.map { ids[$0]! }
                    try part.forEachNgram(n) { local, count in
                        var key = PackedKey()
                        for j in 0..<n { key.append(map[Int(local[j])], bits: bits) }
                        try sorter.append(CountRecord(key: key, count: count))
                    }
                }
                let (path, count) = try writeSummed(sorter, name: "table\(n)", folder: folder)
                paths.append(path)
                entries.append(count)
            }
        }
        return SortedNgrams(order: order, words: words, unigramCounts: words.map { totals[$0] ?? 0 },
                            tokens: parts.reduce(0) { $0 + $1.tokens }, sentences: parts.reduce(0) { $0 + $1.sentences },
                            idBits: bits, entryCounts: entries, folder: folder, tablePaths: paths)
    }

    /// A sorter's stream written to a table file, counts of equal n-grams summed (saturating at
    /// `UInt32.max`): the file and its entries.
    static func writeSummed(_ sorter: ExternalSorter<CountRecord>, name: String, folder: SpillFolder) throws -> (String, Int) {
        let writer = try RecordWriter<CountRecord>(folder, name: name)
        try forEachSummed(sorter) { try writer.append($0) }
        return (writer.path, try writer.finish())
    }

    /// A sorter's stream with the counts of equal n-grams summed (saturating at `UInt32.max`):
    /// `body` gets each n-gram once, in order.
    static func forEachSummed(_ sorter: ExternalSorter<CountRecord>, _ body: (CountRecord) throws -> Void) throws {
        var last: CountRecord?
        try sorter.finish { record in
            if var current = last, current.key == record.key {
                let (sum, overflow) = current.count.addingReportingOverflow(record.count)
                current.count = overflow ? .max : sum
                last = current
            } else {
                if let done = last { try body(done) }
                last = record
            }
        }
        if let done = last { try body(done) }
    }
}
