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
        func spelled(_ word: String) -> String {
            [word, word.lowercased(), word.capitalized, word.uppercased()].first { ids[$0] != nil } ?? word
        }
        let h = suggestionContext(words.dropLast().map(spelled))
        return Double(try logProb(of: ids[spelled(last)] ?? -1, context: h).value) / StoreSchema.logScale
    }
}

extension SwipeDecoder {
    /// Decodes one swipe after `words`, the words typed before it (none at the start of a text),
    /// with `model`'s p(word | words) and their fit: what ``decode(_:times:context:contextFit:)``
    /// needs, computed the way the fitted rerankers were fitted (`eval swipe` and `swipe tune`
    /// decode through here). An empty `words` is the start of a text: the model's distribution
    /// after no words, no fit, and the reranker's "no word before" feature set; a front end that
    /// decodes the first word without a context loses what the model knows of first words.
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func decode(_ raw: [SwipePoint], times: [Double]? = nil, after words: [String], model: NgramPredictor) throws -> SwipeDecoding {
        try decode(raw, times: times, context: model.distribution(after: words), contextFit: model.contextFit(of: words))
    }
}
