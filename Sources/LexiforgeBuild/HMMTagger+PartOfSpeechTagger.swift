import LexiforgeReader
import LexiforgeText

/// The store's tagger feeds the lemmatizer: one UPOS tag per word (Viterbi), or every candidate
/// tag with its forward-backward posterior.
extension HMMTagger: PartOfSpeechTagger {
    public func tags(for words: [String]) -> [String] { tagStates(words).map { stateNames[Int($0)] } }
    public func tagPosteriors(for words: [String]) -> [[WeightedTag]] {
        tagPosteriors(words).map { $0.map { WeightedTag($0.tag, $0.probability) } }
    }
}
