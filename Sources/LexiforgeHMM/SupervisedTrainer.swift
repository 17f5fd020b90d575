import Foundation
import LexiforgeFormat

/// What the supervised trainer estimates and how; every field says why it exists.
public struct SupervisedHMMConfig: Sendable, Equatable {
    /// Words seen at most this often train the suffix model (TnT: 10): rare words are the best
    /// sample of what unknown words look like.
    public var rareThreshold = 10
    /// Longest suffix the unknown-word model looks at (TnT: 10).
    public var maxSuffixLength = 10
    /// Words seen at least this often get word-conditioned transitions P(t | w, t-1); 0 turns
    /// them off (plain TnT).
    public var lexicalMinCount = 40
    /// K in the blending weight c / (c + K) that P(t | w, t-1) gets after a word tagged t-1
    /// c times in training: frequent contexts trust the word, rare ones the tag trigram.
    public var lexicalWeight = 8.0
    /// Words seen at least this often get second-order emissions P(w | t-1, t); 0 turns them off.
    public var emission2MinCount = 40
    /// K in (c(t-1, t, w) + K·P(w | t)) / (c(t-1, t) + K): how many tokens of evidence the
    /// second-order estimate needs before it outweighs P(w | t).
    public var emission2Weight = 20.0
    /// Split capitalized rare words by whether their lowercase form is a training word
    /// (``WordShape/capitalizedCommon``), so an unknown "Deputy" beside a known "deputy" is not
    /// taken for a name as readily as an unknown "Zaman" (cross-validation on EWT train, five
    /// folds of documents: UPOS 94.54% → 94.60%, unknown words 78.15% → 78.77%).
    public var commonShapes = true
    /// Candidates for the suffix model's θ, chosen by leave-one-out on words seen once.
    public var thetaGrid: [Double] = [0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1, 1.5, 2, 3, 5]

    public init() {}
}

/// Counts a tagged corpus into a second-order hidden Markov model, as TnT does.
///
/// In: tagged sentences (``add(words:tags:)``), in any order. Out (``finish()``): ``HMMTables``
/// with unigram, bigram and trigram tag estimates (maximum likelihood; the λ weights of their
/// interpolation found by deleted interpolation), emission log P(word | tag), the suffix counts
/// of rare words by ``WordShape`` with TnT's θ, and word-conditioned transition counts for
/// frequent words. Tags are numbered 1...K by first appearance; 0 is the boundary `<s>`.
///
/// ```swift
/// let trainer = SupervisedHMMTrainer()
/// trainer.add(words: ["I", "saw", "her"], tags: ["PRON", "VERB", "PRON"])
/// let tagger = HMMTagger(tables: trainer.finish())
/// ```
/// - Complexity: O(tokens · suffix length) time; memory holds the corpus as integer ids.
public final class SupervisedHMMTrainer {
    public let config: SupervisedHMMConfig
    private var tagIndex: [String: Int32] = [:]
    private var tagNames: [String] = [StoreSchema.HMM.boundaryName]
    private var wordIndex: [String: Int32] = [:]
    private var wordNames: [String] = []
    private var wordTokens: [Int32] = []
    private var tagTokens: [Int32] = []
    private var sentenceEnds: [Int] = []

    public init(config: SupervisedHMMConfig = .init()) { self.config = config }

    /// The most distinct tags a tagset may have. Training holds (tags + 1)³ doubles of trigram
    /// counts and a tagger reading the store (tags + 1)³ × 16 bytes of trigram tables: 270 MB at
    /// 256 tags, 8 GB and more at 1,000. Real tagsets have 17 (UPOS) to about 150 (XPOS).
    public static let maxTags = 256

    /// Distinct tags added so far (without the sentence boundary).
    public var tagCount: Int { tagNames.count - 1 }

    /// Tokens added so far.
    public var tokens: Int { wordTokens.count }
    /// Sentences added so far.
    public var sentences: Int { sentenceEnds.count }

    /// Adds one tagged sentence (`words.count == tags.count`; empty sentences are ignored).
    public func add(words: [String], tags: [String]) {
        precondition(words.count == tags.count, "one tag per word")
        guard !words.isEmpty else { return }
        for (w, t) in zip(words, tags) {
            let wi: Int32
            if let found = wordIndex[w] { wi = found } else {
                wi = Int32(wordNames.count); wordIndex[w] = wi; wordNames.append(w)
            }
            let ti: Int32
            if let found = tagIndex[t] { ti = found } else {
                ti = Int32(tagNames.count); tagIndex[t] = ti; tagNames.append(t)
            }
            wordTokens.append(wi)
            tagTokens.append(ti)
        }
        sentenceEnds.append(wordTokens.count)
    }

    /// The model of everything added.
    public func finish() -> HMMTables {
        let S = tagNames.count
        let V = wordNames.count
        // Word ids: reserved, then by descending count, ties by byte order.
        var wordCount = [Int64](repeating: 0, count: V)
        for w in wordTokens { wordCount[Int(w)] += 1 }
        let order = (0..<V).sorted {
            wordCount[$0] != wordCount[$1] ? wordCount[$0] > wordCount[$1]
                : wordNames[$0].utf8.lexicographicallyPrecedes(wordNames[$1].utf8)
        }
        let first = Int(StoreSchema.ReservedID.firstWord)
        var storeID = [Int32](repeating: 0, count: V)
        for (rank, w) in order.enumerated() { storeID[w] = Int32(first + rank) }
        let words = [StoreSchema.unknownToken, StoreSchema.sentenceStartToken, StoreSchema.sentenceEndToken] + order.map { wordNames[$0] }
        let wordCounts = [0, Int64(sentences), Int64(sentences)] + order.map { wordCount[$0] }

        // Tag n-gram counts over <s> <s> t1 ... tn </s>.
        var uni = [Double](repeating: 0, count: S)
        var bi = [Double](repeating: 0, count: S * S)
        var tri = [Double](repeating: 0, count: S * S * S)
        var emit = [Int: Double]()   // word · S + tag
        var lexical = [Int: Int32]() // (word · S + s1) · S + s2, for frequent words
        var emission2 = [Int: Int32]() // (word · S + previous tag) · S + tag, for frequent words
        var suffix = [ShapeSuffix: [Double]]()   // tag counts of rare words by shape and suffix
        var hapaxes: [(shape: WordShape, suffixes: [String], tag: Int)] = []
        var start = 0
        for end in sentenceEnds {
            var a = 0, b = 0
            var titleCase: Bool?   // computed when a rare word needs it
            for i in start...end {
                let c = i < end ? Int(tagTokens[i]) : 0
                uni[c] += 1
                bi[b * S + c] += 1
                tri[(a * S + b) * S + c] += 1
                if i < end {
                    let w = Int(wordTokens[i])
                    emit[w * S + c, default: 0] += 1
                    if config.lexicalMinCount > 0 && wordCount[w] >= Int64(config.lexicalMinCount) {
                        let next = i + 1 < end ? Int(tagTokens[i + 1]) : 0
                        lexical[(w * S + c) * S + next, default: 0] += 1
                    }
                    if config.emission2MinCount > 0 && wordCount[w] >= Int64(config.emission2MinCount) {
                        emission2[(w * S + b) * S + c, default: 0] += 1
                    }
                    if wordCount[w] <= Int64(config.rareThreshold) {
                        let word = wordNames[w]
                        if titleCase == nil { titleCase = WordShape.isTitleCase(wordTokens[start..<end].map { wordNames[Int($0)] }) }
                        let shape = WordShape.of(word, position: titleCase! ? 0 : i - start, previous: i > start ? wordNames[Int(wordTokens[i - 1])] : nil)
                            .refined(for: word) { config.commonShapes && wordIndex[$0] != nil }
                        let scalars = Array(word.unicodeScalars)
                        var suffixes: [String] = []
                        for k in 0...min(scalars.count, config.maxSuffixLength) {
                            var view = String.UnicodeScalarView()
                            view.append(contentsOf: scalars[(scalars.count - k)...])
                            suffixes.append(String(view))
                            suffix[ShapeSuffix(shape: shape, suffix: suffixes[k]), default: [Double](repeating: 0, count: S)][c] += 1
                        }
                        if wordCount[w] == 1 { hapaxes.append((shape, suffixes, c)) }
                    }
                }
                a = b
                b = c
            }
            start = end
        }
        let N = uni.reduce(0, +)

        // Deleted interpolation (Brants 2000, figure 1).
        var ctx1 = [Double](repeating: 0, count: S)      // Σ_c f(b, c)
        for b in 0..<S { for c in 0..<S { ctx1[b] += bi[b * S + c] } }
        var ctx2 = [Double](repeating: 0, count: S * S)  // Σ_c f(a, b, c)
        for ab in 0..<(S * S) { for c in 0..<S { ctx2[ab] += tri[ab * S + c] } }
        var lambdas = [0.0, 0.0, 0.0]
        for a in 0..<S {
            for b in 0..<S {
                for c in 0..<S {
                    let f = tri[(a * S + b) * S + c]
                    guard f > 0 else { continue }
                    let c3 = ctx2[a * S + b] > 1 ? (f - 1) / (ctx2[a * S + b] - 1) : 0
                    let c2 = ctx1[b] > 1 ? (bi[b * S + c] - 1) / (ctx1[b] - 1) : 0
                    let c1 = N > 1 ? (uni[c] - 1) / (N - 1) : 0
                    if c3 >= c2 && c3 >= c1 { lambdas[2] += f } else if c2 >= c1 { lambdas[1] += f } else { lambdas[0] += f }
                }
            }
        }
        let lambdaTotal = max(lambdas.reduce(0, +), 1)
        lambdas = lambdas.map { $0 / lambdaTotal }

        var transitions: [HMMTables.Transition] = []
        for b in 0..<S { for c in 0..<S where bi[b * S + c] > 0 {
            transitions.append(.init(Int32(b), Int32(c), log(bi[b * S + c] / ctx1[b])))
        } }
        var transitions2: [HMMTables.Transition2] = []
        for a in 0..<S { for b in 0..<S { for c in 0..<S where tri[(a * S + b) * S + c] > 0 {
            transitions2.append(.init(Int32(a), Int32(b), Int32(c), log(tri[(a * S + b) * S + c] / ctx2[a * S + b])))
        } } }
        let emissions = emit.map { key, count in
            HMMTables.Emission(word: storeID[key / S], state: Int32(key % S), logprob: log(count / uni[key % S]))
        }
        func triples(_ counts: [Int: Int32]) -> [HMMTables.Lexical] {
            counts.map { key, count in
                HMMTables.Lexical(word: storeID[key / (S * S)], s1: Int32(key / S % S), s2: Int32(key % S), count: count)
            }
        }
        let suffixes = suffix.flatMap { key, counts in
            counts.indices.filter { counts[$0] > 0 }.map {
                HMMTables.SuffixCount(shape: key.shape, suffix: key.suffix, state: Int32($0), count: Int32(counts[$0]))
            }
        }
        let theta = Self.leaveOneOutTheta(suffix, hapaxes: hapaxes, states: S, grid: config.thetaGrid)
        var initial = [Double](repeating: -.infinity, count: S)
        for c in 1..<max(S, 1) where bi[c] > 0 { initial[c] = log(bi[c] / ctx1[0]) }
        typealias P = StoreSchema.HMMParameter
        return HMMTables(
            states: tagNames, stateCounts: uni, stateLogprobs: uni.map { $0 > 0 ? log($0 / N) : -.infinity },
            initial: initial, transitions: transitions, transitions2: transitions2,
            words: words, wordCounts: wordCounts, emissions: emissions, lexical: triples(lexical), emissions2: triples(emission2), suffixes: suffixes,
            parameters: [
                P.lambda1: lambdas[0], P.lambda2: lambdas[1], P.lambda3: lambdas[2],
                P.suffixTheta: theta, P.maxSuffixLength: Double(config.maxSuffixLength),
                P.lexicalWeight: config.lexicalMinCount > 0 ? config.lexicalWeight : 0, P.lowercase: 0,
                P.emission2Weight: config.emission2MinCount > 0 ? config.emission2Weight : 0,
            ])
    }

    /// θ of the suffix model chosen by leave-one-out on the words seen once: each plays an
    /// unknown word (its own count removed), and the θ of the grid under which the suffix model
    /// gives their tags the highest total log-probability wins. (TnT's rule, the standard
    /// deviation of the tag probabilities, gives about 0.05 on English EWT, which trusts long
    /// suffixes seen a handful of times far too much; held-out words prefer about 1.)
    static func leaveOneOutTheta(
        _ vectors: [ShapeSuffix: [Double]], hapaxes: [(shape: WordShape, suffixes: [String], tag: Int)], states S: Int, grid: [Double]
    ) -> Double {
        guard !hapaxes.isEmpty, let fallback = grid.first else { return grid.first ?? 0.1 }
        var base = [Double](repeating: 0, count: S)
        for (key, counts) in vectors where key.suffix.isEmpty { for t in 0..<S { base[t] += counts[t] } }
        let baseTotal = base.reduce(0, +)
        base = base.map { $0 / baseTotal }
        // Each hapax's chain of count vectors (own count removed), up to its longest suffix seen elsewhere.
        let chains: [(counts: [[Double]], tag: Int)] = hapaxes.map { h in
            var chain: [[Double]] = []
            for s in h.suffixes {
                guard var v = vectors[ShapeSuffix(shape: h.shape, suffix: s)] else { break }
                v[h.tag] -= 1
                if v.reduce(0, +) <= 0 { if chain.isEmpty { chain.append(v) }; break }
                chain.append(v)
            }
            return (chain, h.tag)
        }
        var best = fallback, bestScore = -Double.infinity
        for theta in grid {
            var score = 0.0
            var p = [Double](repeating: 0, count: S)
            for (chain, tag) in chains {
                p = base
                for v in chain {
                    let total = v.reduce(0, +)
                    guard total > 0 else { continue }
                    for t in 0..<S { p[t] = (v[t] / total + theta * p[t]) / (1 + theta) }
                }
                score += log(max(p[tag], 1e-300))
            }
            if score > bestScore { bestScore = score; best = theta }
        }
        return best
    }

    struct ShapeSuffix: Hashable {
        var shape: WordShape
        var suffix: String
    }

}
