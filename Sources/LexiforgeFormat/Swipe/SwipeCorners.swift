import Foundation

/// The corners of a word's key path: its inner keys where the path turns by more than 45°, the
/// keys at which people slow down (``SwipeDwell``) and turn (`SwipeTurns`).
public enum SwipeCorners {
    /// The indices into `centres` (a word's key centres, in order) of its corner keys.
    public static func indices(of centres: [SwipePoint]) -> [Int] {
        guard centres.count >= 3 else { return [] }
        return (1 ..< centres.count - 1).filter { k in
            let ax = centres[k].x - centres[k - 1].x, ay = centres[k].y - centres[k - 1].y
            let bx = centres[k + 1].x - centres[k].x, by = centres[k + 1].y - centres[k].y
            let na = (ax * ax + ay * ay).squareRoot(), nb = (bx * bx + by * by).squareRoot()
            return na > 1e-9 && nb > 1e-9 && (ax * bx + ay * by) / (na * nb) < cos(Double.pi / 4)
        }
    }
}
