import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Word classes learnt from n-grams sorted on disk (``SortedNgrams``), for builds under a memory
/// budget: the same classes, class counts and class model as from the counts in memory, bit for
/// bit, with memory growing with the vocabulary and the number of classes, not with the n-grams.
extension WordClusters {
    /// Clusters the words of `sorted` (from its bigram table) into at most `classes` classes, as
    /// ``exchange(_:classes:iterations:)`` does with the counts in memory: the same classes, passes
    /// and moves, bit for bit.
    ///
    /// Instead of successor and predecessor lists in memory, each pass reads the bigram file (sorted
    /// by (a, b): each word's successors in b order) alongside a copy sorted by (b, a) (each word's
    /// predecessors in a order), made once by an ``ExternalSorter`` of `budget` bytes in
    /// `sorted.folder` and removed on return, also when an error is thrown. The words are visited
    /// in id order with the same edges in the same order as in memory, so every floating-point sum
    /// is the same.
    ///
    /// - Parameter budget: bytes of the external sort's buffer; file buffers take 64 KiB to 1 MiB each (two or three).
    /// - Complexity: per pass, reading both bigram files once plus O(Σ_w K × (classes next to w));
    ///   memory O(V + C²) with C = K + 3, the sort's budget and one word's edges (at most 2V).
    /// - Throws: ``SpillError`` when the temporary file cannot be written or a file read.
    public static func exchange(_ sorted: SortedNgrams, classes: Int, iterations: Int = 15, budget: Int) throws -> WordClusters {
        let V = sorted.words.count
        var state = Exchange(vocabulary: V, classes: classes)
        guard sorted.order >= 2, V > reserved else { return state.clusters }
        try withStreamedEdges(sorted, budget: budget, bigram: { state.add($0, $1, $2) }) { edges in
            try state.run(iterations: iterations) { (state) throws in
                try edges.forEachWord(from: reserved) { w, out, inn in state.visit(word: w, out: out, in: inn) }
            }
        }
        return state.clusters
    }

    /// The successors and predecessors of each word with their bigram counts, read from files in
    /// step with the words: the bigram table of a ``SortedNgrams`` (sorted by (a, b): successors
    /// in b order) and a copy sorted by (b, a) (predecessors in a order), the same edges in the
    /// same order as ``Exchange/MemoryEdges``. Memory: two file buffers and one word's edges.
    package struct StreamedEdges {
        let successors: String
        let predecessors: String
        let vocabulary: Int
        let bits: Int
        let bufferBytes: Int

        /// Calls `body` with every word `first`..<V in id order, its successors and its
        /// predecessors (valid during the call only; empty for a word without bigrams), reading
        /// both files once.
        package func forEachWord(from first: Int, _ body: (Int, UnsafeBufferPointer<Exchange.Edge>, UnsafeBufferPointer<Exchange.Edge>) throws -> Void) throws {
            let outReader = try RecordReader<CountRecord>(path: successors, bufferBytes: bufferBytes)
            let inReader = try RecordReader<CountRecord>(path: predecessors, bufferBytes: bufferBytes)
            var nextOut = try outReader.next(), nextIn = try inReader.next()
            var outEdges: [Exchange.Edge] = [], inEdges: [Exchange.Edge] = []
            let bits = self.bits
            // The edges of word w from a reader at w's first record (records of words before w,
            // not visited, are skipped).
            func read(_ w: Int, _ reader: RecordReader<CountRecord>, _ next: inout CountRecord?, into edges: inout [Exchange.Edge]) throws {
                edges.removeAll(keepingCapacity: true)
                while let record = next {
                    let a = Int(record.key.id(0, n: 2, bits: bits))
                    if a > w { break }
                    if a == w { edges.append(.init(word: record.key.id(1, n: 2, bits: bits), count: record.count)) }
                    next = try reader.next()
                }
            }
            for w in first..<vocabulary {
                try read(w, outReader, &nextOut, into: &outEdges)
                try read(w, inReader, &nextIn, into: &inEdges)
                try outEdges.withUnsafeBufferPointer { out in
                    try inEdges.withUnsafeBufferPointer { inn in try body(w, out, inn) }
                }
            }
        }
    }

    /// Calls `body` with the ``StreamedEdges`` of `sorted`, after `bigram` with every bigram (a, b,
    /// count) in (a, b) order. The copy sorted by (b, a) is made by an ``ExternalSorter`` of
    /// `budget` bytes in `sorted.folder` and removed on return, also when an error is thrown.
    /// `sorted.order` must be 2 or more.
    package static func withStreamedEdges<T>(_ sorted: SortedNgrams, budget: Int, bigram: (UInt32, UInt32, UInt32) -> Void,
                                             _ body: (StreamedEdges) throws -> T) throws -> T {
        let bits = sorted.idBits
        let io = max(64 << 10, min(1 << 20, budget / 8))
        let successors = sorted.tablePaths[0]
        let sorter = ExternalSorter<CountRecord>(folder: sorted.folder, name: "bigrams-by-successor", budget: budget)
        do {
            let table = try RecordReader<CountRecord>(path: successors, bufferBytes: io)
            while let record = try table.next() {
                let a = record.key.id(0, n: 2, bits: bits), b = record.key.id(1, n: 2, bits: bits)
                bigram(a, b, record.count)
                var key = PackedKey()
                key.append(b, bits: bits)
                key.append(a, bits: bits)
                try sorter.append(CountRecord(key: key, count: record.count))
            }
        }
        let writer = try RecordWriter<CountRecord>(sorted.folder, name: "bigrams-by-successor", bufferBytes: io)
        let predecessors = writer.path
        defer { unlink(predecessors) }
        try sorter.finish { try writer.append($0) }
        _ = try writer.finish()
        return try body(StreamedEdges(successors: successors, predecessors: predecessors, vocabulary: sorted.words.count,
                                      bits: bits, bufferBytes: io))
    }

    /// The counts of `sorted` with every word replaced by its class, as ``classCounts(_:)`` gives
    /// them from the counts in memory: the same words (class names), unigram counts, totals and
    /// tables (sorted by class-id tuple, counts of equal class n-grams summed, saturating at
    /// `UInt32.max`).
    ///
    /// Each table file is read once, its keys remapped to class ids (packed with enough bits for
    /// ``classIDs``) into an ``ExternalSorter`` of `budget` bytes in `sorted.folder`, and the sorted
    /// stream summed into an in-memory table: class tables are small (at most C^n entries, and no
    /// more than the word n-grams).
    ///
    /// - Complexity: O(E log E) for E n-grams of all orders; memory the sort's budget and the class tables.
    /// - Throws: ``SpillError`` when the sort's runs cannot be written or a file read.
    public func classCounts(_ sorted: SortedNgrams, budget: Int) throws -> NgramCounts {
        let (words, unigrams) = classVocabulary(words: sorted.words, unigramCounts: sorted.unigramCounts)
        let bits = sorted.idBits
        let classBits = SortedNgrams.bits(forVocabulary: classIDs)
        let io = max(64 << 10, min(1 << 20, budget / 8))
        var tables: [NgramCounts.Table] = []
        if sorted.order >= 2 {
            for n in 2...sorted.order {
                let sorter = ExternalSorter<CountRecord>(folder: sorted.folder, name: "classes\(n)", budget: budget)
                let reader = try RecordReader<CountRecord>(path: sorted.tablePaths[n - 2], bufferBytes: io)
                while let record = try reader.next() {
                    var key = PackedKey()
                    for j in 0..<n { key.append(classOf[Int(record.key.id(j, n: n, bits: bits))], bits: classBits) }
                    try sorter.append(CountRecord(key: key, count: record.count))
                }
                var keys: [UInt32] = [], counts: [UInt32] = []
                try SortedNgrams.forEachSummed(sorter) { record in
                    for j in 0..<n { keys.append(record.key.id(j, n: n, bits: classBits)) }
                    counts.append(record.count)
                }
                tables.append(NgramCounts.Table(n: n, keys: keys, counts: counts))
            }
        }
        return NgramCounts(order: sorted.order, words: words, unigramCounts: unigrams, tables: tables,
                           tokens: sorted.tokens, sentences: sorted.sentences)
    }
}

extension ClusterModel {
    /// The class model of `sorted`, identical to `ClusterModel(counts: sorted.load(), classes:
    /// classes, iterations: iterations)` without the word n-grams in memory: classes from
    /// ``WordClusters/exchange(_:classes:iterations:budget:)``, class counts from
    /// ``WordClusters/classCounts(_:budget:)`` (in memory, as small as the class model), estimated
    /// as in memory.
    ///
    /// - Parameter budget: bytes of each external sort's buffer (one is alive at a time).
    /// - Throws: ``SpillError`` when the temporary files cannot be written or read.
    public convenience init(sorted: SortedNgrams, classes: Int, iterations: Int = 15, budget: Int) throws {
        let clusters = try WordClusters.exchange(sorted, classes: classes, iterations: iterations, budget: budget)
        self.init(clusters: clusters, classCounts: try clusters.classCounts(sorted, budget: budget),
                  unigramCounts: sorted.unigramCounts)
    }
}
