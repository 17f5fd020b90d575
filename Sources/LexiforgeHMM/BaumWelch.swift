import Foundation
import LexiforgeFormat

/// What Baum-Welch training does; every field says why it exists.
public struct BaumWelchConfig: Sendable, Equatable {
    /// K, the number of hidden word classes.
    public var states: Int
    /// Upper bound on EM iterations.
    public var iterations = 20
    /// Stop early when an iteration improves the log-likelihood per token by less than this.
    public var tolerance = 1e-4
    /// Seeds the random start; the same seed and corpus give the same model on any machine.
    public var seed: UInt64 = 1
    /// Threads for the E-step. The corpus is always cut into ``chunks`` pieces summed in order,
    /// so the result does not depend on this.
    public var threads = max(ProcessInfo.processInfo.activeProcessorCount, 1)
    /// Fixed number of corpus pieces (determinism: floating-point sums in a fixed order).
    public var chunks = 4
    /// Emissions with P(state | word) below this fraction of the word's best state are not
    /// stored (they would never win a Viterbi path and would multiply the store's size).
    public var emissionPruning = 1e-4

    public init(states: Int) { self.states = states }

    /// The most states a model may have: the E-step holds K² transition sums per corpus piece
    /// and the store K² transitions, so 4,096 states already take 128 MiB per table.
    /// `lexiforge hmm --states` and a model file's `hmm_states` are checked against it.
    public static let maxStates = 4096
}

/// Sentences as dense word ids, ready for Baum-Welch.
public struct BaumWelchCorpus: Sendable {
    /// Word ids in `0..<vocabularySize`, all sentences concatenated.
    public var tokens: [Int32]
    /// End offset (exclusive) of each sentence in ``tokens``.
    public var sentenceEnds: [Int]
    public var vocabularySize: Int
    public init(tokens: [Int32], sentenceEnds: [Int], vocabularySize: Int) {
        self.tokens = tokens; self.sentenceEnds = sentenceEnds; self.vocabularySize = vocabularySize
    }
}

/// Unsupervised training of a first-order hidden Markov model with K states (EM).
///
/// In: a ``BaumWelchCorpus`` and ``BaumWelchConfig``. Each ``iterate()`` runs the scaled
/// forward-backward algorithm over every sentence (Rabiner's scaling: α normalized per token,
/// β divided by the same factors, so no logarithms in the inner loops), sums expected counts of
/// starts, transitions, sentence ends and emissions, and replaces the parameters by their maximum
/// likelihood re-estimates. The log-likelihood returned is that of the parameters the iteration
/// started from; EM never lets it decrease. Out: ``tables(words:wordCounts:)``.
///
/// - Complexity: O(tokens · K²) per iteration, spread over ``BaumWelchConfig/threads`` threads.
public final class BaumWelch {
    public let config: BaumWelchConfig
    public let corpus: BaumWelchCorpus
    let K: Int
    var pi: [Double]
    var A: [Double]       // K×K, A[i·K + j] = P(j | i)
    var fin: [Double]     // P(</s> | i)
    var B: [Double]       // V×K, B[w·K + k] = P(w | k)
    /// Log-likelihood of the corpus before each iteration so far.
    public private(set) var logLikelihoods: [Double] = []
    private var stateMass: [Double]

    public init(corpus: BaumWelchCorpus, config: BaumWelchConfig) {
        precondition(config.states >= 1)
        self.config = config
        self.corpus = corpus
        K = config.states
        var rng = SplitMix64(seed: config.seed)
        let V = corpus.vocabularySize
        var frequency = [Double](repeating: 0, count: V)
        for w in corpus.tokens { frequency[Int(w)] += 1 }
        pi = (0..<K).map { _ in 1 + rng.nextUnit() }
        Self.normalize(&pi)
        A = [Double](repeating: 0, count: K * K)
        fin = [Double](repeating: 0, count: K)
        for i in 0..<K {
            var total = 0.0
            for j in 0..<K { A[i * K + j] = 1 + rng.nextUnit(); total += A[i * K + j] }
            fin[i] = 0.1 * Double(K) * (1 + rng.nextUnit()) / 2
            total += fin[i]
            for j in 0..<K { A[i * K + j] /= total }
            fin[i] /= total
        }
        B = [Double](repeating: 0, count: V * K)
        var columns = [Double](repeating: 0, count: K)
        for w in 0..<V where frequency[w] > 0 {
            for k in 0..<K {
                let v = frequency[w] * (1 + rng.nextUnit())
                B[w * K + k] = v
                columns[k] += v
            }
        }
        for w in 0..<V { for k in 0..<K where columns[k] > 0 { B[w * K + k] /= columns[k] } }
        stateMass = [Double](repeating: 1 / Double(K), count: K)
    }

    static func normalize(_ v: inout [Double]) {
        let total = v.reduce(0, +)
        if total > 0 { for i in v.indices { v[i] /= total } }
    }

    /// One EM iteration; returns the log-likelihood (natural log) of the corpus under the
    /// parameters before the update.
    @discardableResult
    public func iterate() -> Double {
        let K = self.K, V = corpus.vocabularySize
        let chunks = max(1, min(config.chunks, corpus.sentenceEnds.count))
        // Cut sentences into chunks of about equal token counts.
        var cuts = [0]
        let perChunk = max(corpus.tokens.count / chunks, 1)
        for (s, end) in corpus.sentenceEnds.enumerated() where end >= perChunk * cuts.count && cuts.count < chunks {
            cuts.append(s + 1)
        }
        while cuts.count <= chunks { cuts.append(corpus.sentenceEnds.count) }
        var AT = [Double](repeating: 0, count: K * K)
        for i in 0..<K { for j in 0..<K { AT[j * K + i] = A[i * K + j] } }
        let stride = K * K + 3 * K + 1
        var small = [Double](repeating: 0, count: chunks * stride)
        var emissionAcc = [Double](repeating: 0, count: chunks * V * K)
        let maxLength = zip(corpus.sentenceEnds, [0] + corpus.sentenceEnds).map { $0 - $1 }.max() ?? 0
        let work = UnsafeMutablePointer<Double>.allocate(capacity: chunks * Shared.workSize(K: K, maxLength: maxLength))
        defer { work.deallocate() }

        corpus.tokens.withUnsafeBufferPointer { tokens in
        corpus.sentenceEnds.withUnsafeBufferPointer { ends in
        pi.withUnsafeBufferPointer { pi in
        A.withUnsafeBufferPointer { A in
        AT.withUnsafeBufferPointer { AT in
        fin.withUnsafeBufferPointer { fin in
        B.withUnsafeBufferPointer { B in
        small.withUnsafeMutableBufferPointer { small in
        emissionAcc.withUnsafeMutableBufferPointer { emissionAcc in
            let shared = Shared(tokens: tokens.baseAddress!, ends: ends.baseAddress!, pi: pi.baseAddress!, A: A.baseAddress!,
                                AT: AT.baseAddress!, fin: fin.baseAddress!, B: B.baseAddress!, small: small.baseAddress!,
                                emissionAcc: emissionAcc.baseAddress!, work: work, cuts: cuts, K: K, V: V,
                                stride: stride, maxLength: maxLength)
            let threads = max(1, min(config.threads, chunks))
            if threads == 1 {
                for c in 0..<chunks { shared.run(chunk: c) }
            } else {
                DispatchQueue.concurrentPerform(iterations: chunks) { c in shared.run(chunk: c) }
            }
        }}}}}}}}}

        // Reduce in chunk order.
        var xi = [Double](repeating: 0, count: K * K)
        var ends = [Double](repeating: 0, count: K)
        var starts = [Double](repeating: 0, count: K)
        var mass = [Double](repeating: 0, count: K)
        var logLikelihood = 0.0
        for c in 0..<chunks {
            let base = c * stride
            for i in 0..<(K * K) { xi[i] += small[base + i] }
            for k in 0..<K {
                ends[k] += small[base + K * K + k]
                starts[k] += small[base + K * K + K + k]
                mass[k] += small[base + K * K + 2 * K + k]
            }
            logLikelihood += small[base + K * K + 3 * K]
        }
        var emission = [Double](repeating: 0, count: V * K)
        for c in 0..<chunks {
            emissionAcc.withUnsafeBufferPointer { acc in
                let part = acc.baseAddress! + c * V * K
                for i in 0..<(V * K) { emission[i] += part[i] }
            }
        }
        // M-step.
        let startTotal = starts.reduce(0, +)
        if startTotal > 0 { pi = starts.map { $0 / startTotal } }
        for i in 0..<K {
            var total = ends[i]
            for j in 0..<K { xi[i * K + j] *= A[i * K + j]; total += xi[i * K + j] }
            guard total > 0 else { continue }
            for j in 0..<K { A[i * K + j] = xi[i * K + j] / total }
            fin[i] = ends[i] / total
        }
        for k in 0..<K where mass[k] > 0 {
            for w in 0..<V { B[w * K + k] = emission[w * K + k] / mass[k] }
        }
        stateMass = mass
        logLikelihoods.append(logLikelihood)
        return logLikelihood
    }

    /// The current model as store tables. `words[id]` names word id `id` (reserved ids
    /// included); states are named `C1`...`CK`.
    public func tables(words: [String], wordCounts: [Int64], lowercase: Bool) -> HMMTables {
        let width = String(K).count
        let names = [StoreSchema.HMM.boundaryName] + (1...K).map { "C" + String(repeating: "0", count: width - String($0).count) + String($0) }
        let sentences = Double(corpus.sentenceEnds.count)
        let total = stateMass.reduce(0, +) + sentences
        let counts = [sentences] + stateMass
        var transitions: [HMMTables.Transition] = []
        for k in 0..<K where pi[k] > 0 { transitions.append(.init(0, Int32(k + 1), log(pi[k]))) }
        for i in 0..<K {
            for j in 0..<K where A[i * K + j] > 0 { transitions.append(.init(Int32(i + 1), Int32(j + 1), log(A[i * K + j]))) }
            if fin[i] > 0 { transitions.append(.init(Int32(i + 1), 0, log(fin[i]))) }
        }
        var emissions: [HMMTables.Emission] = []
        for w in 0..<corpus.vocabularySize {
            var best = 0.0
            for k in 0..<K { best = max(best, B[w * K + k] * stateMass[k]) }
            guard best > 0 else { continue }
            for k in 0..<K where B[w * K + k] > 0 && B[w * K + k] * stateMass[k] >= best * config.emissionPruning {
                emissions.append(.init(word: Int32(w), state: Int32(k + 1), logprob: log(B[w * K + k])))
            }
        }
        typealias P = StoreSchema.HMMParameter
        return HMMTables(
            states: names, stateCounts: counts, stateLogprobs: counts.map { $0 > 0 ? log($0 / total) : -.infinity },
            initial: [-.infinity] + pi.map { $0 > 0 ? log($0) : -.infinity },
            transitions: transitions, words: words, wordCounts: wordCounts, emissions: emissions,
            parameters: [P.lambda1: 0, P.lambda2: 1, P.lambda3: 0, P.lowercase: lowercase ? 1 : 0])
    }

    /// Raw pointers for the E-step threads; each chunk writes only its own slices.
    private struct Shared: @unchecked Sendable {
        static func workSize(K: Int, maxLength: Int) -> Int { 3 * maxLength * K + 2 * K + maxLength + 1 }

        /// out[j] = Σ_i x[i] · M[i·K + j], eight columns at a time in registers.
        /// - Complexity: O(K²).
        @inline(__always)
        static func multiply(_ x: UnsafePointer<Double>, _ M: UnsafePointer<Double>, into out: UnsafeMutablePointer<Double>, K: Int) {
            var jb = 0
            while jb + 8 <= K {
                var acc = SIMD8<Double>()
                for i in 0..<K { acc += x[i] * UnsafeRawPointer(M + i * K + jb).loadUnaligned(as: SIMD8<Double>.self) }
                for k in 0..<8 { out[jb + k] = acc[k] }
                jb += 8
            }
            while jb < K {
                var sum = 0.0
                for i in 0..<K { sum += x[i] * M[i * K + jb] }
                out[jb] = sum
                jb += 1
            }
        }

        /// out[i·K + j] += Σ_t a[t·K + i] · b[t·K + j] for t < count, accumulators in registers.
        /// - Complexity: O(count · K²).
        @inline(__always)
        static func accumulateOuter(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, count: Int, into out: UnsafeMutablePointer<Double>, K: Int) {
            for i in 0..<K {
                let row = out + i * K
                var jb = 0
                while jb + 8 <= K {
                    var acc = SIMD8<Double>()
                    for t in 0..<count { acc += a[t * K + i] * UnsafeRawPointer(b + t * K + jb).loadUnaligned(as: SIMD8<Double>.self) }
                    for k in 0..<8 { row[jb + k] += acc[k] }
                    jb += 8
                }
                while jb < K {
                    var sum = 0.0
                    for t in 0..<count { sum += a[t * K + i] * b[t * K + jb] }
                    row[jb] += sum
                    jb += 1
                }
            }
        }

        let tokens: UnsafePointer<Int32>, ends: UnsafePointer<Int>
        let pi: UnsafePointer<Double>, A: UnsafePointer<Double>, AT: UnsafePointer<Double>
        let fin: UnsafePointer<Double>, B: UnsafePointer<Double>
        let small: UnsafeMutablePointer<Double>, emissionAcc: UnsafeMutablePointer<Double>
        let work: UnsafeMutablePointer<Double>
        let cuts: [Int]
        let K: Int, V: Int, stride: Int, maxLength: Int

        func run(chunk c: Int) {
            let xi = small + c * stride
            let endAcc = xi + K * K, startAcc = endAcc + K, massAcc = startAcc + K, llAcc = massAcc + K
            let emit = emissionAcc + c * V * K
            let mine = work + c * Self.workSize(K: K, maxLength: maxLength)
            // α, β and the backward messages w_t(j) = b_j(o_t) β_t(j) / c_t, one row of K per token.
            let alpha = mine, beta = mine + maxLength * K, wAll = beta + maxLength * K
            let tmp = wAll + maxLength * K, gamma = tmp + K, scale = gamma + K
            var ll = 0.0
            for s in cuts[c]..<cuts[c + 1] {
                let start = s == 0 ? 0 : ends[s - 1]
                let T = ends[s] - start
                guard T > 0 else { continue }
                let o = tokens + start
                // Forward.
                var sum = 0.0
                let b0 = B + Int(o[0]) * K
                for j in 0..<K { let v = pi[j] * b0[j]; alpha[j] = v; sum += v }
                guard sum > 0 else { continue }
                scale[0] = sum
                for j in 0..<K { alpha[j] /= sum }
                var t = 1
                while t < T {
                    let prev = alpha + (t - 1) * K, cur = alpha + t * K
                    Self.multiply(prev, A, into: tmp, K: K)
                    let bt = B + Int(o[t]) * K
                    sum = 0
                    for j in 0..<K { let v = tmp[j] * bt[j]; cur[j] = v; sum += v }
                    scale[t] = sum
                    let inv = 1 / sum
                    for j in 0..<K { cur[j] *= inv }
                    t += 1
                }
                let last = alpha + (T - 1) * K
                var endSum = 0.0
                for i in 0..<K { endSum += last[i] * fin[i] }
                for t in 0..<T { ll += log(scale[t]) }
                ll += log(endSum)
                // Backward, accumulating as we go.
                let lastBeta = beta + (T - 1) * K
                for i in 0..<K {
                    lastBeta[i] = fin[i] / endSum
                    let g = last[i] * lastBeta[i]
                    endAcc[i] += g
                    massAcc[i] += g
                    emit[Int(o[T - 1]) * K + i] += g
                }
                if T == 1 { for i in 0..<K { startAcc[i] += last[i] * lastBeta[i] } }
                t = T - 2
                while t >= 0 {
                    let next = beta + (t + 1) * K, cur = beta + t * K, al = alpha + t * K
                    let bn = B + Int(o[t + 1]) * K
                    let inv = 1 / scale[t + 1]
                    let w = wAll + (t + 1) * K
                    for j in 0..<K { w[j] = bn[j] * next[j] * inv }
                    Self.multiply(w, AT, into: cur, K: K)
                    let e = emit + Int(o[t]) * K
                    for i in 0..<K {
                        let g = al[i] * cur[i]
                        gamma[i] = g
                        massAcc[i] += g
                        e[i] += g
                    }
                    if t == 0 { for i in 0..<K { startAcc[i] += gamma[i] } }
                    t -= 1
                }
                // Expected transitions: xi(i, j) += Σ_t α_t(i) w_{t+1}(j) (times A(i, j) at the M-step).
                if T > 1 { Self.accumulateOuter(alpha, wAll + K, count: T - 1, into: xi, K: K) }
            }
            llAcc[0] = ll
        }
    }
}
