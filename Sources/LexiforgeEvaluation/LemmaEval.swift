import Foundation
import LexiforgeBuild
import LexiforgeCorpus
import LexiforgeReader
import LexiforgeText

/// Where `eval lemma` gets its tags.
public enum LemmaTagging: Sendable {
    case none
    case gold
    /// A tagger (a store, or a perceptron trained at run time); the lemmatizer votes over each
    /// word's tag posteriors (``Lemmatizer/lemma(of:tags:position:)``).
    case tagger(TaggerSource)
    /// A tagger's single best (Viterbi, or greedy) tag per word, for comparison.
    case viterbi(TaggerSource)
}

/// What `lexiforge eval lemma` measured.
public struct LemmaEvalReport: Sendable {
    public var words = 0
    public var correct = 0
    /// Words whose form the training data never showed.
    public var unseen = 0
    public var unseenCorrect = 0
    public var trainingWords = 0
    public var trainingSeconds = 0.0
    /// Seconds spent training a run-time tagger (``TaggerSource/perceptron(training:temperature:)``).
    public var taggerTrainingSeconds = 0.0
    /// Seconds spent lemmatizing (through a ``LemmaCache``, tagging excluded).
    public var lemmatizeSeconds = 0.0
    /// Seconds spent tagging (predicted tags only).
    public var taggingSeconds = 0.0
    public var examples: [String] = []
    public var problems: [String] = []
    /// Every word as `form<TAB>gold tag<TAB>tag used<TAB>gold lemma<TAB>lemma<TAB>seen|unseen`,
    /// with a tagger's posteriors also `<TAB>TAG:p TAG:p…` (only when asked for), for error analysis.
    public var tokenLines: [String] = []
    public var accuracy: Double { words == 0 ? 0 : Double(correct) / Double(words) }
    public var unseenAccuracy: Double { unseen == 0 ? 0 : Double(unseenCorrect) / Double(unseen) }
}

/// Scores a lemmatizer against a CoNLL-U treebank.
///
/// In: gold CoNLL-U (its syntactic words, as the treebank tokenized them), a
/// ``LemmatizerSource`` to train from and where tags come from. Out: case-sensitive accuracy over
/// all words (punctuation included, as the gold lemma column has one for every word).
public enum LemmaEval {
    public static func run(gold: String, source: LemmatizerSource, tagging: LemmaTagging, examples: Int = 0,
                           keepTokens: Bool = false) throws -> LemmaEvalReport {
        var report = LemmaEvalReport()
        if let problem = NgramBuild.checkInput(gold) { throw PipelineError(problem) }
        let start = ContinuousClock.now
        let lemmatizer = try LemmatizerBuild.make(source)
        report.trainingSeconds = seconds(since: start)
        report.trainingWords = lemmatizer.trainingWords
        var tagger: (any PartOfSpeechTagger)?
        switch tagging {
        case .tagger(let source), .viterbi(let source):
            let clock = ContinuousClock.now
            tagger = try TaggerLoader.open(source)
            report.taggerTrainingSeconds = seconds(since: clock)
        case .none, .gold: break
        }
        var sentences: [TreebankSentence] = []
        report.problems = try TreebankReader.read(path: gold) { sentences.append($0) }
        // Tags first (timed apart), then lemmas through a cache, as running text would use them.
        let tagClock = ContinuousClock.now
        let forms = sentences.map { $0.words.map(\.form) }
        var posteriors: [[[WeightedTag]]]?
        if case .tagger = tagging { posteriors = [] }
        let predictedTags: [[String]?] = sentences.indices.map { i in
            switch tagging {
            case .none: return nil
            case .gold: return sentences[i].words.map(\.upos)
            case .viterbi: return tagger!.tags(for: forms[i])
            case .tagger:
                let distributions = tagger!.tagPosteriors(for: forms[i])
                posteriors?.append(distributions)
                return distributions.map { $0.first?.tag ?? "X" }
            }
        }
        report.taggingSeconds = seconds(since: tagClock)
        let clock = ContinuousClock.now
        var cache = LemmaCache()
        let predicted = forms.indices.map { k in
            if let posteriors { return cache.lemmatize(forms[k], tagPosteriors: posteriors[k], lemmatizer) }
            return cache.lemmatize(forms[k], tags: predictedTags[k], predicted: tagger != nil, lemmatizer)
        }
        report.lemmatizeSeconds = seconds(since: clock)
        for (i, ((sentence, lemmas), tags)) in zip(zip(sentences, predicted), predictedTags).enumerated() {
            for (k, (word, lemma)) in zip(sentence.words, lemmas).enumerated() {
                report.words += 1
                let ok = lemma == word.lemma
                if ok { report.correct += 1 }
                if !lemmatizer.isSeen(word.form) {
                    report.unseen += 1
                    if ok { report.unseenCorrect += 1 }
                }
                if keepTokens {
                    report.tokenLines.append("\(word.form)\t\(word.upos)\t\(tags?[k] ?? "-")\t\(word.lemma)\t\(lemma)\t\(lemmatizer.isSeen(word.form) ? "seen" : "unseen")"
                        + (posteriors.map { "\t" + $0[i][k].map { $0.tag + String(format: ":%.3f", $0.probability) }.joined(separator: " ") } ?? ""))
                }
                if !ok && report.examples.count < examples {
                    let tag = tags.map { $0[k] == word.upos ? "" : "→\($0[k])" } ?? ""
                    report.examples.append("\(word.form)\t\(word.upos)\(tag)\tgold \(word.lemma)\tgot \(lemma)\(lemmatizer.isSeen(word.form) ? "" : "\t(unseen)")")
                }
            }
        }
        return report
    }
}
