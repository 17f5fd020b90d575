import Foundation
import LexiforgeFormat

/// Synthetic swipes: realistic noisy swipes of a word's key path, seeded.
///
/// A swipe starts near the first key (log-normal offset, median ``Parameters/startOffsetMedian``),
/// passes near every inner key, ends near the last key, runs through a smooth curve (Catmull–Rom)
/// with a gentle perpendicular wobble whose amplitude is solved so the swipe length matches a
/// log-normal draw of length / ideal length, lands a little below the key centres, and is sampled
/// at about 60 points per second over about a second per word. Defaults are calibrated on the
/// real development swipes (``SwipeStatistics/reference``), including how hard they are to decode:
/// synthetic swipes of the same words decode within two points of the real ones, top-1 and top-4
/// (`lexiforge swipe generate --compare REAL --same-words`).
public struct SwipeGenerator: Sendable {
    public struct Parameters: Sendable {
        /// Log-normal offsets of the first, inner and last touch from the key centre (median, key
        /// widths; sigma of the logarithm).
        public var startOffsetMedian = 0.24, startOffsetSigma = 0.6
        public var innerOffsetMedian = 0.25, innerOffsetSigma = 0.6
        /// Sigma of a per-swipe log-normal factor on the inner offsets: some swipes pass close to
        /// every key, some cut every corner (0: every swipe alike). With the inner median, fitted
        /// so the slowdowns lie as near the keys as in real swipes and same-word synthetic swipes
        /// decode about as well as the real ones (docs/swipe.md).
        public var innerSwipeSigma = 0.7
        public var endOffsetMedian = 0.41, endOffsetSigma = 0.7
        /// Touches land this many key heights below the centres.
        public var touchBelow = 0.1
        /// Log-normal length / ideal length (median, sigma of the logarithm).
        public var lengthRatioMedian = 1.13, lengthRatioSigma = 0.2
        /// Standard deviation (degrees) of the bend of the first stroke: real swipes often leave
        /// the first key in a slightly wrong direction and correct on the way.
        public var startBendSigma = 36.0
        /// Wavelength of the wobble, key widths.
        public var wobbleWavelength = 3.0
        public var pointsPerSecond = 60.0
        /// Duration = (base + perKeyWidth · ideal length) · log-normal(sigma).
        public var secondsBase = 0.2, secondsPerKeyWidth = 0.07, secondsSigma = 0.35
        /// People slow down at the keys they mean: near each inner key the finger moves
        /// 1 / (1 + `dwellDepth`) as fast, over a Gaussian `dwellWidth` key widths of path
        /// (calibrated so that ``SwipeDwell`` finds one slowdown per inner key, 0.1-2 from the
        /// 5th to the 95th percentile, as in the real swipes).
        public var dwellDepth = 25.0, dwellWidth = 0.3
        public init() {}
    }

    public var layout: SwipeLayout
    public var parameters: Parameters
    public var rng: SplitMix64

    public init(layout: SwipeLayout, seed: UInt64, parameters: Parameters = Parameters()) {
        self.layout = layout
        self.rng = SplitMix64(seed: seed)
        self.parameters = parameters
    }

    /// One swipe of `keys`: points in layout units and times in milliseconds.
    public mutating func swipe(keys: [UInt8]) -> (points: [SwipePoint], times: [Double]) {
        precondition(!keys.isEmpty)
        let p = parameters
        func offset(_ median: Double, _ sigma: Double) -> SwipePoint {
            let r = median * exp(sigma * rng.normal()), a = Double.random(in: 0 ..< 2 * .pi, using: &rng)
            return SwipePoint(x: r * cos(a), y: r * sin(a))
        }
        var corners: [SwipePoint] = []
        let care = p.innerSwipeSigma > 0 ? exp(p.innerSwipeSigma * rng.normal()) : 1
        for (i, k) in keys.enumerated() {
            let key = layout.keys[Int(k)]
            let o = i == 0 ? offset(p.startOffsetMedian, p.startOffsetSigma)
                : i == keys.count - 1 ? offset(p.endOffsetMedian, p.endOffsetSigma) : offset(p.innerOffsetMedian * care, p.innerOffsetSigma)
            corners.append(SwipePoint(x: key.centre.x + o.x, y: key.centre.y + p.touchBelow * key.height + o.y))
        }
        if keys.count == 1 {
            // A one-letter word: a short stroke on the key.
            let o = offset(p.endOffsetMedian * 0.5, p.endOffsetSigma)
            corners.append(SwipePoint(x: corners[0].x + o.x, y: corners[0].y + o.y))
        }
        var ideal = 0.0
        for i in keys.indices.dropFirst() { ideal += layout.keys[Int(keys[i - 1])].centre.distance(to: layout.keys[Int(keys[i])].centre) }
        // Dense smooth curve through the corners.
        var curve: [SwipePoint] = []
        let steps = 24
        let bend = p.startBendSigma * .pi / 180 * rng.normal()
        let first = corners[0], second = corners[1]
        let before = SwipePoint(x: first.x - 0.6 * ((second.x - first.x) * cos(bend) - (second.y - first.y) * sin(bend)),
                                y: first.y - 0.6 * ((second.x - first.x) * sin(bend) + (second.y - first.y) * cos(bend)))
        for i in 0 ..< corners.count - 1 {
            let p0 = i == 0 ? before : corners[i - 1], p1 = corners[i], p2 = corners[i + 1], p3 = corners[min(corners.count - 1, i + 2)]
            for s in 0 ..< steps {
                let t = Double(s) / Double(steps), t2 = t * t, t3 = t2 * t
                func cr(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
                    0.5 * (2 * b + (-a + c) * t + (2 * a - 5 * b + 4 * c - d) * t2 + (-a + 3 * b - 3 * c + d) * t3)
                }
                curve.append(SwipePoint(x: cr(p0.x, p1.x, p2.x, p3.x), y: cr(p0.y, p1.y, p2.y, p3.y)))
            }
        }
        curve.append(corners[corners.count - 1])
        // Wobble perpendicular to the curve, zero at both ends; amplitude solved for the target length.
        let along = Self.cumulative(curve)
        let total = along.last!
        let phase = Double.random(in: 0 ..< 2 * .pi, using: &rng)
        var normals: [SwipePoint] = []
        for i in curve.indices {
            let a = curve[max(0, i - 1)], b = curve[min(curve.count - 1, i + 1)]
            let dx = b.x - a.x, dy = b.y - a.y, n = max((dx * dx + dy * dy).squareRoot(), 1e-9)
            normals.append(SwipePoint(x: -dy / n, y: dx / n))
        }
        func wobbled(_ amplitude: Double) -> [SwipePoint] {
            curve.indices.map { i in
                let u = total > 0 ? along[i] / total : 0
                let w = amplitude * sin(.pi * u) * sin(2 * .pi * along[i] / p.wobbleWavelength + phase)
                return SwipePoint(x: curve[i].x + w * normals[i].x, y: curve[i].y + w * normals[i].y)
            }
        }
        let target = ideal * p.lengthRatioMedian * exp(p.lengthRatioSigma * rng.normal())
        var path = curve
        if ideal > 0, total < target {
            var lo = 0.0, hi = 1.5
            for _ in 0 ..< 24 {
                let mid = (lo + hi) / 2
                if Self.cumulative(wobbled(mid)).last! < target { lo = mid } else { hi = mid }
            }
            path = wobbled(lo)
        }
        // Sample in time: eased speed, ~60 points per second.
        let seconds = (p.secondsBase + p.secondsPerKeyWidth * ideal) * exp(p.secondsSigma * rng.normal())
        let count = max(2, Int((seconds * p.pointsPerSecond).rounded()) + 1)
        let pathAlong = Self.cumulative(path)
        // Time runs along the path as its slowness: 1, plus a bump at each inner key (the
        // path passes the k-th corner at vertex k · steps).
        let inner = corners.count > 2 ? (1 ..< corners.count - 1).map { pathAlong[$0 * steps] } : []
        var slow = [0.0]
        slow.reserveCapacity(path.count)
        for v in 1 ..< path.count {
            let mid = (pathAlong[v] + pathAlong[v - 1]) / 2
            var g = 1.0
            if p.dwellDepth > 0 { for s in inner { let z = (mid - s) / p.dwellWidth; g += p.dwellDepth * exp(-0.5 * z * z) } }
            slow.append(slow[v - 1] + g * (pathAlong[v] - pathAlong[v - 1]))
        }
        let slowTotal = slow.last!
        var points: [SwipePoint] = [], times: [Double] = []
        let bounds = layout.bounds
        var j = 0
        for s in 0 ..< count {
            let tau = Double(s) / Double(count - 1)
            let eased = tau - 0.8 * sin(2 * .pi * tau) / (2 * .pi)
            let target = eased * slowTotal
            while j < path.count - 2 && slow[j + 1] < target { j += 1 }
            let span = slow[j + 1] - slow[j]
            let f = span > 0 ? min(max((target - slow[j]) / span, 0), 1) : 0
            // The keyboard reports touches inside its own bounds.
            points.append(SwipePoint(x: min(max(path[j].x + f * (path[j + 1].x - path[j].x), bounds.minX), bounds.maxX),
                                     y: min(max(path[j].y + f * (path[j + 1].y - path[j].y), bounds.minY), bounds.maxY)))
            times.append((tau * seconds * 1000).rounded())
        }
        return (points, times)
    }

    static func cumulative(_ points: [SwipePoint]) -> [Double] {
        var result = [0.0]
        result.reserveCapacity(points.count)
        for i in points.indices.dropFirst() { result.append(result[i - 1] + points[i - 1].distance(to: points[i])) }
        return result
    }
}

/// Statistics of a set of swipes against their words' key paths, for calibration.
public struct SwipeStatistics: Sendable {
    public struct Summary: Sendable {
        public var name: String
        public var median: Double, p5: Double, p95: Double
        public var count: Int
    }
    public var summaries: [Summary]

    /// Real-swipe figures (name, median, 5th, 95th): the 20,000 swipes of the "How We Swipe"
    /// development users (`swipe generate --compare Corpora/data/swipe/hws-dev-20000.jsonl.gz`).
    public static let reference: [(String, Double, Double?, Double?)] = [
        ("length ratio", 1.13, 0.90, 1.52),
        ("start offset (kw)", 0.28, 0.07, 0.64),
        ("end offset (kw)", 0.43, 0.10, 1.27),
        ("start direction deviation (deg)", 7.8, 0.69, 35.4),
        ("touch below centre (key heights)", 0.07, -0.24, 0.40),
        ("points per second", 55.6, 34.5, 62.5),
        ("duration (s)", 1.05, 0.21, 4.59),
        ("slowdowns per inner key", 1.00, 0.00, 2.00),
        ("slowdown to nearest key (kw)", 0.39, 0.10, 1.05),
        ("keys matched in order, rms (kw)", 0.26, 0.11, 0.79),
    ]

    /// Measures swipes (points in layout units, times in ms) of key paths on `layout`.
    public init(swipes: [(keys: [UInt8], points: [SwipePoint], times: [Double])], layout: SwipeLayout) {
        summaries = Self.summarise(Self.values(swipes: swipes, layout: layout))
    }

    /// The measures, in the order of ``summaries`` (the names of ``reference``).
    static let measures = reference.map(\.0)

    /// The raw values of the ten measures.
    static func values(swipes: [(keys: [UInt8], points: [SwipePoint], times: [Double])], layout: SwipeLayout) -> [[Double]] {
        var ratio: [Double] = [], start: [Double] = [], end: [Double] = [], direction: [Double] = []
        var below: [Double] = [], rate: [Double] = [], duration: [Double] = []
        var slowdowns: [Double] = [], slowdownDistance: [Double] = [], keyMatch: [Double] = []
        for s in swipes where s.points.count >= 2 {
            let first = layout.keys[Int(s.keys[0])], last = layout.keys[Int(s.keys[s.keys.count - 1])]
            let along = SwipeGenerator.cumulative(s.points)
            start.append(s.points[0].distance(to: first.centre))
            end.append(s.points[s.points.count - 1].distance(to: last.centre))
            below.append((s.points[0].y - first.centre.y) / first.height)
            below.append((s.points[s.points.count - 1].y - last.centre.y) / last.height)
            let seconds = (s.times.last! - s.times.first!) / 1000
            if seconds > 0 { rate.append(Double(s.points.count - 1) / seconds); duration.append(seconds) }
            if s.keys.count >= 3 {
                // Where the swipe slows down (``SwipeDwell``, as the decoder finds it).
                let dwell = SwipeDwell(points: s.points, times: s.times)
                if dwell.available {
                    slowdowns.append(Double(dwell.points.count) / Double(s.keys.count - 2))
                    let centres = s.keys.map { layout.keys[Int($0)].centre }
                    for d in dwell.points { slowdownDistance.append(centres.map { $0.distance(to: d) }.min()!) }
                }
            }
            // The word's keys matched to the points in order (``SwipeKeyMatch``, as the reranker reads it).
            keyMatch.append(SwipeKeyMatch(points: s.points).terms(keys: s.keys.map { layout.keys[Int($0)].centre }).mean.squareRoot())
            guard s.keys.count >= 2 else { continue }
            let f = SwipeFeatures(keys: s.keys, layout: layout)
            if f.length > 0 { ratio.append(along.last! / f.length) }
            if let j = along.firstIndex(where: { $0 >= 1.0 }) {
                let measured = atan2(s.points[j].y - s.points[0].y, s.points[j].x - s.points[0].x)
                var d = abs(measured - f.startAngle).truncatingRemainder(dividingBy: 2 * .pi)
                if d > .pi { d = 2 * .pi - d }
                direction.append(d * 180 / .pi)
            }
        }
        return [ratio, start, end, direction, below, rate, duration, slowdowns, slowdownDistance, keyMatch]
    }

    static func summarise(_ values: [[Double]]) -> [Summary] {
        return zip(measures, values).map { name, values in
            let v = values.sorted()
            func q(_ p: Double) -> Double { v.isEmpty ? .nan : v[min(v.count - 1, Int(p * Double(v.count - 1) + 0.5))] }
            return Summary(name: name, median: q(0.5), p5: q(0.05), p95: q(0.95), count: v.count)
        }
    }

    /// Measures real traces (their words' key paths on each trace's own geometry).
    public init(traces: [SwipeTrace], layout: SwipeLayout) {
        var byRatio: [Int: [(keys: [UInt8], points: [SwipePoint], times: [Double])]] = [:]
        for t in traces {
            guard let word = t.word, let keys = layout.keyPath(of: word) else { continue }
            byRatio[Int((t.rowHeightRatio * 100).rounded()), default: []].append((keys, t.points, t.times))
        }
        self.init(pooled: byRatio.compactMap { ratio, group in
            (try? layout.withRowHeightRatio(Double(ratio) / 100)).map { (group, $0) }
        })
    }

    /// Measures swipes that come on several geometries.
    init(pooled groups: [([(keys: [UInt8], points: [SwipePoint], times: [Double])], SwipeLayout)]) {
        var values = [[Double]](repeating: [], count: Self.measures.count)
        for (group, layout) in groups {
            let raw = SwipeStatistics.values(swipes: group, layout: layout)
            for k in values.indices { values[k] += raw[k] }
        }
        summaries = SwipeStatistics.summarise(values)
    }

    /// A table: measure, generated median/5th/95th, measured on real traces median/5th/95th.
    public func render(against real: SwipeStatistics) -> String {
        table(real.summaries.map { ($0.median, $0.p5, $0.p95) })
    }

    /// A table: measure, generated median/5th/95th, real median/5th/95th (``reference``).
    public func render() -> String { table(Self.reference.map { ($0.1, $0.2, $0.3) }) }

    private func table(_ real: [(Double, Double?, Double?)]) -> String {
        var lines = ["measure                              generated: median    5th   95th |  real: median    5th   95th"]
        func f(_ v: Double?) -> String { v.map { String(format: "%6.2f", $0) } ?? "     -" }
        for (s, r) in zip(summaries, real) {
            lines.append(s.name.padding(toLength: 36, withPad: " ", startingAt: 0) + "            "
                         + [f(s.median), f(s.p5), f(s.p95)].joined(separator: " ") + " |        " + [f(r.0), f(r.1), f(r.2)].joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }
}
