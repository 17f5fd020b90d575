import Foundation
import LexiforgeFormat
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why ``StreamingKneserNey/estimate(_:options:budget:)`` refused a build: it does orders 2...5
/// only; the in-memory ``KneserNey`` does the rest.
public enum StreamingEstimationError: Error, CustomStringConvertible, Sendable, Equatable {
    case unsupported(String)

    public var description: String {
        switch self {
        case .unsupported(let what): return "streaming estimation does not support \(what); use the in-memory estimator"
        }
    }
}

/// A language model estimated by ``StreamingKneserNey``: what ``LanguageModel`` holds, but with the
/// n-grams of orders 2...N (their counts, log10 probabilities and log10 backoffs) in files of the
/// ``SortedNgrams``' spill folder, read back in id-tuple order with ``forEachRow(order:_:)``.
/// Vocabulary-sized arrays are in memory. The files are removed when the value is released.
public final class StreamedModel: @unchecked Sendable {
    public let order: Int
    public let words: [String]
    public let unigramCounts: [UInt64]
    public let tokens: Int
    public let sentences: Int
    /// log10 p(w); `<s>` carries ``LanguageModel/sentenceStartLogProb``.
    public let unigramLogProb: [Double]
    /// log10 backoff weight of each word as a one-word context (0 when it is not a context).
    public let unigramLogBackoff: [Double]
    /// D1, D2, D3+ per order (index 0 = unigrams).
    public let discounts: [[Double]]
    /// Orders whose discounts came from ``EstimationOptions/fallbackDiscounts``.
    public let fallbackOrders: [Int]
    /// N-grams removed per order by count pruning (index 0 = unigrams, always 0).
    public let pruned: [Int]
    /// Entries per order, index 0 = order 2.
    public let entryCounts: [Int]
    /// Sorted runs the external sorts wrote (0 when everything fit the budget).
    public internal(set) var sortedRuns = 0
    /// The class-based model estimated beside (``EstimationOptions/clusters``), from the counts
    /// before any pruning, and its weight; as ``LanguageModel/clusterModel``.
    public internal(set) var clusterModel: ClusterModel?
    public internal(set) var clusterWeight = 0.0
    /// Suffix rules for unseen forms (``EstimationOptions/formRules``), from the vocabulary.
    public internal(set) var formRules: FormRules?

    let folder: SpillFolder
    let idBits: Int
    /// The row file of order n at index n − 2 (``RowRecord``s in id-tuple order).
    let rowPaths: [String]

    init(order: Int, words: [String], unigramCounts: [UInt64], tokens: Int, sentences: Int,
         unigramLogProb: [Double], unigramLogBackoff: [Double], discounts: [[Double]], fallbackOrders: [Int],
         entryCounts: [Int], pruned: [Int]? = nil, folder: SpillFolder, idBits: Int, rowPaths: [String]) {
        self.order = order
        self.words = words
        self.unigramCounts = unigramCounts
        self.tokens = tokens
        self.sentences = sentences
        self.unigramLogProb = unigramLogProb
        self.unigramLogBackoff = unigramLogBackoff
        self.discounts = discounts
        self.fallbackOrders = fallbackOrders
        self.pruned = pruned ?? Array(repeating: 0, count: order)
        self.entryCounts = entryCounts
        self.folder = folder
        self.idBits = idBits
        self.rowPaths = rowPaths
    }

    deinit { for path in rowPaths { unlink(path) } }

    /// Calls `body` with every n-gram of order `n` (2...order) in id-tuple order: its ids (valid
    /// during the call only), raw count, log10 probability and log10 backoff weight (0 for an
    /// n-gram that is no context, and always 0 for the highest order).
    public func forEachRow(
        order n: Int, _ body: (UnsafeBufferPointer<UInt32>, UInt32, Double, Double) throws -> Void
    ) throws {
        precondition(n >= 2 && n <= order, "no n-gram table of order \(n)")
        let reader = try RecordReader<RowRecord>(path: rowPaths[n - 2])
        var ids = [UInt32](repeating: 0, count: n)
        let bits = idBits
        try ids.withUnsafeMutableBufferPointer { ids in
            while let row = try reader.next() {
                for j in 0..<n { ids[j] = row.key.id(j, n: n, bits: bits) }
                try body(UnsafeBufferPointer(ids), row.count, row.logProb, row.logBackoff)
            }
        }
    }
}

/// One row of a ``StreamedModel`` file.
struct RowRecord: BitwiseCopyable {
    var key: PackedKey
    var logProb: Double
    var logBackoff: Double
    var count: UInt32
}

/// An n-gram with its (linear) interpolated probability, in id-tuple order.
struct ProbabilityRecord: SortableRecord {
    var key: PackedKey
    var probability: Double
    var count: UInt32

    @inline(__always)
    static func precedes(_ a: ProbabilityRecord, _ b: ProbabilityRecord) -> Bool { a.key < b.key }
}

/// The interpolation weight γ of a context (an n-gram of the order below), in id-tuple order.
struct GammaRecord: BitwiseCopyable {
    var key: PackedKey
    var gamma: Double
}

/// A bare packed key sorted by itself: the suffix (ids 2...n) of an n-gram, for counting left
/// extensions and forcing kept prefixes and suffixes, or an n-gram's rotated key (sorted by suffix).
struct SuffixRecord: SortableRecord {
    var key: PackedKey

    @inline(__always)
    static func precedes(_ a: SuffixRecord, _ b: SuffixRecord) -> Bool { a.key < b.key }
}

/// An n-gram waiting for its lower-order probability: `rotated` holds ids 2...n then id 1 (so the
/// sort is by suffix, and keys are unique); `discounted` = (a − D(a)) / Σ a of its context.
struct PendingRecord: SortableRecord {
    var rotated: PackedKey
    var discounted: Double
    var gamma: Double
    var count: UInt32

    @inline(__always)
    static func precedes(_ a: PendingRecord, _ b: PendingRecord) -> Bool { a.rotated < b.rotated }
}

extension PackedKey {
    /// The key shifted right by `s` bits (0 ≤ s < 128): drops the last ids.
    @inline(__always)
    func shiftedRight(_ s: Int) -> PackedKey {
        var k = PackedKey()
        if s == 0 { return self }
        if s >= 64 {
            k.lo = hi >> UInt64(s - 64)
        } else {
            k.lo = (lo >> UInt64(s)) | (hi << UInt64(64 - s))
            k.hi = hi >> UInt64(s)
        }
        return k
    }

    /// The key shifted left by `s` bits (0 ≤ s < 128).
    @inline(__always)
    func shiftedLeft(_ s: Int) -> PackedKey {
        var k = PackedKey()
        if s == 0 { return self }
        if s >= 64 {
            k.hi = lo << UInt64(s - 64)
        } else {
            k.hi = (hi << UInt64(s)) | (lo >> UInt64(64 - s))
            k.lo = lo << UInt64(s)
        }
        return k
    }

    /// The key of an n-gram with `bits` bits per id rotated left by one id: ids 2...n, then id 1
    /// (sorting rotated keys sorts by suffix, and keys stay unique).
    @inline(__always)
    func rotated(n: Int, bits: Int) -> PackedKey {
        var k = keepingLow((n - 1) * bits)
        k.append(id(0, n: n, bits: bits), bits: bits)
        return k
    }

    /// The suffix (ids 2...n) of a rotated key, and the n-gram's own key back in id order.
    @inline(__always)
    func unrotated(n: Int, bits: Int) -> (suffix: PackedKey, key: PackedKey) {
        let suffix = shiftedRight(bits)
        var first = PackedKey()
        first.lo = lo & ((UInt64(1) << UInt64(bits)) - 1)
        var key = first.shiftedLeft((n - 1) * bits)
        key.hi |= suffix.hi
        key.lo |= suffix.lo
        return (suffix, key)
    }

    /// Only the low `b` bits (0 ≤ b ≤ 128): drops the first ids.
    @inline(__always)
    func keepingLow(_ b: Int) -> PackedKey {
        var k = self
        if b >= 128 { return k }
        if b >= 64 {
            k.hi &= b == 64 ? 0 : (UInt64(1) << UInt64(b - 64)) - 1
        } else {
            k.hi = 0
            k.lo &= (UInt64(1) << UInt64(b)) - 1
        }
        return k
    }
}

/// Interpolated modified Kneser-Ney estimation over n-grams on disk (``SortedNgrams``), as KenLM's
/// `lmplz` does it: memory stays within a budget whatever the corpus size, and every probability
/// and backoff is bit-identical to ``KneserNey/estimate(_:options:)`` (the same floating-point
/// operations in the same order).
///
/// Passes, with `E` n-grams of all orders and at most two ``ExternalSorter``s of `budget` bytes alive:
/// 1. Adjusted counts of each order n < N: the suffixes of table n + 1, sorted, merge-joined with
///    table n (a file of counts aligned with it); unigrams from table 2 in memory. Counts-of-counts
///    give the discounts.
/// 2. Order 2: its context groups with the unigram probabilities (in memory).
/// 3. Order n ≥ 3: each n-gram's discounted share and its context's γ, sorted by suffix,
///    merge-joined with the probabilities of order n − 1, sorted back into id order. The γ of each
///    context, merge-joined with order n − 1, give that order's backoffs.
///
/// Count pruning (``EstimationOptions/minCounts``) streams too: keep flags per table, decided from
/// the highest order down (the prefixes and suffixes of kept n-grams stay), and a pruned n-gram's
/// adjusted count goes to its context's γ, as in memory.
///
/// Entropy pruning (``EstimationOptions/entropyThreshold``) follows on the estimated model's files
/// (``StreamingEntropyPruning``); word classes stream from the sorted n-grams
/// (``ClusterModel/init(sorted:classes:iterations:budget:)``); form rules need only the vocabulary.
///
/// Only orders 2...5 (``supports(_:order:)``); anything else throws
/// ``StreamingEstimationError/unsupported(_:)``.
public enum StreamingKneserNey {
    /// Whether ``estimate(_:options:budget:)`` can estimate a model of `order` with `options`.
    public static func supports(_ options: EstimationOptions, order: Int) -> Bool {
        unsupported(options, order: order) == nil
    }

    /// What of `options` (or `order`) ``estimate(_:options:budget:)`` does not do, nil when it does them all.
    public static func unsupported(_ options: EstimationOptions, order N: Int) -> String? {
        if N < 2 || N > 5 { return "order \(N) (only 2...5)" }
        return nil
    }

    /// Estimates the model of `sorted` with its temporary files in `sorted.folder`. `budget` is the
    /// bytes of each external sort's buffer (at most two are alive at once); reading and writing
    /// files adds buffers of 64 KiB to 1 MiB each (about ten), vocabulary-sized arrays and one
    /// context group's entries. Throws ``StreamingEstimationError/unsupported(_:)`` for options it
    /// does not do (check ``supports(_:order:)`` first) and ``SpillError`` when the temporary files
    /// cannot be written or read.
    public static func estimate(_ sorted: SortedNgrams, options: EstimationOptions, budget: Int) throws -> StreamedModel {
        let N = sorted.order
        if let what = unsupported(options, order: N) { throw StreamingEstimationError.unsupported(what) }
        let V = sorted.words.count
        let bits = sorted.idBits
        let folder = sorted.folder
        let bos = UInt32(StoreSchema.ReservedID.sentenceStart)
        let io = max(64 << 10, min(1 << 20, budget / 8))
        var runs = 0
        var temporary: [String] = []
        defer { for path in temporary { unlink(path) } }

        // 1. Adjusted counts (orders 2...N-1 to files aligned with the tables) and counts-of-counts.
        var countsOfCounts = [[UInt64]](repeating: [UInt64](repeating: 0, count: 5), count: N + 1)
        var adjustedPaths = [String](repeating: "", count: N + 1)
        for n in stride(from: N - 1, through: 2, by: -1) {
            let sorter = ExternalSorter<SuffixRecord>(folder: folder, name: "suffix\(n)", budget: budget)
            let suffixBits = n * bits
            let higher = try RecordReader<CountRecord>(path: sorted.tablePaths[n - 1], bufferBytes: io)
            while let record = try higher.next() {
                try sorter.append(SuffixRecord(key: record.key.keepingLow(suffixBits)))
            }
            let table = try RecordReader<CountRecord>(path: sorted.tablePaths[n - 2], bufferBytes: io)
            let writer = try RecordWriter<UInt32>(folder, name: "adjusted\(n)", bufferBytes: io)
            temporary.append(writer.path)
            adjustedPaths[n] = writer.path
            var t = [UInt64](repeating: 0, count: 5)
            func emit(_ entry: CountRecord, _ tally: UInt32) throws(SpillError) {
                let a = entry.key.id(0, n: n, bits: bits) == bos ? entry.count : tally
                if a >= 1 && a <= 4 { t[Int(a)] += 1 }
                try writer.append(a)
            }
            var current = try table.next()
            var tally: UInt32 = 0
            try sorter.finish { suffix in
                while let entry = current, entry.key < suffix.key {
                    try emit(entry, tally)
                    tally = 0
                    current = try table.next()
                }
                guard current?.key == suffix.key else {
                    preconditionFailure("n-gram suffix missing from the lower order: counts are not closed under suffixes")
                }
                tally += 1
            }
            while let entry = current {
                try emit(entry, tally)
                tally = 0
                current = try table.next()
            }
            _ = try writer.finish()
            runs += sorter.runsWritten
            countsOfCounts[n] = t
        }
        do {
            var t = [UInt64](repeating: 0, count: 5)
            let table = try RecordReader<CountRecord>(path: sorted.tablePaths[N - 2], bufferBytes: io)
            while let record = try table.next() {
                if record.count >= 1 && record.count <= 4 { t[Int(record.count)] += 1 }
            }
            countsOfCounts[N] = t
        }
        var unigramAdjusted = [UInt64](repeating: 0, count: V)
        do {
            let table = try RecordReader<CountRecord>(path: sorted.tablePaths[0], bufferBytes: io)
            while let record = try table.next() { unigramAdjusted[Int(record.key.id(1, n: 2, bits: bits))] += 1 }
        }
        unigramAdjusted[Int(bos)] = 0
        for a in unigramAdjusted where a >= 1 && a <= 4 { countsOfCounts[1][Int(a)] += 1 }

        let (discounts, fallbackOrders) = KneserNey.discounts(countsOfCounts, order: N, fallback: options.fallbackDiscounts)

        // Count pruning: which n-grams stay, as a file of flags aligned with each table (none when
        // nothing is pruned). An n-gram stays when its count reaches its order's minimum, or when it
        // is the prefix or the suffix of one that stays (``KneserNey/close``), decided from the
        // highest order down: prefixes of a sorted table come sorted, suffixes go through a sort.
        let pruning = (2...N).contains { options.minCount(order: $0) > 1 }
        var keepPaths = [String](repeating: "", count: N + 1)
        var keptCounts = sorted.entryCounts
        if pruning {
            for n in stride(from: N, through: 2, by: -1) {
                let minimum = UInt32(options.minCount(order: n))
                let table = try RecordReader<CountRecord>(path: sorted.tablePaths[n - 2], bufferBytes: io)
                let writer = try RecordWriter<UInt8>(folder, name: "keep\(n)", bufferBytes: io)
                temporary.append(writer.path)
                var kept = 0
                if n == N {
                    while let record = try table.next() {
                        let keep = record.count >= minimum
                        if keep { kept += 1 }
                        try writer.append(keep ? 1 : 0)
                    }
                } else {
                    // The prefixes and suffixes of the kept n-grams of order n + 1, sorted together.
                    let forced = ExternalSorter<SuffixRecord>(folder: folder, name: "forced\(n)", budget: budget)
                    let higher = try RecordReader<CountRecord>(path: sorted.tablePaths[n - 1], bufferBytes: io)
                    let flags = try RecordReader<UInt8>(path: keepPaths[n + 1], bufferBytes: io)
                    while let record = try higher.next() {
                        guard let flag = try flags.next() else { throw SpillError.readFailed(flags.path, "it ends early") }
                        guard flag != 0 else { continue }
                        try forced.append(SuffixRecord(key: record.key.shiftedRight(bits)))
                        try forced.append(SuffixRecord(key: record.key.keepingLow(n * bits)))
                    }
                    var current = try table.next()
                    var mark = false   // `current` is a prefix or suffix of a kept n-gram
                    func emit(_ entry: CountRecord) throws(SpillError) {
                        let keep = mark || entry.count >= minimum
                        if keep { kept += 1 }
                        try writer.append(keep ? 1 : 0)
                    }
                    try forced.finish { key in
                        while let entry = current, entry.key < key.key {
                            try emit(entry)
                            mark = false
                            current = try table.next()
                        }
                        guard current?.key == key.key else {
                            preconditionFailure("n-gram prefix or suffix missing from the lower order: counts are not closed")
                        }
                        mark = true
                    }
                    while let entry = current {
                        try emit(entry)
                        mark = false
                        current = try table.next()
                    }
                    runs += forced.runsWritten
                }
                _ = try writer.finish()
                keepPaths[n] = writer.path
                keptCounts[n - 2] = kept
            }
        }
        /// The keep flags of order n in table order (nil: everything stays).
        func keepFlags(_ n: Int) throws -> RecordReader<UInt8>? {
            pruning ? try RecordReader<UInt8>(path: keepPaths[n], bufferBytes: io) : nil
        }
        func nextFlag(_ reader: RecordReader<UInt8>?) throws -> Bool {
            guard let reader else { return true }
            guard let flag = try reader.next() else { throw SpillError.readFailed(reader.path, "it ends early") }
            return flag != 0
        }
        let discount = KneserNey.discount
        let unigramProbs = KneserNey.unigramProbabilities(unigramAdjusted, discounts: discounts[0], vocabulary: V)
        unigramAdjusted = []

        /// Streams table n with its adjusted counts in context groups (entries sharing ids 1...n-1).
        func forEachGroup(order n: Int, _ body: ([CountRecord], [UInt32], [Bool]) throws -> Void) throws {
            let table = try RecordReader<CountRecord>(path: sorted.tablePaths[n - 2], bufferBytes: io)
            let adjusted = n < N ? try RecordReader<UInt32>(path: adjustedPaths[n], bufferBytes: io) : nil
            let flags = try keepFlags(n)
            var entries: [CountRecord] = [], counts: [UInt32] = [], kept: [Bool] = []
            var context = PackedKey()
            while let record = try table.next() {
                var a = record.count
                if let adjusted {
                    guard let x = try adjusted.next() else { throw SpillError.readFailed(adjusted.path, "it ends early") }
                    a = x
                }
                let prefix = record.key.shiftedRight(bits)
                if !entries.isEmpty && prefix != context {
                    try body(entries, counts, kept)
                    entries.removeAll(keepingCapacity: true)
                    counts.removeAll(keepingCapacity: true)
                    kept.removeAll(keepingCapacity: true)
                }
                context = prefix
                entries.append(record)
                counts.append(a)
                kept.append(try nextFlag(flags))
            }
            if !entries.isEmpty { try body(entries, counts, kept) }
        }

        func rowWriter(_ n: Int) throws(SpillError) -> RecordWriter<RowRecord> {
            let writer = try RecordWriter<RowRecord>(folder, name: "rows\(n)", bufferBytes: io)
            temporary.append(writer.path)
            return writer
        }

        var rowPaths = [String](repeating: "", count: N + 1)
        // 2. Order 2, with the unigram probabilities in memory; the γ of each word as a context.
        var unigramGamma = [Double](repeating: 1, count: V)
        var lowerPath: String   // probabilities of the order below (ProbabilityRecord), when N > 2
        do {
            let d = discounts[1]
            let probabilities = N > 2 ? try RecordWriter<ProbabilityRecord>(folder, name: "prob2", bufferBytes: io) : nil
            let rows = N == 2 ? try rowWriter(2) : nil
            if let probabilities { temporary.append(probabilities.path) }
            try forEachGroup(order: 2) { entries, a, kept in
                var denominator = 0.0, mass = 0.0
                for e in entries.indices {
                    denominator += Double(a[e])
                    mass += kept[e] ? discount(UInt64(a[e]), d) : Double(a[e])
                }
                let gamma = mass / denominator
                for e in entries.indices {
                    let key = entries[e].key
                    let p = (Double(a[e]) - discount(UInt64(a[e]), d)) / denominator
                        + gamma * unigramProbs[Int(key.id(1, n: 2, bits: bits))]
                    if let probabilities {
                        try probabilities.append(ProbabilityRecord(key: key, probability: p, count: entries[e].count))
                    } else if kept[e] {
                        try rows!.append(RowRecord(key: key, logProb: log10(p), logBackoff: 0, count: entries[e].count))
                    }
                }
                unigramGamma[Int(entries[0].key.id(0, n: 2, bits: bits))] = gamma
            }
            _ = try probabilities?.finish()
            if let rows { _ = try rows.finish(); rowPaths[2] = rows.path }
            lowerPath = probabilities?.path ?? ""
            if N > 2 { unlink(adjustedPaths[2]) }
        }

        // 3. Orders 3...N.
        if N >= 3 {
            for n in 3...N {
                let d = discounts[n - 1]
                let pending = ExternalSorter<PendingRecord>(folder: folder, name: "pending\(n)", budget: budget)
                let gammas = try RecordWriter<GammaRecord>(folder, name: "gamma\(n - 1)", bufferBytes: io)
                temporary.append(gammas.path)
                try forEachGroup(order: n) { entries, a, kept in
                    var denominator = 0.0, mass = 0.0
                    for e in entries.indices {
                        denominator += Double(a[e])
                        mass += kept[e] ? discount(UInt64(a[e]), d) : Double(a[e])
                    }
                    let gamma = mass / denominator
                    for e in entries.indices {
                        let discounted = (Double(a[e]) - discount(UInt64(a[e]), d)) / denominator
                        try pending.append(PendingRecord(rotated: entries[e].key.rotated(n: n, bits: bits), discounted: discounted,
                                                         gamma: gamma, count: entries[e].count))
                    }
                    try gammas.append(GammaRecord(key: entries[0].key.shiftedRight(bits), gamma: gamma))
                }
                _ = try gammas.finish()

                // Interpolate with the order below (sorted by suffix), then back to id order.
                let back = ExternalSorter<ProbabilityRecord>(folder: folder, name: "prob\(n)-sort", budget: budget)
                do {
                    let lower = try RecordReader<ProbabilityRecord>(path: lowerPath, bufferBytes: io)
                    var current = try lower.next()
                    try pending.finish { record in
                        let (suffix, key) = record.rotated.unrotated(n: n, bits: bits)
                        while let entry = current, entry.key < suffix { current = try lower.next() }
                        guard let entry = current, entry.key == suffix else {
                            preconditionFailure("n-gram suffix missing from the lower order: counts are not closed under suffixes")
                        }
                        let p = record.discounted + record.gamma * entry.probability
                        try back.append(ProbabilityRecord(key: key, probability: p, count: record.count))
                    }
                }
                runs += pending.runsWritten
                let probabilities = n < N ? try RecordWriter<ProbabilityRecord>(folder, name: "prob\(n)", bufferBytes: io) : nil
                let rows = n == N ? try rowWriter(n) : nil
                if let probabilities { temporary.append(probabilities.path) }
                let highestFlags = n == N ? try keepFlags(n) : nil
                try back.finish { record in
                    if let probabilities {
                        try probabilities.append(record)
                    } else if try nextFlag(highestFlags) {
                        try rows!.append(RowRecord(key: record.key, logProb: log10(record.probability), logBackoff: 0,
                                                   count: record.count))
                    }
                }
                _ = try probabilities?.finish()
                runs += back.runsWritten
                if let rows { _ = try rows.finish(); rowPaths[n] = rows.path }

                // Order n - 1 is complete: its probabilities with the γ of the contexts among them.
                do {
                    let lower = try RecordReader<ProbabilityRecord>(path: lowerPath, bufferBytes: io)
                    let contexts = try RecordReader<GammaRecord>(path: gammas.path, bufferBytes: io)
                    let rows = try rowWriter(n - 1)
                    let flags = try keepFlags(n - 1)
                    var context = try contexts.next()
                    while let entry = try lower.next() {
                        var gamma = 1.0
                        if let c = context, c.key == entry.key {
                            gamma = c.gamma
                            context = try contexts.next()
                        }
                        guard try nextFlag(flags) else { continue }
                        try rows.append(RowRecord(key: entry.key, logProb: log10(entry.probability), logBackoff: log10(gamma),
                                                  count: entry.count))
                    }
                    precondition(context == nil, "n-gram prefix missing from the lower order")
                    _ = try rows.finish()
                    rowPaths[n - 1] = rows.path
                }
                unlink(lowerPath)
                unlink(gammas.path)
                if n < N { unlink(adjustedPaths[n]) }
                lowerPath = probabilities?.path ?? ""
            }
        }

        var unigramLogProb = unigramProbs.map(log10)
        unigramLogProb[Int(bos)] = LanguageModel.sentenceStartLogProb
        let finals = Array(rowPaths[2...N])
        temporary.removeAll { finals.contains($0) }
        let model = StreamedModel(
            order: N, words: sorted.words, unigramCounts: sorted.unigramCounts, tokens: sorted.tokens,
            sentences: sorted.sentences, unigramLogProb: unigramLogProb, unigramLogBackoff: unigramGamma.map(log10),
            discounts: discounts, fallbackOrders: fallbackOrders, entryCounts: keptCounts,
            pruned: [0] + zip(sorted.entryCounts, keptCounts).map { $0 - $1 }, folder: folder,
            idBits: bits, rowPaths: finals)
        model.sortedRuns = runs
        var result = model
        if options.entropyThreshold > 0 {
            result = try StreamingEntropyPruning.prune(model, threshold: options.entropyThreshold, budget: budget)
        }
        if options.clusters > 0 {
            result.clusterModel = try ClusterModel(sorted: sorted, classes: options.clusters, budget: budget)
            result.clusterWeight = options.clusterWeight
        }
        if options.formRules > 0 {
            result.formRules = FormRules.learn(words: sorted.words, limit: options.formRules)
        }
        return result
    }
}
