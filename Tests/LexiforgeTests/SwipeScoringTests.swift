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
}
