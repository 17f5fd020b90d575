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
        let r = reserved
        let K = max(1, min(classes, V - r))
        let C = K + r
        var classOf = [UInt32](repeating: 0, count: V)
        for w in 0..<min(r, V) { classOf[w] = UInt32(w) }
        for w in r..<max(V, r) { classOf[w] = UInt32(r + (w - r) % K) }
        guard counts.order >= 2, V > r else { return WordClusters(classOf: classOf, count: K) }

        // Successors and predecessors of each word, with bigram counts (CSR).
        let table = counts.table(order: 2)
        var outStart = [Int](repeating: 0, count: V + 1), inStart = [Int](repeating: 0, count: V + 1)
        for e in 0..<table.entryCount {
            outStart[Int(table.keys[2 * e]) + 1] += 1
            inStart[Int(table.keys[2 * e + 1]) + 1] += 1
        }
        for w in 0..<V { outStart[w + 1] += outStart[w]; inStart[w + 1] += inStart[w] }
        var outWord = [UInt32](repeating: 0, count: table.entryCount), outCount = [Int](repeating: 0, count: table.entryCount)
        var inWord = outWord, inCount = outCount
        var outFill = outStart, inFill = inStart
        for e in 0..<table.entryCount {
            let a = Int(table.keys[2 * e]), b = Int(table.keys[2 * e + 1]), n = Int(table.counts[e])
            outWord[outFill[a]] = UInt32(b); outCount[outFill[a]] = n; outFill[a] += 1
            inWord[inFill[b]] = UInt32(a); inCount[inFill[b]] = n; inFill[b] += 1
        }

        // Class bigram counts M[c][c′] (row-major), and class totals as left and right element.
        var M = [Int](repeating: 0, count: C * C)
        var left = [Int](repeating: 0, count: C), right = [Int](repeating: 0, count: C)
        for e in 0..<table.entryCount {
            let a = Int(classOf[Int(table.keys[2 * e])]), b = Int(classOf[Int(table.keys[2 * e + 1])])
            let n = Int(table.counts[e])
            M[a * C + b] += n; left[a] += n; right[b] += n
        }
        // x log x of counts (integers): from a table for the small ones, which are most.
        let small = (0..<65_536).map { $0 == 0 ? 0 : Double($0) * log(Double($0)) }
        func f(_ x: Int) -> Double { x < 65_536 ? small[x] : Double(x) * log(Double(x)) }

        var toClass = [Int](repeating: 0, count: C), fromClass = [Int](repeating: 0, count: C)
        var touchedTo: [Int] = [], touchedFrom: [Int] = []
        var passes = 0, moves = 0
        while passes < iterations {
            passes += 1
            moves = 0
            for w in r..<V {
                // Bigram counts from w to each class and from each class to w; w w apart.
                var selfCount = 0, wLeft = 0, wRight = 0
                for i in outStart[w]..<outStart[w + 1] {
                    let v = Int(outWord[i]), n = outCount[i]
                    wLeft += n
                    if v == w { selfCount += n; continue }
                    let c = Int(classOf[v])
                    if toClass[c] == 0 { touchedTo.append(c) }
                    toClass[c] += n
                }
                for i in inStart[w]..<inStart[w + 1] {
                    let v = Int(inWord[i]), n = inCount[i]
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
                for k in r..<C where k != own {
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
            if moves == 0 { break }
        }
        return WordClusters(classOf: classOf, count: K, passes: passes, lastMoves: moves)
    }

    /// The counts of `counts` with every word replaced by its class: the class n-gram counts of
    /// the corpus, as counting its class sequence would give. Class `c` is spelled `c<c>` (the
    /// reserved ones keep `<unk>`, `<s>`, `</s>`).
    public func classCounts(_ counts: NgramCounts) -> NgramCounts {
        let C = classIDs
        var words = Array(counts.words.prefix(Self.reserved))
        words += (Self.reserved..<C).map { "c\($0)" }
        var unigrams = [UInt64](repeating: 0, count: C)
        for (w, n) in counts.unigramCounts.enumerated() { unigrams[Int(classOf[w])] += n }
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

    public init(counts: NgramCounts, classes: Int, iterations: Int = 15) {
        let clusters = WordClusters.exchange(counts, classes: classes, iterations: iterations)
        self.clusters = clusters
        // Class n-grams of order 3 and up seen once are pruned (their mass goes to the backoffs):
        // the store's class tables shrink by more than half, and keystroke savings on the
        // development texts do not drop.
        var options = EstimationOptions()
        options.minCounts = Self.minCounts
        model = KneserNey.estimate(clusters.classCounts(counts), options: options)
        var total = [UInt64](repeating: 0, count: clusters.classIDs)
        for (w, n) in counts.unigramCounts.enumerated() where w != Int(StoreSchema.ReservedID.sentenceStart) {
            total[Int(clusters.classOf[w])] += n
        }
        // <unk> is alone in class 0 (p = 1), so p_class sums to 1 over the vocabulary as p_word does.
        memberLogProb = counts.unigramCounts.enumerated().map { w, n in
            if w == Int(StoreSchema.ReservedID.unknown) { return 0 }
            let t = total[Int(clusters.classOf[w])]
            return n == 0 || t == 0 || w == Int(StoreSchema.ReservedID.sentenceStart) ? -99 : log10(Double(n) / Double(t))
        }
    }
}
