import ArgumentParser
import LexiforgeBuild
import LexiforgeEvaluation

/// Hidden: the query-latency benchmark of `make bench` (Tests/Bench/bench.sh).
struct BenchQueries: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-queries",
        abstract: "Time next-word and completion queries on a store (benchmark).",
        shouldDisplay: false)
    @Argument(help: "The store.") var store: String
    @Argument(help: "Held-out text the queries come from.") var text: [String] = []
    @Option(help: "Queries of each kind.") var queries = 10_000
    @Option(help: "Predictions per query.") var suggestions = 3

    func run() throws {
        try runReportingErrors {
            for r in try QueryBenchmark.run(store: store, heldOut: text, queries: queries, suggestions: suggestions) {
                print("\(r.kind): \(r.queries) queries, p50 \(String(format: "%.1f", r.p50)) µs, p99 \(String(format: "%.1f", r.p99)) µs, max \(String(format: "%.1f", r.max)) µs, \(r.emptyAnswers) empty")
            }
        }
    }
}
