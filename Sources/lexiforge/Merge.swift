import ArgumentParser
import LexiforgeBuild
import LexiforgeEvaluation

struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Merge count shards (or two stores counted from parts of one corpus) into the whole-corpus store.",
        discussion: """
            Count shards (`lexiforge count`) are summed and the rest of the build runs once: with \
            --model MODEL the store is byte-identical to `lexiforge train MODEL`; without, the \
            shards' order and text options are kept and --language-model estimates probabilities. \
            Shards must agree on order and text options, and parts (count --part K/N) must be every \
            part of one split; what differs is reported.
            Two ordinary stores (not shards) are merged as before: counts summed, probabilities \
            estimated again with the first store's options.
            Examples:
              lexiforge merge part0.sqlite part1.sqlite --model Corpora/dorian-gray.model.json -o dorian-gray.sqlite
              lexiforge merge a.sqlite b.sqlite c.sqlite --language-model -o abc.sqlite
            """)
    @Argument(help: "Count shards, or two stores.") var inputs: [String]
    @Option(name: .shortAndLong, help: "The store to write.") var output: String
    @Option(help: "A model file (JSON): build the rest of its store from the shards' counts.") var model: String?
    @Flag(help: "Estimate interpolated modified Kneser-Ney probabilities (shards without --model).")
    var languageModel = false
    @Flag(help: "Write a count shard again (the union of the shards' parts; parts may be missing): the inner merges of a merge tree.")
    var shard = false
    @OptionGroup var build: BuildOptions

    @Option(help: ArgumentHelp("Memory budget of a shard merge: 256M, 4G, 50% (default: the model's `memory`, else half the machine's memory). Shards past it are merged on disk and the estimation streams; the store is the same.",
                               valueName: "size"))
    var memory: String?

    @Option(help: ArgumentHelp("Folder for the temporary files of a merge under --memory (default: beside the output).", valueName: "dir"))
    var temp: String?

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("name the count shards (or two stores) to merge") }
        if shard && (model != nil || languageModel) { throw ValidationError("--shard writes counts only; it takes neither --model nor --language-model") }
        if let memory {
            guard let bytes = MemoryBudget.parse(memory) else { throw ValidationError("--memory \(memory) is not \(MemoryBudget.expectation)") }
            guard bytes >= MemoryBudget.minimumBytes else {
                throw ValidationError("--memory \(memory) is too small; use at least \(MemoryBudget.minimumBytes >> 20)M")
            }
        }
    }

    func run() throws {
        try runReportingErrors {
            let progress = StageProgress(quiet: build.quiet)
            let report: NgramBuildReport
            let shards = inputs.filter(CountShard.isShard)
            if !shards.isEmpty && shards.count < inputs.count {
                let others = inputs.filter { !shards.contains($0) }
                throw ValidationError("\(others.joined(separator: ", ")): not count shard(s), but \(shards.joined(separator: ", ")) are; merge shards with shards (`lexiforge count`) or two stores")
            }
            if model != nil || languageModel || shard || !shards.isEmpty {
                report = try CountShard.merge(inputs, modelPath: model, languageModel: languageModel, asShard: shard, output: output,
                                              memory: memory.flatMap(MemoryBudget.parse), temporaryFolder: temp,
                                              strict: build.strict, progress: progress)
            } else {
                guard inputs.count == 2 else {
                    throw ValidationError("stores that are not count shards are merged two at a time; give two stores (or shards from `lexiforge count`)")
                }
                report = try LexiforgeBuild.Merge.run(inputs[0], inputs[1], output: output, progress: progress)
            }
            printStatistics(report, output: output, progress: progress)
            printMeasure(progress, build.measure)
        }
    }
}
