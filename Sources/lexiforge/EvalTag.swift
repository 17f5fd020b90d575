import ArgumentParser
import Foundation
import LexiforgeCorpus
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader

/// `lexiforge eval tag`: tagging accuracy of a tagger store on gold files.
struct EvalTag: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Tagging accuracy (overall, known and unknown words) and the most frequent confusions.",
        discussion: """
            Tags the words of gold files as the treebank tokenized them and compares with the gold \
            tags. Unknown words are those the tagger's lexicon does not hold. With --tagger-train, \
            an averaged-perceptron UPOS tagger is trained now instead and every argument is a gold file.
            Examples:
              lexiforge eval tag Artifacts/en-upos.sqlite en_ewt-ud-dev.conllu.gz
              lexiforge eval tag --tagger-train en_ewt-ud-train.conllu.gz en_ewt-ud-dev.conllu.gz
            """)

    @Argument(help: "The tagger store (with --tagger-train: the first gold file).")
    var store: String

    @Option(help: "Train an averaged-perceptron UPOS tagger on this CoNLL-U file now (repeat for several) instead of reading a store.")
    var taggerTrain: [String] = []

    @Argument(help: "Gold tagged files (CoNLL-U, word/TAG or JSON).")
    var gold: [String] = []

    @Option(help: "Format of the gold files: conllu, slash or json (default: from the file name).")
    var format: String?

    @Option(help: "CoNLL-U tag column: upos or xpos (default: the one the store was trained on).")
    var tagset: String?

    @Option(help: "How many confusions to list.")
    var confusions = 12

    @Option(help: "Viterbi beam in natural-log units (e.g. 7 ≈ a factor of 1000); default: exact Viterbi.")
    var beam: Double?

    @Option(help: "Also write every token as form, gold tag, predicted tag and known/unknown (tab-separated) to this file.")
    var tokens: String?

    @Flag(help: .hidden)
    var measure = false

    @Option(help: .hidden)
    var timingPasses = 1

    func validate() throws {
        if let beam, !(beam > 0) { throw ValidationError("--beam must be a positive number") }
        guard !gold.isEmpty || !taggerTrain.isEmpty else { throw ValidationError("name at least one gold file") }
        if !taggerTrain.isEmpty && (beam != nil || tagset != nil) {
            throw ValidationError("--beam and --tagset are for tagger stores; --tagger-train trains a greedy UPOS tagger")
        }
        if let format, TaggedFormat(rawValue: format) == nil {
            throw ValidationError("--format \(format) is unknown; use conllu, slash or json")
        }
        if let tagset, TagColumn(rawValue: tagset) == nil { throw ValidationError("--tagset \(tagset) is unknown; use upos or xpos") }
    }

    func run() throws {
        try runReportingErrors {
            let progress = StageProgress(quiet: true)
            let format = format.flatMap(TaggedFormat.init(rawValue:))
            var trainingCPUSeconds: Double?
            let result: TagEvaluation
            if taggerTrain.isEmpty {
                result = try TagEval.run(storePath: store, gold: gold, format: format,
                                         tagColumn: tagset.flatMap(TagColumn.init(rawValue:)), keepTokens: tokens != nil, timingPasses: timingPasses, beam: beam,
                                         progress: progress)
            } else {
                (result, trainingCPUSeconds) = try TagEval.run(perceptronTraining: taggerTrain, gold: [store] + gold, format: format,
                                                               keepTokens: tokens != nil, timingPasses: timingPasses, progress: progress)
            }
            if let tokens {
                try AtomicOutput.write(Data((result.tokenLines.joined(separator: "\n") + "\n").utf8), to: tokens, kind: "token list")
            }
            print(result.render(confusionLimit: confusions))
            if let trainingCPUSeconds { print(String(format: "perceptron training: %.3f CPU s", trainingCPUSeconds)) }
            if measure {
                FileHandle.standardError.write(Data(String(format: "measure: tagging %d tokens %.3f s, %.0f tokens/s; %.3f CPU s, %.0f tokens per CPU second\n", result.tokens, result.taggingSeconds, result.tokensPerSecond, result.taggingCPUSeconds, result.tokensPerCPUSecond).utf8))
            }
        }
    }
}
