import ArgumentParser
import LexiforgeBuild
import LexiforgeEvaluation

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe a store: schema version, provenance, rows and bytes per table, top words.",
        discussion: """
            Example:
              lexiforge inspect Artifacts/dorian-gray-ch1.sqlite
            """)

    @Argument(help: "The store to describe.")
    var store: String

    func run() throws {
        try runReportingErrors {
            print(try InspectReport.render(path: store))
        }
    }
}
