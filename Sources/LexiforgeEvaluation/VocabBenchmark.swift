import Foundation
import LexiforgeBuild
import LexiforgeReader

/// Random predicates over a store's levels, the categories, present fields and prefixes: for
/// `make bench` and the property tests.
public struct VocabPredicateGenerator: Sendable {
    public var levels: [String]
    public var prefixes: [String]

    public init(levels: [String], prefixes: [String]) {
        self.levels = levels
        self.prefixes = prefixes
    }

    /// A test on one property.
    public func atom<G: RandomNumberGenerator>(using g: inout G) -> VocabPredicate {
        switch Int.random(in: 0..<(prefixes.isEmpty ? 4 : 5), using: &g) {
        case 0: return .levels(Set(levels.filter { _ in Bool.random(using: &g) }).union([levels.randomElement(using: &g)!]))
        case 1: return .categories(Set(VocabCategory.allCases.filter { _ in Int.random(in: 0..<3, using: &g) == 0 }).union([VocabCategory.allCases.randomElement(using: &g)!]))
        case 2: return .has([.reading, .meaning, .expression].randomElement(using: &g)!)
        case 3: return .categories(Set(VocabCategory.allCases.filter { _ in Int.random(in: 0..<4, using: &g) != 0 }))
        default: return .prefix(prefixes.randomElement(using: &g)!)
        }
    }

    /// A predicate up to `depth` operators deep.
    public func next<G: RandomNumberGenerator>(using g: inout G, depth: Int = 2) -> VocabPredicate {
        guard depth > 0, Int.random(in: 0..<3, using: &g) != 0 else { return atom(using: &g) }
        let operands = (0..<Int.random(in: 2...3, using: &g)).map { _ in next(using: &g, depth: depth - 1) }
        switch Int.random(in: 0..<5, using: &g) {
        case 0, 1: return .and(operands)
        case 2, 3: return .or(operands)
        default: return .not(operands[0])
        }
    }
}

/// Latency of ``VocabularyStore/count(matching:)`` and ``VocabularyStore/random(matching:using:)``
/// for `make bench`, first (uncached) queries included, and the statements the seven tests need.
///
/// In: a vocabulary store. For each of `predicates` seeded random predicates (levels, categories,
/// present fields, prefixes of the store's own words, AND/OR/NOT), the cache is emptied, then
/// `perPredicate` counts are timed (the first one uncached), the cache emptied again, and
/// `perPredicate` random picks timed (the first one uncached), in wall-clock time and in the
/// thread's CPU time (which a machine shared with other work does not inflate). Every pick is checked to satisfy
/// the predicate; on stores of at most 200,000 entries the first 50 counts are checked against a
/// brute-force evaluation of every entry.
public enum VocabBenchmark {
    public struct Latency: Sendable {
        public var queries: Int
        public var p50: Double, p99: Double, max: Double
        /// Over the first (uncached) query of each predicate only.
        public var firstP50: Double, firstP99: Double, firstMax: Double
    }

    public struct Result: Sendable {
        public var entries: Int
        public var predicates: Int
        /// Wall-clock time.
        public var count: Latency
        public var random: Latency
        /// Thread CPU time (the same queries).
        public var countCPU: Latency
        public var randomCPU: Latency
        /// Matching entries per predicate: median and how many matched none.
        public var medianMatches: Int
        public var emptyPredicates: Int
        /// The seven tests under one setting: distinct canonical predicates and SQL statements.
        public var sevenTestSettings: String
        public var sevenTestForms: Int
        public var sevenTestStatements: Int
        /// CPU time of canonicalizing and compiling each predicate (no SQLite).
        public var rewriting: Latency
        /// The slowest first count: its CPU time, canonical form and SQL size.
        public var slowestFirstCount: String
    }

    public static func run(store path: String, predicates: Int = 500, perPredicate: Int = 20, seed: UInt64 = 18) throws -> Result {
        let store = try VocabularyStore(path: path)
        var g = SplitMix64(seed: seed)
        var prefixes: [String] = []
        for _ in 0..<200 {
            guard let e = try store.random(matching: .all, using: &g) else { break }
            prefixes.append(String(String.UnicodeScalarView(e.expression.unicodeScalars.prefix(Int.random(in: 1...2, using: &g)))))
        }
        let generator = VocabPredicateGenerator(levels: store.levels, prefixes: prefixes)
        let list = (0..<predicates).map { _ in generator.next(using: &g, depth: 3) }
        let everything = store.entryCount <= 200_000 ? try store.allEntries() : nil
        // Warm-up: the file's pages and SQLite's statement preparation for the common shapes.
        for p in list.prefix(20) { _ = try store.count(matching: p) }
        var countTimes: [Double] = [], randomTimes: [Double] = [], countFirst: [Double] = [], randomFirst: [Double] = []
        var countCPU: [Double] = [], randomCPU: [Double] = [], countFirstCPU: [Double] = [], randomFirstCPU: [Double] = []
        var matchCounts: [Int] = []
        var slowest: (cpu: Double, predicate: VocabPredicate) = (0, .all)
        func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
        // The thread's CPU time: what a query costs when the machine is shared (no preemption).
        func cpu() -> UInt64 {
            var t = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
            return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
        }
        for (i, p) in list.enumerated() {
            store.clearCache()
            var n = 0
            for k in 0..<perPredicate {
                let start = now(), startCPU = cpu()
                n = try store.count(matching: p)
                let c = Double(cpu() - startCPU) / 1e3, t = Double(now() - start) / 1e3
                countTimes.append(t)
                countCPU.append(c)
                if k == 0 {
                    countFirst.append(t)
                    countFirstCPU.append(c)
                    if c > slowest.cpu { slowest = (c, p) }
                }
            }
            matchCounts.append(n)
            if let everything, i < 50 {
                let brute = everything.filter { $0.matches(p) }.count
                guard brute == n else { throw PipelineError("count(matching: \(p)) is \(n), but \(brute) entries satisfy it") }
            }
            store.clearCache()
            for k in 0..<perPredicate {
                let start = now(), startCPU = cpu()
                let e = try store.random(matching: p, using: &g)
                let c = Double(cpu() - startCPU) / 1e3, t = Double(now() - start) / 1e3
                randomTimes.append(t)
                randomCPU.append(c)
                if k == 0 { randomFirst.append(t); randomFirstCPU.append(c) }
                guard (e == nil) == (n == 0), e.map({ $0.matches(p) }) ?? true else {
                    throw PipelineError("random(matching: \(p)) returned \(e.map(\.description) ?? "nothing") of \(n) matching entries")
                }
            }
        }
        // Where a first query's time goes: rewriting (canonical form, SQL text) without SQLite.
        store.clearCache()
        var rewriting: [Double] = []
        for p in list {
            let start = cpu()
            _ = store.compiled(p)
            rewriting.append(Double(cpu() - start) / 1e3)
        }
        // The seven tests with N3 and N2 (or the first two levels) selected and every category.
        let selected = store.levels.contains("N3") && store.levels.contains("N2") ? ["N3", "N2"] : Array(store.levels.prefix(2))
        let settings = VocabTest.settings(levels: selected, categories: VocabCategory.allCases)
        let forms = Set(VocabTest.allCases.map { store.canonical($0.predicate(settings: settings)) })
        let statements = Set(VocabTest.allCases.flatMap { store.compiled($0.predicate(settings: settings)).statements })
        for test in VocabTest.allCases { _ = try store.question(test, settings: settings, using: &g) }
        return Result(
            entries: store.entryCount, predicates: predicates, count: latency(countTimes, countFirst), random: latency(randomTimes, randomFirst),
            countCPU: latency(countCPU, countFirstCPU), randomCPU: latency(randomCPU, randomFirstCPU),
            medianMatches: matchCounts.sorted()[matchCounts.count / 2], emptyPredicates: matchCounts.filter { $0 == 0 }.count,
            sevenTestSettings: "levels \(selected.joined(separator: ",")), every category", sevenTestForms: forms.count,
            sevenTestStatements: statements.count,
            rewriting: latency(rewriting, rewriting),
            slowestFirstCount: String(format: "%.1f µs CPU: ", slowest.cpu) + "\(store.canonical(slowest.predicate)) (\(store.compiled(slowest.predicate).statements.map(\.utf8.count).reduce(0, +)) bytes of SQL)")
    }

    static func latency(_ all: [Double], _ first: [Double]) -> Latency {
        func percentile(_ values: [Double], _ p: Double) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
        return Latency(queries: all.count, p50: percentile(all, 0.5), p99: percentile(all, 0.99), max: all.max() ?? 0,
                       firstP50: percentile(first, 0.5), firstP99: percentile(first, 0.99), firstMax: first.max() ?? 0)
    }
}
