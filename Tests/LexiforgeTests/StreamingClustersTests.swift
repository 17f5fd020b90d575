import Foundation
import LexiforgeNgrams
import Testing

/// Word classes from n-grams sorted on disk (``WordClusters/exchange(_:classes:iterations:budget:)``,
/// ``WordClusters/classCounts(_:budget:)``, ``ClusterModel/init(sorted:classes:iterations:budget:)``)
/// against the same from the counts in memory: everything must be identical, bit for bit.
@Suite("Streaming word classes")
struct StreamingClustersTests {
    /// Hand-made corpora: interchangeable words, one-word sentences, repeated words (self-loops),
    /// a vocabulary smaller than most class counts.
    static let small: [(name: String, sentences: [[String]])] = [
        ("kinds", [
            "the cat sat", "a dog ran", "the bird slept", "a cat slept", "the dog sat", "a bird ran",
            "the cat ran", "a dog slept", "the bird sat", "a cat sat", "the dog ran", "a bird slept",
        ].map { $0.split(separator: " ").map(String.init) }),
        ("one-word sentences", [["a"], ["a", "a", "a"], ["b", "a", "b", "a"], ["c"], ["a", "b", "c", "a", "b"], ["c"]]),
        ("repeated words", [["x", "x", "x", "x", "x"], ["x", "y", "x", "y", "x", "y"], ["y"], ["z", "x", "x", "z"],
                            ["x", "y", "z"], ["x", "y", "z", "x"], ["w", "v", "x", "v", "w"]]),
        ("one sentence", [["only"]]),
    ]

    static func counts(order: Int, sentences: [[String]]) -> NgramCounts {
        let counter = NgramCounter(order: order)
        for sentence in sentences { counter.add(sentence: sentence) }
        return counter.finish()
    }

    /// `counts` without any n-gram holding word `id` (which keeps its unigram count): a word with no
    /// bigram edges, visited by the exchange all the same.
    static func isolating(_ counts: NgramCounts, word id: UInt32) -> NgramCounts {
        var result = counts
        result.tables = counts.tables.map { t in
            var keys: [UInt32] = [], kept: [UInt32] = []
            for e in 0..<t.entryCount where !t.ids(of: e).contains(id) {
                keys += t.ids(of: e)
                kept.append(t.counts[e])
            }
            return NgramCounts.Table(n: t.n, keys: keys, counts: kept)
        }
        return result
    }

    /// A seeded Zipf-ish text over `vocabulary` made-up words, with a few frequent function words
    /// whose neighbours make classes worth moving between.
    static func generated(seed: UInt64, sentences: Int, vocabulary: Int) -> [[String]] {
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        let words = (0..<vocabulary).map { "w\($0)" }
        func word() -> String { words[Int(Double(words.count) * pow(Double(next() % 10_000) / 10_000, 2.2))] }
        return (0..<sentences).map { _ in
            (0..<(3 + Int(next() % 9))).map { _ in
                switch next() % 10 {
                case 0: "the"
                case 1: "of"
                case 2: next() % 2 == 0 ? "and" : "to"
                default: word()
                }
            }
        }
    }

    /// A private temporary folder removed on return, with a spill folder in it.
    static func withSpill<T>(_ body: (SpillFolder) throws -> T) throws -> T {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lexiforge-sclusters-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        return try body(try SpillFolder(in: dir.path))
    }

    static func files(_ folder: SpillFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// Runs all three streamed computations on `counts` and checks each against memory, and that
    /// no temporary file is left in the spill folder. Returns the in-memory clusters.
    @discardableResult
    static func compare(_ counts: NgramCounts, classes: Int, budget: Int, iterations: Int = 15,
                        _ label: String, model: Bool = true) throws -> WordClusters {
        try withSpill { folder in
            let sorted = try SortedNgrams(counts, folder: folder)
            let tableFiles = try files(folder)

            let memory = WordClusters.exchange(counts, classes: classes, iterations: iterations)
            let streamed = try WordClusters.exchange(sorted, classes: classes, iterations: iterations, budget: budget)
            #expect(streamed.classOf == memory.classOf, "\(label): classes")
            #expect(streamed.count == memory.count && streamed.passes == memory.passes
                    && streamed.lastMoves == memory.lastMoves,
                    "\(label): \(streamed.count) \(streamed.passes) \(streamed.lastMoves) vs \(memory.count) \(memory.passes) \(memory.lastMoves)")
            #expect(try files(folder) == tableFiles, "\(label): temporary files left by exchange")

            let classCounts = memory.classCounts(counts)
            let streamedCounts = try memory.classCounts(sorted, budget: budget)
            #expect(streamedCounts.words == classCounts.words, "\(label)")
            #expect(streamedCounts.unigramCounts == classCounts.unigramCounts, "\(label)")
            #expect(streamedCounts.tables.count == classCounts.tables.count, "\(label)")
            for (a, b) in zip(streamedCounts.tables, classCounts.tables) {
                #expect(a.n == b.n && a.keys == b.keys && a.counts == b.counts, "\(label): class table of order \(b.n)")
            }
            #expect(streamedCounts == classCounts, "\(label): class counts")
            #expect(try files(folder) == tableFiles, "\(label): temporary files left by classCounts")

            if model {
                let a = ClusterModel(counts: counts, classes: classes, iterations: iterations)
                let b = try ClusterModel(sorted: sorted, classes: classes, iterations: iterations, budget: budget)
                #expect(b.clusters == a.clusters, "\(label): model clusters")
                #expect(b.memberLogProb.map(\.bitPattern) == a.memberLogProb.map(\.bitPattern), "\(label): p(w | c)")
                #expect(b.model.counts == a.model.counts, "\(label): model counts")
                #expect(b.model.unigramLogProb.map(\.bitPattern) == a.model.unigramLogProb.map(\.bitPattern), "\(label)")
                #expect(b.model.unigramLogBackoff.map(\.bitPattern) == a.model.unigramLogBackoff.map(\.bitPattern), "\(label)")
                #expect(b.model.logProbs.map { $0.map(\.bitPattern) } == a.model.logProbs.map { $0.map(\.bitPattern) }, "\(label)")
                #expect(b.model.logBackoffs.map { $0.map(\.bitPattern) } == a.model.logBackoffs.map { $0.map(\.bitPattern) }, "\(label)")
                #expect(b.model.discounts == a.model.discounts && b.model.pruned == a.model.pruned, "\(label)")
                #expect(try files(folder) == tableFiles, "\(label): temporary files left by ClusterModel")
            }
            return memory
        }
    }

    @Test("streamed exchange, class counts and class model equal the in-memory ones on small corpora",
          arguments: [2, 3, 4])
    func smallCorpora(order: Int) throws {
        for corpus in Self.small {
            let counts = Self.counts(order: order, sentences: corpus.sentences)
            // K = 1, small K, and K above the vocabulary (clamped to it).
            for classes in [1, 2, 3, 5, 50] {
                for budget in [1024, 1 << 20] {
                    try Self.compare(counts, classes: classes, budget: budget, "\(corpus.name), order \(order), K \(classes), budget \(budget)")
                }
            }
        }
    }

    @Test("a word with no bigrams is visited and may move as in memory", arguments: [2, 3, 4])
    func wordWithoutEdges(order: Int) throws {
        let counts = Self.counts(order: order, sentences: Self.small[0].sentences + Self.small[2].sentences)
        // A word in the middle of the ids and the last one, each without any n-gram.
        for word in ["cat", counts.words.last!] {
            let id = UInt32(counts.words.firstIndex(of: word)!)
            let isolated = Self.isolating(counts, word: id)
            #expect(!isolated.table(order: 2).keys.contains(id))
            for classes in [2, 4, 7, 50] {
                try Self.compare(isolated, classes: classes, budget: 1024, "without \(word), order \(order), K \(classes)")
            }
        }
    }

    @Test("one and zero passes, and counts of one order", arguments: [0, 1])
    func fewPasses(iterations: Int) throws {
        let counts = Self.counts(order: 3, sentences: Self.small[0].sentences)
        try Self.compare(counts, classes: 3, budget: 1024, iterations: iterations, "\(iterations) passes")
        // Order 1: no bigrams, the start classes.
        let unigrams = Self.counts(order: 1, sentences: Self.small[0].sentences)
        try Self.compare(unigrams, classes: 3, budget: 1024, iterations: iterations, "order 1", model: false)
    }

    /// The gains are floating-point sums over classes in the order a word's edges first touch
    /// them, so equal classes alone do not show the order is kept: the edges themselves must be
    /// the same, in the same order, word by word.
    @Test("streamed edges are the in-memory edges in the same order", arguments: [1024, 1 << 20])
    func edgesInTheSameOrder(budget: Int) throws {
        var corpora = Self.small.map { Self.counts(order: 2, sentences: $0.sentences) }
        let generated = Self.counts(order: 2, sentences: Self.generated(seed: 5, sentences: 700, vocabulary: 300))
        corpora += [generated, Self.isolating(generated, word: 40)]
        for counts in corpora {
            typealias Edges = [WordClusters.Exchange.Edge]
            var memory: [(Int, Edges, Edges)] = []
            WordClusters.Exchange.MemoryEdges(counts.table(order: 2), vocabulary: counts.words.count).forEachWord(from: 3) {
                memory.append(($0, Array($1), Array($2)))
            }
            try Self.withSpill { folder in
                let sorted = try SortedNgrams(counts, folder: folder)
                let tableFiles = try Self.files(folder)
                var bigrams: [UInt32] = []
                var streamed: [(Int, Edges, Edges)] = []
                try WordClusters.withStreamedEdges(sorted, budget: budget, bigram: { bigrams += [$0, $1, $2] }) { edges in
                    #expect(try Self.files(folder).count == tableFiles.count + 1)
                    for _ in 0..<2 {
                        streamed = []
                        try edges.forEachWord(from: 3) { streamed.append(($0, Array($1), Array($2))) }
                    }
                }
                #expect(try Self.files(folder) == tableFiles)
                let table = counts.table(order: 2)
                #expect(bigrams == (0..<table.entryCount).flatMap { Array(table.ids(of: $0)) + [table.counts[$0]] })
                #expect(streamed.count == memory.count && streamed.count == counts.words.count - 3)
                let differ = zip(streamed, memory).filter { $0.0 != $1.0 || $0.1 != $1.1 || $0.2 != $1.2 }
                #expect(differ.isEmpty, "\(differ.count) words with other edges, first \(differ.first.map { "\($0.0.0)" } ?? "")")
            }
        }
    }

    /// Thousands of tokens over about 300 words: classes move for several passes, and with a
    /// 1 KiB budget (sorter buffers of 1,024 records) the sorts spill runs and merge them.
    @Test("a generated corpus where classes move, with sorts that spill", arguments: [(UInt64(7), 2, 8), (11, 3, 24), (13, 4, 60)])
    func generatedCorpus(seed: UInt64, order: Int, classes: Int) throws {
        let counts = Self.counts(order: order, sentences: Self.generated(seed: seed, sentences: 700, vocabulary: 300))
        #expect(counts.tokens > 3000 && counts.words.count > 250)
        #expect(counts.table(order: 2).entryCount > 2 * 1024, "too few bigrams for the sort to spill")
        let clusters = try Self.compare(counts, classes: classes, budget: 1024, "seed \(seed), order \(order), K \(classes)")
        // The words moved away from their start classes, over more than one pass.
        let start = WordClusters.Exchange(vocabulary: counts.words.count, classes: classes).classOf
        #expect(clusters.passes > 1)
        #expect(zip(clusters.classOf, start).filter { $0 != $1 }.count > 20)
        // A larger budget (no spill) gives the same.
        try Self.compare(counts, classes: classes, budget: 64 << 20, "seed \(seed), large budget", model: false)
    }
}
