import Foundation
@testable import LexiforgeReader
import LexiforgeTestSupport
import Testing

/// The reranker of the swipe decoder: its features and weights agree, its order is the score's
/// (ties keep the linear order), and the decoder uses it only when asked.
@Suite("Swipe reranker")
struct SwipeRerankerTests {
    static func candidate(_ word: String, cost: Double, frequency: Int, keys: Int, lm: Double? = nil, score: Double = 0) -> SwipeCandidate {
        var c = SwipeCandidate(word: word, id: 0, score: score, cost: cost, frequency: frequency, location: 0.4, shape: 0.02,
                               contextLogProbability: lm)
        c.terms = .init(endpoints: 0.2, lengthLogRatio: 0.1, missed: 0.3, start: 0.05, end: 0.15, keys: keys)
        return c
    }

    @Test("one weight per feature, with and without a context")
    func weightsMatchFeatures() {
        let c = Self.candidate("word", cost: 0.2, frequency: 200, keys: 4)
        #expect(SwipeReranker.features(of: c, lm: nil, fit: 0).count == SwipeReranker.withoutContext.weights.count)
        #expect(SwipeReranker.features(of: c, lm: -3, fit: -2).count == SwipeReranker.withContext.weights.count)
    }

    @Test("features worked out by hand for one candidate")
    func featuresByHand() {
        let c = Self.candidate("word", cost: 0.25, frequency: 255, keys: 4)   // lex = 0
        let f = SwipeReranker.features(of: c, lm: -2, fit: -5)
        #expect(f[0] == -0.4 && f[1] == -0.02 && f[2] == -0.25 && f[3] == -0.05 && f[4] == -0.15)
        #expect(abs(f[5] + 0.01) < 1e-15)           // −(ln ratio)²
        #expect(f[7] == 0 && f[8] == -1.0 && f[12] == 4)
        #expect(f[16] == -0.5 && f[18] == -0.1)      // −√cost, −|ln ratio|
        #expect(Array(f[20...]) == [-2, -2, 0, 4, 10, -0.5])   // lm, gated lm, lm·lex, lm², lm·fit, lm·cost
    }

    @Test("a hidden layer adds output · tanh(bias + weights · features) per unit, worked out by hand")
    func hiddenLayerByHand() {
        let c = Self.candidate("word", cost: 0.25, frequency: 255, keys: 4)
        let f = SwipeReranker.features(of: c, lm: nil, fit: 0)
        var linear = [Double](repeating: 0, count: f.count)
        linear[2] = 2                                     // 2 · (−cost) = −0.5
        var row = [Double](repeating: 0, count: f.count)
        row[12] = 0.25                                    // 0.25 · keys = 1
        let unit = SwipeReranker.HiddenLayer(weights: [row, row], biases: [0.5, -1], output: [2, -3])
        let reranker = SwipeReranker(weights: linear, hidden: unit)
        let expected = -0.5 + 2 * tanh(1.5) - 3 * tanh(0.0)
        #expect(abs(reranker.score(c, lm: nil, fit: 0) - expected) < 1e-12)
        #expect(SwipeReranker(weights: linear).score(c, lm: nil, fit: 0) == -0.5)
    }

    @Test("a far cheaper DTW cost wins; equal scores keep the linear order")
    func ordersByScore() {
        let costly = Self.candidate("costly", cost: 1.5, frequency: 200, keys: 5)
        let cheap = Self.candidate("cheap", cost: 0.1, frequency: 200, keys: 5)
        let reranked = SwipeReranker.withoutContext.rerank([costly, cheap], fit: 0)
        #expect(reranked.map(\.word) == ["cheap", "costly"])
        #expect(reranked[0].score > reranked[1].score)
        let twin = Self.candidate("twin", cost: 0.1, frequency: 200, keys: 5)
        #expect(SwipeReranker.withoutContext.rerank([twin, cheap], fit: 0).map(\.word) == ["twin", "cheap"])
    }

    @Test("the decoder reorders the linear score's best by the reranker, with or without a context")
    func decoderReranks() throws {
        let (folder, predictor, dictionary, points) = try SwipeScoringTests.inOrOn("lexiforge-swipe-rerank")
        _ = folder
        let context = try predictor.distribution(after: ["we", "sat"])
        let fit = try predictor.contextFit(of: ["we", "sat"])
        for ctx in [nil, context] {
            var linear = SwipeDecoderOptions()
            (linear.rerank, linear.limit) = (0, 4)
            let plain = SwipeDecoder(dictionary: dictionary, options: linear).decode(points, context: ctx, contextFit: fit).candidates
            let reranked = SwipeDecoder(dictionary: dictionary).decode(points, context: ctx, contextFit: fit).candidates
            let reranker = ctx == nil ? SwipeReranker.withoutContext : SwipeReranker.withContext
            #expect(plain.count >= 2 && reranked.count == plain.count)
            #expect(reranked.map(\.word) == reranker.rerank(plain, fit: fit ?? 0).map(\.word))
            #expect(reranked.map(\.score) == reranked.map { reranker.score($0, lm: $0.contextLogProbability, fit: fit ?? 0) })
            #expect(reranked.allSatisfy { $0.terms.keys == dictionary.path(dictionary.index(of: $0.word)!).count })
        }
    }

    @Test("a likelier word after the context wins when the shapes are equal")
    func contextCounts() {
        let likely = Self.candidate("likely", cost: 0.3, frequency: 180, keys: 5, lm: -2)
        let unlikely = Self.candidate("unlikely", cost: 0.3, frequency: 180, keys: 5, lm: -9)
        #expect(SwipeReranker.withContext.rerank([unlikely, likely], fit: -2).map(\.word) == ["likely", "unlikely"])
    }
}
