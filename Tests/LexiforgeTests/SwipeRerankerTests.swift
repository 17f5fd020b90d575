import Foundation
import LexiforgeReader
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
        #expect(SwipeReranker.features(of: c, lm: nil, fit: 0, timed: true, profile: Self.profile).count
                == SwipeReranker.withoutContextTimed.weights.count)
        #expect(SwipeReranker.features(of: c, lm: -3, fit: -2, timed: true, shape: true, profile: Self.profile).count
                == SwipeReranker.withContextTimed.weights.count)
        // Only the timed context forest reads the shape network's columns.
        #expect(SwipeReranker.withContextTimed.shapeColumns)
        #expect(!SwipeReranker.withContext.shapeColumns && !SwipeReranker.withoutContext.shapeColumns && !SwipeReranker.withoutContextTimed.shapeColumns)
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
        // The turn terms come next, negated, after the dwell terms when timed; then the profile;
        // with a context, its fit and whether there was no word before (fit 0), and last the
        // word's spelling flags (capitalized, all capitals, a non-letter).
        (matched.terms.turns, matched.terms.turnsWorst, matched.terms.turnCorners) = (0.5, 2, 0.25)
        (matched.terms.dwell, matched.terms.dwellWorst, matched.terms.dwellCorners) = (1, 3, 4)
        // Then whether the word lies outside the DTW's locality constraint, the turns of the
        // swipe's start and end from the word's first and last steps, negated, and, with a context
        // only, where its ends lie along and across those steps and, last, against the word's first
        // and last keys: x, y, −miss, −standardized miss, at the start and at the end; timed and
        // with a context, last of all, the whole context's mean fit and its number of words.
        (matched.terms.startTurn, matched.terms.endTurn) = (0.125, 1.5)
        (matched.terms.startAlong, matched.terms.startAcross, matched.terms.endAlong, matched.terms.endAcross) = (-0.25, 0.5, 0.75, 1)
        matched.terms.endKeyOffsets = SwipeCandidate.EndKeyOffsets(startX: 0.1, startY: -0.2, startMiss: 0.3, startMissStandardized: 4,
                                                                    endX: 0.5, endY: 0.6, endMiss: 0.7, endMissStandardized: 8)
        let offsets: [Double] = [-0.25, 0.5, 0.75, 1, 0.1, -0.2, -0.3, -4, 0.5, 0.6, -0.7, -8]
        #expect(Array(SwipeReranker.features(of: matched, lm: nil, fit: 0, profile: Self.profile)[26...]) == [-0.5, -2, -0.25] + Self.profile.features(timed: false) + [0, -0.125, -1.5])
        let meanFit = SwipeContextMeanFit(mean: -3.5, words: 2)
        #expect(Array(SwipeReranker.features(of: matched, lm: -2, fit: -5, meanFit: meanFit, timed: true, profile: Self.profile)[32...])
                == [-1, -3, -4, -0.5, -2, -0.25] + Self.profile.features(timed: true) + [-5, 0, 0, 0, 0, 0, -0.125, -1.5] + offsets + [-3.5, 2])
        #expect(SwipeReranker.features(of: matched, lm: -2, fit: -5, meanFit: meanFit, profile: Self.profile)
                == SwipeReranker.features(of: matched, lm: -2, fit: -5, profile: Self.profile))
        #expect(Array(SwipeReranker.features(of: matched, lm: -2, fit: 0, profile: Self.profile).suffix(20)) == [0, 1, 0, 0, 0, 0, -0.125, -1.5] + offsets)
        var outside = matched
        outside.terms.outsideLocality = true
        #expect(SwipeReranker.features(of: outside, lm: nil, fit: 0, profile: Self.profile).suffix(3) == [1, -0.125, -1.5])
        #expect(SwipeReranker.features(of: outside, lm: -2, fit: -5, timed: true, profile: Self.profile).suffix(17) == [1, -0.125, -1.5] + offsets + [0, 0])
        // With the shape network's columns, last: its log-likelihood, per key, and less the best.
        var shaped = outside
        (shaped.terms.shapeLikelihood, shaped.terms.shapeLikelihoodPerKey, shaped.terms.shapeLikelihoodRelative) = (-6, -1.5, -2.25)
        #expect(SwipeReranker.features(of: shaped, lm: -2, fit: -5, timed: true, shape: true, profile: Self.profile).suffix(20)
                == [1, -0.125, -1.5] + offsets + [0, 0, -6, -1.5, -2.25])
        var name = matched
        name.word = "McDonald's"
        #expect(Array(SwipeReranker.features(of: name, lm: -2, fit: -5, profile: Self.profile).suffix(18)) == [1, 0, 1, 0, -0.125, -1.5] + offsets)
        #expect(SwipeReranker.features(of: name, lm: nil, fit: 0, profile: Self.profile) == SwipeReranker.features(of: matched, lm: nil, fit: 0, profile: Self.profile))
    }

    @Test("spelling flags worked out by hand", arguments: [
        ("portland", false, false, false), ("Portland", true, false, false), ("TCO", false, true, false),
        ("U.S.", false, true, true), ("S.", true, false, true), ("don't", false, false, true), ("iPhone", false, false, false),
        ("Éclair", true, false, false), ("ÉTÉ", false, true, false), ("3D", false, false, true), ("A", true, false, false), ("", false, false, false),
    ])
    func spellingByHand(word: String, capitalized: Bool, allCapitals: Bool, nonLetter: Bool) {
        // The same rules as the script that fitted the forests (Python's isalpha / isupper per
        // character); the tuner's dump carries these flags, so the two cannot drift apart.
        let s = SwipeReranker.Spelling(word)
        #expect(s.capitalized == capitalized && s.allCapitals == allCapitals && s.nonLetter == nonLetter)
    }

    @Test("spelling flags of ASCII words (read byte by byte) are those of the characters' properties")
    func spellingASCII() {
        // Every ASCII character alone, after a capital, after a lowercase letter and doubled.
        let ascii = (0 ..< 128).map { String(UnicodeScalar(UInt8($0))) }
        let words = ascii + ascii.map { "A" + $0 } + ascii.map { "b" + $0 } + ascii.map { $0 + $0 } + ["McDonald's", "t-shirts", "ai.type", "kW"]
        for word in words {
            let letters = word.filter(\.isLetter)
            let allCapitals = letters.count >= 2 && letters.allSatisfy(\.isUppercase)
            let s = SwipeReranker.Spelling(word)
            #expect(s.allCapitals == allCapitals, "\(word.debugDescription)")
            #expect(s.capitalized == (!allCapitals && (word.first?.isUppercase ?? false)), "\(word.debugDescription)")
            #expect(s.nonLetter == word.contains { !$0.isLetter }, "\(word.debugDescription)")
        }
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

    @Test("start and end directions worked out by hand: the L leaves along x and arrives along y")
    func endsByHand() {
        let turns = SwipeTurns(points: Self.lShaped())
        // The first key width of the L runs along +x, the last along +y.
        #expect(turns.startDirection == SwipePoint(x: 1, y: 0) && turns.endDirection == SwipePoint(x: 0, y: 1))
        let o = SwipePoint(x: 0, y: 0), corner = SwipePoint(x: 2, y: 0), end = SwipePoint(x: 2, y: 2)
        // The word that turns where the swipe does: no turn at either end.
        #expect(turns.ends(keys: [o, corner, end]) == (0, 0))
        // A straight word from (0, 0) to (2, 2): 45° off at both ends, 1 − cos 45° each.
        let diagonal = turns.ends(keys: [o, end])
        #expect(abs(diagonal.start - (1 - 0.5.squareRoot())) < 1e-12 && abs(diagonal.end - (1 - 0.5.squareRoot())) < 1e-12)
        // Backwards at the start (π: 2), at right angles at the end (1).
        let back = turns.ends(keys: [SwipePoint(x: 3, y: 0), o, SwipePoint(x: 0, y: 1), SwipePoint(x: 1, y: 1)])
        #expect(abs(back.start - 2) < 1e-12 && abs(back.end - 1) < 1e-12)
        // A one-key word, or a swipe shorter than a key width: nothing to compare.
        #expect(turns.ends(keys: [o]) == (0, 0))
        let tap = SwipeTurns(points: (0...9).map { SwipePoint(x: Double($0) * 0.1, y: 0) })
        #expect(tap.startDirection == nil && tap.endDirection == nil && tap.ends(keys: [o, corner]) == (0, 0))
    }

    @Test("end offsets worked out by hand: along and across the word's first and last steps")
    func endOffsetsByHand() {
        // The L starts at (0, 0) and ends at (2, 2).
        let turns = SwipeTurns(points: Self.lShaped())
        // A word whose first key is at (0.5, 0.25) and steps along +x, whose last is at (2, 1.5)
        // reached along +y: the swipe starts 0.5 before its first key and 0.25 beside it, and
        // ends 0.5 past its last key, on its line.
        let a = SwipePoint(x: 0.5, y: 0.25), b = SwipePoint(x: 2, y: 0.25), c = SwipePoint(x: 2, y: 1.5)
        #expect(turns.endOffsets(keys: [a, b, c]) == (-0.5, 0.25, 0.5, 0))
        // Steps the other way round flip the signs along; across stays unsigned. The last step
        // runs from (3, 3.5) to (1.5, 1.5) (3-4-5: unit (−0.6, −0.8)): the end (2, 2) lies
        // (0.5, 0.5) from the key, −0.7 along it and 0.1 across. The first step runs along −x
        // from (2, 0.25): the start lies 2 along it.
        let o = turns.endOffsets(keys: [b, a, SwipePoint(x: 3, y: 3.5), SwipePoint(x: 1.5, y: 1.5)])
        #expect(abs(o.startAlong - 2) < 1e-12 && abs(o.startAcross - 0.25) < 1e-12)
        #expect(abs(o.endAlong + 0.7) < 1e-12 && abs(o.endAcross - 0.1) < 1e-12)
        // A one-key word, or no points: nothing to measure along.
        #expect(turns.endOffsets(keys: [a]) == (0, 0, 0, 0))
        #expect(SwipeTurns(points: []).endOffsets(keys: [a, b]) == (0, 0, 0, 0))
    }

    @Test("end-key offsets worked out by hand: the ends against the keys and against where swipes meet them")
    func endKeyOffsetsByHand() throws {
        let offsets = SwipeEndKeyOffsets(layout: .qwerty)
        let q = SwipeEndKeyOffsets.fittedStart["q"]!, h = SwipeEndKeyOffsets.fittedEnd["h"]!
        #expect(offsets.start[0] == q && offsets.end[SwipeLayout.qwerty.keys.firstIndex { $0.letter == "h" }!] == h)
        // A swipe from 0.5 right of the first key's centre ("q", at 0.5, 0.75 on rows 1.5 key widths
        // tall) to 0.25 below the last one's ("h", at 6, 2.25).
        let hIndex = SwipeLayout.qwerty.keys.firstIndex { $0.letter == "h" }!
        #expect(offsets.centres[0] == SwipePoint(x: 0.5, y: 0.75) && offsets.centres[hIndex] == SwipePoint(x: 6, y: 2.25))
        let t = offsets.terms(start: SwipePoint(x: 1, y: 0.75), end: SwipePoint(x: 6, y: 2.5), first: 0, last: hIndex)
        #expect(t.startX == 0.5 && t.startY == 0 && t.endX == 0 && t.endY == 0.25)
        let sx = 0.5 - q.dx, sy = -q.dy, ex = -h.dx, ey = 0.25 - h.dy
        #expect(abs(t.startMiss - (sx * sx + sy * sy)) < 1e-12 && abs(t.endMiss - (ex * ex + ey * ey)) < 1e-12)
        #expect(abs(t.startMissStandardized - (sx * sx / q.varianceX + sy * sy / q.varianceY)) < 1e-12)
        #expect(abs(t.endMissStandardized - (ex * ex / h.varianceX + ey * ey / h.varianceY)) < 1e-12)
        // By place, not by letter: QWERTZ's "z" sits where QWERTY's "y" does, and its "ü", past
        // "p", where no QWERTY key is; taller rows move the reference rows with them.
        let qwertz = try SwipeLayout.qwertz.withRowHeightRatio(1.7)
        let placed = SwipeEndKeyOffsets(layout: qwertz)
        let z = qwertz.keys.firstIndex { $0.letter == "z" }!, u = qwertz.keys.firstIndex { $0.letter == "ü" }!
        let y = qwertz.keys.firstIndex { $0.letter == "y" }!
        #expect(placed.start[z] == SwipeEndKeyOffsets.fittedStart["y"]! && placed.end[z] == SwipeEndKeyOffsets.fittedEnd["y"]!)
        #expect(placed.start[u] == SwipeEndKeyOffsets.fittedStartOther && placed.end[u] == SwipeEndKeyOffsets.fittedEndOther)
        #expect(placed.start[y] == SwipeEndKeyOffsets.fittedStart["z"]!)
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
            let e = turns.ends(keys: dictionary.path(dictionary.index(of: c.word)!).map { centres[Int($0)] })
            #expect(c.terms.startTurn == e.start && c.terms.endTurn == e.end)
            let o = turns.endOffsets(keys: dictionary.path(dictionary.index(of: c.word)!).map { centres[Int($0)] })
            #expect(c.terms.startAlong == o.startAlong && c.terms.startAcross == o.startAcross)
            #expect(c.terms.endAlong == o.endAlong && c.terms.endAcross == o.endAcross)
            let path = dictionary.path(dictionary.index(of: c.word)!)
            let k = decoder.endKeyOffsets.terms(start: turns.first!, end: turns.last!, first: Int(path.first!), last: Int(path.last!))
            #expect(c.terms.endKeyOffsets == k)
        }
        // The swipe is long enough to have both directions, and some word turns from them.
        #expect(turns.startDirection != nil && turns.endDirection != nil)
        #expect(candidates.contains { $0.terms.startTurn > 0 } && candidates.contains { $0.terms.endTurn > 0 })
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
        #expect(SwipeReranker.features(of: c, lm: -3, fit: -2, timed: true, shape: true, profile: Self.profile).count == SwipeReranker.withContextTimed.weights.count)
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
        // Many rows at once (walked eight at a time, the ninth alone): walks of one and two steps
        // share a group, and each row gets its own score.
        let rows: [[Double]] = [[0, 0], [0.6, 2], [0.6, 2.01], [0.5, 9], [0.6, 2.01], [0, 0], [0.6, 2], [1, -1], [0.7, 3]]
        #expect(forest.scores(rows) == [1.25, 2.25, 3.25, 1.25, 3.25, 1.25, 2.25, 2.25, 3.25])
        // Values are binned by the thresholds before the walk: below the first, between two, past
        // the last, infinite. NaN is below no threshold and goes right, as `NaN <= t` does.
        #expect(forest.scores([[-.infinity, 0], [(0.5).nextUp, -1], [(0.5).nextUp, (2.0).nextUp], [.infinity, .infinity], [.nan, -5], [0.7, .nan]])
                == [1.25, 2.25, 3.25, 3.25, 2.25, 3.25])
        let reranker = SwipeReranker(forest: forest, timed: false)
        #expect(reranker.weights == [0, 0] && reranker.hidden == nil)
    }

    @Test("pruning by hand: after the first tree, rows far below the best stop; the rest score in full")
    func prunedByHand() throws {
        let forest = try SwipeForest(encoded: Data(Self.handMade))
        // After tree 1: 1, 2, 3. The best is 3; within 1.5 of it: 2 and 3, which tree 2 completes.
        let rows: [[Double]] = [[0, 0], [0.6, 2], [0.6, 2.01]]
        let pruned = forest.scores(rows, best: 1, checkpoint: 1, margin: 1.5)
        #expect(pruned.scores == [1, 2.25, 3.25] && pruned.complete == [false, true, true])
        // The second best and a margin of 0: its equal is kept too.
        #expect(forest.scores(rows + [[0.6, 2]], best: 2, checkpoint: 1, margin: 0).complete == [false, true, true, true])
        // No margin at all keeps every row; as many rows as the best asked for are all scored in full.
        #expect(forest.scores(rows, best: 1, checkpoint: 1, margin: .infinity) == (forest.scores(rows), [true, true, true]))
        #expect(forest.scores(rows, best: 3, checkpoint: 1, margin: 0) == (forest.scores(rows), [true, true, true]))
        // A checkpoint past the last tree, or at 0 (every row ties at 0), scores all in full.
        #expect(forest.scores(rows, best: 1, checkpoint: 5, margin: 0) == (forest.scores(rows), [true, true, true]))
        #expect(forest.scores(rows, best: 1, checkpoint: 0, margin: 0) == (forest.scores(rows), [true, true, true]))
    }

    @Test("the fitted rerankers prune after the first seed's trees, and the rows they complete score as in full")
    func fittedPruning() {
        for (context, timed) in [(false, false), (true, false), (false, true), (true, true)] {
            let reranker = SwipeReranker.fitted(context: context, timed: timed)
            #expect(reranker.pruning == SwipeReranker.Pruning(checkpoint: reranker.forest!.treeCount / 2, margin: SwipeReranker.Pruning.fittedMargin))
        }
        let forest = SwipeReranker.withoutContextTimed.forest!
        let rows = Self.rowsWithoutContextTimed.map(\.0)
        let full = forest.scores(rows)
        for best in 1 ... 3 {
            let (scores, complete) = forest.scores(rows, best: best, checkpoint: forest.treeCount / 2, margin: 0.5)
            #expect(complete.filter { $0 }.count >= best)
            for k in rows.indices where complete[k] { #expect(scores[k] == full[k]) }
            // The rows left out scored the first half only, which no margin leaves out entirely.
            let half = forest.scores(rows, best: best, checkpoint: forest.treeCount / 2, margin: -.infinity).scores
            for k in rows.indices where !complete[k] { #expect(scores[k] == half[k]) }
        }
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
        // Thresholds out of order (feature 1's -1 and 2 swapped): scoring bins by them.
        var order = good
        let feature1 = 4 + 1 + 2 + 4 + (2 + 8) + 2
        order.replaceSubrange(feature1 ..< feature1 + 16, with: Self.double(2) + Self.double(-1))
        #expect(message(order)?.contains("feature 1: threshold 1 (-1.0) does not ascend") == true)
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

    /// Eight rows of the development set's features (`setD6`) and their scores by the encoded
    /// forest (`forest.py fit nl setD6 withoutContextTimed` reads its encoding in numpy, checks it
    /// against LightGBM to 1e-4, the leaves being Float32, and prints eight rows to stderr).
    static let rowsWithoutContextTimed: [([Double], Double)] = [
        ([-4.9917476666011389, -0.14267733027992577, -0.43826815175164485, -0.13898989705246867, -0.11555764173785295, -0.0096536999384567116, -0.94010836781690765, -22.082386895275064, -2.629608910509869, -29.950485999606833, 487.6318109926159, -132.49432137165039, 6, -0.9695918563070276, -0.3728134882920261, -0.33993770273073998, -0.66201824125294684, -0.3777265284301935, -0.098253243908059909, -9.6780068908569454, -1.7175934821602998, -1.3105699073915515, -8.7415611179190282, -2.9566131160364941, -10.305560892961799, -52.449366707514173, -1.0122803363702548, -2.2285994376069249, -0.6901575689227506, -0.95134816852124715, -2.0709335460641367, -0.67818183973357982, 3.2541636098575069, 0.052534378856291059, 0.61109047382344828, 1.6799999999999999, 1.0035687399812157, 14.408532805203636, 0, -0.87278191122607784, -0.34277243287017001], -6.943923332470149),
        ([-0.14282678155980205, -0.011804395177346836, -0.11541192361504718, -0.022195679012345697, -1.0870944444444453, -0.018898918150053661, -0, -12.019527044263642, -0.23082384723009436, -0.2856535631196041, 144.46903036778508, -24.039054088527283, 2, -0, -0.14898214326672071, -1.0426382135930206, -0.33972330449212218, -0.10864803347206445, -0.13747333614215398, -1.3871967371215492, -0.051712962962963058, -0.22740484375439995, -0.087156172839506468, -0.29522224313135093, -0.10342592592592612, -0.17431234567901294, -0.12363765432098787, -0.12363765432098787, -0, -4, -4, -0, 1.7195766122210829, 0.66683671580480808, 0.80203277672815632, 1.6399999999999999, 0.5988365010887039, 5.5880055410196734, 0, -0.00068080902640565988, -1.6436205871057534], 2.2172475598664327),
        ([-1.5008483189753932, -0.1559341576070761, -0.56780123119615966, -0.15250653041954459, -0.034768060957489362, -1.6773975737766464, -2.764330975752006, -27.393340705531092, -2.8390061559807984, -7.5042415948769658, 750.39511500930666, -136.96670352765545, 5, -1.6626277321613536, -0.39052084505125279, -0.18646195579122665, -0.75352586630862228, -0.39488499288663287, -1.295143842890297, -15.553972579176431, -1.222939567164532, -1.1058659806525075, -2.9364979820448607, -1.7136213064866055, -6.1146978358226605, -14.682489910224303, -0, -0, -4, -0, -0, -4, 1.0065544167061309, 0.8918599660877301, 0.37526906393652432, 1.6499999999999999, 0.21107097007994041, 7.3879025415904778, 1, -0.008077188385932188, -1.427753858545574], -8.3124966443720041),
        ([-6.4865539527313523, -0.098235681624168389, -0.54877050955284157, -0.10402482279898405, -0.094315145190508515, -0.00057177800137210295, -3.6487945640767077, -20.125719702022842, -5.4877050955284155, -64.86553952731353, 405.04459352439039, -201.25719702022843, 10, -1.9101818144032017, -0.322528793751789, -0.30710770942864413, -0.74079046264975734, -0.31342571946821529, -0.023911879921329961, -11.044401455996738, -1.212667946696059, -1.1012120353029471, -8.7125986550897334, -2.9517111401845768, -12.12667946696059, -87.125986550897338, -0.27556032065224806, -1.2051617820354223, -1.0214545433226438, -0.3293192630849901, -1.2372569981807531, -1.0643943445098749, 3.4335861416054878, 0.13817322023868342, 0.6348667804012541, 1.3999999999999999, 0.93413065000248607, 19.409430125303903, 0, -0.011704358000988013, -0.048039994476302583], -4.3568398673614865),
        ([-3.2684692730843978, -0.0504680566038129, -0.71104911118932723, -0.0037352839673838131, -0.084514671322144297, -0.13996175182356202, -0.25980074723767443, -22.501672722400539, -3.555245555946636, -16.342346365421989, 506.32527530602448, -112.5083636120027, 5, -0.50970653050326364, -0.061116969553339381, -0.29071407142094841, -0.84323728047882662, -0.2246509661760058, -0.37411462391032246, -15.999794389536032, -0.65535232759921447, -0.80953834226626631, -3.0622333474450714, -1.7499238118972698, -3.2767616379960725, -15.311166737225356, -1.2623910170607719, -2.9319994557897289, -1.6183911984641959, -1.8540961998452676, -4, -1.6225354709527418, 3.257323384135157, 0.10105092881622929, 0.57678913837357915, 1.6499999999999999, 1.379521476832462, 8.4022555559782486, 0, -0.0021410337402940627, -0.78491457983552104], -8.7753118551390799),
        ([-1.5101988660596684, -0.022361468029276282, -0.52789393671777307, -0.23102512341423065, -0.089196391265460265, -0.010559376087427514, -2.9085880402463102, -23.619768261401809, -4.7510454304599579, -13.591789794537014, 557.89345272232424, -212.57791435261629, 9, -1.7054583079765715, -0.48065072913107149, -0.2986576489317832, -0.72656309892381199, -0.14953751378592692, -0.10275882486398681, -12.468732451872912, -1.6273751673368815, -1.2756861555009842, -3.8702657958868132, -1.9672991119519201, -14.646376506031933, -34.832392162981321, -1.3387450815034325, -2.0098557142416684, -1.5926014732004925, -2.1884376784285191, -4, -1.6843258339316181, 3.4151781382701314, 0.035438502976015168, 0.50745997834502765, 1.8, 0.91988426738428519, 19.497924673930939, 0, -0.012897852592789305, -0.0063364296746022397], -8.4247513150276063),
        ([-4.6211383574119971, -0.099828311831234307, -0.57261183971950969, -0.062710499684620738, -0.51217756698121919, -0.032958730178593736, -1.4449647246795052, -22.920958549526016, -6.2987302369146061, -50.832521931531971, 525.37034082908974, -252.13054404478618, 11, -1.2020668553285649, -0.25042064548399506, -0.71566582074402518, -0.75671119967891953, -0.31595618656901514, -0.18154539426433747, -13.124812243178717, -2.3042385017233951, -1.5179718382510905, -7.3153982736364345, -2.7046992944940174, -25.346623518957344, -80.469381010000774, -1.0687103139453562, -2.3941957763522037, -1.3072112232650062, -1.4083167751574528, -4, -1.3165504396848895, 3.3010046254059877, 0.084278938194480166, 0.79545704168417175, 1.55, 1.2249512107111278, 10.873498607795476, 0, -0.25963591261956809, -0.04484267382554652], -9.4243029139761347),
        ([-3.2299398459023068, -0.10383283851608531, -0.51862223278677966, -0.28038302469135618, -0.10323117283950566, -0.23336483280782663, -2.6757629938271554, -21.802863010524746, -3.1117333967206777, -19.379639075413841, 475.3648354557082, -130.81717806314848, 6, -1.6357759607682085, -0.5295120628383797, -0.32129608282627048, -0.72015431178795264, -0.32223103282596061, -0.48307849549304782, -11.307449495662633, -0.50852952674897056, -0.71311256246750454, -2.6506077160493784, -1.6280687074105251, -3.0511771604938236, -15.903646296296269, -0.41930972222222201, -1.5521682098765419, -0.94446790123456814, -0.79033081598080412, -2.7220169882385368, -1.0931591081939036, 3.3240179808245007, 0.11165916380577719, 0.92593887838239464, 1.3700000000000001, 1.6152211571898276, 6.6447537584265328, 0, -0.35146406262134622, -0.032417045746382711], -6.3151944325727527),
    ]
}
