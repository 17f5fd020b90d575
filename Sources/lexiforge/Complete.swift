import ArgumentParser
import Foundation
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader

struct Complete: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the most frequent words of a store's lexicon that start with a prefix.",
        discussion: """
            Case and accents are ignored ("uber" finds "über"); words are printed as the list spells \
            them, one per line with their frequency (0-255). not_a_word entries are never offered, \
            possibly offensive ones only with --allow-offensive.
            Example:
              lexiforge complete Artifacts/en_US-wordlist.sqlite th
            """)

    @Argument(help: "The store to query (built from a wordlist).")
    var store: String

    @Argument(help: "The prefix typed so far.")
    var prefix: String

    @Option(name: .shortAndLong, help: "How many completions.")
    var count = 3

    @Flag(help: "Offer words marked possibly_offensive.")
    var allowOffensive = false

    func validate() throws {
        guard count >= 1 else { throw ValidationError("--count must be at least 1") }
    }

    func run() throws {
        try runReportingErrors {
            let trained = try TrainedStore(path: store)
            for c in try trained.completions(of: prefix, limit: count, allowOffensive: allowOffensive) {
                print("\(c.word)\t\(c.frequency)")
            }
        }
    }
}

/// `lexiforge bench-complete STORE`: completion latency percentiles (for `make bench`; hidden).
struct BenchComplete: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-complete", abstract: "Measure prefix-completion latency.", shouldDisplay: false)

    @Argument var store: String
    @Option var queries = 20_000

    func run() throws {
        try runReportingErrors {
            let r = try CompletionBenchmark.run(store: store, queries: queries)
            print(String(format: "queries %d p50 %.1f us p90 %.1f us p99 %.1f us max %.1f us total %.3f s",
                         r.queries, r.p50 * 1e6, r.p90 * 1e6, r.p99 * 1e6, r.max * 1e6, r.total))
        }
    }
}
