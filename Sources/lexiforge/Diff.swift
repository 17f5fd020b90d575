import ArgumentParser
import LexiforgeBuild
import LexiforgeEvaluation

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what differs between two stores: words, n-grams, counts, probabilities, provenance.",
        discussion: """
            Exit status 0 when the data is identical (provenance may differ; it is listed under \
            `provenance:`), 1 when it differs.
            Example:
              lexiforge diff whole.sqlite merged.sqlite
            """)
    @Argument(help: "Store A.") var first: String
    @Argument(help: "Store B.") var second: String
    @Option(help: "Differences shown per table.") var limit = 10

    func run() throws {
        var result: StoreDiff.Result?
        try runReportingErrors { result = try StoreDiff.run(first, second, limit: limit) }
        guard let result else { return }
        if !result.provenance.isEmpty {
            print("provenance:")
            for line in result.provenance { print("  \(line)") }
        }
        if result.data.isEmpty {
            print("data: identical")
        } else {
            print("data:")
            for line in result.data { print("  \(line)") }
            throw ExitCode.failure
        }
    }
}
