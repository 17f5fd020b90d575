import Foundation
import LexiforgeFormat

/// The whole swipe in a few numbers: how long, how straight and how wobbly it is, how tall the
/// keyboard's rows are and, with times, how long it took and how fast it went.
///
/// They are the same for every candidate of a swipe, so they cannot rank candidates by
/// themselves; the reranker (its trees since 2026-11-27, its hidden units before) reads them beside
/// each candidate's terms and so weighs those terms differently for different swipes (a fast,
/// wobbly swipe's distances mean less than a slow, careful one's). By nested cross-validation by
/// user they added about a quarter of a point of top-1 to the network (docs/swipe.md).
public struct SwipeProfile: Sendable, Equatable {
    /// ln(1 + the swipe's length in key widths).
    public var logLength = 0.0
    /// The straight distance from the first point to the last over the length (1: a straight
    /// stroke; 1 for a swipe that does not move).
    public var straightness = 1.0
    /// The total turning (radians, the absolute changes of direction between successive samples
    /// every ``SwipeTurns/spacing`` key widths) per key width of length; 0 for a swipe under two
    /// samples' spacing.
    public var turning = 0.0
    /// The keyboard's row height in key widths (``SwipeLayout/rowHeightRatio``).
    public var rowHeightRatio = 1.5
    /// ln(1 + the swipe's duration in seconds), with times.
    public var logDuration: Double?
    /// Key widths per second (the duration taken as at least 0.05 s), with times.
    public var speed: Double?

    /// `points` in key widths (as the decoder reads them), `times` in milliseconds, one per point
    /// (nil: no times; a count that differs from the points' is taken as none).
    public init(points p: [SwipePoint], times: [Double]? = nil, rowHeightRatio: Double) {
        self.rowHeightRatio = rowHeightRatio
        guard p.count >= 2 else { return }
        let (samples, length) = SwipeTurns.resample(p)
        logLength = log(1 + length)
        if length > 1e-3 { straightness = p[0].distance(to: p[p.count - 1]) / length }
        if length > 2 * SwipeTurns.spacing, samples.count >= 3 {
            var total = 0.0
            var previous = atan2(samples[1].y - samples[0].y, samples[1].x - samples[0].x)
            for i in 2 ..< samples.count {
                let direction = atan2(samples[i].y - samples[i - 1].y, samples[i].x - samples[i - 1].x)
                var change = abs(direction - previous)
                if change > .pi { change = 2 * .pi - change }
                total += change
                previous = direction
            }
            turning = total / length
        }
        if let times, times.count == p.count, let first = times.first, let last = times.last, last.isFinite, first.isFinite {
            let seconds = max(0, last - first) / 1000
            logDuration = log(1 + seconds)
            speed = length / max(seconds, 0.05)
        }
    }

    /// The reranker's features: ln length, straightness, turning and row height; `timed`, then
    /// ln duration and speed (0 when the swipe has no times).
    public func features(timed: Bool) -> [Double] {
        var f = [logLength, straightness, turning, rowHeightRatio]
        if timed { f += [logDuration ?? 0, speed ?? 0] }
        return f
    }
}
