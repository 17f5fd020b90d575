import ArgumentParser
import LexiforgeBuild
import LexiforgeEvaluation

struct Predict: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Next words or completions with their language-model probabilities.",
        discussion: """
            Text ending in a space (or empty) asks for next words; otherwise its last word is a \
            prefix to complete. Prints word, probability and the order that matched.
            Example:
              lexiforge predict Artifacts/dorian-gray.sqlite "I think "
              lexiforge predict Artifacts/dorian-gray.sqlite "I think th"
              lexiforge predict Artifacts/dorian-gray.sqlite "I think" --word that
            """)
    @Argument(help: "The store.") var store: String
    @Argument(help: "The text typed so far.") var text: String = ""
    @Option(name: .shortAndLong, help: "How many predictions.") var count = 3
    @Option(help: "Print p(WORD | text) instead.") var word: String?

    func validate() throws {
        guard count >= 1 else { throw ValidationError("--count must be at least 1") }
    }

    func run() throws {
        try runReportingErrors {
            if let word {
                print(try PredictQuery.probability(storePath: store, text: text, word: word))
                return
            }
            for p in try PredictQuery.run(storePath: store, text: text, limit: count) {
                print("\(p.word)\t\(p.probability)\t\(p.order)")
            }
        }
    }
}
