import ArgumentParser
import Foundation
import LexiforgeBuild
import LexiforgeEvaluation

struct Tag: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tag text with a store's hidden Markov model (Viterbi).",
        discussion: """
            Reads plain text from the files given, or from standard input, splits sentences and \
            tokens, and prints one sentence per line as word/TAG tokens (the format `lexiforge hmm \
            --tagged` reads back).
            Example:
              echo "I saw her duck." | lexiforge tag Artifacts/en-upos.sqlite
            """)

    @Argument(help: "The store holding the tagger (built by `lexiforge hmm`).")
    var store: String

    @Argument(help: "Text files (plain or .gz); standard input when none.")
    var files: [String] = []

    @Option(help: "Viterbi beam in natural-log units (e.g. 7 ≈ a factor of 1000); default: exact Viterbi.")
    var beam: Double?

    func validate() throws {
        if let beam, !(beam > 0) { throw ValidationError("--beam must be a positive number") }
    }

    func run() throws {
        try runReportingErrors {
            let tagger = try TextTagger(storePath: store, beam: beam) { print($0) }
            if files.isEmpty {
                while let line = readLine(strippingNewline: true) { tagger.feed(line: line) }
                tagger.finish()
            } else {
                try tagger.tag(files: files)
            }
        }
    }
}
