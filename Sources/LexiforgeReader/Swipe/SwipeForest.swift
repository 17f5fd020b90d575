import Foundation

/// A forest of boosted regression trees over the features of ``SwipeReranker/features(of:lm:fit:meanFit:timed:shape:profile:)``:
/// a candidate's score is the sum of the leaves its features reach, one per tree.
///
/// The fitted forests (``SwipeReranker``'s) are LambdaMART rankers fitted on the real swipes of
/// the development set by `Tests/Bench/swipe-rerank/forest.py fit`, which writes them in the
/// encoding ``init(encoded:)`` reads (Base64 in the source, `SwipeForest+Fitted.swift`) and checks
/// that the encoding scores every row as LightGBM does.
///
/// Every tree's inner nodes lie in one array (12 bytes a node: feature, threshold number,
/// children); a child below 0 is the leaf `~child`. Thresholds are numbered per feature (a forest
/// splits each feature at a few hundred values at most), in the encoding (an inner node takes 7
/// bytes there, a leaf 4: Float32) and in memory: ``scores(_:)`` first turns each feature of a row
/// into its bin, the number of the feature's thresholds below it, and a node then compares two
/// small integers (`x <= threshold[i]` exactly when `bin <= i`) instead of reading a Double per
/// node. The fitted forests (600 trees of 31 leaves without a context, 1,200 with one) take about
/// 0.4 and 0.7 MB each in memory (nodes and Float64 leaves); a swipe's 64 candidates are scored
/// tree by tree, eight walks at a time, and ``scores(_:best:checkpoint:margin:)`` stops scoring halfway
/// the rows far below the best few (``SwipeReranker/Pruning``).
public struct SwipeForest: Sendable, Equatable {
    /// How many features a scored row has.
    public let featureCount: Int
    /// How many trees.
    public var treeCount: Int { roots.count }
    /// An inner node: `x[feature] <= thresholds[feature][threshold]` goes to `left`, else to
    /// `right`; a child is an index into ``nodes`` (inner) or `~` an index into ``leaves``.
    struct Node: Sendable, Equatable {
        var feature: UInt16
        var threshold: UInt16
        var left: Int32
        var right: Int32
    }
    let nodes: [Node]
    /// Every feature's thresholds, ascending, one after the other: feature f's are
    /// `thresholds[thresholdStart[f] ..< thresholdStart[f + 1]]`.
    let thresholds: [Double]
    let thresholdStart: [Int]
    let leaves: [Double]
    /// Per tree: its root (an inner node, or `~leaf` for a tree of one leaf).
    let roots: [Int32]

    /// What is wrong with an encoded forest.
    public struct DecodingError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads a forest from its encoding (little-endian): "LXRF", version 2 (UInt8), the feature
    /// count (UInt16) and the tree count (UInt32); per feature, its threshold count (UInt16) and the
    /// thresholds (Float64, ascending); per tree, its inner node count n (UInt16), n inner nodes of
    /// feature (UInt8), threshold index (UInt16), left and right child (Int16, local to the tree; `~`
    /// a leaf), then n + 1 leaf values (Float32). Node 0 (or leaf 0 when n is 0) is the root.
    public init(encoded data: Data) throws {
        var reader = ByteReader(bytes: [UInt8](data))
        guard try reader.take(4) == Array("LXRF".utf8) else { throw DecodingError(description: "not a Lexiforge forest (no LXRF at byte 0)") }
        let version = try reader.integer(UInt8.self)
        guard version == 2 else { throw DecodingError(description: "forest encoding version \(version); this reader reads version 2") }
        featureCount = Int(try reader.integer(UInt16.self))
        let trees = Int(try reader.integer(UInt32.self))
        var thresholds: [[Double]] = []
        for _ in 0..<featureCount {
            let n = Int(try reader.integer(UInt16.self))
            let values = try (0..<n).map { _ in try reader.double() }
            // Scoring bins each feature by its thresholds, which must ascend for that to be exact.
            if let k = values.indices.dropFirst().first(where: { !(values[$0 - 1] < values[$0]) }) ?? values.firstIndex(where: \.isNaN) {
                throw DecodingError(description: "feature \(thresholds.count): threshold \(k) (\(values[k])) does not ascend")
            }
            thresholds.append(values)
        }
        var nodes: [Node] = [], leaves: [Double] = [], roots: [Int32] = []
        for t in 0..<trees {
            let inner = Int(try reader.integer(UInt16.self))
            let nodeBase = nodes.count, leafBase = leaves.count
            func global(_ child: Int16) throws -> Int32 {
                if child >= 0 {
                    guard Int(child) < inner else { throw DecodingError(description: "tree \(t): child \(child) of \(inner) inner nodes") }
                    return Int32(nodeBase + Int(child))
                }
                guard Int(~child) <= inner else { throw DecodingError(description: "tree \(t): leaf \(~child) of \(inner + 1)") }
                return ~Int32(leafBase + Int(~child))
            }
            for _ in 0..<inner {
                let f = Int(try reader.integer(UInt8.self)), i = Int(try reader.integer(UInt16.self))
                guard f < featureCount, i < thresholds[f].count else {
                    throw DecodingError(description: "tree \(t): feature \(f) threshold \(i) out of range")
                }
                let left = try global(try reader.integer(Int16.self)), right = try global(try reader.integer(Int16.self))
                nodes.append(Node(feature: UInt16(f), threshold: UInt16(i), left: left, right: right))
            }
            for _ in 0...inner { leaves.append(Double(try reader.float())) }
            roots.append(inner > 0 ? Int32(nodeBase) : ~Int32(leafBase))
        }
        guard reader.offset == reader.bytes.count else {
            throw DecodingError(description: "\(reader.bytes.count - reader.offset) bytes after the last tree")
        }
        // Children come after their parent (depth-first numbering), so every walk ends.
        for (k, n) in nodes.enumerated() where (n.left >= 0 && Int(n.left) <= k) || (n.right >= 0 && Int(n.right) <= k) {
            throw DecodingError(description: "inner node \(k) points back to node \(min(n.left, n.right))")
        }
        self.nodes = nodes
        self.thresholds = thresholds.flatMap { $0 }
        self.thresholdStart = thresholds.reduce(into: [0]) { $0.append($0.last! + $1.count) }
        self.leaves = leaves
        self.roots = roots
    }

    /// Reads a forest from the Base64 of its encoding.
    public init(base64: String) throws {
        guard let data = Data(base64Encoded: base64) else { throw DecodingError(description: "not Base64") }
        try self.init(encoded: data)
    }

    /// The forest's score of a row of ``featureCount`` features.
    public func score(_ row: [Double]) -> Double { scores([row])[0] }

    /// The forest's scores of many rows at once, tree by tree: each tree's nodes are read once
    /// for all rows instead of once per row (a swipe's reranked candidates are scored so). Each sum
    /// adds the trees' leaves in the trees' order.
    public func scores(_ rows: [[Double]]) -> [Double] {
        for row in rows { precondition(row.count == featureCount, "the forest reads \(featureCount) features, not \(row.count)") }
        let bins = bins(of: rows)
        var sums = [Double](repeating: 0, count: rows.count)
        walk(0 ..< treeCount, bins: bins, into: &sums)
        return sums
    }

    /// The scores of `rows`, stopping halfway for the rows far below the `best` highest: every row
    /// is scored by the first `checkpoint` trees, and only the rows whose sum is then at least the
    /// `best`-th highest sum minus `margin` by the rest (to the same sums as ``scores(_:)``;
    /// `complete` says which). The others keep their partial sums.
    ///
    /// The fitted forests average two forests fitted alike (``SwipeReranker/fitted(context:timed:)``):
    /// after the first one's trees, a candidate far below the best few is not brought back by the
    /// second's, which ranks much as the first does (``SwipeReranker/Pruning``).
    public func scores(_ rows: [[Double]], best: Int, checkpoint: Int, margin: Double) -> (scores: [Double], complete: [Bool]) {
        precondition(best >= 1, "at least the best row is kept")
        for row in rows { precondition(row.count == featureCount, "the forest reads \(featureCount) features, not \(row.count)") }
        let bins = bins(of: rows)
        var sums = [Double](repeating: 0, count: rows.count)
        let split = min(max(checkpoint, 0), treeCount)
        walk(0 ..< split, bins: bins, into: &sums)
        guard rows.count > best, split < treeCount else {
            walk(split ..< treeCount, bins: bins, into: &sums)
            return (sums, [Bool](repeating: true, count: rows.count))
        }
        let bar = sums.sorted(by: >)[best - 1] - margin
        let kept = sums.indices.filter { sums[$0] >= bar }
        var keptBins: [UInt16] = []
        keptBins.reserveCapacity(kept.count * featureCount)
        for r in kept { keptBins += bins[r * featureCount ..< (r + 1) * featureCount] }
        var keptSums = kept.map { sums[$0] }
        walk(split ..< treeCount, bins: keptBins, into: &keptSums)
        var complete = [Bool](repeating: false, count: rows.count)
        for (j, r) in kept.enumerated() {
            sums[r] = keptSums[j]
            complete[r] = true
        }
        return (sums, complete)
    }

    /// Adds the leaves the rows of `bins` (``bins(of:)``, one row per sum) reach in `trees` to
    /// their sums, tree after tree.
    func walk(_ trees: Range<Int>, bins: [UInt16], into sums: inout [Double]) {
        let width = featureCount
        bins.withUnsafeBufferPointer { x in
            nodes.withUnsafeBufferPointer { nodes in
                leaves.withUnsafeBufferPointer { leaves in
                    roots.withUnsafeBufferPointer { roots in
                        sums.withUnsafeMutableBufferPointer { sums in
                            // One step down a tree for the row at `base` (a leaf, below 0, stays).
                            @inline(__always) func step(_ k: inout Int32, _ base: Int) {
                                guard k >= 0 else { return }
                                let n = nodes[Int(k)]
                                k = x[base + Int(n.feature)] <= n.threshold ? n.left : n.right
                            }
                            for t in trees {
                                let root = roots[t]
                                // Eight rows at a time: a walk is a chain of dependent loads, and
                                // eight independent chains overlap in the processor. Each row's sum
                                // still adds the trees in order, so the scores are the same.
                                var r = 0
                                while r + 8 <= sums.count {
                                    let b = r * width
                                    var k0 = root, k1 = root, k2 = root, k3 = root
                                    var k4 = root, k5 = root, k6 = root, k7 = root
                                    while k0 & k1 & k2 & k3 & k4 & k5 & k6 & k7 >= 0 {   // some row not yet at a leaf
                                        step(&k0, b); step(&k1, b + width); step(&k2, b + 2 * width); step(&k3, b + 3 * width)
                                        step(&k4, b + 4 * width); step(&k5, b + 5 * width); step(&k6, b + 6 * width); step(&k7, b + 7 * width)
                                    }
                                    sums[r] += leaves[Int(~k0)]; sums[r + 1] += leaves[Int(~k1)]
                                    sums[r + 2] += leaves[Int(~k2)]; sums[r + 3] += leaves[Int(~k3)]
                                    sums[r + 4] += leaves[Int(~k4)]; sums[r + 5] += leaves[Int(~k5)]
                                    sums[r + 6] += leaves[Int(~k6)]; sums[r + 7] += leaves[Int(~k7)]
                                    r += 8
                                }
                                for r in r ..< sums.count {
                                    var k = root
                                    while k >= 0 { step(&k, r * width) }
                                    sums[r] += leaves[Int(~k)]
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Each feature of each row (row after row) as its bin: how many of the feature's thresholds
    /// lie below it, so that `x <= thresholds[i]` exactly when `bin <= i` (the thresholds
    /// ascend). NaN, which no threshold bounds, gets the largest bin and always goes right, as
    /// `NaN <= t` does.
    func bins(of rows: [[Double]]) -> [UInt16] {
        let width = featureCount
        var bins = [UInt16](repeating: 0, count: rows.count * width)
        thresholds.withUnsafeBufferPointer { t in
            thresholdStart.withUnsafeBufferPointer { start in
                bins.withUnsafeMutableBufferPointer { bins in
                    for (r, row) in rows.enumerated() {
                        row.withUnsafeBufferPointer { row in
                            for f in 0 ..< width {
                                let v = row[f]
                                guard !v.isNaN else { bins[r * width + f] = .max; continue }
                                // The number of thresholds below v, by a binary search without
                                // branches (a conditional move per halving: the outcomes are
                                // unpredictable).
                                let first = start[f]
                                var n = start[f + 1] - first
                                guard n > 0 else { continue }
                                var base = first
                                while n > 1 {
                                    let half = n / 2
                                    base = t[base + half] < v ? base + half : base
                                    n -= half
                                }
                                bins[r * width + f] = UInt16(base - first + (t[base] < v ? 1 : 0))
                            }
                        }
                    }
                }
            }
        }
        return bins
    }
}

/// Little-endian fields of an encoded forest or shape network, with the byte offset in every error.
struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    mutating func take(_ n: Int) throws -> [UInt8] {
        guard offset + n <= bytes.count else {
            throw SwipeForest.DecodingError(description: "the encoding ends at byte \(bytes.count), \(n) bytes needed at byte \(offset)")
        }
        defer { offset += n }
        return Array(bytes[offset..<offset + n])
    }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) throws -> T {
        let raw = try take(MemoryLayout<T>.size)
        return raw.reversed().reduce(T.zero) { ($0 << 8) | T(truncatingIfNeeded: $1) }
    }

    mutating func double() throws -> Double { Double(bitPattern: try integer(UInt64.self)) }

    mutating func float() throws -> Float { Float(bitPattern: try integer(UInt32.self)) }

    /// `n` Float32 values at once (a shape network's weights: hundreds of thousands).
    mutating func floats(_ n: Int) throws -> [Float] {
        guard n >= 0, offset + 4 * n <= bytes.count else {
            throw SwipeForest.DecodingError(description: "the encoding ends at byte \(bytes.count), \(4 * n) bytes needed at byte \(offset)")
        }
        let start = offset
        defer { offset += 4 * n }
        return bytes.withUnsafeBytes { raw in
            (0..<n).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + 4 * $0, as: UInt32.self))) }
        }
    }
}
