import Foundation

extension NgramPredictor {
    /// How much the words before a swipe read like a sentence to this model: log10 p of the last
    /// word after the ones before it, as ``distribution(after:)`` of those words would give it
    /// (spellings matched the same way, unknown words by the same rule, `<unk>`'s probability for
    /// an unknown last word). Nil for no words.
    ///
    /// The swipe decoder weighs the context less after words that fit poorly
    /// (``SwipeDecoderOptions/contextGate``): a list of unrelated words predicts nothing.
    /// - Complexity: at most `order` indexed reads (a point lookup per back-off level).
    public func contextFit(of words: [String]) throws -> Double? {
        guard let last = words.last else { return nil }
        let h = suggestionContext(words.dropLast().map(spelled))
        return Double(try logProb(of: ids[spelled(last)] ?? -1, context: h).value) / StoreSchema.logScale
    }

    /// How much all the words before a swipe read like a sentence, not only the last: the mean
    /// over them of log10 p(word | the words before it), from the start of a sentence (`<s>`,
    /// then each word, an unknown one as `<unk>`: the ARPA back-off rule over the whole text, as
    /// KenLM scores a sentence), and their number. Spellings are matched as ``contextFit(of:)``
    /// matches them. Nil for no words.
    ///
    /// The last word alone tells a sentence from a list of unrelated words about four times in
    /// five; the mean over every word about six times in seven (docs/swipe.md). The timed context
    /// reranker reads both.
    /// - Complexity: at most `order` indexed reads per word.
    public func contextMeanFit(of words: [String]) throws -> SwipeContextMeanFit? {
        guard !words.isEmpty else { return nil }
        var h = [Int32(StoreSchema.ReservedID.sentenceStart)], sum = 0
        for word in words {
            let id = ids[spelled(word)] ?? -1
            sum += try logProb(of: id, context: h).value
            h.append(id)
        }
        return SwipeContextMeanFit(mean: Double(sum) / StoreSchema.logScale / Double(words.count), words: words.count)
    }

    /// A context word as the model spells it: as typed, in lower case, capitalized or in upper
    /// case, the first it knows (else as typed).
    private func spelled(_ word: String) -> String {
        [word, word.lowercased(), word.capitalized, word.uppercased()].first { ids[$0] != nil } ?? word
    }
}

/// How all the words before a swipe read to a language model (``NgramPredictor/contextMeanFit(of:)``):
/// the mean log10 p of each after the ones before it, and their number.
public struct SwipeContextMeanFit: Sendable, Equatable {
    /// The mean over the words of log10 p(word | the words before it, from `<s>`).
    public var mean: Double
    /// How many words.
    public var words: Int

    public init(mean: Double, words: Int) {
        self.mean = mean
        self.words = words
    }
}

extension SwipeDecoder {
    /// Decodes one swipe after `words`, the words typed before it (none at the start of a text),
    /// with `model`'s p(word | words) and their fit: what ``decode(_:times:context:contextFit:contextMeanFit:)``
    /// needs, computed the way the fitted rerankers were fitted (`eval swipe` and `swipe tune`
    /// decode through here). An empty `words` is the start of a text: the model's distribution
    /// after no words, no fit, and the reranker's "no word before" feature set; a front end that
    /// decodes the first word without a context loses what the model knows of first words.
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func decode(_ raw: [SwipePoint], times: [Double]? = nil, after words: [String], model: NgramPredictor) throws -> SwipeDecoding {
        try decode(raw, times: times, context: model.distribution(after: words), contextFit: model.contextFit(of: words),
                   contextMeanFit: model.contextMeanFit(of: words))
    }
}
