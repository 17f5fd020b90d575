import Foundation

/// Tags token sequences with the hidden Markov tables of a store (second-order Viterbi).
///
/// Built from ``HMMTables`` (in memory, or loaded with ``TrainedStore/hmmTagger()``). For each
/// token it gathers the candidate states and their emission scores: a known word's tags from
/// `hmm_emission`; an unknown word's from the suffix model of its ``WordShape`` (TnT: the
/// longest known suffix of the word, smoothed recursively with θ towards shorter suffixes, turned
/// into P(word | tag) ∝ P(tag | suffix) / P(tag)); a capitalized unknown word whose lowercase
/// form is known takes that form's tags at the start of a sentence, and elsewhere the suffix
/// model of its own shape (``WordShape/capitalizedCommon``: headings' common nouns as often as
/// names). In a title-case sentence (``WordShape/isTitleCase(_:)``) every word is shaped as if
/// it began the sentence. Transitions interpolate unigram, bigram and trigram
/// estimates with the stored λs, and after a frequent word w blend in P(t | w, t-1)
/// (`hmm_lexical`). Viterbi then runs over pairs of candidate states.
///
/// ```swift
/// let tagger = try TrainedStore(path: "en-upos.sqlite").hmmTagger()
/// tagger.tag(["I", "saw", "her"])   // [I/PRON, saw/VERB, her/PRON]
/// ```
/// The result pairs each form with its tag (``TaggedToken``). ``tagPosteriors(_:)`` gives every
/// candidate tag of every word with its forward-backward probability instead, which is what the
/// POS-aware lemmatizer consumes (it votes over them).
/// - Complexity: O(n · c³) for n tokens with at most c candidate states each; a known word
///   usually has one to three, an unknown word at most ``maxUnknownCandidates``.
public struct HMMTagger: Sendable {
    /// State names, index = state id (0 is `<s>`).
    public let stateNames: [String]
    /// Whether words are lowercased before lookup (unsupervised stores built with lowercase).
    public let lowercase: Bool
    /// Viterbi beam: after each word, state pairs scoring more than this (natural log) below the
    /// best are dropped, as TnT does; nil keeps every pair (exact Viterbi).
    public var beam: Float?
    /// Unknown words keep at most this many candidate tags.
    public static let maxUnknownCandidates = 8

    let stateCount: Int
    let trans: [Float]            // S³: log interpolated P(c | a, b), index (a·S + b)·S + c
    let transP: [Float]           // the same as probabilities (for lexical blending)
    let lexicon: [String: Int32]  // word → candidate entry
    let entryStart: [Int32]       // entry e spans candState[entryStart[e]..<entryStart[e+1]]
    let candState: [Int32]
    let candScore: [Float]
    let entryLexical: [Int32]     // entry → lexical table index or -1
    let lexicalP: [Float]         // per lexical word: S² of P(s2 | w, s1)
    let lexicalMix: [Float]       // per lexical word: S of the weight given to row s1
    let entryEmission2: [Int32]   // entry → second-order emission table index or -1
    let emission2Score: [Float]   // per such word: S² of log P(w | s1, s2)
    let suffixes: HMMSuffixModel  // unknown words: entry by shape and suffix
    let maxSuffixLength: Int
    let unknownEntry: Int32       // `<unk>` emissions (Baum-Welch) or the all-states entry
    let boundaryEntry: Int32

    public init(tables: HMMTables, beam: Double? = nil) {
        self.beam = beam.map { Float($0) }
        let S = tables.stateCount
        stateCount = S
        stateNames = tables.states
        lowercase = tables.parameter(StoreSchema.HMMParameter.lowercase, default: 0) != 0

        // Transitions: dense interpolated trigram table.
        let l1 = tables.parameter(StoreSchema.HMMParameter.lambda1, default: 0)
        let l2 = tables.parameter(StoreSchema.HMMParameter.lambda2, default: 1)
        let l3 = tables.parameter(StoreSchema.HMMParameter.lambda3, default: 0)
        var uni = [Double](repeating: 0, count: S)
        for s in 0..<S { uni[s] = exp(tables.stateLogprobs[s]) }
        var bi = [Double](repeating: 0, count: S * S)
        for t in tables.transitions { bi[Int(t.s1) * S + Int(t.s2)] = exp(t.logprob) }
        var tri = [Double](repeating: 0, count: S * S * S)
        for t in tables.transitions2 { tri[(Int(t.s1) * S + Int(t.s2)) * S + Int(t.s3)] = exp(t.logprob) }
        var p = [Float](repeating: 0, count: S * S * S)
        var logp = [Float](repeating: -.infinity, count: S * S * S)
        for a in 0..<S {
            for b in 0..<S {
                for c in 0..<S {
                    let i = (a * S + b) * S + c
                    // The boundary is never a state inside a sentence: (a, <s>) with a real a
                    // cannot occur; give it the bigram estimate anyway so every row is defined.
                    let v = l1 * uni[c] + l2 * bi[b * S + c] + l3 * tri[i]
                    p[i] = Float(v)
                    logp[i] = v > 0 ? Float(log(v)) : -.infinity
                }
            }
        }
        trans = logp
        transP = p

        // Candidate entries: boundary, known words, then suffix rows.
        var entryStart: [Int32] = [0]
        var candState: [Int32] = []
        var candScore: [Float] = []
        func closeEntry() -> Int32 {
            entryStart.append(Int32(candState.count))
            return Int32(entryStart.count - 2)
        }
        candState.append(0); candScore.append(0)
        boundaryEntry = closeEntry()

        var byWord = [[(Int32, Double)]](repeating: [], count: tables.words.count)
        for e in tables.emissions where e.state != 0 { byWord[Int(e.word)].append((e.state, e.logprob)) }
        var lexicon: [String: Int32] = [:]
        lexicon.reserveCapacity(tables.words.count)
        var wordEntry = [Int32](repeating: -1, count: tables.words.count)
        var unknown: Int32 = -1
        for (id, list) in byWord.enumerated() where !list.isEmpty {
            for (s, lp) in list.sorted(by: { $0.0 < $1.0 }) { candState.append(s); candScore.append(Float(lp)) }
            let e = closeEntry()
            wordEntry[id] = e
            if id == Int(StoreSchema.ReservedID.unknown) { unknown = e } else if id >= Int(StoreSchema.ReservedID.firstWord) {
                lexicon[tables.words[id]] = e
            }
        }
        if unknown < 0 {
            for s in 1..<max(S, 1) { candState.append(Int32(s)); candScore.append(0) }
            unknown = closeEntry()
        }
        unknownEntry = unknown

        // Word-conditioned transitions after frequent words. (The counts of this block and the
        // next go before the suffix model's rows are made, at the peak of the loading.)
        var entryLexical = [Int32](repeating: -1, count: entryStart.count - 1)
        var lexicalP: [Float] = [], lexicalMix: [Float] = []
        do {
            let k = tables.parameter(StoreSchema.HMMParameter.lexicalWeight, default: 0)
            var lexIndex: [Int32: Int32] = [:]
            var lexCounts: [[Double]] = []
            for l in tables.lexical {
                let idx: Int32
                if let found = lexIndex[l.word] { idx = found } else {
                    idx = Int32(lexCounts.count)
                    lexIndex[l.word] = idx
                    lexCounts.append([Double](repeating: 0, count: S * S))
                }
                lexCounts[Int(idx)][Int(l.s1) * S + Int(l.s2)] += Double(l.count)
            }
            lexicalP = [Float](repeating: 0, count: lexCounts.count * S * S)
            lexicalMix = [Float](repeating: 0, count: lexCounts.count * S)
            for (word, idx) in lexIndex where wordEntry[Int(word)] >= 0 && k > 0 {
                entryLexical[Int(wordEntry[Int(word)])] = idx
                let counts = lexCounts[Int(idx)]
                for s1 in 0..<S {
                    let row = counts[(s1 * S)..<(s1 * S + S)].reduce(0, +)
                    guard row > 0 else { continue }
                    lexicalMix[Int(idx) * S + s1] = Float(row / (row + k))
                    for s2 in 0..<S { lexicalP[(Int(idx) * S + s1) * S + s2] = Float(counts[s1 * S + s2] / row) }
                }
            }
        }

        // Second-order emissions of frequent words, smoothed towards P(w | s2).
        var entryEmission2 = [Int32](repeating: -1, count: entryStart.count - 1)
        var emission2Score: [Float] = []
        do {
            let k2 = tables.parameter(StoreSchema.HMMParameter.emission2Weight, default: 0)
            var e2Counts: [Int32: [Double]] = [:]
            if k2 > 0 {
                for l in tables.emissions2 where wordEntry[Int(l.word)] >= 0 {
                    e2Counts[l.word, default: [Double](repeating: 0, count: S * S)][Int(l.s1) * S + Int(l.s2)] += Double(l.count)
                }
            }
            emission2Score = [Float](repeating: 0, count: e2Counts.count * S * S)
            for (n, word) in e2Counts.keys.sorted().enumerated() {
                let counts = e2Counts[word]!
                let e = Int(wordEntry[Int(word)])
                entryEmission2[e] = Int32(n)
                for c in Int(entryStart[e])..<Int(entryStart[e + 1]) {
                    let s2 = Int(candState[c])
                    let plain = exp(Double(candScore[c]))
                    for s1 in 0..<S {
                        let context = tables.stateCounts[s1] * bi[s1 * S + s2]
                        emission2Score[(n * S + s1) * S + s2] = Float(log((counts[s1 * S + s2] + k2 * plain) / (context + k2)))
                    }
                }
            }
        }

        // Suffix model: TnT's recursive smoothing per word shape (``HMMSuffixModel``): the rows
        // are walked once to count their candidates, so that the candidate arrays grow once.
        maxSuffixLength = Int(tables.parameter(StoreSchema.HMMParameter.maxSuffixLength, default: 10))
        let builder = HMMSuffixModel.Builder(suffixes: tables.suffixes, stateCount: S,
                                             theta: tables.parameter(StoreSchema.HMMParameter.suffixTheta, default: 0.1))
        var list: [(Int32, Float, Double)] = []
        var more = 0
        builder.walk { _, probs in more += Self.suffixCandidates(probs, unigram: uni, into: &list) }
        candState.reserveCapacity(candState.count + more)
        candScore.reserveCapacity(candScore.count + more)
        entryStart.reserveCapacity(entryStart.count + builder.rowCount)
        suffixes = builder.model(unknownEntry: unknown) { probs in
            let n = Self.suffixCandidates(probs, unigram: uni, into: &list)
            for (s, score, _) in list.prefix(n).sorted(by: { $0.0 < $1.0 }) { candState.append(s); candScore.append(score) }
            return closeEntry()
        }
        self.lexicon = lexicon
        self.entryStart = entryStart
        self.candState = candState
        self.candScore = candScore
        self.entryLexical = entryLexical + [Int32](repeating: -1, count: entryStart.count - 1 - entryLexical.count)
        self.lexicalP = lexicalP
        self.lexicalMix = lexicalMix
        self.entryEmission2 = entryEmission2 + [Int32](repeating: -1, count: entryStart.count - 1 - entryEmission2.count)
        self.emission2Score = emission2Score
    }

    /// The candidate tags of a suffix model row (`probs`, P(tag | suffix) per state) into `list`,
    /// best first: the states of probability within 1/1000 of the best, with score
    /// log P(tag | suffix) − log P(tag); returns how many of them to keep (at most ``maxUnknownCandidates``).
    static func suffixCandidates(_ probs: ArraySlice<Double>, unigram uni: [Double], into list: inout [(Int32, Float, Double)]) -> Int {
        let top = probs.max() ?? 0
        let o = probs.startIndex
        list.removeAll(keepingCapacity: true)
        for s in 1..<probs.count where probs[o + s] > 0 && probs[o + s] >= top * 1e-3 && uni[s] > 0 {
            list.append((Int32(s), Float(log(probs[o + s]) - log(uni[s])), probs[o + s]))
        }
        list.sort { $0.2 > $1.2 }
        return min(list.count, maxUnknownCandidates)
    }

    /// Whether `word` is in the tagger's lexicon (seen in training), as written.
    public func isKnown(_ word: String) -> Bool { lexicon[lowercase ? word.lowercased() : word] != nil }

    /// Tags one sentence; the result pairs every word with its tag.
    public func tag(_ words: [String]) -> [TaggedToken] {
        let states = tagStates(words)
        return zip(words, states).map { TaggedToken(form: $0, tag: stateNames[Int($1)]) }
    }

    /// Tags one sentence and returns state ids (1...K), one per word.
    public func tagStates(_ words: [String]) -> [Int32] { viterbi(candidateEntries(words)) }

    /// The candidate entry of every word of a sentence.
    func candidateEntries(_ words: [String]) -> [Int32] {
        var entries = [Int32](repeating: 0, count: words.count)
        let title = WordShape.isTitleCase(words)
        for (i, w) in words.enumerated() { entries[i] = entry(for: w, position: title ? 0 : i, previous: i > 0 ? words[i - 1] : nil) }
        return entries
    }

    /// The candidate entry of a word at a sentence position.
    func entry(for word: String, position: Int, previous: String?) -> Int32 {
        let key = lowercase ? word.lowercased() : word
        if let e = lexicon[key] { return e }
        if lowercase { return unknownEntry }
        var shape = WordShape.of(word, position: position, previous: previous)
        switch shape {
        case .sentenceInitialCapitalized, .upper:
            if let e = lexicon[word.lowercased()] { return e }
            if shape == .upper, let e = lexicon[word.prefix(1) + word.dropFirst().lowercased()] { return e }
        case .lower:
            if let e = lexicon[word.prefix(1).uppercased() + word.dropFirst()] { return e }
        default:
            break
        }
        let refined = shape.refined(for: word) { lexicon[$0] != nil }
        if refined != shape && suffixes.hasSuffixes(refined) { shape = refined }
        return suffixes.entry(word, shape: shape, maxLength: maxSuffixLength)
    }

    /// Second-order Viterbi over the candidate entries of one sentence.
    private func viterbi(_ entries: [Int32]) -> [Int32] {
        let n = entries.count
        guard n > 0 else { return [] }
        let S = stateCount
        var backs: [Int32] = []
        var backStart: [Int] = []
        backs.reserveCapacity(n * 8)
        backStart.reserveCapacity(n + 2)
        var prevDelta: [Float] = [0]
        var delta: [Float] = []
        prevDelta.reserveCapacity(64)
        delta.reserveCapacity(64)
        var ppE = boundaryEntry, pE = boundaryEntry
        trans.withUnsafeBufferPointer { trans in
        transP.withUnsafeBufferPointer { transP in
        candState.withUnsafeBufferPointer { cs in
        candScore.withUnsafeBufferPointer { sc in
        entryStart.withUnsafeBufferPointer { es in
            for i in 0...n {
                let cE = i < n ? entries[i] : boundaryEntry
                let ppS = Int(es[Int(ppE)]), ppN = Int(es[Int(ppE) + 1]) - ppS
                let pS = Int(es[Int(pE)]), pN = Int(es[Int(pE) + 1]) - pS
                let cS = Int(es[Int(cE)]), cN = Int(es[Int(cE) + 1]) - cS
                let lex = i > 0 ? Int(entryLexical[Int(pE)]) : -1
                let e2 = Int(entryEmission2[Int(cE)])
                backStart.append(backs.count)
                delta.removeAll(keepingCapacity: true)
                for u in 0..<pN {
                    let su = Int(cs[pS + u])
                    var alive = false
                    for w in 0..<ppN where prevDelta[w * pN + u] > -.infinity { alive = true; break }
                    if !alive {
                        // Every path into this pair was pruned (or impossible): skip its work.
                        for _ in 0..<cN { delta.append(-.infinity); backs.append(0) }
                        continue
                    }
                    let mix: Float = lex >= 0 ? lexicalMix[lex * S + su] : 0
                    for v in 0..<cN {
                        let sv = Int(cs[cS + v])
                        var best = -Float.infinity
                        var arg: Int32 = 0
                        if mix > 0 {
                            let lp = lexicalP[(lex * S + su) * S + sv] * mix
                            for w in 0..<ppN {
                                let sw = Int(cs[ppS + w])
                                let t = log((1 - mix) * transP[(sw * S + su) * S + sv] + lp)
                                let s = prevDelta[w * pN + u] + t
                                if s > best { best = s; arg = Int32(w) }
                            }
                        } else {
                            for w in 0..<ppN {
                                let sw = Int(cs[ppS + w])
                                let s = prevDelta[w * pN + u] + trans[(sw * S + su) * S + sv]
                                if s > best { best = s; arg = Int32(w) }
                            }
                        }
                        delta.append(best + (e2 >= 0 ? emission2Score[(e2 * S + su) * S + sv] : sc[cS + v]))
                        backs.append(arg)
                    }
                }
                if let beam, delta.count > 1 {
                    let top = delta.max() ?? 0
                    if top > -.infinity { for k in delta.indices where delta[k] < top - beam { delta[k] = -.infinity } }
                }
                swap(&prevDelta, &delta)
                ppE = pE
                pE = cE
            }
        }}}}}
        // prevDelta is over (C[n-1], boundary).
        var u = 0
        for k in 1..<prevDelta.count where prevDelta[k] > prevDelta[u] { u = k }
        var result = [Int32](repeating: 0, count: n)
        var v = 0       // index in C[i]
        var i = n       // position of v
        var uIdx = u    // index in C[i-1]
        while i >= 1 {
            let pE = entries[i - 1]
            result[i - 1] = candState[Int(entryStart[Int(pE)]) + uIdx]
            let cN = i < n ? Int(entryStart[Int(entries[i]) + 1] - entryStart[Int(entries[i])]) : 1
            let w = Int(backs[backStart[i] + uIdx * cN + v])
            v = uIdx
            uIdx = w
            i -= 1
        }
        return result
    }
}

extension HMMTagger {
    /// Clitics split off a token the tagger does not know ("don't" → "do", "n't"), as the
    /// treebanks it learns from split them.
    public static let clitics = ["n't", "n’t", "'s", "’s", "'m", "’m", "'re", "’re", "'ve", "’ve", "'ll", "’ll", "'d", "’d"]

    /// `token`, or its stem and clitic when the tagger does not know the token but it ends in one
    /// of ``clitics`` (`lexiforge tag` and the playground's tagging).
    public func splitClitic(_ token: String) -> [String] {
        guard !isKnown(token) else { return [token] }
        let lower = token.lowercased()
        for clitic in Self.clitics where lower.hasSuffix(clitic) && lower.count > clitic.count {
            return [String(token.dropLast(clitic.count)), String(token.suffix(clitic.count))]
        }
        return [token]
    }
}
