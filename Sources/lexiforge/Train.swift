import ArgumentParser
import Foundation
import LexiforgeBuild
import LexiforgeEvaluation

struct Train: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build one shipped model from its model file: every stage, one store.",
        discussion: """
            A model file (Corpora/NAME.model.json) names corpora from Corpora/manifest.tsv and the \
            options to build with; `make corpora` provisions the files, `make train` runs this for \
            every model file.
            Example:
              lexiforge train Corpora/dorian-gray-ch1.model.json -o Artifacts/dorian-gray-ch1.sqlite
            """)

    @Argument(help: "The model file (JSON).")
    var model: String

    @Option(name: .shortAndLong, help: "The store to write.")
    var output: String

    @OptionGroup var build: BuildOptions

    @OptionGroup var threading: ThreadOptions

    func run() throws {
        try runReportingErrors {
            // Fault injection for the atomicity tests: SIGKILL this process at a stage boundary.
            if let stage = ProcessInfo.processInfo.environment["LEXIFORGE_KILL_AT_STAGE"] {
                ModelBuild.stageBoundaryHook = { if $0 == stage { kill(getpid(), SIGKILL) } }
            }
            let progress = StageProgress(quiet: build.quiet)
            switch try LexiforgeBuild.Train.run(modelPath: model, output: output, strict: build.strict, progress: progress,
                                                     threads: threading.threads, memory: threading.memoryBytes,
                                                     temporaryFolder: threading.temp) {
            case .ngrams(let report):
                printStatistics(report, output: output, progress: progress)
            case .vocabulary(let vocabulary):
                progress.say("\(output): \(vocabulary.storeBytes) bytes; \(vocabulary.summary)")
            case .languageID(let langid):
                progress.say("\(output): \(langid.storeBytes) bytes; \(langid.sentences) sentences, \(langid.languages.count) languages")
            }
            printMeasure(progress, build.measure)
        }
    }
}
