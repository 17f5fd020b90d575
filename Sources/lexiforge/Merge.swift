import ArgumentParser
import LexiforgeBuild
import LexiforgeEvaluation

struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Merge two stores counted from shards of one corpus into the whole-corpus store.",
        discussion: """
            Counts are summed and probabilities estimated again, so the result equals counting the \
            whole corpus in one run (`lexiforge diff` shows only provenance differences). Both \
            stores need the same order and text options; pruned stores cannot be merged exactly.
            Example:
              lexiforge merge part1.sqlite part2.sqlite -o whole.sqlite
            """)
    @Argument(help: "The first store.") var first: String
    @Argument(help: "The second store.") var second: String
    @Option(name: .shortAndLong, help: "The store to write.") var output: String
    @OptionGroup var build: BuildOptions

    func run() throws {
        try runReportingErrors {
            let progress = StageProgress(quiet: build.quiet)
            let report = try LexiforgeBuild.Merge.run(first, second, output: output, progress: progress)
            printStatistics(report, output: output, progress: progress)
            printMeasure(progress, build.measure)
        }
    }
}
