import Foundation

extension NgramPredictor {
    /// How much the words before a swipe read like a sentence to this model: log10 p of the last
    /// word after the ones before it (its spelling matched as ``distribution(after:)`` matches
    /// context words; an unknown word gets `<unk>`'s probability). Nil for no words.
    ///
    /// The swipe decoder weighs the context less after words that fit poorly
    /// (``SwipeDecoderOptions/contextGate``): a list of unrelated words predicts nothing.
    /// - Complexity: one ``distribution(after:)``.
    public func contextFit(of words: [String]) throws -> Double? {
        guard let last = words.last else { return nil }
        let id = [last, last.lowercased(), last.capitalized, last.uppercased()].lazy.compactMap { self.id(of: $0) }.first
        return try distribution(after: Array(words.dropLast())).log10Probability(of: Int64(id ?? -1))
    }
}
