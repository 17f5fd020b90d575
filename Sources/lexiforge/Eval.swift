import ArgumentParser
import Foundation
import LexiforgeCorpus
import LexiforgePipeline

struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Evaluate a store against gold data.",
        subcommands: [EvalTag.self, EvalSwipe.self])
}

struct EvalTag: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Tagging accuracy (overall, known and unknown words) and the most frequent confusions.",
        discussion: """
            Tags the words of gold files as the treebank tokenized them and compares with the gold \
            tags. Unknown words are those the tagger's lexicon does not hold.
            Example:
              lexiforge eval tag Artifacts/en-upos.sqlite en_ewt-ud-dev.conllu.gz
            """)

    @Argument(help: "The tagger store.")
    var store: String

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
        guard !gold.isEmpty else { throw ValidationError("name at least one gold file") }
        if let format, TaggedFormat(rawValue: format) == nil {
            throw ValidationError("--format \(format) is unknown; use conllu, slash or json")
        }
        if let tagset, TagColumn(rawValue: tagset) == nil { throw ValidationError("--tagset \(tagset) is unknown; use upos or xpos") }
    }

    func run() throws {
        try runReportingErrors {
            let progress = StageProgress(quiet: true)
            let result = try TagEval.run(storePath: store, gold: gold, format: format.flatMap(TaggedFormat.init(rawValue:)),
                                         tagColumn: tagset.flatMap(TagColumn.init(rawValue:)), keepTokens: tokens != nil, timingPasses: timingPasses, beam: beam,
                                         progress: progress)
            if let tokens {
                guard FileManager.default.createFile(atPath: tokens, contents: Data((result.tokenLines.joined(separator: "\n") + "\n").utf8)) else {
                    throw ValidationError("\(tokens): cannot write the token list; choose a writable path")
                }
            }
            print(result.render(confusionLimit: confusions))
            if measure {
                FileHandle.standardError.write(Data(String(format: "measure: tagging %d tokens %.3f s, %.0f tokens/s; %.3f CPU s, %.0f tokens per CPU second\n", result.tokens, result.taggingSeconds, result.tokensPerSecond, result.taggingCPUSeconds, result.tokensPerCPUSecond).utf8))
            }
        }
    }
}
