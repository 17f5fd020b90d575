import Foundation
import LexiforgeNgrams
import LexiforgeFormat
import LexiforgeStoreWriter
import Testing

private func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lexiforge-stream-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite("Streaming estimation")
struct StreamingEstimationTests {
    /// Hand-made corpora: sentences of one word, repeated words, tiny vocabularies whose
    /// counts-of-counts make the discounts fall back.
    static let small: [(name: String, order: Int, sentences: [[String]])] = [
        ("fallback bigrams", 2, [["a", "b"], ["a", "c"], ["b", "a", "b"]]),
        ("one-word sentences", 3, [["a"], ["a", "a", "a"], ["b", "a", "b", "a"], ["c"], ["a", "b", "c", "a", "b"], ["c"]]),
        ("repeated words", 4, [["x", "x", "x", "x", "x"], ["x", "y", "x", "y", "x", "y"], ["y"], ["z", "x", "x", "z"],
                               ["x", "y", "z"], ["x", "y", "z", "x"]]),
        ("one sentence", 3, [["only"]]),
    ]

    static func counts(order: Int, sentences: [[String]]) -> NgramCounts {
        let counter = NgramCounter(order: order)
        for sentence in sentences { counter.add(sentence: sentence) }
        return counter.finish()
    }

    /// Estimates `counts` both ways (streaming with a 4 KiB budget) and checks every value is
    /// bit-identical and the stores written are byte-identical. Returns the sorted runs written.
    @discardableResult
    static func compare(_ counts: NgramCounts, options: EstimationOptions = .init(), topLists: Bool? = nil, columns: Bool = false) throws -> Int {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let N = counts.order
        let model = KneserNey.estimate(counts, options: options)
        let folder = try SpillFolder(in: dir.path)
        let sorted = try SortedNgrams(counts, folder: folder)
        let streamed = try StreamingKneserNey.estimate(sorted, options: options, budget: 4096)

        #expect(streamed.order == N)
        #expect(streamed.words == model.counts.words)
        #expect(streamed.unigramLogProb.map(\.bitPattern) == model.unigramLogProb.map(\.bitPattern))
        #expect(streamed.unigramLogBackoff.map(\.bitPattern) == model.unigramLogBackoff.map(\.bitPattern))
        #expect(streamed.discounts == model.discounts)
        #expect(streamed.fallbackOrders == model.fallbackOrders)
        #expect(streamed.pruned == model.pruned)
        #expect(streamed.entryCounts == model.counts.tables.map(\.entryCount))
        for n in 2...N {
            let table = model.counts.table(order: n)
            var e = 0
            var mismatches = 0
            try streamed.forEachRow(order: n) { ids, count, logProb, logBackoff in
                guard e < table.entryCount else { mismatches += 1; return }
                let backoff = n < N ? model.logBackoffs[n - 2][e] : 0
                if Array(ids) != Array(table.ids(of: e)) || count != table.counts[e]
                    || logProb.bitPattern != model.logProbs[n - 2][e].bitPattern
                    || logBackoff.bitPattern != backoff.bitPattern {
                    mismatches += 1
                }
                e += 1
            }
            #expect(e == table.entryCount, "order \(n): \(e) rows, \(table.entryCount) entries")
            #expect(mismatches == 0, "order \(n): \(mismatches) rows differ")
        }

        let meta = [StoreSchema.MetaKey.order: "\(N)", StoreSchema.MetaKey.languageModel: "{}"]
        let words = columns
            ? StoreWriter.WordColumns(lemmas: counts.words.map { $0.count > 2 ? String($0.prefix(2)) : nil },
                                      scripts: counts.words.map { _ in 1 })
            : nil
        let inMemory = dir.appendingPathComponent("memory.sqlite").path
        let onDisk = dir.appendingPathComponent("streamed.sqlite").path
        try StoreWriter.write(model: model, meta: meta, words: words, to: AtomicStoreFile.prepare(path: inMemory), topLists: topLists)
        try StoreWriter.write(streamed: streamed, meta: meta, words: words, to: AtomicStoreFile.prepare(path: onDisk), topLists: topLists)
        let a = try Data(contentsOf: URL(fileURLWithPath: inMemory))
        let b = try Data(contentsOf: URL(fileURLWithPath: onDisk))
        #expect(a.count > 0)
        #expect(a == b, "stores differ: \(a.count) and \(b.count) bytes")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        // The sorted tables and the model's row files, one each per order; nothing else.
        #expect(left.count == 2 * (N - 1), "temporary files left beside the tables and rows: \(left)")
        return streamed.sortedRuns
    }

    @Test(arguments: small.indices)
    func smallCorporaMatchInMemoryEstimation(_ index: Int) throws {
        let corpus = Self.small[index]
        try Self.compare(Self.counts(order: corpus.order, sentences: corpus.sentences))
        try Self.compare(Self.counts(order: corpus.order, sentences: corpus.sentences), topLists: true, columns: true)
    }

    @Test func fallbackDiscountsAreReproduced() throws {
        let counts = Self.counts(order: 2, sentences: Self.small[0].sentences)
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let streamed = try StreamingKneserNey.estimate(try SortedNgrams(counts, folder: SpillFolder(in: dir.path)),
                                                       options: .init(), budget: 4096)
        #expect(streamed.fallbackOrders == [1, 2])
        try Self.compare(counts)
    }

    /// Random corpora large enough that every external sort of a 4 KiB budget spills many runs,
    /// with busy contexts for the `_top` tables.
    @Test(arguments: [(UInt64(1), 2), (2, 3), (3, 4), (4, 5)])
    func spilledSortsMatchInMemoryEstimation(seed: UInt64, order: Int) throws {
        let counts = Self.counts(order: order, sentences: RankedQueryTests.corpus(seed: seed, sentences: 1200, vocabulary: 300))
        let runs = try Self.compare(counts, topLists: true)
        if order >= 3 { #expect(runs >= 10, "\(runs) sorted runs") }
        try Self.compare(counts)
    }

    /// A store past ``StoreSchema/topContinuationThreshold`` rows: `_top` tables by the size rule
    /// and 4 KiB pages, as in real builds.
    @Test func largeStoreMatchesInMemoryWrite() throws {
        let counts = Self.counts(order: 3, sentences: RankedQueryTests.corpus(seed: 7, sentences: 16000, vocabulary: 4000))
        let rows = counts.words.count + counts.tables.reduce(0) { $0 + $1.entryCount }
        #expect(rows >= StoreSchema.topContinuationThreshold, "\(rows) rows")
        let runs = try Self.compare(counts)
        #expect(runs >= 100, "\(runs) sorted runs")
    }

    /// Count pruning streams too: the kept n-grams (closed under prefixes and suffixes), their
    /// values with the pruned ones' mass in their contexts' γ, and the pruned counts.
    @Test(arguments: [(UInt64(11), 3, [1, 2]), (12, 3, [1, 2, 3]), (13, 4, [1, 1, 2]), (14, 2, [1, 3]), (15, 5, [1, 2, 2, 3])])
    func countPruningMatchesInMemoryEstimation(seed: UInt64, order: Int, minCounts: [Int]) throws {
        var options = EstimationOptions()
        options.minCounts = minCounts
        let counts = Self.counts(order: order, sentences: RankedQueryTests.corpus(seed: seed, sentences: 1500, vocabulary: 200))
        let model = KneserNey.estimate(counts, options: options)
        #expect(model.pruned.contains { $0 > 0 }, "the corpus prunes something: \(model.pruned)")
        try Self.compare(counts, options: options, topLists: true)
        try Self.compare(counts, options: options)
    }

    /// Entropy pruning streams: the same n-grams dropped (from the highest order down, prefixes and
    /// suffixes of kept ones protected), the same renormalised backoffs, after count pruning or not.
    @Test(arguments: [(UInt64(21), 2, 1e-5, [Int]()), (22, 3, 1e-6, []), (23, 3, 1e-5, [1, 2]), (24, 4, 1e-6, []),
                      (25, 5, 1e-5, [1, 1, 2])])
    func entropyPruningMatchesInMemoryEstimation(seed: UInt64, order: Int, threshold: Double, minCounts: [Int]) throws {
        var options = EstimationOptions()
        options.entropyThreshold = threshold
        options.minCounts = minCounts
        let counts = Self.counts(order: order, sentences: RankedQueryTests.corpus(seed: seed, sentences: 1500, vocabulary: 200))
        let model = KneserNey.estimate(counts, options: options)
        var unpruned = options
        unpruned.entropyThreshold = 0
        let before = KneserNey.estimate(counts, options: unpruned).pruned
        #expect((1..<order).contains { model.pruned[$0] > before[$0] }, "entropy pruning drops something: \(model.pruned)")
        try Self.compare(counts, options: options, topLists: true)
        try Self.compare(counts, options: options)
    }

    /// Word classes stream (the exchange algorithm over the bigram file and its (b, a) copy, class
    /// counts through a sort), alone and with every other option.
    @Test(arguments: [(UInt64(31), 2, 5, false), (32, 3, 8, false), (33, 4, 3, true)])
    func wordClassesMatchInMemoryEstimation(seed: UInt64, order: Int, classes: Int, everything: Bool) throws {
        var options = EstimationOptions()
        options.clusters = classes
        if everything { (options.entropyThreshold, options.formRules, options.minCounts) = (1e-5, 20, [1, 1, 2]) }
        let counts = Self.counts(order: order, sentences: RankedQueryTests.corpus(seed: seed, sentences: 600, vocabulary: 150))
        let model = KneserNey.estimate(counts, options: options)
        #expect(model.clusterModel.map { $0.clusters.passes > 1 } == true)
        try Self.compare(counts, options: options, topLists: true)
    }

    /// `vocab_size` on disk: the kept words keep their ids, the others become `<unk>`, tables
    /// remapped and summed through spilling sorts, as in memory; then the estimation streams.
    @Test(arguments: [(UInt64(41), 3, 20), (42, 4, 5), (43, 2, 150), (44, 3, 1000)])
    func limitedVocabularyMatchesInMemory(seed: UInt64, order: Int, size: Int) throws {
        let counts = Self.counts(order: order, sentences: RankedQueryTests.corpus(seed: seed, sentences: 800, vocabulary: 200))
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let limited = try SortedNgrams(counts, folder: SpillFolder(in: dir.path)).limitingVocabulary(to: size, budget: 1024)
        let expected = counts.limitingVocabulary(to: size)
        let loaded = try limited.load()
        #expect(loaded.words == expected.words)
        #expect(loaded.unigramCounts == expected.unigramCounts)
        for (a, b) in zip(loaded.tables, expected.tables) {
            #expect(a.keys == b.keys && a.counts == b.counts, "order \(a.n)")
        }
        try Self.compare(expected)
    }

    /// Form rules come from the vocabulary alone, so they stream as they are.
    @Test func formRulesMatchInMemoryEstimation() throws {
        var options = EstimationOptions()
        options.formRules = 40
        let sentences = [["the", "cats", "walked", "home"], ["a", "cat", "walks"], ["dogs", "walking", "talked"],
                         ["the", "dog", "talks", "and", "walks"], ["talking", "cats", "walked"]]
        let model = KneserNey.estimate(Self.counts(order: 3, sentences: sentences), options: options)
        #expect(model.formRules.map { !$0.rules.isEmpty } == true)
        try Self.compare(Self.counts(order: 3, sentences: sentences), options: options)
    }

    @Test func missingTemporaryFolderIsReported() {
        let missing = "/nonexistent-lexiforge-\(UUID().uuidString)"
        #expect(throws: SpillError.folderMissing(missing)) { try SpillFolder(in: missing) }
    }

    @Test func onlyOrdersOutsideTwoToFiveAreRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var everything = EstimationOptions()
        (everything.entropyThreshold, everything.clusters, everything.formRules, everything.minCounts) = (1e-7, 4, 10, [1, 2])
        #expect(StreamingKneserNey.supports(everything, order: 3))
        #expect(StreamingKneserNey.supports(.init(), order: 3))
        #expect(!StreamingKneserNey.supports(.init(), order: 6))
        #expect(!StreamingKneserNey.supports(.init(), order: 1))
        let unigrams = try SortedNgrams(Self.counts(order: 1, sentences: Self.small[1].sentences), folder: SpillFolder(in: dir.path))
        #expect(throws: StreamingEstimationError.self) {
            try StreamingKneserNey.estimate(unigrams, options: .init(), budget: 4096)
        }
    }
}
