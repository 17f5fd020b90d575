import Foundation

/// The word's keys matched to the swipe's points in order: each key to one point, the points
/// never going back, the summed squared distances least (a monotone assignment by dynamic
/// programming). Segment DTW asks how close every point of the swipe stays to the word's path;
/// this asks the converse, whether the swipe touches each key of the word, one after another. A
/// word whose keys the finger passed near, in its order, explains the swipe even when the path
/// between them wanders (corners cut, curves); a word with a key the swipe never came near, or
/// came near only out of order, does not.
///
/// The points are used as given (layout units); the decoder's `keyMatch(_:)` first reads them
/// as it reads every point (its vertical touch offset applied).
/// - Complexity: O(keys · points) time and memory per word.
public struct SwipeKeyMatch: Sendable {
    public let points: [SwipePoint]

    public init(points: [SwipePoint]) {
        self.points = points
    }

    /// For a word whose keys have these centres: the mean over its keys of the squared distance
    /// (key widths²) to the point each is matched to, and the largest of them (capped at 9).
    /// (0, 0) without points or keys.
    public func terms(keys: [SwipePoint]) -> (mean: Double, worst: Double) {
        let q = points.count
        guard q > 0, !keys.isEmpty else { return (0, 0) }
        // best[p]: the least summed cost of the keys so far with the last one on point p;
        // from[k · q + p]: the point of key k − 1 on that assignment.
        var best = [Double](repeating: 0, count: q), row = best
        var from = [Int32](repeating: 0, count: keys.count * q)
        points.withUnsafeBufferPointer { points in
            for (k, c) in keys.enumerated() {
                var runMin = Double.infinity, runArg: Int32 = 0
                let base = k * q
                for p in 0 ..< q {
                    if k == 0 { runMin = 0; runArg = Int32(p) } else if best[p] < runMin { runMin = best[p]; runArg = Int32(p) }
                    let dx = points[p].x - c.x, dy = points[p].y - c.y
                    row[p] = runMin + (dx * dx + dy * dy)
                    from[base + p] = runArg
                }
                swap(&best, &row)
            }
        }
        var end = 0
        for p in 0 ..< q where best[p] < best[end] { end = p }
        var worst = 0.0, p = end
        for k in stride(from: keys.count - 1, through: 0, by: -1) {
            let dx = points[p].x - keys[k].x, dy = points[p].y - keys[k].y
            worst = max(worst, dx * dx + dy * dy)
            p = Int(from[k * q + p])
        }
        return (best[end] / Double(keys.count), min(worst, 9))
    }
}
