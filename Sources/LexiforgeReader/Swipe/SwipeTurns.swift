import Foundation
import LexiforgeFormat

/// Where a swipe turns: the corners of its path, from the points alone (no times needed).
///
/// The swipe is resampled every ``spacing`` key widths along its length; at each sample the
/// direction from ``window`` samples before to it and from it to ``window`` samples after differ
/// by the turning angle. A turn is a local maximum of that angle above 45°, away from the first
/// and last 5% of the length (the start and end have terms of their own). People turn at the
/// keys where the word's path turns; a turn far from every such key is one the word does not
/// explain, and a corner of the word with no turn near it is one the swipe did not make.
///
/// The two ends turn too: the direction in which the swipe leaves its first point and the one in
/// which it reaches its last (over ``reach`` key widths each) are compared with the word's first
/// and last steps (``ends(keys:)``, read by the four fitted rerankers since 2026-11-29).
public struct SwipeTurns: Sendable {
    public private(set) var points: [SwipePoint] = []
    public static let spacing = 0.2
    public static let window = 2
    /// The directions (unit vectors) in which the swipe leaves its first point and reaches its
    /// last, each over the first or last ``reach`` key widths of its length; nil when it is shorter.
    public private(set) var startDirection: SwipePoint?, endDirection: SwipePoint?
    public static let reach = 1.0
    /// The swipe's first and last points (nil for no points), for ``endOffsets(keys:)``.
    public private(set) var first: SwipePoint?, last: SwipePoint?

    public init(points p: [SwipePoint]) {
        first = p.first
        last = p.last
        let (samples, total) = Self.resample(p)
        if total >= Self.reach, let first = p.first, let last = p.last {
            startDirection = Self.unit(from: first, to: Self.point(p, along: Self.reach))
            endDirection = Self.unit(from: Self.point(p, along: total - Self.reach), to: last)
        }
        guard total > 4 * Self.spacing * Double(Self.window) else { return }
        let w = Self.window, m = samples.count
        guard m > 2 * w + 2 else { return }
        var angle = [Double](repeating: 0, count: m)
        for i in w ..< m - w {
            let ax = samples[i].x - samples[i - w].x, ay = samples[i].y - samples[i - w].y
            let bx = samples[i + w].x - samples[i].x, by = samples[i + w].y - samples[i].y
            let na = (ax * ax + ay * ay).squareRoot(), nb = (bx * bx + by * by).squareRoot()
            guard na > 1e-9, nb > 1e-9 else { continue }
            angle[i] = acos(max(-1, min(1, (ax * bx + ay * by) / (na * nb))))
        }
        for i in w ..< m - w where angle[i] > Double.pi / 4 {
            let at = Double(i) * Self.spacing
            guard at > 0.05 * total, at < 0.95 * total else { continue }
            var maximum = true
            for k in max(0, i - w) ..< i where angle[k] >= angle[i] { maximum = false }
            for k in (i + 1) ... min(m - 1, i + w) where angle[k] > angle[i] { maximum = false }
            if maximum { points.append(samples[i]) }
        }
    }

    /// The polyline `p` sampled every ``spacing`` along its length (from its first point, up to its
    /// length), and that length; no samples for fewer than two points. ``SwipeProfile`` reads the
    /// same samples.
    static func resample(_ p: [SwipePoint]) -> (samples: [SwipePoint], length: Double) {
        guard p.count >= 2 else { return ([], 0) }
        var along = [0.0]
        for i in 1 ..< p.count { along.append(along[i - 1] + p[i - 1].distance(to: p[i])) }
        let total = along[p.count - 1]
        var samples: [SwipePoint] = []
        var j = 0
        var d = 0.0
        while d <= total {
            while j < p.count - 2 && along[j + 1] < d { j += 1 }
            let span = along[j + 1] - along[j]
            let t = span > 0 ? (d - along[j]) / span : 0
            samples.append(SwipePoint(x: p[j].x + t * (p[j + 1].x - p[j].x), y: p[j].y + t * (p[j + 1].y - p[j].y)))
            d += Self.spacing
        }
        return (samples, total)
    }

    /// The point `d` along the polyline `p` (its last point past its length).
    static func point(_ p: [SwipePoint], along d: Double) -> SwipePoint {
        var walked = 0.0
        for i in 1 ..< max(1, p.count) {
            let step = p[i - 1].distance(to: p[i])
            if walked + step >= d, step > 0 {
                let t = (d - walked) / step
                return SwipePoint(x: p[i - 1].x + t * (p[i].x - p[i - 1].x), y: p[i - 1].y + t * (p[i].y - p[i - 1].y))
            }
            walked += step
        }
        return p[p.count - 1]
    }

    static func unit(from a: SwipePoint, to b: SwipePoint) -> SwipePoint? {
        let dx = b.x - a.x, dy = b.y - a.y, n = (dx * dx + dy * dy).squareRoot()
        return n > 1e-9 ? SwipePoint(x: dx / n, y: dy / n) : nil
    }

    /// For a word whose keys have these centres (repeats collapsed): 1 − cos of the angle between
    /// the swipe's ``startDirection`` and the direction from the word's first key to its second,
    /// and the same at the end (its last two keys); 0 for a one-key word or a swipe too short.
    public func ends(keys centres: [SwipePoint]) -> (start: Double, end: Double) {
        guard centres.count >= 2 else { return (0, 0) }
        func turn(_ swipe: SwipePoint?, _ a: SwipePoint, _ b: SwipePoint) -> Double {
            guard let swipe, let word = Self.unit(from: a, to: b) else { return 0 }
            return 1 - (swipe.x * word.x + swipe.y * word.y)
        }
        return (turn(startDirection, centres[0], centres[1]), turn(endDirection, centres[centres.count - 2], centres[centres.count - 1]))
    }

    /// For a word whose keys have these centres (repeats collapsed): where the swipe's first point
    /// lies from the word's first key, along the word's first step (signed, key widths: negative
    /// before the key) and across it (unsigned), and where its last point lies from the last key
    /// along the last step (positive past the key) and across it. Real swipes end about 0.2 key
    /// widths past their last key, in the direction the finger was moving, and start a little
    /// before their first (docs/swipe.md); the end distances alone do not say in which direction
    /// an end misses. All 0 for a one-key word or a swipe without points.
    public func endOffsets(keys centres: [SwipePoint]) -> (startAlong: Double, startAcross: Double, endAlong: Double, endAcross: Double) {
        guard centres.count >= 2, let first, let last else { return (0, 0, 0, 0) }
        func offset(_ p: SwipePoint, key: SwipePoint, from a: SwipePoint, to b: SwipePoint) -> (Double, Double) {
            guard let u = Self.unit(from: a, to: b) else { return (0, 0) }
            let dx = p.x - key.x, dy = p.y - key.y
            return (dx * u.x + dy * u.y, abs(dy * u.x - dx * u.y))
        }
        let n = centres.count
        let s = offset(first, key: centres[0], from: centres[0], to: centres[1])
        let e = offset(last, key: centres[n - 1], from: centres[n - 2], to: centres[n - 1])
        return (s.0, s.1, e.0, e.1)
    }

    /// For a word whose keys have these centres: the mean and the largest squared distance
    /// (capped at 4 key widths²) from a turn to the word's nearest corner key (``SwipeCorners``; 4
    /// when it has none), and the mean over its corner keys of
    /// the squared distance to the nearest turn (4 when the swipe has none).
    public func terms(keys centres: [SwipePoint]) -> (unexplained: Double, worst: Double, corners: Double) {
        let corners = SwipeCorners.indices(of: centres).map { centres[$0] }
        var sum = 0.0, worst = 0.0
        for t in points {
            var best = 4.0
            for c in corners { let dx = t.x - c.x, dy = t.y - c.y; best = min(best, dx * dx + dy * dy) }
            sum += best; worst = max(worst, best)
        }
        var cornerSum = 0.0
        for c in corners {
            var best = 4.0
            for t in points { let dx = t.x - c.x, dy = t.y - c.y; best = min(best, dx * dx + dy * dy) }
            cornerSum += best
        }
        return (points.isEmpty ? 0 : sum / Double(points.count), worst, corners.isEmpty ? 0 : cornerSum / Double(corners.count))
    }
}
