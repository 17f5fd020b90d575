import Foundation

/// Where a swipe slows down: people slow at the keys they mean (corners, doubled letters, the
/// back-and-forth of "nutritional") and move fast between them. From the points' times.
///
/// A dwell is a local minimum of the speed (over a window of two points each side) below half the
/// swipe's median speed, away from the first and last 5% of its length (the start and end have
/// terms of their own). Without usable times (all equal), there are none and ``available`` is false.
public struct SwipeDwell: Sendable {
    public private(set) var points: [SwipePoint] = []
    public private(set) var available = false

    public init(points raw: [SwipePoint], times: [Double], verticalOffset: Double = 0) {
        let n = min(raw.count, times.count)
        guard n >= 7, times[n - 1] > times[0] else { return }
        available = true
        let p = (0 ..< n).map { SwipePoint(x: raw[$0].x, y: raw[$0].y - verticalOffset) }
        var along = [0.0]
        for i in 1 ..< n { along.append(along[i - 1] + p[i - 1].distance(to: p[i])) }
        let total = along[n - 1]
        guard total > 0 else { return }
        var speed = [Double](repeating: 0, count: n)
        for i in 0 ..< n {
            let a = max(0, i - 2), b = min(n - 1, i + 2)
            let dt = times[b] - times[a]
            speed[i] = dt > 0 ? (along[b] - along[a]) / dt : .infinity
        }
        let finite = speed.filter(\.isFinite).sorted()
        guard !finite.isEmpty else { return }
        let median = finite[finite.count / 2]
        for i in 3 ..< n - 3 where speed[i] < 0.5 * median {
            guard along[i] > 0.05 * total, along[i] < 0.95 * total else { continue }
            var minimum = true
            for j in i - 3 ..< i where speed[j] <= speed[i] { minimum = false }
            for j in i + 1 ... i + 3 where speed[j] < speed[i] { minimum = false }
            if minimum { points.append(p[i]) }
        }
    }

    /// For a word whose keys have these centres: the mean and the largest squared distance
    /// (capped at 4 key widths²) from a dwell to the word's nearest key (a slowdown the word does
    /// not explain), and the mean over the word's corner keys (``SwipeCorners``) of
    /// the squared distance to the nearest dwell (a corner the swipe did not slow at; 4 when there
    /// is no dwell).
    public func terms(keys centres: [SwipePoint]) -> (unexplained: Double, worst: Double, corners: Double) {
        guard available, !centres.isEmpty else { return (0, 0, 0) }
        var sum = 0.0, worst = 0.0
        for d in points {
            var best = 4.0
            for c in centres { let dx = d.x - c.x, dy = d.y - c.y; best = min(best, dx * dx + dy * dy) }
            sum += best; worst = max(worst, best)
        }
        var cornerSum = 0.0, cornerCount = 0
        for k in SwipeCorners.indices(of: centres) {
            var best = 4.0
            for d in points { let dx = d.x - centres[k].x, dy = d.y - centres[k].y; best = min(best, dx * dx + dy * dy) }
            cornerSum += best; cornerCount += 1
        }
        return (points.isEmpty ? 0 : sum / Double(points.count), worst, cornerCount == 0 ? 0 : cornerSum / Double(cornerCount))
    }
}
