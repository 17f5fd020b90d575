import Foundation

/// The second stage of ``SwipeDecoder``: the best ``SwipeDecoderOptions/rerank`` candidates of the
/// linear score, reordered by a score with a few nonlinear terms of the same measurements.
///
/// The linear score weighs each channel with one number; real swipes say the weights depend on
/// the word (a long word's DTW cost means less than a short one's, so the cost is also weighed by
/// the number of keys) and that small distances matter more than squares make them (square roots
/// of the distances join the squares). The weights are a conditional logit (softmax over each
/// swipe's shortlist, L2 1e-4, Newton's method on standardised features) fitted on the 20,000 real
/// swipes of the development set, reranking the top 32 of the linear score; by nested
/// cross-validation by user it adds about 0.7 points of top-1 and of top-4 without context, and
/// 1.3 / 0.6 with (docs/swipe.md). Every feature is O(1) from what the candidate carries.
public struct SwipeReranker: Sendable, Equatable {
    /// One weight per feature of ``features(of:lm:fit:)``, in its order: 20 without a context,
    /// 26 with one.
    public var weights: [Double]

    public init(weights: [Double]) { self.weights = weights }

    /// Fitted without context (every swipe of the development set).
    public static let withoutContext = SwipeReranker(weights: [
        0.735117, -32.3401, -11.1315, 0.666439, 0.173183, 5.16638, -0.493415, 0.73612,
        2.18456, -0.08406, 0.0104306, 0.00581841, 0.379183,
        3.02721, 3.56495, 1.31272, 11.5359, 19.3424, -3.81321, 0.272386,
    ])

    /// Fitted with each swipe's sentence before it as context.
    public static let withContext = SwipeReranker(weights: [
        0.695546, -31.4117, -11.7422, 0.776478, 0.181851, 4.62114, -0.517418, -0.111362,
        2.14846, -0.0765635, 0.00708947, 0.0096197, 0.478631,
        3.00505, 3.45024, 1.27752, 9.93368, 18.6686, -3.33347, 0.267712,
        0.73324, -0.150917, -0.0402795, 0.050584, 0.000282887, 0.2291,
    ])

    /// The features of a candidate: its channel distances, DTW cost, end distances, squared log
    /// length ratio and inner-key miss (negated), ln p(word) (`lex`), the key count, square roots
    /// of the distances, and products with the key count and the prior; with `lm` (ln p(word |
    /// context)) and `fit` (log10 context fit) six context features follow.
    public static func features(of c: SwipeCandidate, lm: Double?, fit: Double) -> [Double] {
        let lex = Double(c.frequency - 255) * SwipeDecoder.lnFrequencyStep
        let keys = Double(c.terms.keys)
        let t = c.terms
        let length = t.lengthLogRatio * t.lengthLogRatio
        var f = [-c.location, -c.shape, -c.cost, -t.start, -t.end, -length, -t.missed, lex,
                 -c.cost * keys, -c.location * keys, lex * lex, lex * keys, keys,
                 -t.missed.squareRoot(), -t.start.squareRoot(), -t.end.squareRoot(), -c.cost.squareRoot(),
                 -c.shape.squareRoot(), -abs(t.lengthLogRatio), lex * c.cost]
        if let lm {
            f += [lm, fit < -4 ? lm : 0, lm * lex, lm * lm, lm * fit, lm * c.cost]
        }
        return f
    }

    /// The reranked score of a candidate (higher is better).
    public func score(_ c: SwipeCandidate, lm: Double?, fit: Double) -> Double {
        let f = Self.features(of: c, lm: lm, fit: fit)
        precondition(f.count == weights.count, "the reranker has \(weights.count) weights for \(f.count) features")
        var s = 0.0
        for (w, x) in zip(weights, f) { s += w * x }
        return s
    }

    /// `candidates` (best first by the linear score) reordered by ``score(_:lm:fit:)``, ties kept
    /// in their order; each candidate's `score` becomes the reranked one.
    public func rerank(_ candidates: [SwipeCandidate], fit: Double) -> [SwipeCandidate] {
        let scored = candidates.enumerated().map { k, c -> (Int, SwipeCandidate) in
            var c = c
            c.score = score(c, lm: c.contextLogProbability, fit: fit)
            return (k, c)
        }
        return scored.sorted { a, b in a.1.score != b.1.score ? a.1.score > b.1.score : a.0 < b.0 }.map(\.1)
    }
}
