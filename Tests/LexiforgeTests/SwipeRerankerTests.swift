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

    /// A swipe profile for candidates built by hand.
    static let profile = SwipeProfile(points: [SwipePoint(x: 0, y: 0), SwipePoint(x: 3, y: 4)], times: [0, 500], rowHeightRatio: 1.5)

    @Test("one weight per feature, with and without a context")
    func weightsMatchFeatures() {
        let c = Self.candidate("word", cost: 0.2, frequency: 200, keys: 4)
        #expect(SwipeReranker.features(of: c, lm: nil, fit: 0, profile: Self.profile).count == SwipeReranker.withoutContext.weights.count)
        #expect(SwipeReranker.features(of: c, lm: -3, fit: -2, profile: Self.profile).count == SwipeReranker.withContext.weights.count)
    }

    @Test("features worked out by hand for one candidate")
    func featuresByHand() {
        let c = Self.candidate("word", cost: 0.25, frequency: 255, keys: 4)   // lex = 0
        let f = SwipeReranker.features(of: c, lm: -2, fit: -5, profile: Self.profile)
        #expect(f[0] == -0.4 && f[1] == -0.02 && f[2] == -0.25 && f[3] == -0.05 && f[4] == -0.15)
        #expect(abs(f[5] + 0.01) < 1e-15)           // −(ln ratio)²
        #expect(f[7] == 0 && f[8] == -1.0 && f[12] == 4)
        #expect(f[16] == -0.5 && f[18] == -0.1)      // −√cost, −|ln ratio|
        #expect(Array(f[20 ..< 26]) == [-2, -2, 0, 4, 10, -0.5])   // lm, gated lm, lm·lex, lm², lm·fit, lm·cost
        var matched = c
        (matched.terms.keyMatch, matched.terms.keyMatchWorst) = (0.25, 1)
        // The key-match terms: −mean, −√mean, −worst, −√worst, −mean·keys, −worst·keys.
        #expect(Array(SwipeReranker.features(of: matched, lm: -2, fit: -5, profile: Self.profile)[26 ..< 32]) == [-0.25, -0.5, -1, -1, -1, -4])
        #expect(Array(SwipeReranker.features(of: matched, lm: nil, fit: 0, profile: Self.profile)[20 ..< 26]) == [-0.25, -0.5, -1, -1, -1, -4])
        // The turn terms come next, negated, after the dwell terms when timed; the profile last.
        (matched.terms.turns, matched.terms.turnsWorst, matched.terms.turnCorners) = (0.5, 2, 0.25)
        (matched.terms.dwell, matched.terms.dwellWorst, matched.terms.dwellCorners) = (1, 3, 4)
        #expect(Array(SwipeReranker.features(of: matched, lm: nil, fit: 0, profile: Self.profile)[26...]) == [-0.5, -2, -0.25] + Self.profile.features(timed: false))
        #expect(Array(SwipeReranker.features(of: matched, lm: -2, fit: -5, timed: true, profile: Self.profile)[32...]) == [-1, -3, -4, -0.5, -2, -0.25] + Self.profile.features(timed: true))
    }

    /// An L-shaped swipe: (0, 0) to (2, 0) to (2, 2), a point every 0.1 key widths.
    static func lShaped() -> [SwipePoint] {
        (0...20).map { SwipePoint(x: Double($0) * 0.1, y: 0) } + (1...20).map { SwipePoint(x: 2, y: Double($0) * 0.1) }
    }

    @Test("turns worked out by hand: an L-shaped swipe turns once, at its corner")
    func turnsByHand() {
        // Resampled every 0.2: the sample at 2.0 along is (2, 0), where the directions from two
        // samples before and to two after differ by 90°; its neighbours differ by 45°.
        let turns = SwipeTurns(points: Self.lShaped())
        #expect(turns.points.count == 1 && abs(turns.points[0].x - 2) < 1e-9 && abs(turns.points[0].y) < 1e-9)
        let o = SwipePoint(x: 0, y: 0), corner = SwipePoint(x: 2, y: 0), end = SwipePoint(x: 2, y: 2)
        // A word turning where the swipe turns explains it.
        let explained = turns.terms(keys: [o, corner, end])
        #expect(explained.unexplained < 1e-9 && explained.worst < 1e-9 && explained.corners < 1e-9)
        // A word with no corner: the turn is unexplained (capped at 4 key widths²).
        #expect(turns.terms(keys: [o, SwipePoint(x: 4, y: 0)]) == (4, 4, 0))
        // A word turning at (2, 1) (cos 1/√5 < cos 45°): 1 key width² both ways.
        let shifted = turns.terms(keys: [o, SwipePoint(x: 2, y: 1), end])
        #expect(abs(shifted.unexplained - 1) < 1e-9 && abs(shifted.worst - 1) < 1e-9 && abs(shifted.corners - 1) < 1e-9)
        // A straight swipe has no turn: a word's corner is missed (4), nothing is unexplained.
        let straight = SwipeTurns(points: (0...40).map { SwipePoint(x: Double($0) * 0.1, y: 0) })
        #expect(straight.points.isEmpty && straight.terms(keys: [o, SwipePoint(x: 2, y: 1), end]) == (0, 0, 4))
        // Too short to turn (under 1.6 key widths), or a single point: none.
        let small = (0...6).map { SwipePoint(x: Double($0) * 0.1, y: 0) } + (1...6).map { SwipePoint(x: 0.6, y: Double($0) * 0.1) }
        #expect(SwipeTurns(points: small).points.isEmpty)
        #expect(SwipeTurns(points: [o]).points.isEmpty)
    }

    @Test("the decoder gives every reranked candidate its turn terms, from the points as it reads them")
    func decoderAddsTurns() throws {
        let (folder, _, dictionary, points) = try SwipeScoringTests.inOrOn("lexiforge-swipe-turns")
        _ = folder
        let decoder = SwipeDecoder(dictionary: dictionary)
        let turns = decoder.turns(points)
        let centres = dictionary.layout.keys.map(\.centre)
        let candidates = decoder.decode(points).candidates
        #expect(!candidates.isEmpty)
        for c in candidates {
            let t = turns.terms(keys: dictionary.path(dictionary.index(of: c.word)!).map { centres[Int($0)] })
            #expect(c.terms.turns == t.unexplained && c.terms.turnsWorst == t.worst && c.terms.turnCorners == t.corners)
        }
    }

    @Test("profile worked out by hand: an L-shaped swipe, a straight one, a tap, with and without times")
    func profileByHand() {
        // The L: 4 key widths long, its ends √8 apart, one turn of π/2 between samples 0.2 apart.
        let times = (0...40).map { Double($0) * 25 }                  // 1 s
        let l = SwipeProfile(points: Self.lShaped(), times: times, rowHeightRatio: 1.6)
        #expect(abs(l.logLength - log(5)) < 1e-9)
        #expect(abs(l.straightness - 8.0.squareRoot() / 4) < 1e-9)
        #expect(abs(l.turning - Double.pi / 2 / 4) < 1e-9)
        #expect(abs(l.logDuration! - log(2)) < 1e-12 && abs(l.speed! - 4) < 1e-9)
        #expect(l.features(timed: false).count == 4 && l.features(timed: true).count == 6)
        #expect(l.features(timed: true)[3] == 1.6)
        // A straight stroke does not turn; without times there is no duration (0 when timed).
        let straight = SwipeProfile(points: (0...30).map { SwipePoint(x: Double($0) * 0.1, y: 1) }, rowHeightRatio: 1.5)
        #expect(abs(straight.straightness - 1) < 1e-9 && abs(straight.turning) < 1e-9 && straight.speed == nil)
        #expect(straight.features(timed: true).suffix(2) == [0, 0])
        // A tap: no length, straight by definition; times of another count are none.
        let tap = SwipeProfile(points: [SwipePoint(x: 1, y: 1), SwipePoint(x: 1, y: 1)], times: [0], rowHeightRatio: 1.5)
        #expect(tap.logLength == 0 && tap.straightness == 1 && tap.turning == 0 && tap.logDuration == nil)
        // The duration counts at least 0.05 s for the speed.
        let quick = SwipeProfile(points: [SwipePoint(x: 0, y: 0), SwipePoint(x: 1, y: 0)], times: [0, 10], rowHeightRatio: 1.5)
        #expect(abs(quick.speed! - 20) < 1e-9)
    }

    @Test("key match worked out by hand: keys in order pay their distance; keys out of order pay for it")
    func keyMatchByHand() {
        let (points, _) = Self.slowInTheMiddle()     // (0, 0) to (4, 0), a point every 0.1
        let match = SwipeKeyMatch(points: points)
        // (2, 1) is matched to (2, 0), 1 away; the ends lie on the swipe.
        let inOrder = match.terms(keys: [SwipePoint(x: 0, y: 0), SwipePoint(x: 2, y: 1), SwipePoint(x: 4, y: 0)])
        #expect(abs(inOrder.mean - 1.0 / 3) < 1e-12 && abs(inOrder.worst - 1) < 1e-12)
        // Backwards: both keys on one point at best, x = 2, each 2 away.
        let reversed = match.terms(keys: [SwipePoint(x: 4, y: 0), SwipePoint(x: 0, y: 0)])
        #expect(abs(reversed.mean - 4) < 1e-12 && abs(reversed.worst - 4) < 1e-12)
        // The largest distance is capped at 9 key widths².
        let far = match.terms(keys: [SwipePoint(x: 0, y: 0), SwipePoint(x: 2, y: 5)])
        #expect(abs(far.mean - 12.5) < 1e-12 && far.worst == 9)
        #expect(SwipeKeyMatch(points: []).terms(keys: [SwipePoint(x: 0, y: 0)]) == (0, 0))
    }

    @Test("a hidden layer adds output · tanh(bias + weights · features) per unit, worked out by hand")
    func hiddenLayerByHand() {
        let c = Self.candidate("word", cost: 0.25, frequency: 255, keys: 4)
        let f = SwipeReranker.features(of: c, lm: nil, fit: 0, profile: Self.profile)
        var linear = [Double](repeating: 0, count: f.count)
        linear[2] = 2                                     // 2 · (−cost) = −0.5
        var row = [Double](repeating: 0, count: f.count)
        row[12] = 0.25                                    // 0.25 · keys = 1
        let unit = SwipeReranker.HiddenLayer(weights: [row, row], biases: [0.5, -1], output: [2, -3])
        let reranker = SwipeReranker(weights: linear, hidden: unit)
        let expected = -0.5 + 2 * tanh(1.5) - 3 * tanh(0.0)
        #expect(abs(reranker.score(c, lm: nil, fit: 0, profile: Self.profile) - expected) < 1e-12)
        #expect(SwipeReranker(weights: linear).score(c, lm: nil, fit: 0, profile: Self.profile) == -0.5)
    }

    @Test("a far cheaper DTW cost wins; equal scores keep the linear order")
    func ordersByScore() {
        let costly = Self.candidate("costly", cost: 1.5, frequency: 200, keys: 5)
        let cheap = Self.candidate("cheap", cost: 0.1, frequency: 200, keys: 5)
        let reranked = SwipeReranker.withoutContext.rerank([costly, cheap], fit: 0, profile: Self.profile)
        #expect(reranked.map(\.word) == ["cheap", "costly"])
        #expect(reranked[0].score > reranked[1].score)
        let twin = Self.candidate("twin", cost: 0.1, frequency: 200, keys: 5)
        #expect(SwipeReranker.withoutContext.rerank([twin, cheap], fit: 0, profile: Self.profile).map(\.word) == ["twin", "cheap"])
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
            let profile = SwipeDecoder(dictionary: dictionary).profile(points, times: nil)
            #expect(reranked.map(\.word) == reranker.rerank(plain, fit: fit ?? 0, profile: profile).map(\.word))
            #expect(reranked.map(\.score) == reranked.map { reranker.score($0, lm: $0.contextLogProbability, fit: fit ?? 0, profile: profile) })
            #expect(reranked.allSatisfy { $0.terms.keys == dictionary.path(dictionary.index(of: $0.word)!).count })
            let match = SwipeKeyMatch(points: points.map { SwipePoint(x: $0.x, y: $0.y - SwipeDecoderOptions().verticalOffset) })
            let centres = dictionary.layout.keys.map(\.centre)
            #expect(reranked.allSatisfy { c in
                let m = match.terms(keys: dictionary.path(dictionary.index(of: c.word)!).map { centres[Int($0)] })
                return c.terms.keyMatch == m.mean && c.terms.keyMatchWorst == m.worst
            })
        }
    }

    /// A straight swipe from (0, 0) to (4, 0), a point every 0.1 key widths, 10 ms apart except
    /// the four steps around (2, 0), which take 60 ms each: the finger slows at x = 2.
    static func slowInTheMiddle() -> (points: [SwipePoint], times: [Double]) {
        let points = (0...40).map { SwipePoint(x: Double($0) / 10, y: 0) }
        var times = [0.0]
        for k in 1...40 { times.append(times[k - 1] + ((19...22).contains(k) ? 60 : 10)) }
        return (points, times)
    }

    @Test("dwell: a slowdown is found where it is, none at an even speed or without times")
    func dwellPoints() {
        let (points, times) = Self.slowInTheMiddle()
        let dwell = SwipeDwell(points: points, times: times)
        #expect(dwell.available)
        #expect(dwell.points == [SwipePoint(x: 2, y: 0)])
        let even = SwipeDwell(points: points, times: (0...40).map { Double($0) * 10 })
        #expect(even.available && even.points.isEmpty)
        #expect(SwipeDwell(points: points, times: [Double](repeating: 0, count: 41)).available == false)
        #expect(SwipeDwell(points: points, times: []).available == false)
        // Read 0.1 key widths higher, as the decoder reads every point.
        #expect(SwipeDwell(points: points, times: times, verticalOffset: 0.1).points == [SwipePoint(x: 2, y: -0.1)])
    }

    @Test("dwell terms worked out by hand")
    func dwellTerms() {
        let (points, times) = Self.slowInTheMiddle()
        let dwell = SwipeDwell(points: points, times: times)   // one dwell, at (2, 0)
        let through = dwell.terms(keys: [SwipePoint(x: 0, y: 0), SwipePoint(x: 2, y: 0), SwipePoint(x: 4, y: 0)])
        #expect(through.unexplained == 0 && through.worst == 0 && through.corners == 0)   // no corner: a straight path
        let around = dwell.terms(keys: [SwipePoint(x: 0, y: 0), SwipePoint(x: 4, y: 1)])  // 2² and 2² + 1: capped at 4
        #expect(around.unexplained == 4 && around.worst == 4 && around.corners == 0)
        let corner = dwell.terms(keys: [SwipePoint(x: 0, y: 0), SwipePoint(x: 3, y: 0), SwipePoint(x: 3, y: 3)])
        #expect(corner.unexplained == 1 && corner.corners == 1)                          // the turn at (3, 0), 1 away
        let none = SwipeDwell(points: points, times: (0...40).map { Double($0) * 10 })
        #expect(none.terms(keys: [SwipePoint(x: 0, y: 0), SwipePoint(x: 3, y: 0), SwipePoint(x: 3, y: 3)]).corners == 4)
    }

    @Test("with times the decoder reranks by the timed weights, with the dwell terms of each word")
    func decoderUsesTimes() throws {
        let (folder, _, dictionary, points) = try SwipeScoringTests.inOrOn("lexiforge-swipe-dwell")
        _ = folder
        let times = points.indices.map { Double($0) * 16 }
        let c = Self.candidate("word", cost: 0.2, frequency: 200, keys: 4)
        #expect(SwipeReranker.features(of: c, lm: nil, fit: 0, timed: true, profile: Self.profile).count == SwipeReranker.withoutContextTimed.weights.count)
        #expect(SwipeReranker.features(of: c, lm: -3, fit: -2, timed: true, profile: Self.profile).count == SwipeReranker.withContextTimed.weights.count)
        let decoder = SwipeDecoder(dictionary: dictionary)
        let timed = decoder.decode(points, times: times).candidates
        let dwell = SwipeDwell(points: points, times: times, verticalOffset: decoder.options.verticalOffset)
        let centres = dictionary.layout.keys.map(\.centre)
        #expect(!timed.isEmpty)
        for c in timed {
            let d = dwell.terms(keys: dictionary.path(dictionary.index(of: c.word)!).map { centres[Int($0)] })
            #expect(c.terms.dwell == d.unexplained && c.terms.dwellWorst == d.worst && c.terms.dwellCorners == d.corners)
            #expect(c.score == SwipeReranker.withoutContextTimed.score(c, lm: nil, fit: 0, profile: decoder.profile(points, times: times)))
        }
        // Without usable times: the untimed weights.
        let untimed = decoder.decode(points, times: [Double](repeating: 5, count: points.count)).candidates
        #expect(untimed.map(\.score) == decoder.decode(points).candidates.map(\.score))
    }

    @Test("a likelier word after the context wins when the shapes are equal")
    func contextCounts() {
        let likely = Self.candidate("likely", cost: 0.3, frequency: 180, keys: 5, lm: -2)
        let unlikely = Self.candidate("unlikely", cost: 0.3, frequency: 180, keys: 5, lm: -9)
        #expect(SwipeReranker.withContext.rerank([unlikely, likely], fit: -2, profile: Self.profile).map(\.word) == ["likely", "unlikely"])
    }
}

/// The reranker's boosted trees: the encoding read back, a score worked out by hand, damaged
/// encodings refused with what is wrong, and the fitted forests scoring as the fitting script did.
@Suite("Swipe forest")
struct SwipeForestTests {
    /// Little-endian bytes of `values`, each as its own type.
    static func bytes(_ values: [any FixedWidthInteger]) -> [UInt8] {
        values.flatMap { v -> [UInt8] in
            let width = v.bitWidth / 8
            let bits = UInt64(truncatingIfNeeded: v)
            return (0..<width).map { UInt8(truncatingIfNeeded: bits >> (8 * UInt64($0))) }
        }
    }
    static func double(_ x: Double) -> [UInt8] { bytes([x.bitPattern]) }
    static func float(_ x: Float) -> [UInt8] { bytes([x.bitPattern]) }

    /// Two features, two trees. Tree 1: x0 <= 0.5 → 1, else x1 <= 2 → 2, else 3. Tree 2: one
    /// leaf, 0.25. Feature 0 has the thresholds [0.5], feature 1 [-1, 2].
    static let handMade: [UInt8] = {
        var b = Array("LXRF".utf8) + bytes([UInt8(2), UInt16(2), UInt32(2)])
        b += bytes([UInt16(1)]) + double(0.5)
        b += bytes([UInt16(2)]) + double(-1) + double(2)
        // Tree 1: node 0 (x0, threshold 0, left leaf 0, right node 1), node 1 (x1, threshold 1, leaves 1 and 2).
        b += bytes([UInt16(2)])
        b += bytes([UInt8(0), UInt16(0), Int16(~0), Int16(1)])
        b += bytes([UInt8(1), UInt16(1), Int16(~1), Int16(~2)])
        b += float(1) + float(2) + float(3)
        // Tree 2: no inner node, one leaf.
        b += bytes([UInt16(0)]) + float(0.25)
        return b
    }()

    @Test("a forest worked out by hand: x <= threshold goes left, leaves add up")
    func scoresByHand() throws {
        let forest = try SwipeForest(encoded: Data(Self.handMade))
        #expect(forest.featureCount == 2 && forest.treeCount == 2)
        #expect(forest.score([0, 0]) == 1.25)
        #expect(forest.score([0.5, 9]) == 1.25)        // on the threshold: left
        #expect(forest.score([0.6, 2]) == 2.25)
        #expect(forest.score([0.6, 2.01]) == 3.25)
        let reranker = SwipeReranker(forest: forest, timed: false)
        #expect(reranker.weights == [0, 0] && reranker.hidden == nil)
    }

    @Test("damaged encodings are refused with what is wrong and where")
    func damaged() {
        func message(_ bytes: [UInt8]) -> String? {
            do { _ = try SwipeForest(encoded: Data(bytes)); return nil } catch { return "\(error)" }
        }
        let good = Self.handMade
        #expect(message(Array("LXRX".utf8) + good.dropFirst(4))?.contains("not a Lexiforge forest") == true)
        #expect(message(Array(good.prefix(good.count - 3)))?.contains("ends at byte") == true)
        #expect(message(good + [0])?.contains("1 bytes after the last tree") == true)
        var version = good; version[4] = 3
        #expect(message(version)?.contains("version 3") == true)
        // Tree 1's first node pointing at node 5 (of 2).
        var child = good
        let node0 = 4 + 1 + 2 + 4 + (2 + 8) + (2 + 16) + 2
        child[node0 + 5] = 5
        #expect(message(child)?.contains("child 5 of 2 inner nodes") == true)
        // A node pointing back at itself would never end a walk.
        var loop = good
        loop[node0 + 7 + 5] = 1; loop[node0 + 7 + 6] = 0
        #expect(message(loop)?.contains("points back") == true)
        #expect(throws: SwipeForest.DecodingError.self) { try SwipeForest(base64: "not base64!") }
    }

    @Test("the fitted forests read every feature and score rows as the fitting script did")
    func fitted() {
        for (context, timed) in [(false, false), (true, false), (false, true), (true, true)] {
            let reranker = SwipeReranker.fitted(context: context, timed: timed)
            let forest = reranker.forest
            #expect(forest != nil && forest?.featureCount == reranker.weights.count)
            #expect((forest?.treeCount ?? 0) >= 100)
        }
        let forest = SwipeReranker.withoutContextTimed.forest!
        for (row, expected) in Self.rowsWithoutContextTimed {
            #expect(abs(forest.score(row) - expected) < 1e-9)
        }
        // Tree by tree over all rows: the same sums, bit for bit.
        let rows = Self.rowsWithoutContextTimed.map(\.0)
        #expect(forest.scores(rows) == rows.map(forest.score))
    }

    /// Eight rows of the development set's features (`setD4`) and their scores by the encoded
    /// forest (`forest.py fit nl setD4 withoutContextTimed` reads its encoding in numpy, checks it
    /// against LightGBM to 1e-4, the leaves being Float32, and prints eight rows to stderr).
    static let rowsWithoutContextTimed: [([Double], Double)] = [
        ([-3.2007212254261188, -0.15768601555912307, -0.67816254329252523, -0.092408463008845268, -0.40544114533429415, -0.030532101971479614, -1.0439823128877785, -20.265481644398001, -4.0689752597551516, -19.204327352556714, 410.68974627943231, -121.59288986638801, 6, -1.0217545267273243, -0.3039876033802123, -0.63674260524508186, -0.82350624969852249, -0.39709698507936708, -0.17473437547168449, -13.743290573012935, -1.0107274431733047, -1.0053494134743923, -5.0896041590454786, -2.2560151061208518, -6.0643646590398284, -30.537624954272871, -0.082161295738513912, -0.082161295738513912, -2.8146883960532767, -0.64181696319410164, -1.628951822121572, -1.4813627223955761, 2.9384609070999139, 0.091991000667789299, 0.67491969209834268, 1.5800000000000001, 0.74003076645879573, 16.320032354015844], -5.5411831882083789),
        ([-4.9994580351313518, -0.072991881952840607, -0.39048769222047014, -0.14192253849744074, -0.022832070144585, -0.016850462675603962, -1.7362997238048221, -28.651198186907518, -5.0763399988661115, -64.992954456707579, 820.89115754545264, -372.46557642979775, 13, -1.3176872632779077, -0.37672607886558734, -0.15110284624911935, -0.62489014412172494, -0.2701700981841636, -0.12980933200507566, -11.187940259356836, -0.31807235503995196, -0.56397903776643321, -1.8201848503397877, -1.3491422646777425, -4.1349406155193753, -23.66240305441724, -0.67028584498665533, -3.1135239945365805, -0.94678980756943221, -0.66937648114734882, -3.1920391896562128, -0.93105563244732792, 3.8288977464378018, 0.031527637907837906, 0.59160697170464094, 1.74, 1.5564589876432138, 12.028806416146841], -6.6062962920877908),
        ([-2.6518049830378767, -0.06400001853905278, -0.4522093658631941, -0.024085502054887124, -0.047367399703345747, -0.014461071175592885, -0.40983390885799903, -17.47024279689483, -3.1654655610423585, -18.562634881265136, 305.20938338245571, -122.2916995782638, 7, -0.64018271521339831, -0.15519504520082825, -0.21764052863229713, -0.67246514100226351, -0.252982249454488, -0.12025419400417137, -7.9002074166598453, -0.69277221702486513, -0.83232939214283741, -3.8510011197814351, -1.9623967793953991, -4.8494055191740557, -26.957007838470044, -1.7639777841616386, -2.612429046309702, -1.4268553928322267, -2.0826127119135673, -4, -1.7494461817594607, 3.0288873140001069, 0.15326056142045766, 0.54674326865013856, 1.3999999999999999, 0.91589065185281537, 13.124893846572927], -5.847153595126656),
        ([-1.0834604843532005, -0.02770484128400608, -0.26971214763740953, -0.022028382497406004, -2.1128959574114292, -0.14957578681879985, -0.54111980169366536, -26.974054878405614, -1.0788485905496381, -4.3338419374128021, 727.59963658323773, -107.89621951362246, 4, -0.73560845678503817, -0.14841961628237019, -1.4535803924831365, -0.51933818234114992, -0.16644771336370495, -0.38675029000480382, -7.275230271744122, -0.57897831854715209, -0.76090624819826003, -1.5968483314074675, -1.2636646435694352, -2.3159132741886084, -6.3873933256298701, -0, -0, -4, -0, -0, -4, 1.6926912516750321, 0.98954615864066187, 0.15100190472927599, 1.5800000000000001, 0.20620083058389785, 19.362818932221536], -7.1136539942544914),
        ([-1.5192927544705241, -0.02316469142965422, -0.46840148790992614, -0.0095756172839505296, -0.91866944444444276, -0.007790398266045025, -0.68805516531165412, -22.361910780025379, -5.1524163670091871, -16.712220299175765, 500.05505373381527, -245.98101858027917, 11, -0.82949090731101693, -0.097855083076713645, -0.95847245367013167, -0.68439863231155429, -0.15219951192318004, -0.088263232809845715, -10.474352281872905, -1.1277219696969691, -1.0619425453841507, -6.4933719135802423, -2.5482095505629521, -12.404941666666661, -71.427091049382668, -0.29733858024691356, -0.35370030864197682, -2.3380459876543203, -1.4205248778249593, -4, -2.4461730635254377, 3.3394614664026627, 0.16667622335656088, 0.45171473263753664, 1.6699999999999999, 0.84500952986919153, 20.484889946452757], -7.4547721783583256),
        ([-3.1244982150485479, -0.070911297933299242, -0.48092314836222744, -0.26759985694938743, -0.067872591150795067, -0.0028722521045859628, -3.0186982014155093, -18.448576393520938, -3.8473851868978195, -24.995985720388383, 340.34997094757802, -147.5886111481675, 8, -1.7374401288722179, -0.51730054798867886, -0.26052368635269052, -0.69348622795425974, -0.26629175340836081, -0.053593396091178649, -8.8723474419731563, -1.2893845892278204, -1.1355107173548915, -6.6118710902919089, -2.5713558855770837, -10.315076713822563, -52.894968722335271, -1.2993416740439336, -1.2993416740439336, -3.4598683348087866, -0.83414954136231512, -1.2858589345162299, -1.9951276175561432, 3.055600795819819, 0.048298100964506686, 0.49413655626842484, 1.3999999999999999, 0.46436274935564981, 34.236783345496434], -6.2074706037692522),
        ([-0.28594353006342949, -0.015312198527797482, -0.10942888554909246, -0.57892168898479013, -0.18253521246618196, -0.060557483098788494, -0.00098740711114140949, -19.14738610539673, -0.32828665664727735, -0.85783059019028851, 366.62239466913979, -57.442158316190188, 3, -0.031423034722022146, -0.76086903536994466, -0.42724139835247937, -0.33080037114412741, -0.12374246857000018, -0.24608430079708152, -2.0952771226917419, -0.085427738163599012, -0.29228023909186712, -0.18253521246618198, -0.42724139835247937, -0.25628321449079705, -0.54760563739854595, -0.29497845516543264, -0.29497845516543264, -0.29497845516543264, -0.22417467163148419, -0.22417467163148419, -0.22417467163148419, 2.2060863860908064, 0.20582223197193258, 0.57539076410697965, 1.6499999999999999, 0.33932530560361934, 20.00027405309817], -0.63938282278832048),
        ([-4.6543005533500574, -0.12543811556300222, -0.44542959824727907, -0.010172798350753402, -0.10991741291609466, -0.020316058502964949, -1.7457896892054596, -20.265481644398001, -4.8997255807200695, -51.197306086850631, 410.68974627943231, -222.92029808837802, 11, -1.3212833493257454, -0.10086029124860488, -0.33153795094392235, -0.66740512303044175, -0.35417243761055461, -0.14253441164492506, -9.0268453471518093, -1.3848078246892663, -1.1767785792957255, -3.8995444302012947, -1.9747264190771578, -15.23288607158193, -42.894988732214244, -1.0591681064466685, -2.3276019709570201, -1.0454683493835994, -1.1021874752512302, -2.2361959533624423, -1.1192850461861314, 3.5119898006554462, 0.096274452956199352, 1.1483845943876445, 1.4099999999999999, 1.906277922670647, 5.6764820930551982], -6.8917713321079646),
    ]
}
