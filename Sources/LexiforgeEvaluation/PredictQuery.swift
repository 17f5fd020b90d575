import Foundation
import LexiforgeBuild
import LexiforgeReader
import LexiforgeText

/// `lexiforge predict`: the language-model queries of ``NgramPredictor`` on typed text.
public enum PredictQuery {
    public static func run(storePath: String, text: String, limit: Int) throws -> [Prediction] {
        let predictor = try NgramPredictor(store: TrainedStore(path: storePath))
        let input = predictor.store.typedInput(text)
        return input.prefix.isEmpty
            ? try predictor.nextWords(after: input.context, limit: limit)
            : try predictor.completions(of: input.prefix, after: input.context, limit: limit)
    }

    public static func probability(storePath: String, text: String, word: String) throws -> Double {
        let predictor = try NgramPredictor(store: TrainedStore(path: storePath))
        let context = SentenceSplitter.sentences(in: text, options: predictor.store.textOptions).last ?? []
        return try predictor.probability(of: word, after: context, sentenceStart: true)
    }
}

/// The query benchmark behind `make bench`: latency of next-word and completion queries.
///
/// Setup (untimed): open the store and its predictor, tokenize held-out text, build the queries
/// (for each word position: the next-word query after the previous words of its sentence, and the
/// completion query of the word's first one or two characters). Timed: each query alone, with a
/// monotonic clock. Checked: every completion query's answers start with its prefix.
public enum QueryBenchmark {
    public struct Result: Sendable {
        public var kind: String
        public var queries: Int
        public var p50: Double
        public var p99: Double
        public var max: Double
        public var emptyAnswers: Int
    }

    public static func run(store path: String, heldOut: [String], queries limit: Int, suggestions: Int) throws -> [Result] {
        let predictor = try NgramPredictor(store: TrainedStore(path: path))
        let sentences = try Evaluation.sentences(of: heldOut, store: predictor.store)
        var next: [[String]] = [], completions: [([String], String)] = []
        outer: for sentence in sentences {
            for (i, word) in sentence.enumerated() {
                next.append(Array(sentence[..<i]))
                completions.append((Array(sentence[..<i]), String(word.prefix(i % 2 == 0 ? 1 : 2))))
                if next.count >= limit { break outer }
            }
        }
        // Warm the page cache and statement cache once, untimed.
        for context in next.prefix(200) { _ = try predictor.nextWords(after: context, limit: suggestions) }
        func time(_ body: () throws -> Int) rethrows -> (Double, Int) {
            let start = DispatchTime.now().uptimeNanoseconds
            let count = try body()
            return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1000, count)
        }
        var results: [Result] = []
        var timings: [Double] = [], empty = 0
        for context in next {
            let (t, n) = try time { try predictor.nextWords(after: context, limit: suggestions).count }
            timings.append(t)
            if n == 0 { empty += 1 }
        }
        results.append(summarize("next words", timings, empty))
        timings = []; empty = 0
        for (context, prefix) in completions {
            var answers: [Prediction] = []
            let (t, _) = try time { answers = try predictor.completions(of: prefix, after: context, limit: suggestions); return answers.count }
            timings.append(t)
            if answers.isEmpty { empty += 1 }
            if let wrong = answers.first(where: { !$0.word.hasPrefix(prefix) }) {
                throw PipelineError("completion \"\(wrong.word)\" does not start with \"\(prefix)\"")
            }
        }
        results.append(summarize("completions", timings, empty))
        return results
    }

    static func summarize(_ kind: String, _ timings: [Double], _ empty: Int) -> Result {
        let sorted = timings.sorted()
        func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        return Result(kind: kind, queries: sorted.count, p50: percentile(0.5), p99: percentile(0.99), max: sorted.last ?? 0, emptyAnswers: empty)
    }
}
