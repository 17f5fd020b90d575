import Foundation
import LexiforgeFormat

/// A learned model of how people swipe: a small temporal convolutional network that reads a swipe
/// with its times and gives, at each of ``steps`` moments, the log-probability of each of the 26
/// letter keys or of none; a word's score is the log-likelihood of its key path under those
/// (connectionist temporal classification, CTC: the sum over every way of laying the keys along
/// the moments, each key one or more moments, moments of none between and around them).
///
/// Every other shape score the reranker reads is geometry written down by hand (the DTW against
/// the word's ideal path, the key match, the ends' offsets, the turns). This one is learnt from the
/// development set's real swipes (`Tests/Bench/swipe-rerank/shapenet.py`, JAX; the weights are
/// compiled in, `SwipeShapeNetwork+Fitted.swift`), and the timed context forest reads it
/// (``SwipeReranker/shapeColumns``): its log-likelihood, the same per key, and less the best of
/// the swipe's shortlist (docs/swipe.md).
///
/// The swipe is resampled to ``steps`` points uniform in time (layout units, the decoder's
/// reading of the trace); each point carries its position, its step from the point before, its
/// speed relative to the swipe's mean, and its closeness `exp(−d² / 0.5)` to each letter key's
/// centre (the layout's own keys; a letter the layout lacks at its QWERTY place). An input
/// convolution and residual blocks (layer norm, a dilated convolution of ``kernel`` taps, GELU)
/// of ``width`` channels, then a linear map to the 27 classes and a log-softmax. Trained on QWERTY
/// swipes: on another layout it reads each letter where that layout has it.
public struct SwipeShapeNetwork: Sendable, Equatable {
    /// The network's letters in class order (class 0 is "no key"; letter k is class k + 1).
    public static let letters: [Character] = Array("qwertyuiopasdfghjklzxcvbnm")
    /// Points a swipe is resampled to.
    public let steps: Int
    /// Channels of the hidden layers.
    public let width: Int
    /// Taps of each convolution.
    public let kernel: Int
    /// Each residual block's dilation.
    public let dilations: [Int]
    /// Input features a point: x, y, dx, dy, relative speed, then the 26 keys' closeness.
    public let inputs: Int
    /// Output classes: none, then the 26 letters.
    public let classes: Int
    /// Key paths longer than this are scored on their first `maximumKeys` keys (as trained).
    public let maximumKeys: Int

    struct Block: Sendable, Equatable {
        var weights: [Float]   // [kernel][width][width]
        var bias: [Float]
        var gain: [Float]
        var shift: [Float]
    }
    let inputWeights: [Float]   // [kernel][inputs][width]
    let inputBias: [Float]
    let blocks: [Block]
    let outputWeights: [Float]  // [width][classes]
    let outputBias: [Float]

    public typealias DecodingError = SwipeForest.DecodingError

    /// Reads a network from its encoding (little-endian): "LXSN", version 1 (UInt8); steps,
    /// inputs, width, classes and the longest key path (UInt16 each); kernel taps and block count
    /// (UInt8), each block's dilation (UInt8); then Float32 arrays: the input convolution's weights
    /// ([kernel][inputs][width]) and biases, per block its convolution's weights
    /// ([kernel][width][width]) and biases and its layer norm's gains and shifts, the output
    /// weights ([width][classes]) and biases.
    public init(encoded data: Data) throws {
        var reader = ByteReader(bytes: [UInt8](data))
        guard try reader.take(4) == Array("LXSN".utf8) else { throw DecodingError(description: "not a Lexiforge shape network (no LXSN at byte 0)") }
        let version = try reader.integer(UInt8.self)
        guard version == 1 else { throw DecodingError(description: "shape network encoding version \(version); this reader reads version 1") }
        steps = Int(try reader.integer(UInt16.self))
        inputs = Int(try reader.integer(UInt16.self))
        width = Int(try reader.integer(UInt16.self))
        classes = Int(try reader.integer(UInt16.self))
        maximumKeys = Int(try reader.integer(UInt16.self))
        kernel = Int(try reader.integer(UInt8.self))
        let blockCount = Int(try reader.integer(UInt8.self))
        dilations = try (0..<blockCount).map { _ in Int(try reader.integer(UInt8.self)) }
        guard steps >= 2, width >= 1, kernel % 2 == 1, inputs == 5 + Self.letters.count, classes == Self.letters.count + 1,
              maximumKeys >= 1, dilations.allSatisfy({ $0 >= 1 }) else {
            throw DecodingError(description: "shape network of \(steps) steps, \(inputs) inputs, \(width) channels, \(classes) classes, kernel \(kernel), dilations \(dilations): not a shape this reader runs")
        }
        func floats(_ n: Int) throws -> [Float] { try reader.floats(n) }
        inputWeights = try floats(kernel * inputs * width)
        inputBias = try floats(width)
        var blocks: [Block] = []
        for _ in 0..<blockCount {
            blocks.append(Block(weights: try floats(kernel * width * width), bias: try floats(width), gain: try floats(width), shift: try floats(width)))
        }
        self.blocks = blocks
        outputWeights = try floats(width * classes)
        outputBias = try floats(classes)
        guard reader.offset == reader.bytes.count else {
            throw DecodingError(description: "\(reader.bytes.count - reader.offset) bytes after the output biases")
        }
        let all = inputWeights + inputBias + outputWeights + outputBias + blocks.flatMap { $0.weights + $0.bias + $0.gain + $0.shift }
        if let bad = all.firstIndex(where: { !$0.isFinite }) {
            throw DecodingError(description: "weight \(bad) is \(all[bad]), not a finite number")
        }
    }

    /// Reads a network from the Base64 of its encoding.
    public init(base64: String) throws {
        guard let data = Data(base64Encoded: base64) else { throw DecodingError(description: "not Base64") }
        try self.init(encoded: data)
    }

    /// Multiply-adds one swipe takes.
    public var multiplyAdds: Int {
        steps * (kernel * inputs * width + dilations.count * kernel * width * width + width * classes)
    }

    /// The letter classes of a layout's keys (key index to class, nil for a key that is not one of
    /// the 26 letters) and the centre the network reads for each of the 26 letters.
    public struct Keys: Sendable, Equatable {
        public let classOfKey: [Int?]
        public let centres: [SwipePoint]

        public init(layout: SwipeLayout) {
            let qwerty = SwipeLayout.qwerty
            classOfKey = layout.keys.map { key in SwipeShapeNetwork.letters.firstIndex(of: key.letter).map { $0 + 1 } }
            centres = SwipeShapeNetwork.letters.map { letter in
                if let k = layout.keys.firstIndex(where: { $0.letter == letter }) { return layout.keys[k].centre }
                let q = qwerty.keys[qwerty.keys.firstIndex { $0.letter == letter }!].centre
                return SwipePoint(x: q.x, y: q.y / qwerty.rowHeightRatio * layout.rowHeightRatio)
            }
        }

        /// A key path's classes (keys that are not letters dropped, a repeat after a drop once).
        public func classes(_ path: some Sequence<UInt8>) -> [Int] {
            var out: [Int] = []
            for k in path {
                guard Int(k) < classOfKey.count, let c = classOfKey[Int(k)], out.last != c else { continue }
                out.append(c)
            }
            return out
        }
    }

    /// The network's reading of a swipe: log-probabilities, ``steps`` rows of ``classes``.
    public struct Reading: Sendable, Equatable {
        public let steps: Int
        public let classes: Int
        /// `logProbabilities[t * classes + c]`.
        public let logProbabilities: [Float]
        let maximumKeys: Int
        /// The probabilities themselves, which the CTC forward pass multiplies.
        let probabilities: [Double]

        /// A reading of `steps` rows of `classes` log-probabilities (class 0 "no key"); key paths
        /// longer than `maximumKeys` are scored on their first keys.
        public init(steps: Int, classes: Int, logProbabilities: [Float], maximumKeys: Int) {
            precondition(steps >= 1 && classes >= 2 && logProbabilities.count == steps * classes, "steps × classes log-probabilities")
            self.steps = steps
            self.classes = classes
            self.logProbabilities = logProbabilities
            self.maximumKeys = maximumKeys
            probabilities = logProbabilities.map { exp(Double($0)) }
        }

        /// The lowest score a key path gets (its log-likelihood when lower, or when no alignment
        /// fits it in the steps).
        public static let floor = -300.0

        /// log p(keys | swipe) under CTC, `classes` the key path's letter classes (1...26; no two
        /// alike in a row), at least ``floor``; ``floor`` for an empty path. Paths longer than the
        /// network was trained on are scored on their first keys.
        public func logLikelihood(of keys: [Int]) -> Double {
            let labels = keys.prefix(maximumKeys)
            let n = labels.count
            guard n > 0, n <= steps else { return Self.floor }
            // The forward variables in the probability domain, updated in place from the last state
            // down, and rescaled when they grow small (their scales' logs summed).
            let states = 2 * n + 1
            var label = [Int](repeating: 0, count: states), skips = [Bool](repeating: false, count: states)
            for (i, c) in labels.enumerated() {
                label[2 * i + 1] = c
                skips[2 * i + 1] = i > 0 && labels[labels.startIndex + i - 1] != c
            }
            var alpha = [Double](repeating: 0, count: states)
            return probabilities.withUnsafeBufferPointer { p -> Double in
                label.withUnsafeBufferPointer { label in
                    skips.withUnsafeBufferPointer { skips in
                        alpha.withUnsafeMutableBufferPointer { alpha -> Double in
                            alpha[0] = p[0]
                            alpha[1] = p[label[1]]
                            var logScale = 0.0
                            for t in 1..<steps {
                                let row = p.baseAddress! + t * classes
                                // A state is reachable at step t only if the rest of the path still fits after it.
                                let lowest = max(0, states - 2 * (steps - t))
                                var total = 0.0
                                for s in stride(from: states - 1, through: lowest, by: -1) {
                                    var a = alpha[s]
                                    if s >= 1 { a += alpha[s - 1] }
                                    if skips[s] { a += alpha[s - 2] }
                                    a *= row[label[s]]
                                    alpha[s] = a
                                    total += a
                                }
                                for s in 0..<lowest { alpha[s] = 0 }
                                guard total > 0 else { return Self.floor }
                                if total < 1e-100 {
                                    let inverse = 1 / total
                                    for s in lowest..<states { alpha[s] *= inverse }
                                    logScale += log(total)
                                }
                            }
                            let end = alpha[states - 1] + alpha[states - 2]
                            guard end > 0 else { return Self.floor }
                            return max(Self.floor, logScale + log(end))
                        }
                    }
                }
            }
        }
    }

    /// Reads a swipe: its points in layout units (as the decoder reads them, its vertical offset
    /// applied) and their times (milliseconds; when they do not rise from first to last, the
    /// points are taken as evenly spaced), with `keys` the layout's letters.
    public func read(points: [SwipePoint], times: [Double], keys: Keys) -> Reading {
        let x = features(points: points, times: times, centres: keys.centres)
        return Reading(steps: steps, classes: classes, logProbabilities: forward(x), maximumKeys: maximumKeys)
    }

    /// The input features, ``steps`` rows of ``inputs`` (shapenet.py's `resample` and `features`).
    func features(points: [SwipePoint], times: [Double], centres: [SwipePoint]) -> [Float] {
        let n = min(points.count, times.count)
        var rx = [Double](repeating: 0, count: steps), ry = rx
        if n > 0 {
            var t = (n == 1 || !(times[n - 1] > times[0])) ? (0..<n).map(Double.init) : Array(times[0..<n])
            for i in 1..<n where t[i] < t[i - 1] { t[i] = t[i - 1] }   // never back in time
            let first = t[0], last = t[n - 1]
            if last > first {
                let step = (last - first) / Double(steps - 1)
                var j = 0
                for s in 0..<steps {
                    let u = s == steps - 1 ? last : Double(s) * step + first
                    if u >= last { rx[s] = points[n - 1].x; ry[s] = points[n - 1].y; continue }
                    // The last point at or before u, as numpy's interp finds it.
                    while j + 1 < n && t[j + 1] <= u { j += 1 }
                    let dt = t[j + 1] - t[j]
                    rx[s] = (points[j + 1].x - points[j].x) / dt * (u - t[j]) + points[j].x
                    ry[s] = (points[j + 1].y - points[j].y) / dt * (u - t[j]) + points[j].y
                }
            } else {
                for s in 0..<steps { rx[s] = points[0].x; ry[s] = points[0].y }
            }
        }
        var stepLength = [Double](repeating: 0, count: steps)
        for s in 1..<steps { stepLength[s] = ((rx[s] - rx[s - 1]) * (rx[s] - rx[s - 1]) + (ry[s] - ry[s - 1]) * (ry[s] - ry[s - 1])).squareRoot() }
        let meanStep = stepLength.reduce(0, +) / Double(steps)
        var out = [Float](repeating: 0, count: steps * inputs)
        for s in 0..<steps {
            let dx = s == 0 ? 0 : rx[s] - rx[s - 1], dy = s == 0 ? 0 : ry[s] - ry[s - 1]
            let row = s * inputs
            out[row] = Float(rx[s] / 5 - 1)
            out[row + 1] = Float(ry[s] / 2.4 - 1)
            out[row + 2] = Float(dx * 3)
            out[row + 3] = Float(dy * 3)
            out[row + 4] = Float(stepLength[s] / (meanStep + 1e-6) - 1)
            for (k, c) in centres.enumerated() {
                let ex = rx[s] - c.x, ey = ry[s] - c.y
                out[row + 5 + k] = Float(exp(-(ex * ex + ey * ey) / 0.5))
            }
        }
        return out
    }

    /// The network's log-probabilities for input features `x` (``steps`` × ``inputs``).
    func forward(_ x: [Float]) -> [Float] {
        let n = steps * width, width = self.width, classes = self.classes
        var out = [Float](repeating: 0, count: steps * classes)
        // h: the residual stream; z: its layer norm; c: a block's convolution.
        var buffer = [Float](repeating: 0, count: 3 * n)
        buffer.withUnsafeMutableBufferPointer { buffer in
            let h = buffer.baseAddress!, z = h + n, c = h + 2 * n
            x.withUnsafeBufferPointer { x in
                convolve(x.baseAddress!, channels: inputs, weights: inputWeights, bias: inputBias, dilation: 1, into: h)
            }
            for i in 0..<n { h[i] = Self.gelu(h[i]) }
            for (block, dilation) in zip(blocks, dilations) {
                block.gain.withUnsafeBufferPointer { gain in
                    block.shift.withUnsafeBufferPointer { shift in
                        for t in 0..<steps {
                            let row = h + t * width, normed = z + t * width
                            var mean: Float = 0
                            for i in 0..<width { mean += row[i] }
                            mean /= Float(width)
                            var variance: Float = 0
                            for i in 0..<width { let d = row[i] - mean; variance += d * d }
                            let scale = 1 / (variance / Float(width) + 1e-5).squareRoot()
                            for i in 0..<width { normed[i] = (row[i] - mean) * scale * gain[i] + shift[i] }
                        }
                    }
                }
                convolve(z, channels: width, weights: block.weights, bias: block.bias, dilation: dilation, into: c)
                for i in 0..<n { h[i] += Self.gelu(c[i]) }
            }
            out.withUnsafeMutableBufferPointer { out in
                outputWeights.withUnsafeBufferPointer { w in
                    outputBias.withUnsafeBufferPointer { bias in
                        for t in 0..<steps {
                            let o = out.baseAddress! + t * classes, v = h + t * width
                            for k in 0..<classes { o[k] = bias[k] }
                            for i in 0..<width {
                                let wi = w.baseAddress! + i * classes
                                for k in 0..<classes { o[k] += v[i] * wi[k] }
                            }
                            var top = -Float.infinity
                            for k in 0..<classes { top = max(top, o[k]) }
                            var sum: Float = 0
                            for k in 0..<classes { sum += exp(o[k] - top) }
                            let log = top + Foundation.log(sum)
                            for k in 0..<classes { o[k] -= log }
                        }
                    }
                }
            }
        }
        return out
    }

    /// A "same" convolution over time: `out[t] = bias + Σ_k in[t + (k − kernel/2)·dilation] · W[k]`
    /// (zero beyond the ends), `in` of `channels`, `out` of ``width``. Sixteen output channels at a
    /// time are summed in registers over every tap and input channel, so each weight is read once
    /// a step and each sum written once.
    private func convolve(_ input: UnsafePointer<Float>, channels: Int, weights: [Float], bias: [Float], dilation: Int,
                          into out: UnsafeMutablePointer<Float>) {
        let width = self.width, half = kernel / 2
        weights.withUnsafeBufferPointer { w in
            bias.withUnsafeBufferPointer { b in
                let w = w.baseAddress!, b = b.baseAddress!
                for t in 0..<steps {
                    let o = out + t * width
                    var j = 0
                    while j < width {
                        let lanes = min(16, width - j)
                        if lanes == 16 {
                            var sum = UnsafeRawPointer(b + j).loadUnaligned(as: SIMD16<Float>.self)
                            for k in 0..<kernel {
                                let source = t + (k - half) * dilation
                                guard source >= 0 && source < steps else { continue }
                                let x = input + source * channels
                                var row = w + k * channels * width + j
                                for i in 0..<channels {
                                    sum += x[i] * UnsafeRawPointer(row).loadUnaligned(as: SIMD16<Float>.self)
                                    row += width
                                }
                            }
                            UnsafeMutableRawPointer(o + j).storeBytes(of: sum, as: SIMD16<Float>.self)
                        } else {
                            for c in j..<j + lanes {
                                var sum = b[c]
                                for k in 0..<kernel {
                                    let source = t + (k - half) * dilation
                                    guard source >= 0 && source < steps else { continue }
                                    let x = input + source * channels
                                    for i in 0..<channels { sum += x[i] * w[(k * channels + i) * width + c] }
                                }
                                o[c] = sum
                            }
                        }
                        j += lanes
                    }
                }
            }
        }
    }

    /// GELU, the tanh approximation (JAX's default): 0.5·x·(1 + tanh y) with
    /// y = √(2/π)·(x + 0.044715·x³), computed as x / (1 + e^(−2y)), the same function, with one
    /// exponential instead of a tanh (a third of the network's time with tanh).
    static func gelu(_ x: Float) -> Float {
        x / (1 + exp(-2 * 0.797_884_56 * (x + 0.044_715 * x * x * x)))
    }
}
