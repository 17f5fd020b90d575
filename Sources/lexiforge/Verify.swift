import ArgumentParser
import Foundation
import LexiforgeReader

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a store: SQLite's integrity check and the schema's invariants.",
        discussion: """
            Prints each problem on its own line (stdout) and exits 1 when there is any; otherwise \
            one summary line and exit 0. Checks the application id and schema version, meta \
            "order" against the n-gram tables present, word ids within the vocabulary, counts \
            ≥ 0, and swipe feature keys within their layout.
            Example:
              lexiforge verify Artifacts/dorian-gray-ch1.sqlite
            """)

    @Argument(help: "The store to check.")
    var store: String

    func run() throws {
        let report = StoreVerifier.verify(path: store)
        if report.problems.isEmpty {
            print(report.summary)
            return
        }
        for problem in report.problems { print(problem) }
        throw ExitCode.failure
    }
}
