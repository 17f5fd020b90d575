import Foundation
import LexiforgeFormat

/// What decides the probabilities ``KneserNey/estimate(_:options:)`` gives.
public struct EstimationOptions: Sendable, Equatable {
    /// `minCounts[n - 1]` is the smallest raw count an n-gram of order n (2...5) keeps; smaller ones
    /// are pruned and their probability mass goes to the backoff weight of their context (as
    /// KenLM's `lmplz --prune` does with threshold `minCount - 1`). Unigrams are never pruned
    /// (use ``NgramCounts/limitingVocabulary(to:)``). Missing orders repeat the last value given;
    /// empty means no count pruning. Must not decrease with the order, so that every kept
    /// n-gram's prefix and suffix are kept too.
    public var minCounts: [Int] = []
    /// Relative-entropy pruning threshold (Stolcke 1998); 0 disables it. An n-gram of order ≥ 2 that
    /// is nobody's context or suffix is dropped when removing it raises the model's relative
    /// entropy by less than this; backoff weights are then renormalised. Typical: 1e-8 to 1e-6.
    public var entropyThreshold: Double = 0
    /// Discounts D1, D2, D3+ used for an order whose counts-of-counts cannot give valid ones (tiny
    /// or artificial corpora), as `lmplz --discount_fallback` does.
    public var fallbackDiscounts: [Double] = [0.5, 1.0, 1.5]
    /// Word classes for a class-based model interpolated with the word model (``ClusterModel``);
    /// 0 (the default) builds none.
    public var clusters = 0
    /// The class model's weight λ in p = (1 − λ) p_word + λ p_class (with ``clusters``).
    public var clusterWeight = EstimationOptions.defaultClusterWeight
    /// Chosen on the keystroke bench's development texts (pride-and-prejudice, sherlock-holmes).
    public static let defaultClusterWeight = 0.3
    /// Suffix rules to learn from the vocabulary for forms the corpus never showed (``FormRules``);
    /// 0 (the default) learns none.
    public var formRules = 0

    public init() {}

    /// The effective minimum count for order `n`.
    public func minCount(order n: Int) -> Int {
        guard n >= 2, !minCounts.isEmpty else { return 1 }
        return max(1, minCounts[min(n - 1, minCounts.count - 1)])
    }
}

/// An estimated back-off language model: counts (after pruning) with a log10 probability for every
/// n-gram and a log10 backoff weight for every n-gram that is a context, as an ARPA file holds them.
///
/// Arrays are aligned with ``counts``: `unigramLogProb[id]`, `logProbs[n - 2][entry]` for the
/// entries of `counts.table(order: n)`. `logBackoffs` has no array for the highest order.
public struct LanguageModel: Sendable {
    public var counts: NgramCounts
    /// log10 p(w); `<s>` carries −99 (it is never predicted), as in lmplz's ARPA files.
    public var unigramLogProb: [Double]
    /// log10 backoff weight of each word as a one-word context (0 when it is not a context).
    public var unigramLogBackoff: [Double]
    public var logProbs: [[Double]]
    public var logBackoffs: [[Double]]
    /// D1, D2, D3+ per order (index 0 = unigrams).
    public var discounts: [[Double]]
    /// Orders whose discounts came from ``EstimationOptions/fallbackDiscounts``.
    public var fallbackOrders: [Int]
    /// N-grams removed per order (index 0 = unigrams, always 0).
    public var pruned: [Int]
    /// The class-based model estimated beside (``EstimationOptions/clusters``), from the counts
    /// before any pruning, with its weight.
    public var clusterModel: ClusterModel?
    public var clusterWeight = 0.0
    /// Suffix rules for unseen forms (``EstimationOptions/formRules``), from the vocabulary.
    public var formRules: FormRules?

    public var order: Int { counts.order }

    /// The log10 probability ARPA files give `<s>`: it is never predicted.
    public static let sentenceStartLogProb = -99.0
}

/// Interpolated modified Kneser-Ney estimation (Chen & Goodman 1998), with the conventions of
/// KenLM's `lmplz`.
///
/// In: ``NgramCounts`` (raw counts, tables sorted by id tuple). Out: a ``LanguageModel``.
/// - Adjusted counts: the highest order keeps raw counts; a lower-order n-gram counts the distinct
///   words seen to its left, except an n-gram starting with `<s>` (nothing can precede it), which
///   keeps its raw count. The unigram `<s>` gets 0: it is never predicted.
/// - Discounts: three per order from the counts-of-counts t1...t4 of the adjusted counts:
///   Y = t1 / (t1 + 2 t2), D1 = 1 − 2Y t2/t1, D2 = 2 − 3Y t3/t2, D3+ = 3 − 4Y t4/t3.
/// - Probabilities: p(w | h) = (a(hw) − D(a(hw))) / Σx a(hx) + γ(h) p(w | h′), with
///   γ(h) = (D1 N1(h•) + D2 N2(h•) + D3+ N3+(h•) + Σ pruned a(hx)) / Σx a(hx) and h′ the context
///   without its first word. Unigrams interpolate with the uniform distribution over the
///   vocabulary without `<s>` (so `<unk>`, never seen, gets γ(ε)/|V|).
/// - Backoffs: log10 γ(h) is stored on the n-gram h; the model is then an ARPA back-off model
///   whose values equal the interpolated ones.
///
/// ```swift
/// let model = KneserNey.estimate(counts)
/// model.logProbs[0]   // log10 p of every bigram of counts.table(order: 2)
/// ```
/// - Complexity: O(E log E) for E n-gram entries (one binary search per entry for its suffix).
public enum KneserNey {
    public static func estimate(_ counts: NgramCounts, options: EstimationOptions = .init()) -> LanguageModel {
        let N = counts.order
        let V = counts.words.count
        let bos = UInt32(StoreSchema.ReservedID.sentenceStart)
        let tables = counts.tables
        func entries(_ n: Int) -> Int { n == 1 ? V : tables[n - 2].entryCount }

        // Where each entry's suffix (ids 2...n) is in the order n-1 table (for n = 2: the word id).
        var suffix: [[Int32]] = Array(repeating: [], count: N + 1)
        if N >= 2 {
            for n in 2...N {
                suffix[n] = suffixIndexes(of: tables[n - 2], lower: n == 2 ? nil : tables[n - 3], vocabulary: V)
            }
        }

        // Adjusted counts: unigrams as UInt64; orders 2...N as UInt32 (a raw count or a number of
        // distinct left words, both below 2^32), the highest order sharing the raw counts' array.
        var unigramAdjusted: [UInt64]
        var adjusted: [[UInt32]] = Array(repeating: [], count: N + 1)
        if N == 1 {
            unigramAdjusted = counts.unigramCounts
        } else {
            adjusted[N] = tables[N - 2].counts
            for n in stride(from: N - 1, through: 2, by: -1) {
                var a = [UInt32](repeating: 0, count: entries(n))
                for s in suffix[n + 1] { a[Int(s)] += 1 }
                let t = tables[n - 2]
                for e in 0..<t.entryCount where t.keys[e * n] == bos { a[e] = t.counts[e] }
                adjusted[n] = a
            }
            unigramAdjusted = [UInt64](repeating: 0, count: V)
            for s in suffix[2] { unigramAdjusted[Int(s)] += 1 }
        }
        unigramAdjusted[Int(bos)] = 0

        // Which n-grams stay: count pruning, closed under prefixes and suffixes. Without count
        // pruning every n-gram stays and `keep[n]` is empty (not a flag per n-gram).
        var keep: [[Bool]] = Array(repeating: [], count: N + 1)
        var prefix: [[Int32]] = Array(repeating: [], count: N + 1)
        if N >= 2 {
            let pruning = (2...N).contains { options.minCount(order: $0) > 1 }
            for n in 2...N {
                let t = tables[n - 2]
                if pruning {
                    let minimum = UInt32(options.minCount(order: n))
                    keep[n] = t.counts.map { $0 >= minimum }
                }
                prefix[n] = prefixIndexes(of: t, lower: n == 2 ? nil : tables[n - 3])
            }
            if pruning {
                keep[1] = Array(repeating: true, count: V)
                close(&keep, prefix: prefix, suffix: suffix, order: N)
            }
        }

        // Discounts from counts-of-counts.
        var countsOfCounts = [[UInt64]](repeating: [UInt64](repeating: 0, count: 5), count: N + 1)
        for a in unigramAdjusted where a >= 1 && a <= 4 { countsOfCounts[1][Int(a)] += 1 }
        if N >= 2 {
            for n in 2...N { for a in adjusted[n] where a >= 1 && a <= 4 { countsOfCounts[n][Int(a)] += 1 } }
        }
        let (discounts, fallbackOrders) = discounts(countsOfCounts, order: N, fallback: options.fallbackDiscounts)

        var probs: [[Double]] = Array(repeating: [], count: N + 1)
        var gammas: [[Double]] = Array(repeating: [], count: N + 1)
        probs[1] = unigramProbabilities(unigramAdjusted, discounts: discounts[0], vocabulary: V)
        // Higher orders, context group by context group (entries sharing ids 1...n-1 are contiguous).
        if N >= 2 {
            for n in 2...N {
                let t = tables[n - 2]
                let a = adjusted[n]
                let d = discounts[n - 1]
                let lowerProbs = probs[n - 1]
                let s = suffix[n]
                let kept = keep[n]
                let context = prefix[n]
                var p = [Double](repeating: 0, count: t.entryCount)
                var g = [Double](repeating: 1, count: entries(n - 1))
                var start = 0
                while start < t.entryCount {
                    var end = start + 1
                    while end < t.entryCount && context[end] == context[start] { end += 1 }
                    var denominator = 0.0, mass = 0.0
                    for e in start..<end {
                        denominator += Double(a[e])
                        mass += kept.isEmpty || kept[e] ? discount(UInt64(a[e]), d) : Double(a[e])
                    }
                    let gamma = mass / denominator
                    for e in start..<end {
                        p[e] = (Double(a[e]) - discount(UInt64(a[e]), d)) / denominator + gamma * lowerProbs[Int(s[e])]
                    }
                    g[Int(context[start])] = gamma
                    start = end
                }
                probs[n] = p
                gammas[n - 1] = g
            }
        }
        if N >= 1 { gammas[N] = [] }
        // Only the probabilities, backoffs and kept flags are needed from here on.
        (adjusted, unigramAdjusted, suffix, prefix) = ([], [], [], [])

        var model = LanguageModel(
            counts: counts, unigramLogProb: probs[1].map(log10),
            unigramLogBackoff: N >= 2 ? gammas[1].map(log10) : Array(repeating: 0, count: V),
            logProbs: [], logBackoffs: [], discounts: discounts, fallbackOrders: fallbackOrders,
            pruned: Array(repeating: 0, count: N))
        model.unigramLogProb[Int(bos)] = LanguageModel.sentenceStartLogProb
        if N >= 2 {
            for n in 2...N {
                // log10 in place: the array of probabilities becomes the array of logs.
                var lp = probs[n]
                probs[n] = []
                for i in lp.indices { lp[i] = log10(lp[i]) }
                var lb: [Double] = []
                if n < N {
                    lb = gammas[n]
                    gammas[n] = []
                    for i in lb.indices { lb[i] = log10(lb[i]) }
                }
                let kept = keep[n]
                keep[n] = []
                let t = tables[n - 2]
                if kept.contains(false) {
                    var keys: [UInt32] = [], cs: [UInt32] = []
                    keys.reserveCapacity(t.keys.count)
                    var newLP: [Double] = [], newLB: [Double] = []
                    for e in 0..<t.entryCount where kept[e] {
                        keys.append(contentsOf: t.ids(of: e))
                        cs.append(t.counts[e])
                        newLP.append(lp[e])
                        if n < N { newLB.append(lb[e]) }
                    }
                    model.pruned[n - 1] = t.entryCount - cs.count
                    model.counts.tables[n - 2] = .init(n: n, keys: keys, counts: cs)
                    lp = newLP
                    lb = newLB
                }
                model.logProbs.append(lp)
                if n < N { model.logBackoffs.append(lb) }
            }
        }
        if options.entropyThreshold > 0 && N >= 2 {
            EntropyPruning.prune(&model, threshold: options.entropyThreshold)
        }
        if options.clusters > 0 && N >= 2 {
            model.clusterModel = ClusterModel(counts: counts, classes: options.clusters)
            model.clusterWeight = options.clusterWeight
        }
        if options.formRules > 0 {
            model.formRules = FormRules.learn(words: counts.words, limit: options.formRules)
        }
        return model
    }

    /// The discount of an adjusted count `a` (0 for none) from an order's D1, D2, D3+.
    @inline(__always)
    static func discount(_ a: UInt64, _ d: [Double]) -> Double { a == 0 ? 0 : d[Int(min(a, 3)) - 1] }

    /// D1, D2, D3+ of orders 1...N from their counts-of-counts (`countsOfCounts[n][k]` = adjusted
    /// counts equal to k, k = 1...4), with `fallback` for an order that cannot give valid ones.
    static func discounts(_ countsOfCounts: [[UInt64]], order N: Int, fallback: [Double]) -> (discounts: [[Double]], fallbackOrders: [Int]) {
        var discounts: [[Double]] = [], fallbackOrders: [Int] = []
        for n in 1...N {
            if let d = chenGoodmanDiscounts(countsOfCounts[n]) {
                discounts.append(d)
            } else {
                discounts.append(fallback)
                fallbackOrders.append(n)
            }
        }
        return (discounts, fallbackOrders)
    }

    /// Unigram probabilities from adjusted counts: interpolated with the uniform distribution over
    /// the vocabulary without `<s>`.
    static func unigramProbabilities(_ a: [UInt64], discounts d: [Double], vocabulary V: Int) -> [Double] {
        let denominator = Double(a.reduce(0, +))
        var mass = 0.0
        for x in a where x > 0 { mass += discount(x, d) }
        let uniform = 1.0 / Double(max(V - 1, 1))
        let gamma = denominator > 0 ? mass / denominator : 1
        return a.map { x in (denominator > 0 ? (Double(x) - discount(x, d)) / denominator : 0) + gamma * uniform }
    }

    /// Chen & Goodman's equation (26), or nil when the counts-of-counts cannot give discounts in
    /// range (0 ≤ Dj ≤ j).
    package static func chenGoodmanDiscounts(_ t: [UInt64]) -> [Double]? {
        guard t[1] > 0, t[2] > 0, t[3] > 0 else { return nil }
        let y = Double(t[1]) / (Double(t[1]) + 2 * Double(t[2]))
        var d: [Double] = []
        for j in 1...3 {
            let value = Double(j) - Double(j + 1) * y * Double(t[j + 1]) / Double(t[j])
            guard value >= 0, value <= Double(j) else { return nil }
            d.append(value)
        }
        return d
    }

    /// `result[w]` is the first entry of `table` whose first id is ≥ w (size V + 1).
    static func firstEntries(of table: NgramCounts.Table, vocabulary: Int) -> [Int32] {
        var starts = [Int32](repeating: Int32(table.entryCount), count: vocabulary + 1)
        var e = table.entryCount - 1
        var w = vocabulary - 1
        while w >= 0 {
            while e >= 0 && Int(table.keys[e * table.n]) >= w { e -= 1 }
            starts[w] = Int32(e + 1)
            w -= 1
        }
        return starts
    }

    /// For each entry of `table` (order n), the index of its suffix (ids 2...n) in `lower` (order
    /// n-1), or the last word id when n = 2.
    static func suffixIndexes(of t: NgramCounts.Table, lower: NgramCounts.Table?, vocabulary: Int) -> [Int32] {
        let n = t.n
        var s = [Int32](repeating: 0, count: t.entryCount)
        t.keys.withUnsafeBufferPointer { k in
            guard let lower else {
                for e in 0..<t.entryCount { s[e] = Int32(k[e * 2 + 1]) }
                return
            }
            let starts = firstEntries(of: lower, vocabulary: vocabulary)
            lower.keys.withUnsafeBufferPointer { lk in
                s.withUnsafeMutableBufferPointer { out in
                    // Independent binary searches: in chunks on every core (the result does not
                    // depend on how they are shared).
                    let total = t.entryCount
                    let chunks = total < 1 << 16 ? 1 : 4 * ProcessInfo.processInfo.activeProcessorCount
                    let shared = Unchecked((k, lk, out, starts))
                    DispatchQueue.concurrentPerform(iterations: chunks) { c in
                        let (k, lk, out, starts) = shared.value
                        for e in (total * c / chunks)..<(total * (c + 1) / chunks) {
                            let key = k.baseAddress! + e * n + 1
                            let w = Int(key[0])
                            out[e] = Int32(find(key, m: n - 1, in: lk, from: Int(starts[w]), to: Int(starts[w + 1])))
                        }
                    }
                }
            }
        }
        return s
    }

    /// Binary search for the m ids at `key` among the m-id entries [from, to) of `keys`.
    static func find(_ key: UnsafePointer<UInt32>, m: Int, in keys: UnsafeBufferPointer<UInt32>, from: Int, to: Int) -> Int {
        var lo = from, hi = to
        while lo < hi {
            let mid = (lo + hi) / 2
            var cmp = 0
            for j in 0..<m {
                let x = keys[mid * m + j], y = key[j]
                if x != y { cmp = x < y ? -1 : 1; break }
            }
            if cmp == 0 { return mid }
            if cmp < 0 { lo = mid + 1 } else { hi = mid }
        }
        preconditionFailure("n-gram suffix missing from the lower order: counts are not closed under suffixes")
    }

    /// For each entry of `table` (order n), the index of its prefix (ids 1...n-1) in `lower` (order
    /// n-1), or the first word id when n = 2. Both tables are sorted, so one merge walk suffices.
    static func prefixIndexes(of table: NgramCounts.Table, lower: NgramCounts.Table?) -> [Int32] {
        let n = table.n
        var result = [Int32](repeating: 0, count: table.entryCount)
        guard let lower else {
            for e in 0..<table.entryCount { result[e] = Int32(table.keys[e * n]) }
            return result
        }
        var j = 0
        table.keys.withUnsafeBufferPointer { k in
            lower.keys.withUnsafeBufferPointer { lk in
                for e in 0..<table.entryCount {
                    while true {
                        var cmp = 0
                        for c in 0..<(n - 1) {
                            let x = lk[j * (n - 1) + c], y = k[e * n + c]
                            if x != y { cmp = x < y ? -1 : 1; break }
                        }
                        if cmp >= 0 { precondition(cmp == 0, "n-gram prefix missing from the lower order"); break }
                        j += 1
                    }
                    result[e] = Int32(j)
                }
            }
        }
        return result
    }

    /// Keeps the prefix and suffix of every kept n-gram (ARPA readers require both).
    static func close(_ keep: inout [[Bool]], prefix: [[Int32]], suffix: [[Int32]], order N: Int) {
        guard N >= 3 else { return }
        for n in stride(from: N, through: 3, by: -1) {
            for e in 0..<keep[n].count where keep[n][e] {
                keep[n - 1][Int(prefix[n][e])] = true
                keep[n - 1][Int(suffix[n][e])] = true
            }
        }
    }
}
