import ArgumentParser
import LexiforgeBuild
import LexiforgeEvaluation

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a store's language model in another tool's format.",
        subcommands: [Arpa.self, Presage.self])

    struct Arpa: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the ARPA back-off file (KenLM, SRILM and most decoders read it).",
            discussion: """
                Values are the store's own (log10, 3 decimals), so KenLM scores text exactly as \
                `lexiforge eval perplexity` does. The file is written beside -o and renamed into place.
                Example:
                  lexiforge export arpa Artifacts/dorian-gray.sqlite -o dorian-gray.arpa
                  python3 -c 'import kenlm; print(kenlm.Model("dorian-gray.arpa").perplexity("I think so"))'
                """)
        @Argument(help: "The store to export.") var store: String
        @Option(name: .shortAndLong, help: "The ARPA file to write.") var output: String

        func run() throws {
            try runReportingErrors { try LexiforgeBuild.Export.arpa(store: store, output: output) }
        }
    }

    struct Presage: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write Presage's SQLite n-gram database (_1_gram, _2_gram, _3_gram).",
            discussion: """
                The layout `text2ngram -f sqlite` writes; point the DBFILENAME of a \
                SmoothedNgramPredictor in a presage config at it. N-grams with sentence markers are \
                left out. Orders above 3 are not exported.
                Example:
                  lexiforge export presage Artifacts/dorian-gray.sqlite -o presage.db
                """)
        @Argument(help: "The store to export.") var store: String
        @Option(name: .shortAndLong, help: "The database to write.") var output: String

        func run() throws {
            try runReportingErrors {
                let rows = try LexiforgeBuild.Export.presage(store: store, output: output)
                StageProgress(quiet: false).say("\(output): " + rows.enumerated().map { "_\($0.offset + 1)_gram \($0.element) rows" }.joined(separator: ", "))
            }
        }
    }
}
