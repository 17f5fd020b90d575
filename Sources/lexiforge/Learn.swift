import ArgumentParser
import LexiforgeBuild
import LexiforgeEvaluation

struct Learn: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add sentences to an existing store and estimate its probabilities again.",
        discussion: """
            Text is tokenized with the store's own options. The store is replaced atomically: a \
            reader that has it open keeps the old file, and an interrupted run leaves it as it was.
            Example:
              lexiforge learn Artifacts/dorian-gray.sqlite notes.txt --sentence "I think so too"
            """)
    @Argument(help: "The store to update.") var store: String
    @Argument(help: "Text files to learn.") var text: [String] = []
    @Option(name: .customLong("sentence"), help: "A sentence to learn (repeatable).") var sentences: [String] = []
    @OptionGroup var build: BuildOptions

    func validate() throws {
        guard !text.isEmpty || !sentences.isEmpty else { throw ValidationError("name text files or give --sentence") }
    }

    func run() throws {
        try runReportingErrors {
            let progress = StageProgress(quiet: build.quiet)
            let report = try LexiforgeBuild.Learn.run(store: store, files: text, sentences: sentences, progress: progress)
            printStatistics(report, output: store, progress: progress)
            printMeasure(progress, build.measure)
        }
    }
}
