import ArgumentParser
import Foundation
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader

/// `lexiforge index`: build a lemma search index.
struct Index: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build a lemma search index (SQLite FTS5 over each word's lemma) of documents.",
        discussion: """
            Documents: every file under a folder (its path below the folder names it), each line \
            of a .jsonl file ({"id": ..., "text": ...}), or a single text file. Each word is \
            lemmatized (the lemmatizer learned from --lemma-training and WordNet; with --tagger-train \
            under a perceptron UPOS tagger's tags, recommended) and indexed with the original text for \
            snippets. Empty documents are skipped with a warning (an error with --strict).
            Example:
              lexiforge index ../shared/data/sentiment/polarity-train --lemma-training en_ewt-ud-train.conllu.gz -o Artifacts/reviews.sqlite
            """)

    @Argument(help: "Folders, .jsonl files or text files.")
    var documents: [String]

    @Option(name: .shortAndLong, help: "The store to write.")
    var output: String

    @OptionGroup var lemmaTraining: LemmaTrainingFlags

    @Option(help: "Train a perceptron UPOS tagger on this CoNLL-U file (repeatable) and lemmatize under its tags.")
    var taggerTrain: [String] = []

    @Option(help: "WordNet dictionary folder (Debian wordnet-base).")
    var wordnet = "/usr/share/wordnet"

    @OptionGroup var build: BuildOptions

    func run() throws {
        try runReportingErrors {
            let progress = StageProgress(quiet: build.quiet)
            let config = SearchIndexConfig(inputs: documents, output: output,
                                           lemmatizer: LemmatizerSource(training: lemmaTraining.files, wordNet: wordnet),
                                           tagger: taggerTrain.isEmpty ? nil : .perceptron(training: taggerTrain),
                                           strict: build.strict)
            let report = try SearchBuild.index(config, progress: progress)
            progress.say(String(format: "%@: %d bytes; %d documents, %d tokens, %d word forms; lemmatizer training %.2f CPU s, indexing %.2f s (%.2f CPU s)",
                                output, report.storeBytes, report.documents, report.tokens, report.forms,
                                report.trainingCPUSeconds, report.indexingSeconds, report.indexingCPUSeconds))
        }
    }
}

/// `lexiforge search`: query a lemma search index.
struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search a lemma index: every inflected form of the query's words, ranked by BM25.",
        discussion: """
            The query is lemmatized as the documents were, so "sing" finds "sang", "sung" and \
            "singing". FTS5 syntax in the query is searched as text. Prints rank, score, document \
            name and a snippet with the matched forms in [brackets], tab-separated.
            Example:
              lexiforge search Artifacts/reviews.sqlite "sing"
            """)

    @Argument(help: "The index store (built by `lexiforge index`).")
    var store: String

    @Argument(help: "The query.")
    var query: String

    @Option(help: "How many documents to show.")
    var limit = 10

    @Flag(help: "Documents with any of the query's lemmas, not all.")
    var any = false

    func run() throws {
        try runReportingErrors {
            let search = try LemmaSearch(path: store)
            let lemmas = try search.lemmas(of: query)
            guard !lemmas.isEmpty else { throw PipelineError("the query \"\(query)\" has no words to search for") }
            FileHandle.standardError.write(Data("lemmas: \(lemmas.joined(separator: " "))\n".utf8))
            for (k, hit) in try search.search(query, limit: limit, matchAll: !any).enumerated() {
                print(String(format: "%d\t%.3f\t%@\t%@", k + 1, hit.score, hit.name, hit.snippet))
            }
        }
    }
}

/// `lexiforge eval search`: recall of a query set, and query latency.
struct EvalSearch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Recall of inflected forms on a query set, and query latency percentiles.",
        discussion: """
            Query file: one query a line, TAB, the names of the documents it must find \
            (space-separated), optionally TAB and the names it must not find; `#` starts a comment. \
            A line with the query alone only counts for latency. Every query runs --passes times; \
            latency is per query, wall clock.
            Example:
              lexiforge eval search Artifacts/index.sqlite Tests/LexiforgeTests/Fixtures/search/queries.tsv
            """)

    @Argument(help: "The index store.")
    var store: String

    @Argument(help: "The query file.")
    var queries: String

    @Option(help: "Times each query is run for the latency figures.")
    var passes = 1

    func run() throws {
        try runReportingErrors {
            let evaluation = try SearchEval.run(store: store, queries: queries, passes: max(passes, 1))
            print(evaluation.render())
            if evaluation.missed > 0 || evaluation.wronglyFound > 0 { throw ExitCode.failure }
        }
    }
}
