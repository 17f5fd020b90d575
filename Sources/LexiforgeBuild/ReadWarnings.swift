import LexiforgeCorpus
import LexiforgeText

extension CorpusFileSummary {
    /// The warnings about one file read, one line each: invalid UTF-8 replaced, lines cut at
    /// ``CorpusReader/maxLineBytes``, and `cutSentences` sentences cut at
    /// ``SentenceSplitter/maxSentenceTokens`` tokens while it was read.
    func warnings(cutSentences: Int = 0) -> [String] {
        var warnings: [String] = []
        if replacedSequences > 0 {
            warnings.append("\(path): replaced \(replacedSequences) invalid UTF-8 sequence(s) with U+FFFD")
        }
        if let cut = cutLinesWarning { warnings.append(cut) }
        if cutSentences > 0 {
            warnings.append("\(path): \(cutSentences) sentence(s) ran past \(SentenceSplitter.maxSentenceTokens) tokens (or \(SentenceSplitter.maxSentenceBytes) bytes) without a sentence end and were cut there")
        }
        return warnings
    }
}
