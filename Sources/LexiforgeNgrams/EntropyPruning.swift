import Foundation
import LexiforgeFormat

/// Relative-entropy pruning of a back-off model (Stolcke 1998, "Entropy-based pruning of backoff
/// language models"), the `--prune THRESHOLD` of `lexiforge ngrams`.
///
/// In: a ``LanguageModel`` (possibly count-pruned already). Out: the same model with fewer
/// n-grams of orders ≥ 2 and renormalised backoff weights; kept n-grams keep their probabilities.
/// Orders are processed from the highest down. An n-gram w after context h is a candidate when it
/// is neither the prefix nor the suffix of a kept longer n-gram; it is dropped when
/// D = −P(h) · [p(w|h) · (ln p′(w|h) − ln p(w|h)) + (1 − Σ p(·|h)) · (ln γ′(h) − ln γ(h))]
/// is below the threshold, where p′(w|h) = γ′(h) p(w|h′) is what backing off would give it.
/// All candidates of one order are judged against the unpruned order (as SRILM does), then each
/// context's backoff is recomputed: γ(h) = (1 − Σkept p(w|h)) / (1 − Σkept p(w|h′)). P(h) is the
/// chain-rule probability of the context under the model, with P(<s>) = 1.
enum EntropyPruning {
    static func prune(_ model: inout LanguageModel, threshold: Double) {
        let N = model.order
        let V = model.counts.words.count
        let ln10 = log(10.0)
        // log10 P(h) for every n-gram used as a history, order by order.
        var history: [[Double]] = [model.unigramLogProb]
        history[0][Int(StoreSchema.ReservedID.sentenceStart)] = 0
        for n in 2..<max(N, 2) where n <= N {
            let t = model.counts.table(order: n)
            let prefix = KneserNey.prefixIndexes(of: t, lower: n == 2 ? nil : model.counts.table(order: n - 1))
            history.append((0..<t.entryCount).map { history[n - 2][Int(prefix[$0])] + model.logProbs[n - 2][$0] })
        }
        for n in stride(from: N, through: 2, by: -1) {
            let t = model.counts.table(order: n)
            let lower: NgramCounts.Table? = n == 2 ? nil : model.counts.table(order: n - 1)
            let prefix = KneserNey.prefixIndexes(of: t, lower: lower)
            let suffix = KneserNey.suffixIndexes(of: t, lower: lower, vocabulary: V)
            let lowerLogProb = n == 2 ? model.unigramLogProb : model.logProbs[n - 3]
            let logProb = model.logProbs[n - 2]
            // Protected: prefixes and suffixes of kept (n+1)-grams.
            var protected = [Bool](repeating: false, count: t.entryCount)
            if n < N {
                let upper = model.counts.table(order: n + 1)
                for i in KneserNey.prefixIndexes(of: upper, lower: t) { protected[Int(i)] = true }
                for i in KneserNey.suffixIndexes(of: upper, lower: t, vocabulary: V) { protected[Int(i)] = true }
            }
            var keep = [Bool](repeating: true, count: t.entryCount)
            var newBackoff: [(context: Int, value: Double)] = []
            var start = 0
            while start < t.entryCount {
                var end = start + 1
                while end < t.entryCount && prefix[end] == prefix[start] { end += 1 }
                let h = Int(prefix[start])
                let historyProb = pow(10, history[n - 2][h])
                var sumP = 0.0, sumQ = 0.0
                for e in start..<end {
                    sumP += pow(10, logProb[e])
                    sumQ += pow(10, lowerLogProb[Int(suffix[e])])
                }
                let logGamma = log(max(1 - sumP, 1e-300)) - log(max(1 - sumQ, 1e-300))
                for e in start..<end where !protected[e] {
                    let p = pow(10, logProb[e]), q = pow(10, lowerLogProb[Int(suffix[e])])
                    let logGammaPrime = log(max(1 - sumP + p, 1e-300)) - log(max(1 - sumQ + q, 1e-300))
                    let lnP = logProb[e] * ln10
                    let lnPPrime = logGammaPrime + log(q)
                    let d = -historyProb * (p * (lnPPrime - lnP) + (1 - sumP) * (logGammaPrime - logGamma))
                    if d < threshold { keep[e] = false }
                }
                var keptP = 0.0, keptQ = 0.0
                for e in start..<end where keep[e] {
                    keptP += pow(10, logProb[e])
                    keptQ += pow(10, lowerLogProb[Int(suffix[e])])
                }
                let gamma = max(1 - keptP, 1e-300) / max(1 - keptQ, 1e-300)
                newBackoff.append((h, log10(gamma)))
                start = end
            }
            for (h, value) in newBackoff {
                if n == 2 { model.unigramLogBackoff[h] = value } else { model.logBackoffs[n - 3][h] = value }
            }
            let removed = keep.filter { !$0 }.count
            guard removed > 0 else { continue }
            model.pruned[n - 1] += removed
            var keys: [UInt32] = [], counts: [UInt32] = [], lp: [Double] = [], lb: [Double] = []
            for e in 0..<t.entryCount where keep[e] {
                keys.append(contentsOf: t.ids(of: e))
                counts.append(t.counts[e])
                lp.append(logProb[e])
                if n < N { lb.append(model.logBackoffs[n - 2][e]) }
            }
            model.counts.tables[n - 2] = .init(n: n, keys: keys, counts: counts)
            model.logProbs[n - 2] = lp
            if n < N { model.logBackoffs[n - 2] = lb }
        }
    }
}
