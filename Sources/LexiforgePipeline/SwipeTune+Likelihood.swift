import Foundation

extension SwipeTune {
    /// The score's terms without context, in the order of ``likelihoodPaths``: costs enter negated,
    /// the lexicon prior as it is.
    static var likelihoodPaths: [WritableKeyPath<Weights, Double>] {
        [\.location, \.shape, \.cost, \.endpoints, \.length, \.missed, \.missedMean, \.robust, \.turning, \.frequency]
    }

    static func features(_ t: Term) -> [Double] {
        [-t.location, -t.shape, -t.cost, -t.endpoints, -t.length, -t.missed, -t.missedMean, -t.robust, -t.turning, t.lexicon]
    }

    /// Weights without context that maximise the likelihood of the true word under a softmax over
    /// each swipe's shortlist (a smooth, concave stand-in for top-1 accuracy, so every term gets a
    /// weight at once, where coordinate ascent on the accuracy stalls on a new term at zero).
    /// Projected gradient ascent (Adam) on standardised terms, weights kept ≥ 0; the lexicon prior's
    /// weight stays as given (the ranking depends only on the ratios, so it sets the scale).
    /// - Complexity: O(iterations · terms · features) over every shortlisted word of `samples`.
    static func fitLikelihood(_ samples: [Sample], from start: Weights, iterations: Int = 150) -> Weights {
        let paths = likelihoodPaths, dimension = paths.count
        // Flat rows: features of every shortlisted word; per sample its range and its true rows.
        var rows: [Double] = [], truth: [Bool] = [], ranges: [Range<Int>] = []
        for s in samples where s.hasTruth {
            let first = truth.count
            for t in s.terms { rows += features(t); truth.append(t.truth) }
            ranges.append(first ..< truth.count)
        }
        guard !ranges.isEmpty else { return start }
        var scale = [Double](repeating: 0, count: dimension)
        for r in 0 ..< truth.count { for d in 0 ..< dimension { scale[d] += rows[r * dimension + d] * rows[r * dimension + d] } }
        scale = scale.map { ($0 / Double(truth.count)).squareRoot() }
        for d in 0 ..< dimension where scale[d] < 1e-12 { scale[d] = 1 }
        for r in 0 ..< truth.count { for d in 0 ..< dimension { rows[r * dimension + d] /= scale[d] } }
        // θ on the standardised terms, started from the given weights.
        var theta = paths.enumerated().map { max(0, start[keyPath: $0.element]) * scale[$0.offset] }
        var m = [Double](repeating: 0, count: dimension), v = m
        let rate = 0.05, beta1 = 0.9, beta2 = 0.999
        var scores = [Double](repeating: 0, count: truth.count)
        for step in 1 ... iterations {
            var gradient = [Double](repeating: 0, count: dimension)
            for r in 0 ..< truth.count {
                var s = 0.0
                for d in 0 ..< dimension { s += theta[d] * rows[r * dimension + d] }
                scores[r] = s
            }
            for range in ranges {
                var top = -Double.infinity
                for r in range { top = max(top, scores[r]) }
                var all = 0.0, matched = 0.0
                for r in range { let e = exp(scores[r] - top); all += e; if truth[r] { matched += e } }
                // ∂/∂θ [ln Σ_true e^s − ln Σ_all e^s] = E_true[x] − E_all[x].
                for r in range {
                    let e = exp(scores[r] - top)
                    let weight = (truth[r] ? e / matched : 0) - e / all
                    if weight == 0 { continue }
                    for d in 0 ..< dimension { gradient[d] += weight * rows[r * dimension + d] }
                }
            }
            // The lexicon prior's weight (last) stays: it fixes the scale, as in ``fit(_:from:context:)``.
            for d in 0 ..< dimension - 1 {
                let g = gradient[d] / Double(ranges.count)
                m[d] = beta1 * m[d] + (1 - beta1) * g
                v[d] = beta2 * v[d] + (1 - beta2) * g * g
                let mHat = m[d] / (1 - pow(beta1, Double(step))), vHat = v[d] / (1 - pow(beta2, Double(step)))
                theta[d] = max(0, theta[d] + rate * mHat / (vHat.squareRoot() + 1e-8))
            }
        }
        var fitted = start
        for (d, path) in paths.enumerated() { fitted[keyPath: path] = theta[d] / scale[d] }
        return fitted
    }
}
