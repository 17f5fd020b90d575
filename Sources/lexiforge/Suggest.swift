import ArgumentParser
import LexiforgeBuild
import LexiforgeEvaluation

struct Suggest: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the most likely next words after the text typed so far.",
        discussion: """
            Prints one suggestion per line: the word, its count after the matched context, and the \
            order of the n-gram that matched (3 = two words of context, 2 = one, 1 = none). With no \
            text, or unknown words only, prints the most likely starting words; after known \
            words and an unknown last word, the most frequent words (as predict does).
            Example:
              lexiforge suggest Artifacts/dorian-gray-ch1.sqlite "said Lord"
            """)

    @Argument(help: "The store to query.")
    var store: String

    @Argument(help: "The words typed so far (may be empty).")
    var text: String = ""

    @Option(name: .shortAndLong, help: "How many suggestions.")
    var count = 3

    func validate() throws {
        guard count >= 1 else { throw ValidationError("--count must be at least 1") }
    }

    func run() throws {
        try runReportingErrors {
            for s in try LexiforgeEvaluation.Suggest.run(storePath: store, text: text, limit: count) {
                print("\(s.word)\t\(s.count)\t\(s.order)")
            }
        }
    }
}
