import Foundation
import LexiforgeReader
import LexiforgeTestSupport
import Testing

/// The decoder's context gate.
@Suite("swipe scoring")
struct SwipeScoringTests {
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

    @Test("the context gate weighs words that read like no sentence less")
    func gate() throws {
        let (folder, predictor, dictionary, points) = try Self.inOrOn("lexiforge-swipe-gate")
        #expect(try predictor.contextFit(of: []) == nil)
        let sentence = try #require(try predictor.contextFit(of: ["we", "sat"]))
        let noSentence = try #require(try predictor.contextFit(of: ["box", "zebra"]))
        #expect(sentence > noSentence, "\(sentence) \(noSentence)")
        // The same value the distribution after the words before gives the last word.
        for words in [["we", "sat"], ["box", "zebra"], ["zebra", "On"], ["We", "live", "in"], ["the"]] {
            let id = predictor.id(of: words.last!.lowercased()).map(Int64.init) ?? -1
            let expected = try predictor.distribution(after: Array(words.dropLast())).log10Probability(of: id)
            #expect(try predictor.contextFit(of: words) == expected, "\(words)")
        }
        let context = try predictor.distribution(after: ["we", "sat"])
        var options = SwipeDecoderOptions()
        options.rerank = 0   // the linear score's arithmetic
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

    /// A dictionary of a few words and the straight swipe from "t" to "o" (rows 1.5 key widths tall).
    static func toSwipe() -> (SwipeDictionary, [SwipePoint]) {
        var builder = SwipeDictionary.Builder(layout: .qwerty)
        for word in ["to", "too", "go", "yo", "top"] { builder.add(word: word, frequency: 150) }
        let dictionary = builder.build()
        let t = dictionary.layout.keys[Int(dictionary.path(dictionary.index(of: "to")!).first!)].centre
        let o = dictionary.layout.keys[Int(dictionary.path(dictionary.index(of: "to")!).last!)].centre
        let points = (0 ... 12).map { k in
            SwipePoint(x: t.x + (o.x - t.x) * Double(k) / 12, y: t.y + (o.y - t.y) * Double(k) / 12)
        }
        return (dictionary, points)
    }

    @Test("the touch model: points read verticalOffset higher, start and end weighed apart")
    func touchModel() {
        let (dictionary, points) = Self.toSwipe()
        let scores = { (c: [SwipeCandidate]) in c.map { "\($0.word) \(String(format: "%.9f", $0.score))" } }
        var options = SwipeDecoderOptions()
        options.rerank = 0   // the linear score's arithmetic
        options.limit = 10
        options.verticalOffset = 0
        let plain = SwipeDecoder(dictionary: dictionary, options: options).decode(points).candidates
        #expect(plain.first?.word == "to")
        // The same swipe 0.25 key widths lower, read 0.25 higher: the same scores.
        options.verticalOffset = 0.25
        let lowered = points.map { SwipePoint(x: $0.x, y: $0.y + 0.25) }
        #expect(scores(SwipeDecoder(dictionary: dictionary, options: options).decode(lowered).candidates) == scores(plain))
        // The start and end terms are the squared distances to the first and last keys; each has its weight.
        options.verticalOffset = 0
        let shifted = points.map { SwipePoint(x: $0.x + 0.3, y: $0.y) }
        let base = SwipeDecoder(dictionary: dictionary, options: options).decode(shifted).candidates
        let to = base.first { $0.word == "to" }!
        #expect(abs(to.terms.start - 0.09) < 1e-9 && abs(to.terms.end - 0.09) < 1e-9)
        #expect(abs(to.terms.endpoints - to.terms.start - to.terms.end) < 1e-12)
        options.startWeight += 1
        let heavier = SwipeDecoder(dictionary: dictionary, options: options).decode(shifted).candidates.first { $0.word == "to" }!
        #expect(abs((to.score - heavier.score) - 0.09) < 1e-9)
    }

    @Test("a robust DTW cost bounds what one point far off the path pays")
    func robustCost() {
        let (dictionary, points) = Self.toSwipe()
        var wild = points
        wild[6].y += 1.5   // one point 1.5 key widths off
        var options = SwipeDecoderOptions()
        options.limit = 10
        options.costRobustness = 0
        let plain = SwipeDecoder(dictionary: dictionary, options: options).decode(wild).candidates.first { $0.word == "to" }!
        options.costRobustness = 0.5
        let robust = SwipeDecoder(dictionary: dictionary, options: options).decode(wild).candidates.first { $0.word == "to" }!
        #expect(plain.cost < options.costCap && robust.cost < plain.cost)
        #expect(robust.cost <= 0.5)
    }
}
