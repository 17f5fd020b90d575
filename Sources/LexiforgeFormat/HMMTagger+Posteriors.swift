import Foundation

/// One candidate tag of a word with its probability given the whole sentence.
public struct TagPosterior: Sendable, Equatable {
    /// State id (1...K) and its name.
    public var state: Int32
    public var tag: String
    /// P(tag of this word | every word of the sentence) under the tagger's model.
    public var probability: Double
    public init(state: Int32, tag: String, probability: Double) {
        self.state = state
        self.tag = tag
        self.probability = probability
    }
}

extension HMMTagger {
    /// Per-word tag posteriors: for every word, each candidate tag with P(tag | sentence),
    /// most probable first (probabilities of one word sum to 1).
    ///
    /// Forward-backward over the same second-order model the Viterbi search uses (the same
    /// candidate tags, interpolated trigram transitions, word-conditioned transitions and
    /// second-order emissions), scaled per position so long sentences do not underflow; the beam
    /// is not applied (the sums are exact). Where the Viterbi path picks one tag, these marginals
    /// say how sure the model is, so a consumer can weigh the alternatives (the lemmatizer sums
    /// them per lemma: `saw` as 60% VERB, 40% NOUN).
    ///
    /// ```swift
    /// tagger.tagPosteriors(["I", "saw", "her"])[1]   // [VERB 0.98, NOUN 0.02]
    /// ```
    /// - Complexity: O(n · c³) like ``tagStates(_:)``, about three times its constant.
    public func tagPosteriors(_ words: [String]) -> [[TagPosterior]] {
        let n = words.count
        guard n > 0 else { return [] }
        let entries = candidateEntries(words)
        let S = stateCount
        func entry(_ i: Int) -> Int { i >= 0 && i < n ? Int(entries[i]) : Int(boundaryEntry) }
        func count(_ e: Int) -> Int { Int(entryStart[e + 1] - entryStart[e]) }

        // Step factors f_i(w, u, v) = P(v | w, u) · P(word_i | u, v) for i = 0...n (i = n is the
        // closing boundary), stored per step at index (w · pN + u) · cN + v.
        var factors: [Double] = []
        var factorStart = [Int](repeating: 0, count: n + 2)
        for i in 0...n {
            factorStart[i] = factors.count
            let ppE = entry(i - 2), pE = entry(i - 1), cE = entry(i)
            let ppS = Int(entryStart[ppE]), pS = Int(entryStart[pE]), cS = Int(entryStart[cE])
            let ppN = count(ppE), pN = count(pE), cN = count(cE)
            let lex = i > 0 ? Int(entryLexical[pE]) : -1
            let e2 = Int(entryEmission2[cE])
            for w in 0..<ppN {
                let sw = Int(candState[ppS + w])
                for u in 0..<pN {
                    let su = Int(candState[pS + u])
                    let mix = lex >= 0 ? lexicalMix[lex * S + su] : 0
                    for v in 0..<cN {
                        let sv = Int(candState[cS + v])
                        var t = transP[(sw * S + su) * S + sv]
                        if mix > 0 { t = (1 - mix) * t + mix * lexicalP[(lex * S + su) * S + sv] }
                        let emission = e2 >= 0 ? emission2Score[(e2 * S + su) * S + sv] : candScore[cS + v]
                        factors.append(Double(t) * exp(Double(emission)))
                    }
                }
            }
        }
        factorStart[n + 1] = factors.count

        // Forward, scaled: alpha_i(u, v) over (C[i-1], C[i]), each layer summing to 1.
        var alpha: [[Double]] = []
        alpha.reserveCapacity(n + 1)
        var scale = [Double](repeating: 1, count: n + 1)
        var previous: [Double] = [1]
        for i in 0...n {
            let ppN = count(entry(i - 2)), pN = count(entry(i - 1)), cN = count(entry(i))
            var layer = [Double](repeating: 0, count: pN * cN)
            let f = factorStart[i]
            for w in 0..<ppN {
                for u in 0..<pN {
                    let a = previous[w * pN + u]
                    guard a > 0 else { continue }
                    for v in 0..<cN { layer[u * cN + v] += a * factors[f + (w * pN + u) * cN + v] }
                }
            }
            let total = layer.reduce(0, +)
            scale[i] = total > 0 ? total : 1
            if total > 0 { for k in layer.indices { layer[k] /= total } }
            alpha.append(layer)
            previous = layer
        }

        // Backward with the same scales; posteriors of (C[i-1], C[i]) pairs summed over C[i-1].
        var result = [[TagPosterior]](repeating: [], count: n)
        var beta = [Double](repeating: 1, count: count(entry(n - 1)))   // over (C[n-1], boundary)
        for i in stride(from: n - 1, through: 0, by: -1) {
            // beta_i(u, v) from beta_{i+1}(v, x): step i + 1's factors.
            let pN = count(entry(i - 1)), cN = count(entry(i)), nN = count(entry(i + 1))
            let f = factorStart[i + 1]
            var layer = [Double](repeating: 0, count: pN * cN)
            for u in 0..<pN {
                for v in 0..<cN {
                    var sum = 0.0
                    for x in 0..<nN { sum += factors[f + (u * cN + v) * nN + x] * beta[v * nN + x] }
                    layer[u * cN + v] = sum / scale[i + 1]
                }
            }
            beta = layer
            let cE = entry(i), cS = Int(entryStart[cE])
            var marginal = [Double](repeating: 0, count: cN)
            for u in 0..<pN { for v in 0..<cN { marginal[v] += alpha[i][u * cN + v] * beta[u * cN + v] } }
            let total = marginal.reduce(0, +)
            var list: [TagPosterior] = []
            for v in 0..<cN {
                let p = total > 0 ? marginal[v] / total : 1 / Double(cN)
                let s = candState[cS + v]
                list.append(TagPosterior(state: s, tag: stateNames[Int(s)], probability: p))
            }
            list.sort { $0.probability != $1.probability ? $0.probability > $1.probability : $0.state < $1.state }
            result[i] = list
        }
        return result
    }
}
