import LexiforgeReader
import LexiforgeText

/// The store's Viterbi tagger feeds the lemmatizer: one UPOS tag per word.
extension HMMTagger: PartOfSpeechTagger {
    public func tags(for words: [String]) -> [String] { tagStates(words).map { stateNames[Int($0)] } }
}
