import ArgumentParser
import Foundation
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeText

struct Count: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Count n-grams into a count shard, to merge later (several machines, Spark).",
        discussion: """
            A shard is a counts-only store with meta.count_shard (docs/scale.md). With --model the \
            corpora and text options are the model file's, and `lexiforge merge SHARD... --model \
            MODEL` gives exactly the store `lexiforge train MODEL` does. --part K/N counts every N-th \
            paragraph-aligned batch starting at K (every part reads every file): the N parts add up \
            to the whole corpus.
            Examples:
              lexiforge count --model Corpora/dorian-gray.model.json --part 0/2 -o part0.sqlite
              lexiforge count --model Corpora/dorian-gray.model.json --part 1/2 -o part1.sqlite
              lexiforge merge part0.sqlite part1.sqlite --model Corpora/dorian-gray.model.json -o dorian-gray.sqlite
            """)

    @Argument(help: "Corpus files (plain or .gz); or give --model.")
    var corpora: [String] = []

    @Option(help: "A model file (JSON): count its corpora with its options.")
    var model: String?

    @Option(help: ArgumentHelp("Count only part K of N (0 <= K < N).", valueName: "K/N"))
    var part: String?

    @Option(name: .shortAndLong, help: "The shard to write.")
    var output: String

    @OptionGroup(title: "Counting (without --model)") var counting: CountingFlags

    @OptionGroup var build: BuildOptions

    @OptionGroup var threading: ThreadOptions

    /// `--part K/N` as numbers.
    func parsedPart() throws -> (index: Int, of: Int)? {
        guard let part else { return nil }
        let fields = part.split(separator: "/").map { Int($0) }
        guard fields.count == 2, let k = fields[0], let n = fields[1], n >= 1, (0..<n).contains(k) else {
            throw ValidationError("--part '\(part)' must be K/N with 0 <= K < N, e.g. 0/4")
        }
        return (k, n)
    }

    func validate() throws {
        _ = try parsedPart()
        if model == nil && corpora.isEmpty { throw ValidationError("name corpus files or a model file (--model)") }
        if model != nil && !corpora.isEmpty { throw ValidationError("give corpus files or --model, not both") }
    }

    func run() throws {
        try runReportingErrors {
            let progress = StageProgress(quiet: build.quiet)
            let spec: ModelSpec
            let inputs: ModelInputs
            var source = SpecDiagnostic.Style.commandLine
            if let model {
                let (loaded, warnings) = try ModelSpec.load(path: model)
                for warning in warnings { progress.warn(warning) }
                guard loaded.kind == .ngrams else { throw ValidationError("\(model): a \(loaded.kind) model has no n-grams to count") }
                spec = loaded
                inputs = try ModelInputs(resolving: spec, modelPath: model)
                source = .modelFile(model)
            } else {
                spec = counting.spec(corpora: corpora)
                inputs = ModelInputs(corpora: corpora)
            }
            let report = try CountShard.write(spec, inputs: inputs, part: try parsedPart(), output: output,
                                              threads: threading.threads, memory: threading.memoryBytes,
                                              temporaryFolder: threading.temp, strict: build.strict, progress: progress,
                                              source: source)
            printStatistics(report, output: output, progress: progress)
            printMeasure(progress, build.measure)
        }
    }
}
