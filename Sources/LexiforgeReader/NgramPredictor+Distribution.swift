import Foundation
import GRDB

/// p(w | h) for many words after one context, with one read per context level.
///
/// Built by ``NgramPredictor/distribution(after:)``: the continuations of each suffix of the
/// context are read once into memory, so scoring a word is a few hash lookups. This is what a
/// decoder that weighs hundreds of candidates after the same words needs (the swipe decoder's
/// context term); ranked queries use ``NgramPredictor/nextWords(after:limit:excluding:)``.
public struct ContextDistribution: Sendable {
    /// Continuations of each context level, longest first, with the backoff paid to reach it.
    let levels: [(backoff: Int, logprobs: [Int32: Int32])]
    let unigramBackoff: Int
    let unigrams: [Int32]
    /// One bit per vocabulary id: set when some level continues with it. Most words a decoder
    /// scores continue no level, and the bit spares them a hash lookup per level.
    let continued: [UInt64]
    /// The context ids used (after the unknown-word rule), oldest first.
    public let context: [Int32]
    /// An upper bound of ``log10Probability(of:)`` over every suggestible word (store units
    /// divided by ``StoreSchema/logScale``), so a decoder can stop once nothing can score higher.
    public let maximumLog10Probability: Double
    /// An upper bound of ``log10Probability(of:)`` over the words no context level continues
    /// (``isContinued(id:)`` false): the best unigram after the whole back-off. After a context
    /// that predicts a few words strongly, it lies far below ``maximumLog10Probability``, and a
    /// decoder that has passed every continued word can stop much earlier.
    public let maximumUncontinuedLog10Probability: Double

    /// log10 p(word | context) by the ARPA back-off rule, in store units (``StoreSchema/logScale``).
    /// Ids outside the vocabulary get `<unk>`'s.
    public func log10Probability(of id: Int64) -> Double {
        let w = id >= 0 && id < Int64(unigrams.count) ? Int32(id) : Int32(StoreSchema.ReservedID.unknown)
        if isContinued(w) {
            for level in levels {
                if let lp = level.logprobs[w] { return Double(Int(lp) + level.backoff) / StoreSchema.logScale }
            }
        }
        return backedOff(unigrams[Int(w)])
    }

    /// ``log10Probability(of:)`` of a word whose unigram the caller has read (`unigram`, the
    /// word's entry in the model's table, `<unk>`'s outside it): only a word some level continues
    /// is looked up, so a caller that reads the unigrams in its own order spares the random reads.
    @inline(__always) public func log10Probability(of id: Int64, unigram: Int32) -> Double {
        isContinued(id: id) ? log10Probability(of: id) : backedOff(unigram)
    }

    /// log10 of a unigram after the whole back-off.
    @inline(__always) func backedOff(_ unigram: Int32) -> Double { Double(Int(unigram) + unigramBackoff) / StoreSchema.logScale }

    /// Whether some context level continues with the word `id` (an id outside the vocabulary
    /// as `<unk>`, as ``log10Probability(of:)`` reads it); if not, its probability is at most
    /// ``maximumUncontinuedLog10Probability``.
    public func isContinued(id: Int64) -> Bool {
        isContinued(id >= 0 && id < Int64(unigrams.count) ? Int32(id) : Int32(StoreSchema.ReservedID.unknown))
    }

    /// Whether some level continues with `w`, a vocabulary id (as ``log10Probability(of:)`` makes it).
    @inline(__always) func isContinued(_ w: Int32) -> Bool {
        continued[Int(w) >> 6] & (1 << UInt64(w & 63)) != 0
    }
}

extension NgramPredictor {
    /// The distribution of the next word after `context` (typed words, oldest first), for scoring
    /// many candidates (``ContextDistribution``). Context words are matched exactly, then as
    /// lowercase, capitalized and uppercase spellings (a swipe keyboard's context has no reliable
    /// case); unknown words follow ``nextWords(after:limit:excluding:)``'s rule, and an empty
    /// context is the start of a sentence.
    /// - Complexity: one indexed range read per context level (order − 1 reads).
    public func distribution(after context: [String]) throws -> ContextDistribution {
        let spelled = context.map { word -> String in
            if ids[word] != nil { return word }
            for variant in [word.lowercased(), word.capitalized, word.uppercased()] where ids[variant] != nil { return variant }
            return word
        }
        let h = suggestionContext(spelled)
        var levels: [(backoff: Int, logprobs: [Int32: Int32])] = []
        var backoff = 0
        try store.checked { db in
            var k = h.count
            while k >= 1 {
                let suffix = h.suffix(k)
                if k + 1 <= order {
                    var logprobs: [Int32: Int32] = [:]
                    try scan(db, suffix) { logprobs[$0] = Int32($1) }
                    levels.append((backoff, logprobs))
                }
                backoff += k == 1 ? Int(unigramBackoff[Int(suffix[suffix.startIndex])]) : (try entry(db, Array(suffix))?.backoff ?? 0)
                k -= 1
            }
        }
        var best = byProbability.first.map { Int(unigramLogProb[Int($0)]) + backoff } ?? 0
        var continued = [UInt64](repeating: 0, count: (unigramLogProb.count + 63) / 64)
        for level in levels {
            for (w, lp) in level.logprobs {
                best = max(best, Int(lp) + level.backoff)
                if w >= 0 && Int(w) < unigramLogProb.count { continued[Int(w) >> 6] |= 1 << UInt64(w & 63) }
            }
        }
        return ContextDistribution(levels: levels, unigramBackoff: backoff, unigrams: unigramLogProb, continued: continued, context: h,
                                   maximumLog10Probability: Double(best) / StoreSchema.logScale,
                                   maximumUncontinuedLog10Probability: Double(Int(maximumUnigramLogProb) + backoff) / StoreSchema.logScale)
    }
}
