import Foundation
@testable import LexiforgePipeline
import LexiforgeReader
import Testing

/// The decoder's shortlist terms and context weighting, and the likelihood fit of `swipe tune`.
@Suite("swipe scoring")
struct SwipeScoringTests {
    @Test("ln(eᵃ + eᵇ) without overflow or underflow")
    func logSum() {
        #expect(abs(SwipeDecoder.logSum(0, 0) - log(2)) < 1e-12)
        #expect(abs(SwipeDecoder.logSum(-1000, -1000) - (-1000 + log(2))) < 1e-9)
        #expect(SwipeDecoder.logSum(1000, 0) == 1000)
        #expect(abs(SwipeDecoder.logSum(log(3), log(5)) - log(8)) < 1e-12)
    }

    @Test("a perfect swipe's own word has no robust location or turning difference; another word has")
    func shapeTerms() throws {
        var options = SwipeDecoderOptions()
        options.limit = 12
        let decoder = SwipeDecoder(dictionary: SwipeFixture.dictionary(SwipeDecoderTests.words), options: options)
        let candidates = decoder.decode(SwipeFixture.perfect("world")).candidates
        let world = try #require(candidates.first { $0.word == "world" })
        let word = try #require(candidates.first { $0.word == "word" })
        #expect(world.terms.robust < 1e-6 && world.terms.turning < 1e-6, "\(world.terms)")
        #expect(word.terms.robust > 0.01 && word.terms.turning > 0.01, "\(word.terms)")
        // w-o-r-l-d passes every inner key of its own path.
        #expect(world.terms.missedMean < 1e-9 && world.terms.missed < 1e-9)
    }

    /// The tiny language model of ``SwipeContextTests``, a dictionary of in, on, the, bus on its
    /// ids, and a swipe from between i and o down to n (in and on fit about equally).
    /// The folder comes back too: the store lives there until it is released.
    static func inOrOn(_ folderName: String) throws -> (TemporaryFolder, NgramPredictor, SwipeDictionary, [SwipePoint]) {
        let folder = try TemporaryFolder(folderName)
        let predictor = try NgramPredictor(store: TrainedStore(path: try SwipeContextTests.store(in: folder)))
        var builder = SwipeDictionary.Builder(layout: .qwerty)
        for word in ["in", "on", "the", "bus"] { builder.add(word: word, id: Int64(predictor.id(of: word)!), frequency: 150) }
        let points = (0 ... 10).map { SwipePoint(x: 8.0 - 0.1 * Double($0), y: 0.75 + 0.3 * Double($0)) }
        return (folder, predictor, builder.build(), points)
    }

    @Test("interpolating the context with the lexicon prior keeps a word the model finds unlikely")
    func mixing() throws {
        let (folder, predictor, dictionary, points) = try Self.inOrOn("lexiforge-swipe-mixing")
        let context = try predictor.distribution(after: ["we", "sat"])
        var options = SwipeDecoderOptions()
        options.contextWeight = 3
        let plain = SwipeDecoder(dictionary: dictionary, options: options).decode(points, context: context).candidates
        options.contextMixing = 0   // κ = 1: p(word | context) + p(word)
        let mixed = SwipeDecoder(dictionary: dictionary, options: options).decode(points, context: context).candidates
        let lexicon = Double(150 - 255) * log(1.15)
        for (a, b) in zip(plain.sorted { $0.word < $1.word }, mixed.sorted { $0.word < $1.word }) {
            let lm = try #require(a.contextLogProbability)
            // The two scores differ exactly by the context term's change.
            #expect(abs((b.score - a.score) - 3 * (SwipeDecoder.logSum(lm, lexicon) - lm)) < 1e-9, "\(a.word)")
        }
        #expect(mixed.first?.word == "on")
        withExtendedLifetime(folder) {}
    }

    @Test("the context gate weighs words that read like no sentence less")
    func gate() throws {
        let (folder, predictor, dictionary, points) = try Self.inOrOn("lexiforge-swipe-gate")
        #expect(try predictor.contextFit(of: []) == nil)
        let sentence = try #require(try predictor.contextFit(of: ["we", "sat"]))
        let noSentence = try #require(try predictor.contextFit(of: ["box", "zebra"]))
        #expect(sentence > noSentence, "\(sentence) \(noSentence)")
        let context = try predictor.distribution(after: ["we", "sat"])
        var options = SwipeDecoderOptions()
        options.contextWeight = 3
        options.contextWeightLow = 0.5
        options.contextGate = (sentence + noSentence) / 2
        let gated = SwipeDecoder(dictionary: dictionary, options: options)
        var low = options
        low.contextWeight = 0.5
        let scores = { (c: [SwipeCandidate]) in c.map { "\($0.word) \(String(format: "%.9f", $0.score))" } }
        #expect(scores(gated.decode(points, context: context, contextFit: sentence).candidates)
                == scores(gated.decode(points, context: context).candidates))
        #expect(scores(gated.decode(points, context: context, contextFit: noSentence).candidates)
                == scores(SwipeDecoder(dictionary: dictionary, options: low).decode(points, context: context).candidates))
        withExtendedLifetime(folder) {}
    }

    @Test("the likelihood fit weights the term that separates the true word, and only that one")
    func likelihood() {
        // Two candidates per swipe: the true word always has the lower DTW cost; location is noise.
        var samples: [SwipeTune.Sample] = []
        var random = SplitMix64(seed: 7)
        for _ in 0 ..< 200 {
            func term(_ truth: Bool) -> SwipeTune.Term {
                SwipeTune.Term(location: random.nextUnit(), shape: 0, cost: truth ? 0.2 : 0.2 + random.nextUnit(),
                               lexicon: -2 * random.nextUnit(), lm: 0, endpoints: 0, length: 0, missed: 0, missedMean: 0,
                               robust: 0, turning: 0, truth: truth)
            }
            samples.append(SwipeTune.Sample(fold: 0, terms: [term(true), term(false)], hasTruth: true))
        }
        let start = SwipeTune.Weights(location: 0, shape: 0, cost: 0, frequency: 1, context: 0, endpoints: 0, length: 0, missed: 0)
        let fitted = SwipeTune.fitLikelihood(samples, from: start, iterations: 300)
        #expect(fitted.cost > 5 * max(fitted.location, 0.01), "\(fitted)")
        #expect(fitted.frequency == 1 && fitted.missed == 0)
        #expect(SwipeTune.accuracy(samples, fitted, context: false).top1 > 0.95)
    }
}
