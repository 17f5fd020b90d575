import Foundation
import LexiforgeBuild
import LexiforgeReader

/// Latency of ``TrainedStore/completions(of:limit:allowOffensive:)`` on a store, for `make bench`.
///
/// In: a store with a lexicon. The queries are prefixes of the lexicon's own completable words: a
/// seeded sample of entries (uniform), each cut to a uniform length of 1 to 8 characters, so short
/// hot prefixes ("t", "th") and long rare ones both occur. Setup (opening, sampling, one warm-up
/// pass) is outside the timed part; each query is timed alone with a monotonic clock; every result
/// is checked to be non-empty and to start with the prefix (folded).
public enum CompletionBenchmark {
    public struct Result: Sendable {
        public var queries: Int
        public var p50: Double
        public var p90: Double
        public var p99: Double
        public var max: Double
        /// Seconds.
        public var total: Double
    }

    public static func run(store path: String, queries count: Int = 20_000, limit: Int = 3, seed: UInt64 = 6) throws -> Result {
        let store = try TrainedStore(path: path)
        let lexicon = try store.lexicon()
        let words = lexicon.entries.filter { !$0.attributes.contains(.notAWord) && !$0.attributes.contains(.possiblyOffensive) && $0.frequency > 0 }.map(\.word)
        guard !words.isEmpty else { throw PipelineError("\(path): no completable words in the lexicon") }
        var generator = SplitMix64(seed: seed)
        func next() -> UInt64 { generator.next() }
        let prefixes: [String] = (0..<count).map { _ in
            let word = words[Int(next() % UInt64(words.count))]
            let length = 1 + Int(next() % UInt64(Swift.min(word.count, 8)))
            return String(word.prefix(length))
        }
        for prefix in prefixes.prefix(2_000) { _ = try store.completions(of: prefix, limit: limit) }
        var times: [Double] = []
        times.reserveCapacity(count)
        var failures: [String] = []
        for prefix in prefixes {
            let start = DispatchTime.now().uptimeNanoseconds
            let result = try store.completions(of: prefix, limit: limit)
            let end = DispatchTime.now().uptimeNanoseconds
            times.append(Double(end - start) / 1e9)
            let key = LexiconKey.fold(prefix)
            if result.isEmpty || !result.allSatisfy({ LexiconKey.fold($0.word).hasPrefix(key) }) {
                failures.append(prefix)
            }
        }
        if !failures.isEmpty {
            throw PipelineError("completion returned no or wrong words for \(failures.count) prefixes, e.g. \(failures.prefix(5))")
        }
        let sorted = times.sorted()
        func percentile(_ p: Double) -> Double { sorted[Swift.min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        return Result(queries: count, p50: percentile(0.50), p90: percentile(0.90), p99: percentile(0.99),
                      max: sorted.last ?? 0, total: times.reduce(0, +))
    }
}
