import Foundation
import LexiforgeFormat

/// A hard clustering of the vocabulary into K classes, learnt from bigram counts by the exchange
/// algorithm (Kneser & Ney 1993; Martin, Liermann & Ney 1998): the class-bigram likelihood
/// Σ N(c, c′) log N(c, c′) − Σ N(c•) log N(c•) − Σ N(•c) log N(•c) is raised by moving one word
/// at a time to the class that raises it most, until no word moves or `iterations` passes.
///
/// `<unk>`, `<s>` and `</s>` keep classes of their own (0, 1, 2, as their word ids); the real
/// classes are 3...K+2. Words start in class 3 + (id − 3) mod K (ids are in descending count
/// order, so every class starts with a share of frequent words) and are visited in id order; a word
/// moves only to a class strictly better than its own, ties to the lowest class: identical counts
/// give identical classes.
///
/// - Complexity: per pass, O(Σ_w K × (classes next to w)); about 1 s for 7,000 words and K = 128.
public struct WordClusters: Sendable, Equatable {
    /// `classOf[id]` is the class of word `id` (0, 1, 2 for the reserved ids).
    public var classOf: [UInt32]
    /// Number of real classes (K): class ids are 0...K+2.
    public var count: Int
    /// Passes made, and words moved in the last one (0 when it converged).
    public var passes: Int
    public var lastMoves: Int

    public var classIDs: Int { count + Self.reserved }
    static let reserved = 3

    public init(classOf: [UInt32], count: Int, passes: Int = 0, lastMoves: Int = 0) {
        self.classOf = classOf
        self.count = count
        self.passes = passes
        self.lastMoves = lastMoves
    }

    /// Clusters the words of `counts` (from its bigram table) into at most `classes` classes.
    public static func exchange(_ counts: NgramCounts, classes: Int, iterations: Int = 15) -> WordClusters {
        let V = counts.words.count
        var state = Exchange(vocabulary: V, classes: classes)
        guard counts.order >= 2, V > reserved else { return state.clusters }

        let table = counts.table(order: 2)
        for e in 0..<table.entryCount { state.add(table.keys[2 * e], table.keys[2 * e + 1], table.counts[e]) }
        let edges = Exchange.MemoryEdges(table, vocabulary: V)
        state.run(iterations: iterations) { state in
            edges.forEachWord(from: reserved) { w, out, inn in state.visit(word: w, out: out, in: inn) }
        }
        return state.clusters
    }

    /// The exchange algorithm's state, shared by the in-memory and the streaming
    /// (``exchange(_:classes:iterations:budget:)``) versions, which differ only in where a word's
    /// bigrams come from: the classes, the class bigram counts M[c][c′] (row-major) and the class
    /// totals as left and right element, and the scratch of one word's visit.
    ///
    /// Use: ``add(_:_:_:)`` every bigram once, then ``run(iterations:_:)`` with a pass that calls
    /// ``visit(word:out:in:)`` for every word r..<V in id order (``MemoryEdges`` or
    /// ``WordClusters/StreamedEdges`` enumerate them). Results depend on the order of a
    /// word's edges (the gains are floating-point sums over the classes in the order they were first
    /// touched): successors must come in b order and predecessors in a order.
    ///
    /// - Complexity: memory O(V + C²) with C = K + 3; a visit O(edges + K × (classes next to w)).
    package struct Exchange {
        /// One bigram seen from one of its words: the other word and the count.
        package struct Edge: BitwiseCopyable, Equatable {
            var word: UInt32
            var count: UInt32
        }

        /// The successors and predecessors of each word with their bigram counts, in memory (CSR):
        /// successors in b order and predecessors in a order, as the table is sorted by (a, b).
        package struct MemoryEdges {
            let outStart: [Int], inStart: [Int]
            let outEdges: [Edge], inEdges: [Edge]

            package init(_ table: NgramCounts.Table, vocabulary V: Int) {
                var outStart = [Int](repeating: 0, count: V + 1), inStart = [Int](repeating: 0, count: V + 1)
                for e in 0..<table.entryCount {
                    outStart[Int(table.keys[2 * e]) + 1] += 1
                    inStart[Int(table.keys[2 * e + 1]) + 1] += 1
                }
                for w in 0..<V { outStart[w + 1] += outStart[w]; inStart[w + 1] += inStart[w] }
                var outEdges = [Edge](repeating: .init(word: 0, count: 0), count: table.entryCount)
                var inEdges = outEdges
                var outFill = outStart, inFill = inStart
                for e in 0..<table.entryCount {
                    let a = table.keys[2 * e], b = table.keys[2 * e + 1], n = table.counts[e]
                    outEdges[outFill[Int(a)]] = .init(word: b, count: n); outFill[Int(a)] += 1
                    inEdges[inFill[Int(b)]] = .init(word: a, count: n); inFill[Int(b)] += 1
                }
                self.outStart = outStart
                self.inStart = inStart
                self.outEdges = outEdges
                self.inEdges = inEdges
            }

            /// Calls `body` with every word `first`..<V in id order, its successors and its
            /// predecessors (valid during the call only; empty for a word without bigrams).
            package func forEachWord(from first: Int, _ body: (Int, UnsafeBufferPointer<Edge>, UnsafeBufferPointer<Edge>) -> Void) {
                outEdges.withUnsafeBufferPointer { out in
                    inEdges.withUnsafeBufferPointer { inn in
                        for w in first..<(outStart.count - 1) {
                            body(w, UnsafeBufferPointer(rebasing: out[outStart[w]..<outStart[w + 1]]),
                                 UnsafeBufferPointer(rebasing: inn[inStart[w]..<inStart[w + 1]]))
                        }
                    }
                }
            }
        }

        let K: Int, C: Int
        package var classOf: [UInt32]
        var M: [Int], left: [Int], right: [Int]
        var toClass: [Int], fromClass: [Int]
        var touchedTo: [Int] = [], touchedFrom: [Int] = []
        var passes = 0, moves = 0
        /// x log x of counts (integers) below 65,536, which are most.
        static let small: [Double] = (0..<65_536).map { $0 == 0 ? 0 : Double($0) * log(Double($0)) }

        /// Words start in class 3 + (id − 3) mod K, the reserved ids in their own; no counts yet.
        package init(vocabulary V: Int, classes: Int) {
            let r = WordClusters.reserved
            K = max(1, min(classes, V - r))
            C = K + r
            classOf = [UInt32](repeating: 0, count: V)
            for w in 0..<min(r, V) { classOf[w] = UInt32(w) }
            for w in r..<max(V, r) { classOf[w] = UInt32(r + (w - r) % K) }
            M = [Int](repeating: 0, count: C * C)
            left = [Int](repeating: 0, count: C)
            right = left
            toClass = left
            fromClass = left
        }

        var clusters: WordClusters { WordClusters(classOf: classOf, count: K, passes: passes, lastMoves: moves) }

        /// Counts the bigram (a, b) seen `n` times into the class counts.
        @inline(__always)
        mutating func add(_ a: UInt32, _ b: UInt32, _ n: UInt32) {
            let a = Int(classOf[Int(a)]), b = Int(classOf[Int(b)]), n = Int(n)
            M[a * C + b] += n; left[a] += n; right[b] += n
        }

        /// Passes of `pass` until one moves no word or `iterations` were made.
        mutating func run<E: Error>(iterations: Int, _ pass: (inout Exchange) throws(E) -> Void) throws(E) {
            while passes < iterations {
                passes += 1
                moves = 0
                try pass(&self)
                if moves == 0 { break }
            }
        }

        /// Moves word `w` to the class that raises the likelihood most (staying unless another is
        /// strictly better, ties to the lowest class). `out`: its successors and their counts (in
        /// b order), `in`: its predecessors (in a order); empty for a word with no bigrams.
        mutating func visit(word w: Int, out: UnsafeBufferPointer<Edge>, in: UnsafeBufferPointer<Edge>) {
            // Bigram counts from w to each class and from each class to w; w w apart.
            var selfCount = 0, wLeft = 0, wRight = 0
            for edge in out {
                let v = Int(edge.word), n = Int(edge.count)
                wLeft += n
                if v == w { selfCount += n; continue }
                let c = Int(classOf[v])
                if toClass[c] == 0 { touchedTo.append(c) }
                toClass[c] += n
            }
            for edge in `in` {
                let v = Int(edge.word), n = Int(edge.count)
                wRight += n
                if v == w { continue }
                let c = Int(classOf[v])
                if fromClass[c] == 0 { touchedFrom.append(c) }
                fromClass[c] += n
            }
            // Take w out of its class.
            let own = Int(classOf[w])
            for c in touchedTo { M[own * C + c] -= toClass[c] }
            for c in touchedFrom { M[c * C + own] -= fromClass[c] }
            M[own * C + own] -= selfCount
            left[own] -= wLeft; right[own] -= wRight
            // The likelihood gained by putting w into class k.
            let small = Self.small
            func f(_ x: Int) -> Double { x < 65_536 ? small[x] : Double(x) * log(Double(x)) }
            func gain(_ k: Int) -> Double {
                var g = 0.0
                for c in touchedTo where c != k { g += f(M[k * C + c] + toClass[c]) - f(M[k * C + c]) }
                for c in touchedFrom where c != k { g += f(M[c * C + k] + fromClass[c]) - f(M[c * C + k]) }
                let diagonal = toClass[k] + fromClass[k] + selfCount
                g += f(M[k * C + k] + diagonal) - f(M[k * C + k])
                g -= f(left[k] + wLeft) - f(left[k]) + f(right[k] + wRight) - f(right[k])
                return g
            }
            var best = own, bestGain = gain(own)
            for k in WordClusters.reserved..<C where k != own {
                let g = gain(k)
                if g > bestGain + 1e-9 * max(1, abs(bestGain)) { best = k; bestGain = g }
            }
            if best != own { moves += 1; classOf[w] = UInt32(best) }
            for c in touchedTo { M[best * C + c] += toClass[c]; toClass[c] = 0 }
            for c in touchedFrom { M[c * C + best] += fromClass[c]; fromClass[c] = 0 }
            M[best * C + best] += selfCount
            left[best] += wLeft; right[best] += wRight
            touchedTo.removeAll(keepingCapacity: true)
            touchedFrom.removeAll(keepingCapacity: true)
        }
    }

    /// The counts of `counts` with every word replaced by its class: the class n-gram counts of
    /// the corpus, as counting its class sequence would give. Class `c` is spelled `c<c>` (the
    /// reserved ones keep `<unk>`, `<s>`, `</s>`).
    public func classCounts(_ counts: NgramCounts) -> NgramCounts {
        let (words, unigrams) = classVocabulary(words: counts.words, unigramCounts: counts.unigramCounts)
        var tables: [NgramCounts.Table] = []
        for t in counts.tables {
            let n = t.n
            var sums: [[UInt32]: UInt64] = [:]
            var key = [UInt32](repeating: 0, count: n)
            for e in 0..<t.entryCount {
                for i in 0..<n { key[i] = classOf[Int(t.keys[e * n + i])] }
                sums[key, default: 0] += UInt64(t.counts[e])
            }
            let sorted = sums.keys.sorted { $0.lexicographicallyPrecedes($1) }
            tables.append(NgramCounts.Table(n: n, keys: sorted.flatMap { $0 },
                                            counts: sorted.map { UInt32(min(sums[$0]!, UInt64(UInt32.max))) }))
        }
        return NgramCounts(order: counts.order, words: words, unigramCounts: unigrams, tables: tables,
                           tokens: counts.tokens, sentences: counts.sentences)
    }

    /// The words (class names) and unigram counts of the class counts, from the words and unigram
    /// counts of the word counts.
    func classVocabulary(words: [String], unigramCounts: [UInt64]) -> (words: [String], unigramCounts: [UInt64]) {
        let C = classIDs
        var classWords = Array(words.prefix(Self.reserved))
        classWords += (Self.reserved..<C).map { "c\($0)" }
        var unigrams = [UInt64](repeating: 0, count: C)
        for (w, n) in unigramCounts.enumerated() { unigrams[Int(classOf[w])] += n }
        return (classWords, unigrams)
    }
}

/// A class-based language model (Brown et al. 1992): p(w | h) = p(class(w) | classes of h) ×
/// p(w | class(w)), the class n-grams estimated by interpolated modified Kneser-Ney from the class
/// counts, p(w | c) = count(w) / count(c). Interpolated with the word model, it lends the
/// statistics of a word's class to contexts the word itself was never seen in.
public final class ClusterModel: Sendable {
    public let clusters: WordClusters
    /// The Kneser-Ney model over class ids (``WordClusters/classCounts(_:)``).
    public let model: LanguageModel
    /// log10 p(w | class(w)) by word id: 0 for `<unk>` (alone in class 0), −99 for `<s>` and words never seen.
    public let memberLogProb: [Double]

    /// `EstimationOptions.minCounts` of the class model.
    public static let minCounts = [1, 1, 2]

    public convenience init(counts: NgramCounts, classes: Int, iterations: Int = 15) {
        let clusters = WordClusters.exchange(counts, classes: classes, iterations: iterations)
        self.init(clusters: clusters, classCounts: clusters.classCounts(counts), unigramCounts: counts.unigramCounts)
    }

    /// The model of `clusters`, from the class counts (``WordClusters/classCounts(_:)``) and the
    /// word unigram counts of the corpus they were learnt from (by word id).
    init(clusters: WordClusters, classCounts: NgramCounts, unigramCounts: [UInt64]) {
        self.clusters = clusters
        // Class n-grams of order 3 and up seen once are pruned (their mass goes to the backoffs):
        // the store's class tables shrink by more than half, and keystroke savings on the
        // development texts do not drop.
        var options = EstimationOptions()
        options.minCounts = Self.minCounts
        model = KneserNey.estimate(classCounts, options: options)
        var total = [UInt64](repeating: 0, count: clusters.classIDs)
        for (w, n) in unigramCounts.enumerated() where w != Int(StoreSchema.ReservedID.sentenceStart) {
            total[Int(clusters.classOf[w])] += n
        }
        // <unk> is alone in class 0 (p = 1), so p_class sums to 1 over the vocabulary as p_word does.
        memberLogProb = unigramCounts.enumerated().map { w, n in
            if w == Int(StoreSchema.ReservedID.unknown) { return 0 }
            let t = total[Int(clusters.classOf[w])]
            return n == 0 || t == 0 || w == Int(StoreSchema.ReservedID.sentenceStart) ? -99 : log10(Double(n) / Double(t))
        }
    }
}
