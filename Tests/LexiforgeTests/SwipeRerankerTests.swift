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
