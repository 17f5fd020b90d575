import Foundation
import LexiforgeBuild
import LexiforgeCorpus
import LexiforgeReader

/// What `lexiforge eval search` measured.
public struct SearchEvaluation: Sendable {
    public struct QueryResult: Sendable {
        public var query: String
        public var lemmas: [String]
        public var expected: [String]
        public var missing: [String]
        public var forbiddenFound: [String]
    }
    public var results: [QueryResult] = []
    /// Seconds per query (every pass), sorted: wall clock, and CPU time of this thread (what
    /// one core spends, whatever else shares the machine).
    public var latencies: [Double] = []
    public var cpuLatencies: [Double] = []

    public var expectedCount: Int { results.reduce(0) { $0 + $1.expected.count } }
    public var missed: Int { results.reduce(0) { $0 + $1.missing.count } }
    public var wronglyFound: Int { results.reduce(0) { $0 + $1.forbiddenFound.count } }
    public var recall: Double { expectedCount > 0 ? Double(expectedCount - missed) / Double(expectedCount) : 1 }

    public func percentile(_ p: Double, of values: [Double]? = nil) -> Double {
        let values = values ?? latencies
        guard !values.isEmpty else { return 0 }
        return values[min(values.count - 1, Int((p * Double(values.count)).rounded(.up)) - 1)]
    }

    public func render() -> String {
        var lines: [String] = []
        for r in results where !r.expected.isEmpty || !r.forbiddenFound.isEmpty {
            let status = r.missing.isEmpty && r.forbiddenFound.isEmpty ? "ok" : "FAIL"
            var line = "\(status)\t\(r.query)\tlemmas: \(r.lemmas.joined(separator: " "))\tfound \(r.expected.count - r.missing.count)/\(r.expected.count)"
            if !r.missing.isEmpty { line += "; missing \(r.missing.joined(separator: " "))" }
            if !r.forbiddenFound.isEmpty { line += "; wrongly found \(r.forbiddenFound.joined(separator: " "))" }
            lines.append(line)
        }
        lines.append(String(format: "recall of expected documents: %.2f%% (%d/%d); documents wrongly found: %d",
                            100 * recall, expectedCount - missed, expectedCount, wronglyFound))
        lines.append(String(format: "query latency over %d queries: p50 %.3f ms, p99 %.3f ms, max %.3f ms",
                            latencies.count, 1000 * percentile(0.5), 1000 * percentile(0.99), 1000 * (latencies.last ?? 0)))
        lines.append(String(format: "query CPU time (one core): p50 %.3f ms, p99 %.3f ms, max %.3f ms",
                            1000 * percentile(0.5, of: cpuLatencies), 1000 * percentile(0.99, of: cpuLatencies), 1000 * (cpuLatencies.last ?? 0)))
        return lines.joined(separator: "\n")
    }
}

/// `lexiforge eval search`.
public enum SearchEval {
    public static func run(store: String, queries: String, passes: Int) throws -> SearchEvaluation {
        let search = try LemmaSearch(path: store)
        if let problem = NgramBuild.checkInput(queries) { throw PipelineError(problem) }
        var lines: [(query: String, expected: [String], forbidden: [String])] = []
        var errors: [String] = []
        var number = 0
        _ = try CorpusReader.readLines(of: queries, options: CorpusReadOptions(stripGutenberg: false)) { bytes in
            number += 1
            let line = String(decoding: bytes, as: UTF8.self)
            guard !line.hasPrefix("#"), !line.allSatisfy(\.isWhitespace) else { return }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count <= 3, !columns[0].isEmpty else {
                errors.append("\(queries):\(number): expected QUERY[<TAB>EXPECTED NAMES[<TAB>FORBIDDEN NAMES]]")
                return
            }
            func names(_ k: Int) -> [String] { k < columns.count ? columns[k].split(separator: " ").map(String.init) : [] }
            lines.append((columns[0], names(1), names(2)))
        }
        if !errors.isEmpty { throw PipelineError(errors) }
        var evaluation = SearchEvaluation()
        _ = try search.search("warm up", limit: 1)
        for line in lines {
            var hits: [SearchHit] = []
            for _ in 0..<passes {
                let started = DispatchTime.now().uptimeNanoseconds
                let startedCPU = threadCPUSeconds()
                hits = try search.search(line.query, limit: 10)
                evaluation.cpuLatencies.append(threadCPUSeconds() - startedCPU)
                evaluation.latencies.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
            }
            var found = Set(hits.map(\.name))
            if !line.expected.isEmpty || !line.forbidden.isEmpty {
                found = Set(try search.search(line.query, limit: Int(Int32.max)).map(\.name))
            }
            evaluation.results.append(.init(query: line.query, lemmas: try search.lemmas(of: line.query), expected: line.expected,
                                            missing: line.expected.filter { !found.contains($0) },
                                            forbiddenFound: line.forbidden.filter { found.contains($0) }))
        }
        evaluation.latencies.sort()
        evaluation.cpuLatencies.sort()
        return evaluation
    }
}
