import ArgumentParser
import Foundation
import LexiforgeBuild
import LexiforgeEvaluation

/// The command tree. Each subcommand parses, validates, builds a config, calls one library entry
/// point and maps the outcome to an exit code: 0 success, 64 bad usage (ArgumentParser's
/// validation), 1 anything else, with one line per problem on stderr.
@main
struct Lexiforge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lexiforge",
        abstract: "Turn plain-text corpora and keyboard wordlists into compact SQLite \"Trained\" stores.",
        discussion: """
            Stores are plain SQLite files: inspect them with `lexiforge inspect` or `sqlite3`.
            Example:
              lexiforge ngrams Corpora/data/corpora/dorian-gray-ch1.txt -o Artifacts/ch1.sqlite
              lexiforge suggest Artifacts/ch1.sqlite "I think"
            """,
        version: toolchainVersion,
        subcommands: [
            Ngrams.self, Train.self, Inspect.self, Suggest.self, Predict.self, Tokenize.self, Hmm.self,
            Tag.self, Wordlist.self, Complete.self, Eval.self, Export.self, Learn.self, Merge.self, Count.self,
            Diff.self, Verify.self, Swipe.self, Vocab.self, Ner.self, Index.self, Search.self, Classify.self, Langid.self, BenchQueries.self, BenchComplete.self,
        ])
}

/// Options every building command shares.
struct BuildOptions: ParsableArguments {
    @Flag(help: "Turn warnings (such as replaced invalid UTF-8) into errors.")
    var strict = false

    @Flag(help: "No progress on stderr (errors are still reported).")
    var quiet = false

    @Flag(help: .hidden)
    var measure = false
}

/// `--threads`: how many threads read, tokenize and count (the store does not depend on it).
struct ThreadOptions: ParsableArguments {
    @Option(help: "Threads that read, tokenize and count corpora (default: all cores); the store is byte-identical for any number.")
    var threads = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("Memory budget for counting and estimation: 256M, 4G, 50% (default: the model's `memory`, else half the machine's memory).",
                               discussion: "Past it, counting writes sorted runs to --temp and merges them, and estimation streams over the sorted n-grams; the store is byte-identical for any budget.",
                               valueName: "size"))
    var memory: String?

    @Option(help: ArgumentHelp("Folder for the temporary files of a build under --memory (default: beside the output); removed when the build ends.",
                               valueName: "dir"))
    var temp: String?

    /// The budget in bytes, nil when not given.
    var memoryBytes: Int? { memory.flatMap(MemoryBudget.parse) }

    func validate() throws {
        guard (1...256).contains(threads) else { throw ValidationError("--threads \(threads) is out of range; use 1 to 256") }
        if let memory {
            guard let bytes = MemoryBudget.parse(memory) else { throw ValidationError("--memory \(memory) is not \(MemoryBudget.expectation)") }
            guard bytes >= MemoryBudget.minimumBytes else {
                throw ValidationError("--memory \(memory) is too small; use at least \(MemoryBudget.minimumBytes >> 20)M")
            }
        }
    }
}

/// Runs `body`, printing a failure as one line per problem on stderr and exiting 1.
func runReportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ExitCode {
        throw error
    } catch {
        FileHandle.standardError.write(Data(("error: " + "\(error)".replacingOccurrences(of: "\n", with: "\nerror: ") + "\n").utf8))
        throw ExitCode.failure
    }
}

func printMeasure(_ progress: StageProgress, _ enabled: Bool) {
    guard enabled else { return }
    var lines = progress.stageTimes.map { String(format: "measure: %-60@ %.3f s", $0.0 as NSString, $0.1) }
    lines.append(String(format: "measure: total %.3f s, peak RSS %.1f MB", progress.elapsed, Double(peakResidentBytes()) / 1_048_576))
    FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
}

func printStatistics(_ report: NgramBuildReport, output: String, progress: StageProgress) {
    let orders = report.ngrams.enumerated().map { "\($0.offset + 1)-grams \($0.element)" }.joined(separator: ", ")
    progress.say("\(output): \(report.storeBytes) bytes; \(report.tokens) tokens, \(report.sentences) sentences; \(orders)")
}
