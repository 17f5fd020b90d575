import Foundation
import LexiforgeNgrams
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeTestSupport
import Testing

/// Word classes (exchange algorithm) and the class-based model interpolated with the word model.
@Suite("Word classes")
struct WordClustersTests {
    /// Twelve hand-written sentences over three kinds of word that take each other's places:
    /// determiners (the, a), nouns (cat, dog, bird) and verbs (sat, ran, slept).
    static let sentences: [[String]] = [
        "the cat sat", "a dog ran", "the bird slept", "a cat slept", "the dog sat", "a bird ran",
        "the cat ran", "a dog slept", "the bird sat", "a cat sat", "the dog ran", "a bird slept",
    ].map { $0.split(separator: " ").map(String.init) }

    static func counts(_ sentences: [[String]] = sentences, order: Int = 3) -> NgramCounts {
        let counter = NgramCounter(order: order)
        for s in sentences { counter.add(sentence: s) }
        return counter.finish()
    }

    @Test("the exchange algorithm puts words that take each other's places together")
    func exchangeFindsTheKinds() {
        let counts = Self.counts()
        let clusters = WordClusters.exchange(counts, classes: 3)
        func cls(_ w: String) -> UInt32 { clusters.classOf[counts.words.firstIndex(of: w)!] }
        #expect(cls("the") == cls("a"))
        #expect(cls("cat") == cls("dog") && cls("dog") == cls("bird"))
        #expect(cls("sat") == cls("ran") && cls("ran") == cls("slept"))
        #expect(Set([cls("the"), cls("cat"), cls("sat")]).count == 3)
        // The reserved ids keep their own classes; the algorithm stopped because nothing moved.
        #expect(clusters.classOf.prefix(3) == [0, 1, 2])
        #expect(clusters.lastMoves == 0)
        // Identical counts, identical classes.
        #expect(WordClusters.exchange(counts, classes: 3) == clusters)
    }

    @Test("class counts are the counts of the corpus written in classes")
    func classCountsEqualCountingClassSequences() {
        let counts = Self.counts(RankedQueryTests.corpus(seed: 7, sentences: 300, vocabulary: 60))
        let clusters = WordClusters.exchange(counts, classes: 8)
        let mapped = NgramCounter(order: 3)
        for s in RankedQueryTests.corpus(seed: 7, sentences: 300, vocabulary: 60) {
            mapped.add(sentence: s.map { "c\(clusters.classOf[counts.words.firstIndex(of: $0)!])" })
        }
        let direct = mapped.finish()
        let derived = clusters.classCounts(counts)
        // Same n-grams with the same counts, whatever ids each side gave the class names.
        func table(_ c: NgramCounts, _ n: Int) -> [String: UInt32] {
            let t = c.table(order: n)
            return Dictionary(uniqueKeysWithValues: (0..<t.entryCount).map { e in
                (t.ids(of: e).map { c.words[Int($0)] }.joined(separator: " "), t.counts[e])
            })
        }
        for n in 2...3 { #expect(table(direct, n) == table(derived, n), "order \(n)") }
        let unigrams = { (c: NgramCounts) in
            Dictionary(uniqueKeysWithValues: zip(c.words, c.unigramCounts).filter { $0.1 > 0 })
        }
        #expect(unigrams(direct) == unigrams(derived))
    }

    /// A store with a class model from the seeded corpus, and the model it was written from.
    static func store(_ dir: URL, seed: UInt64, classes: Int, weight: Double = 0.3, topLists: Bool = false) throws -> (String, LanguageModel) {
        let counter = NgramCounter(order: 3)
        for sentence in RankedQueryTests.corpus(seed: seed) { counter.add(sentence: sentence) }
        var options = EstimationOptions()
        options.clusters = classes
        options.clusterWeight = weight
        let model = KneserNey.estimate(counter.finish(), options: options)
        let path = dir.appendingPathComponent("c\(seed).sqlite").path
        let meta = [StoreSchema.MetaKey.order: "3",
                    StoreSchema.MetaKey.languageModel: LanguageModelStage.describe(model, options: options, vocabularySize: nil)]
        try StoreWriter.write(model: model, meta: meta, to: AtomicStoreFile.prepare(path: path), topLists: topLists)
        return (path, model)
    }

    @Test("p = (1 − λ) p_word + λ p(class | classes) p(word | class), summing to 1", arguments: [[String](), ["the"], ["of", "the"]])
    func interpolation(context: [String]) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lexiforge-cls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, model) = try Self.store(dir, seed: 11, classes: 12)
        let predictor = try NgramPredictor(store: TrainedStore(path: path))
        #expect(predictor.hasClusters)
        let cm = try #require(model.clusterModel)
        let words = model.counts.words
        let h = [Int32(StoreSchema.ReservedID.sentenceStart)] + context.map { predictor.id(of: $0)! }
        // The class model by hand, from the in-memory model: the longest class n-gram, with backoffs.
        let classModel = cm.model
        func entry(_ gram: [UInt32]) -> (logprob: Double, backoff: Double)? {
            if gram.count == 1 { return (classModel.unigramLogProb[Int(gram[0])], classModel.unigramLogBackoff[Int(gram[0])]) }
            let n = gram.count, t = classModel.counts.table(order: n)
            guard let e = (0..<t.entryCount).first(where: { Array(t.ids(of: $0)) == gram }) else { return nil }
            return (classModel.logProbs[n - 2][e], n - 2 < classModel.logBackoffs.count ? classModel.logBackoffs[n - 2][e] : 0)
        }
        func classLog10(_ c: UInt32, _ ctx: [UInt32]) -> Double {
            var backoff = 0.0
            for k in stride(from: ctx.count, through: 1, by: -1) {
                if let e = entry(Array(ctx.suffix(k)) + [c]) { return e.logprob + backoff }
                backoff += entry(Array(ctx.suffix(k)))?.backoff ?? 0
            }
            return classModel.unigramLogProb[Int(c)] + backoff
        }
        let classContext = h.suffix(2).map { cm.clusters.classOf[Int($0)] }
        var sum = 0.0
        for id in words.indices where id != Int(StoreSchema.ReservedID.sentenceStart) {
            let pWord = pow(10, Double(try predictor.logProb(of: Int32(id), context: h).value) / StoreSchema.logScale)
            let c = cm.clusters.classOf[id]
            let pClass = pow(10, classLog10(c, Array(classContext)) + cm.memberLogProb[id])
            let expected = 0.7 * pWord + 0.3 * pClass
            let got = pow(10, try #require(try predictor.log10Probabilities(of: Int32(id), context: h).interpolated))
            // Stored values are rounded to 1/1000 of a log10 unit.
            #expect(abs(got - expected) <= expected * 0.01, "\(words[id]) after \(context): \(got) vs \(expected)")
            sum += got
        }
        #expect(abs(sum - 1) < 0.005, "Σ p(w | \(context)) = \(sum)")
    }

    /// λ = 0.9 makes the class model decide: the best words are then often far down the word
    /// model's list, which checks the bound that ends the search.
    @Test("rankings by the interpolated probability are exact (brute force)",
          arguments: [(UInt64(21), 16, 0.4, true), (22, 6, 0.4, false), (23, 10, 0.9, true), (24, 40, 0.97, false)])
    func rankingAgainstBruteForce(seed: UInt64, classes: Int, weight: Double, topLists: Bool) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lexiforge-cls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, model) = try Self.store(dir, seed: seed, classes: classes, weight: weight, topLists: topLists)
        let predictor = try NgramPredictor(store: TrainedStore(path: path))
        let words = model.counts.words.filter { TrainedStore.isSuggestible($0) }
        for context in [["of", "the"], ["the"], [model.counts.words[9]], []] {
            func exact(_ w: String) throws -> Double { try predictor.probability(of: w, after: context, sentenceStart: context.isEmpty) }
            for prefix in ["", "a", "t", "th", "q"] {
                for excluded in [Set<String>(), ["the", "of"]] {
                    let candidates = words.filter { $0.hasPrefix(prefix) && !excluded.contains($0) }
                    let scored = try candidates.map { (word: $0, p: try exact($0)) }
                    let got = try predictor.completions(of: prefix, after: context, limit: 3, excluding: excluded)
                    #expect(got.count == min(3, candidates.count), "\(context) '\(prefix)'")
                    for p in got { #expect(abs(p.probability - (try exact(p.word))) < 1e-9 * max(1, p.probability), "\(context) '\(prefix)': \(p)") }
                    if let last = got.last {
                        let missing = scored.filter { s in !got.contains { $0.word == s.word } && s.p > last.probability * (1 + 1e-9) }
                        #expect(missing.isEmpty, "\(context) '\(prefix)': \(missing.prefix(3)) beat \(got)")
                    }
                }
            }
        }
    }

    @Test("both ways of finding the class model's best words agree: word by word in the prefix range, class by class")
    func classCandidatesBothWays() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lexiforge-cls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, _) = try Self.store(dir, seed: 25, classes: 12)
        let predictor = try NgramPredictor(store: TrainedStore(path: path))
        let clusters = try #require(predictor.clusters)
        for context in [[Int32(StoreSchema.ReservedID.sentenceStart)], [predictor.id(of: "the")!]] {
            let distribution = clusters.distribution(clusters.classContext(context))
            for prefix in ["a", "b", "th", "e"] {
                let range = predictor.prefixRange(Array(prefix.utf8))
                func allowed(_ id: Int32) -> Bool {
                    predictor.suggestible[Int(id)] && range.contains(Int(predictor.alphabeticalPosition[Int(id)]))
                }
                let direct = predictor.bestByClass(clusters, distribution, range: range, limit: 8, directScan: true, allowed: allowed)
                let byClass = predictor.bestByClass(clusters, distribution, range: range, limit: 8, directScan: false, allowed: allowed)
                #expect(!direct.isEmpty)
                #expect(direct.map(\.id) == byClass.map(\.id), "'\(prefix)' after \(context)")
            }
        }
    }

    @Test("learning and merging rebuild the classes exactly as counting the whole text")
    func learnAndMergeKeepTheClassModel() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lexiforge-cls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = RankedQueryTests.corpus(seed: 31, sentences: 400).map { $0.joined(separator: " ") + "." }
        let first = dir.appendingPathComponent("first.txt").path, second = dir.appendingPathComponent("second.txt").path
        try (text[..<200].joined(separator: "\n\n") + "\n").write(toFile: first, atomically: true, encoding: .utf8)
        try (text[200...].joined(separator: "\n\n") + "\n").write(toFile: second, atomically: true, encoding: .utf8)
        func build(_ files: [String], _ name: String) throws -> String {
            let output = dir.appendingPathComponent(name).path
            var config = NgramBuildConfig(inputs: files, output: output)
            config.languageModel = true
            config.estimation.clusters = 10
            _ = try NgramBuild.run(config, progress: StageProgress(quiet: true))
            return output
        }
        let whole = try build([first, second], "whole.sqlite")
        let a = try build([first], "a.sqlite"), b = try build([second], "b.sqlite")
        #expect(try TrainedStore(path: whole).optionalModelRows().filter { $0.hasPrefix("cluster_ngram ") }.count > 0)
        let merged = dir.appendingPathComponent("m.sqlite").path
        _ = try Merge.run(a, b, output: merged, progress: StageProgress(quiet: true))
        #expect(try StoreDiff.run(whole, merged).data.isEmpty)
        _ = try Learn.run(store: a, files: [second], sentences: [], progress: StageProgress(quiet: true))
        #expect(try StoreDiff.run(whole, a).data.isEmpty)
        // A different class count is a difference diff shows.
        let other = dir.appendingPathComponent("o.sqlite").path
        var config = NgramBuildConfig(inputs: [first, second], output: other)
        config.languageModel = true
        config.estimation.clusters = 4
        _ = try NgramBuild.run(config, progress: StageProgress(quiet: true))
        #expect(try StoreDiff.run(whole, other).data.contains { $0.hasPrefix("cluster_member") })
    }
}
