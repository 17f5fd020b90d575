import Foundation
import LexiforgeCorpus
import LexiforgePerceptron
import LexiforgeText

/// The averaged-perceptron tagger feeds the lemmatizer: its greedy tag per word, or its tags with
/// softmax(score / temperature) probabilities.
extension PerceptronTagger: PartOfSpeechTagger {
    public func tags(for words: [String]) -> [String] { tag(words) }
    public func tagPosteriors(for words: [String]) -> [[WeightedTag]] {
        posteriors(words).map { $0.map { WeightedTag($0.tag, $0.probability) } }
    }
}

/// Where the lemmatizer's tags come from: a tagger store, or an averaged-perceptron tagger
/// trained at run time from tagged corpora (`--tagger-train`).
public enum TaggerSource: Sendable, Equatable {
    /// A store built by `lexiforge hmm --tagged` on UPOS tags.
    case store(String)
    /// UPOS-tagged files (CoNLL-U, plain or .gz, or any `lexiforge hmm --tagged` format);
    /// `temperature` overrides ``PerceptronConfig/temperature``.
    case perceptron(training: [String], temperature: Double? = nil)
}

/// Trains the averaged-perceptron UPOS tagger (`--tagger-train`).
public enum PerceptronBuild {
    /// Reads the UPOS column of every file and trains.
    /// - Throws: ``PipelineError`` naming each unreadable file or malformed line.
    public static func make(training: [String], config: PerceptronConfig = .init()) throws -> PerceptronTagger {
        let problems = training.compactMap(NgramBuild.checkInput)
        if !problems.isEmpty { throw PipelineError(problems) }
        let trainer = PerceptronTrainer(config: config)
        let reading = HMMBuildConfig(mode: .supervised(.init()), inputs: training, output: "")
        _ = try HMMBuild.readTagged(training, format: nil, column: .upos, config: reading,
                                    progress: StageProgress(quiet: true)) { trainer.add(words: $0, tags: $1) }
        if trainer.tokens == 0 { throw PipelineError("\(training.joined(separator: ", ")): no tagged words to train the tagger on") }
        return trainer.finish()
    }
}

extension TaggerLoader {
    /// The tagger of a ``TaggerSource``: a store's HMM tagger, or a perceptron trained now.
    public static func open(_ source: TaggerSource) throws -> any PartOfSpeechTagger {
        switch source {
        case .store(let path): return try open(path)
        case .perceptron(let training, let temperature):
            var config = PerceptronConfig()
            if let temperature { config.temperature = temperature }
            return try PerceptronBuild.make(training: training, config: config)
        }
    }
}
