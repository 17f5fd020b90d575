import Foundation
import LexiforgeFormat
import LexiforgeReader
import LexiforgeTestSupport
import Testing

/// The learned shape model (``SwipeShapeNetwork``): its inference agrees with the JAX code it was
/// trained with, its CTC score with the sum over every alignment, and a damaged encoding is
/// refused with what is wrong.
@Suite("Swipe shape network")
struct SwipeShapeNetworkTests {
    struct Fixture: Decodable {
        var network: String
        var points: [[Double]]
        var times: [Double]
        var rowHeightRatio: Double
        var logProbabilities: [Float]
        var words: [String]
        var logLikelihoods: [Double]
    }

    static func fixture() throws -> Fixture {
        try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: URL(fileURLWithPath: SwipeFixture.path("shape-network.json"))))
    }

    /// A word's letter classes on QWERTY, a repeated letter once.
    static func classes(_ word: String) -> [Int] {
        var out: [Int] = []
        for ch in word { if let k = SwipeShapeNetwork.letters.firstIndex(of: ch), out.last != k + 1 { out.append(k + 1) } }
        return out
    }

    @Test("the inference and the CTC scores agree with JAX and optax on a hand-drawn swipe")
    func agreesWithJAX() throws {
        let f = try Self.fixture()
        let network = try SwipeShapeNetwork(base64: f.network)
        #expect(network.width == 8 && network.steps == 64 && network.dilations == [1, 2, 4, 8, 1])
        let layout = try SwipeLayout.qwerty.withRowHeightRatio(f.rowHeightRatio)
        let reading = network.read(points: f.points.map { SwipePoint(x: $0[0], y: $0[1]) }, times: f.times,
                                   keys: SwipeShapeNetwork.Keys(layout: layout))
        #expect(reading.logProbabilities.count == f.logProbabilities.count)
        let worst = zip(reading.logProbabilities, f.logProbabilities).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst < 1e-4, "largest difference from JAX's log-probabilities \(worst)")
        for (word, expected) in zip(f.words, f.logLikelihoods) {
            let ll = reading.logLikelihood(of: Self.classes(word))
            #expect(abs(ll - expected) < 2e-3, "\(word): \(ll), optax \(expected)")
        }
    }

    @Test("the CTC score is the log of the sum over every alignment of the keys")
    func ctcByEnumeration() throws {
        // Four steps, a blank and two keys, uneven probabilities.
        let p: [[Double]] = [[0.5, 0.3, 0.2], [0.1, 0.6, 0.3], [0.2, 0.2, 0.6], [0.7, 0.1, 0.2]]
        let reading = SwipeShapeNetwork.Reading(steps: 4, classes: 3, logProbabilities: p.flatMap { $0.map { Float(log($0)) } }, maximumKeys: 8)
        func collapse(_ s: [Int]) -> [Int] {
            var out: [Int] = [], last = -1
            for c in s { if c != last && c != 0 { out.append(c) }; last = c }
            return out
        }
        for keys in [[1, 2], [2, 1], [1], [1, 2, 1], [1, 1], [2]] {
            var total = 0.0
            for code in 0..<81 {
                let s = (0..<4).map { code / Int(pow(3.0, Double($0))) % 3 }
                if collapse(s) == keys { total += (0..<4).reduce(1.0) { $0 * p[$1][s[$1]] } }
            }
            #expect(abs(reading.logLikelihood(of: keys) - log(total)) < 1e-5, "\(keys)")
        }
        // Five keys cannot lie along four steps; no keys is no word.
        #expect(reading.logLikelihood(of: [1, 2, 1, 2, 1]) == SwipeShapeNetwork.Reading.floor)
        #expect(reading.logLikelihood(of: []) == SwipeShapeNetwork.Reading.floor)
    }

    @Test("the compiled-in network decodes, reads a swipe, and prefers the swiped word")
    func fitted() throws {
        let network = SwipeShapeNetwork.fitted
        #expect(network.steps == 64 && network.classes == 27 && network.inputs == 31)
        // "the" drawn on QWERTY with rows 1.5 key widths tall: t (4.5, 0.75), h (6, 2.25), e (2.5, 0.75).
        let f = try Self.fixture()
        let reading = network.read(points: f.points.map { SwipePoint(x: $0[0], y: $0[1]) }, times: f.times,
                                   keys: SwipeShapeNetwork.Keys(layout: SwipeLayout.qwerty))
        let the = reading.logLikelihood(of: Self.classes("the"))
        for other in ["yes", "tie", "q", "they", "type"] {
            #expect(the > reading.logLikelihood(of: Self.classes(other)), "\(other)")
        }
    }

    @Test("with times and a context the decoder gives each candidate the network's three terms, and the timed context forest reads them")
    func decoderComputesTerms() throws {
        let (folder, predictor, dictionary, points) = try SwipeScoringTests.inOrOn("lexiforge-swipe-shape")
        _ = folder
        let times = points.indices.map { Double($0) * 16 }
        let context = try predictor.distribution(after: ["we", "sat"])
        let fit = try predictor.contextFit(of: ["we", "sat"])
        let decoder = SwipeDecoder(dictionary: dictionary)
        let decoding = decoder.decode(points, times: times, context: context, contextFit: fit)
        #expect(!decoding.candidates.isEmpty && !decoding.shortlisted.isEmpty)
        let reading = decoder.shapeReading(points, times: times)
        let keys = SwipeShapeNetwork.Keys(layout: dictionary.layout)
        func ll(_ entry: Int) -> Double { reading.logLikelihood(of: keys.classes(dictionary.path(entry))) }
        let best = decoding.shortlisted.map { ll(Int($0)) }.max()!
        for c in decoding.candidates {
            let entry = try #require(dictionary.index(of: c.word))
            let n = keys.classes(dictionary.path(entry)).count
            #expect(c.terms.shapeLikelihood == ll(entry) && c.terms.shapeLikelihood < 0, "\(c.word)")
            #expect(c.terms.shapeLikelihoodPerKey == ll(entry) / Double(n))
            #expect(c.terms.shapeLikelihoodRelative == ll(entry) - best && c.terms.shapeLikelihoodRelative <= 0)
        }
        // Without times the untimed forest reranks, and it reads none of them.
        for c in decoder.decode(points, context: context, contextFit: fit).candidates {
            #expect(c.terms.shapeLikelihood == 0 && c.terms.shapeLikelihoodRelative == 0)
        }
    }

    @Test("a damaged encoding is refused with what is wrong")
    func damaged() throws {
        let good = try #require(Data(base64Encoded: try Self.fixture().network))
        #expect(throws: SwipeShapeNetwork.DecodingError.self) { try SwipeShapeNetwork(encoded: Data("LXRF".utf8) + good.dropFirst(4)) }
        do {
            _ = try SwipeShapeNetwork(encoded: good.dropLast(10))
            Issue.record("a truncated network decoded")
        } catch {
            #expect("\(error)".contains("ends at byte"), "\(error)")
        }
        var nan = good
        nan.replaceSubrange(nan.count - 4 ..< nan.count, with: withUnsafeBytes(of: Float.nan.bitPattern.littleEndian) { Data($0) })
        do {
            _ = try SwipeShapeNetwork(encoded: nan)
            Issue.record("a network with a NaN weight decoded")
        } catch {
            #expect("\(error)".contains("not a finite number"), "\(error)")
        }
        #expect(throws: SwipeShapeNetwork.DecodingError.self) { try SwipeShapeNetwork(encoded: good + Data([0])) }
    }

    @Test("a layout's keys map to the network's letters; a key that is not a letter to none")
    func keys() throws {
        let keys = SwipeShapeNetwork.Keys(layout: SwipeLayout.qwerty)
        #expect(keys.classOfKey == Array(1...26))
        // Key indices of q, q, w, e: a repeat once.
        #expect(keys.classes([0, 0, 1, 2]) == [1, 2, 3])
        let abc = try SwipeLayout.named(SwipeFixture.path("abc-layout.json"))
        let mapped = SwipeShapeNetwork.Keys(layout: abc)
        for (k, key) in abc.keys.enumerated() {
            #expect(mapped.classOfKey[k].map { SwipeShapeNetwork.letters[$0 - 1] } == (SwipeShapeNetwork.letters.contains(key.letter) ? key.letter : nil))
        }
    }
}
