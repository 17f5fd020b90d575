import Foundation
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeSwipe

/// `lexiforge swipe features`: adds one layout's per-word swipe features to a store.
///
/// In: a store with a lexicon (or a vocabulary) and a layout. Out: the same store, replaced
/// atomically, with `swipeLayout`/`swipeFeature` rows for that layout.
public enum SwipeFeatureBuild {
    public static func run(storePath: String, layout: SwipeLayout) throws -> SwipeFeatureWriteReport {
        try StoreWriter.addSwipeFeatures(storePath: storePath, layout: layout) { words in
            words.map { SwipeFeatures(word: $0, layout: layout) }
        }
    }

    public static func render(_ r: SwipeFeatureWriteReport) -> String {
        var s = String(format: "swipe features %@: %d words, %d without a key path; store %d → %d bytes (+%.2f MB); %.2f s (features %.2f s, copying, writing and repacking the store %.2f s)",
                       r.layout, r.words, r.skipped, r.bytesBefore, r.bytesAfter,
                       Double(r.bytesAfter - r.bytesBefore) / 1_048_576, r.seconds, r.computeSeconds, r.seconds - r.computeSeconds)
        if !r.skippedExamples.isEmpty { s += "\n  without a key path, e.g. " + r.skippedExamples.joined(separator: ", ") }
        return s
    }
}

/// `lexiforge swipe generate`: synthetic swipes of words drawn by frequency (or given words).
public enum SwipeGenerate {
    public struct Config: Sendable {
        public var storePath: String?
        public var layout: SwipeLayout
        public var words: [String] = []
        public var count = 1000
        public var seed: UInt64 = 1
        public init(storePath: String?, layout: SwipeLayout) { self.storePath = storePath; self.layout = layout }
    }

    /// JSON lines and the generator's statistics.
    public static func run(_ config: Config) throws -> (lines: [String], statistics: SwipeStatistics, skipped: [String]) {
        var rng = SplitMix64(seed: config.seed ^ 0x5157_4950_4557_4F52)
        var words = config.words
        if words.isEmpty {
            guard let path = config.storePath else { throw SwipeStoreError.noFeatures("(no store)", config.layout.name) }
            let store = try TrainedStore(path: path)
            let lexicon = try store.lexicon()
            // Draw by frequency: p ∝ 1.15^(f − 255), words with a key path and not marked not_a_word.
            var pool: [(String, Double)] = []
            for e in lexicon.entries where !e.attributes.contains(.notAWord) && e.frequency > 0 {
                guard config.layout.keyPath(of: e.word) != nil else { continue }
                pool.append((e.word, LexiconEntry.probability(ofFrequency: e.frequency)))
            }
            var cumulative: [Double] = []
            var sum = 0.0
            for (_, p) in pool { sum += p; cumulative.append(sum) }
            for _ in 0 ..< config.count {
                let u = Double.random(in: 0 ..< sum, using: &rng)
                var lo = 0, hi = cumulative.count - 1
                while lo < hi { let mid = (lo + hi) / 2; if cumulative[mid] <= u { lo = mid + 1 } else { hi = mid } }
                words.append(pool[lo].0)
            }
        }
        var generator = SwipeGenerator(layout: config.layout, seed: config.seed)
        var lines: [String] = [], skipped: [String] = []
        var swipes: [(keys: [UInt8], points: [SwipePoint], times: [Double])] = []
        for word in words {
            guard let keys = config.layout.keyPath(of: word) else { skipped.append(word); continue }
            let s = generator.swipe(keys: keys)
            swipes.append((keys, s.points, s.times))
            lines.append(SwipeTraceWriter.line(word: word, layout: config.layout, points: s.points, times: s.times))
        }
        return (lines, SwipeStatistics(swipes: swipes, layout: config.layout), skipped)
    }
}

/// `lexiforge eval swipe`: accuracy, filter recall and latency of the reference decoder on traces.
public enum SwipeEval {
    public struct Report: Sendable {
        public var swipes = 0, top1 = 0, top4 = 0
        /// Swipes whose word the dictionary lacks (counted as misses).
        public var notInDictionary = 0
        public var filterKept = [0, 0, 0, 0], allFiltersKept = 0, filterTested = 0
        public var latenciesMs: [Double] = []
        public var candidatesAfterFilters: [Int] = []
        public var errors: [SwipeTraceError] = []
        public var warnings: [String] = []
        public var misses: [(word: String, got: [String])] = []
        public var loadSeconds = 0.0

        public func render(listMisses: Int = 10) -> String {
            func pct(_ a: Int, _ b: Int) -> String { b == 0 ? "-" : String(format: "%.2f%%", 100 * Double(a) / Double(b)) }
            let l = latenciesMs.sorted()
            func q(_ p: Double) -> Double { l.isEmpty ? .nan : l[min(l.count - 1, Int((p * Double(l.count)).rounded(.up)) - 1 < 0 ? 0 : min(l.count - 1, Int((p * Double(l.count)).rounded(.up)) - 1))] }
            let c = candidatesAfterFilters.sorted()
            var lines = [
                "swipes \(swipes) (\(errors.count) unreadable lines, \(notInDictionary) words not in the dictionary)",
                "top-1 \(pct(top1, swipes))  top-4 \(pct(top4, swipes))",
                "filters kept the word: start point \(pct(filterKept[0], filterTested)), start direction \(pct(filterKept[1], filterTested)), end point \(pct(filterKept[2], filterTested)), length \(pct(filterKept[3], filterTested)); all four \(pct(allFiltersKept, filterTested))",
                String(format: "latency ms: p50 %.2f  p95 %.2f  p99 %.2f  max %.2f", q(0.5), q(0.95), q(0.99), l.last ?? .nan),
                "words after the filters: median \(c.isEmpty ? 0 : c[c.count / 2]), max \(c.last ?? 0)",
                String(format: "dictionary load %.2f s", loadSeconds),
            ]
            for m in misses.prefix(listMisses) { lines.append("  miss: \(m.word) → \(m.got.joined(separator: ", "))") }
            return lines.joined(separator: "\n")
        }
    }

    public static func run(storePath: String, tracesPath: String, layout: String?, options: SwipeDecoderOptions) throws -> Report {
        let started = Date()
        let store = try TrainedStore(path: storePath)
        let layoutName = try layout ?? store.swipeLayouts().first ?? "qwerty"
        let decoder = SwipeDecoder(dictionary: try store.swipeDictionary(layout: layoutName), options: options)
        var report = Report()
        report.loadSeconds = Date().timeIntervalSince(started)
        let (traces, errors) = try SwipeTraceReader.read(path: tracesPath, layout: decoder.dictionary.layout)
        report.errors = errors
        var index: [String: Int] = [:]
        for (i, w) in decoder.dictionary.words.enumerated() where index[w] == nil { index[w] = i }
        for trace in traces {
            report.warnings += trace.warnings
            guard let word = trace.word else { continue }
            report.swipes += 1
            let t0 = DispatchTime.now().uptimeNanoseconds
            let result = decoder.decode(trace.points)
            report.latenciesMs.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            report.candidatesAfterFilters.append(result.afterFilter[3])
            let got = result.candidates.map(\.word)
            let key = word.lowercased()
            if got.first?.lowercased() == key { report.top1 += 1 }
            if got.contains(where: { $0.lowercased() == key }) { report.top4 += 1 } else { report.misses.append((word, got)) }
            guard let i = index[word] else { report.notInDictionary += 1; continue }
            if let prepared = decoder.prepare(trace.points) {
                let verdicts = decoder.filterVerdicts(prepared, entry: i)
                report.filterTested += 1
                for (k, v) in verdicts.enumerated() where v { report.filterKept[k] += 1 }
                if !verdicts.contains(false) { report.allFiltersKept += 1 }
            }
        }
        return report
    }
}

/// `lexiforge swipe decode`: the top candidates of every swipe in a trace file.
public enum SwipeDecode {
    public static func run(storePath: String, tracePath: String, layout: String?, options: SwipeDecoderOptions) throws -> (lines: [String], errors: [SwipeTraceError], warnings: [String]) {
        let store = try TrainedStore(path: storePath)
        let layoutName = try layout ?? store.swipeLayouts().first ?? "qwerty"
        let decoder = SwipeDecoder(dictionary: try store.swipeDictionary(layout: layoutName), options: options)
        let (traces, errors) = try SwipeTraceReader.read(path: tracePath, layout: decoder.dictionary.layout)
        var lines: [String] = [], warnings: [String] = []
        for trace in traces {
            warnings += trace.warnings
            let result = decoder.decode(trace.points)
            let words = result.candidates.map { String(format: "%@ %.2f", $0.word, $0.score) }
            let expected = trace.word.map { " (\($0))" } ?? ""
            lines.append("line \(trace.line)\(expected): " + (words.isEmpty ? "no candidates" : words.joined(separator: ", ")))
        }
        return (lines, errors, warnings)
    }
}
