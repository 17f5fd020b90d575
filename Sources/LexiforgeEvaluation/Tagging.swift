import Foundation
import LexiforgeBuild
import LexiforgeCorpus
import LexiforgePerceptron
import LexiforgeReader
import LexiforgeText

/// How well a tagger store did on gold-tagged text (`lexiforge eval tag`).
public struct TagEvaluation: Sendable {
    public var sentences = 0
    public var tokens = 0
    public var correct = 0
    /// Tokens whose form the tagger's lexicon holds, and how many of those it got right.
    public var knownTokens = 0
    public var knownCorrect = 0
    public var unknownTokens: Int { tokens - knownTokens }
    public var unknownCorrect: Int { correct - knownCorrect }
    /// (gold, predicted) → count, errors only.
    public var confusions: [String: [String: Int]] = [:]
    /// Seconds spent in Viterbi alone (lookup included, reading excluded), per pass.
    public var taggingSeconds = 0.0
    /// Every token as `form<TAB>gold<TAB>predicted<TAB>known|unknown` (only when asked for).
    public var tokenLines: [String] = []

    public var accuracy: Double { tokens > 0 ? Double(correct) / Double(tokens) : 0 }
    public var knownAccuracy: Double { knownTokens > 0 ? Double(knownCorrect) / Double(knownTokens) : 0 }
    public var unknownAccuracy: Double { unknownTokens > 0 ? Double(unknownCorrect) / Double(unknownTokens) : 0 }
    /// CPU seconds of the tagging thread, per pass: the speed of one core even when the machine
    /// is shared (wall-clock time then also counts the waits for a core).
    public var taggingCPUSeconds = 0.0
    public var tokensPerSecond: Double { taggingSeconds > 0 ? Double(tokens) / taggingSeconds : 0 }
    public var tokensPerCPUSecond: Double { taggingCPUSeconds > 0 ? Double(tokens) / taggingCPUSeconds : 0 }

    /// The most frequent errors, most frequent first.
    public func topConfusions(_ limit: Int) -> [(gold: String, predicted: String, count: Int)] {
        confusions.flatMap { gold, row in row.map { (gold: gold, predicted: $0.key, count: $0.value) } }
            .sorted { ($0.count, $1.gold, $1.predicted) > ($1.count, $0.gold, $0.predicted) }
            .prefix(limit).map { $0 }
    }

    /// The human-readable block `lexiforge eval tag` prints.
    public func render(confusionLimit: Int = 12) -> String {
        func pct(_ n: Int, _ d: Int) -> String { d > 0 ? String(format: "%.2f%%", 100 * Double(n) / Double(d)) : "-" }
        var out = [
            "sentences: \(sentences), tokens: \(tokens)",
            "accuracy: \(pct(correct, tokens)) (\(correct)/\(tokens))",
            "known words: \(pct(knownCorrect, knownTokens)) (\(knownCorrect)/\(knownTokens))",
            "unknown words: \(pct(unknownCorrect, unknownTokens)) (\(unknownCorrect)/\(unknownTokens), \(pct(unknownTokens, tokens)) of tokens)",
            String(format: "tagging speed: %.0f tokens/s wall clock, %.0f tokens per CPU second (one core)", tokensPerSecond, tokensPerCPUSecond),
            "most frequent confusions (gold → predicted: count, share of errors):",
        ]
        let errors = tokens - correct
        for c in topConfusions(confusionLimit) {
            out.append("  \(c.gold) → \(c.predicted): \(c.count) (\(pct(c.count, errors)))")
        }
        return out.joined(separator: "\n")
    }
}

/// `lexiforge eval tag`: tag the words of gold CoNLL-U (or any tagged format) and compare.
///
/// In: a tagger store and gold files. Out: a ``TagEvaluation``. The gold words are tagged as
/// given (the treebank's own tokenization); reading is not timed, tagging is.
public enum TagEval {
    /// `tagColumn` nil takes the CoNLL-U column the store was trained on (its `text_options`).
    public static func run(storePath: String, gold: [String], format: TaggedFormat?, tagColumn: TagColumn?,
                           keepTokens: Bool = false, timingPasses: Int = 1, beam: Double? = nil,
                           progress: StageProgress) throws -> TagEvaluation {
        let store = try TrainedStore(path: storePath)
        let tagger = try store.hmmTagger(beam: beam)
        let trainedOn = TextOptionsRecord.read(store.meta)?.tagset.flatMap(TagColumn.init(rawValue:))
        if let tagColumn, let trainedOn, tagColumn != trainedOn, gold.contains(where: { TaggedFormat.guess(path: $0) == .conllu }) {
            throw PipelineError("\(storePath): the tagger was trained on \(trainedOn.rawValue.uppercased()) tags but --tagset \(tagColumn.rawValue) asks for \(tagColumn.rawValue.uppercased()); drop --tagset or retrain with `lexiforge hmm --tagset \(tagColumn.rawValue)`")
        }
        let sentences = try readGold(gold, format: format, column: tagColumn ?? trainedOn ?? .upos, progress: progress)
        return try evaluate(sentences, names: tagger.stateNames, isKnown: tagger.isKnown, keepTokens: keepTokens,
                            timingPasses: timingPasses) { tagger.tagStates($0) }
    }

    /// ``run(storePath:gold:format:tagColumn:keepTokens:timingPasses:beam:progress:)`` for an
    /// averaged-perceptron UPOS tagger trained now on `training` (`eval tag --tagger-train`);
    /// also returns the training time in seconds (CPU seconds of this thread).
    public static func run(perceptronTraining training: [String], gold: [String], format: TaggedFormat?,
                           keepTokens: Bool = false, timingPasses: Int = 1,
                           progress: StageProgress) throws -> (evaluation: TagEvaluation, trainingCPUSeconds: Double) {
        let started = threadCPUSeconds()
        let tagger = try PerceptronBuild.make(training: training)
        let trainingCPUSeconds = threadCPUSeconds() - started
        let sentences = try readGold(gold, format: format, column: .upos, progress: progress)
        let evaluation = try evaluate(sentences, names: tagger.tagNames, isKnown: tagger.isKnown, keepTokens: keepTokens,
                                      timingPasses: timingPasses) { tagger.tagIndices($0) }
        return (evaluation, trainingCPUSeconds)
    }

    static func readGold(_ gold: [String], format: TaggedFormat?, column: TagColumn,
                         progress: StageProgress) throws -> [([String], [String])] {
        var sentences: [([String], [String])] = []
        var config = HMMBuildConfig(mode: .supervised(.init()), inputs: gold, output: "")
        config.format = format
        config.tagColumn = column
        let problems = gold.compactMap(NgramBuild.checkInput)
        if !problems.isEmpty { throw PipelineError(problems) }
        _ = try HMMBuild.readTagged(gold, format: format, column: column, config: config, progress: progress) {
            sentences.append(($0, $1))
        }
        return sentences
    }

    /// Tags every sentence with `tag` (tag numbers into `names`; timed, `timingPasses` times) and
    /// compares with the gold tags.
    static func evaluate(_ sentences: [([String], [String])], names: [String], isKnown: (String) -> Bool,
                         keepTokens: Bool, timingPasses: Int, tag: ([String]) -> [Int32]) throws -> TagEvaluation {
        var result = TagEvaluation()
        var predicted: [[Int32]] = []
        predicted.reserveCapacity(sentences.count)
        let started = DispatchTime.now().uptimeNanoseconds
        let startedCPU = threadCPUSeconds()
        for (words, _) in sentences { predicted.append(tag(words)) }
        // Extra passes only steady the speed figure; their results must match the first.
        for _ in 1..<max(timingPasses, 1) {
            for (n, (words, _)) in sentences.enumerated() where tag(words) != predicted[n] {
                throw PipelineError("internal error: tagging is not deterministic (sentence \(n + 1))")
            }
        }
        result.taggingSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 / Double(max(timingPasses, 1))
        result.taggingCPUSeconds = (threadCPUSeconds() - startedCPU) / Double(max(timingPasses, 1))
        for ((words, tags), states) in zip(sentences, predicted) {
            result.sentences += 1
            for (i, word) in words.enumerated() {
                let guess = names[Int(states[i])]
                let known = isKnown(word)
                result.tokens += 1
                if known { result.knownTokens += 1 }
                if keepTokens { result.tokenLines.append("\(word)\t\(tags[i])\t\(guess)\t\(known ? "known" : "unknown")") }
                if guess == tags[i] {
                    result.correct += 1
                    if known { result.knownCorrect += 1 }
                } else {
                    result.confusions[tags[i], default: [:]][guess, default: 0] += 1
                }
            }
        }
        return result
    }
}

/// `lexiforge tag`: tag plain text, one sentence per output line of `word/TAG` tokens.
///
/// In: a store and lines of text (from files or standard input). Out: the sentences the
/// ``SentenceSplitter`` finds, punctuation kept, each token with its tag. A token the tagger does
/// not know that ends in an English clitic is split as the Universal Dependencies treebanks split
/// it (`don't` → `do n't`, `I'm` → `I 'm`, `iPhone's` → `iPhone 's`) and tagged as its parts.
public final class TextTagger {
    public let tagger: HMMTagger
    private var splitter = SentenceSplitter(options: TextOptions(lowercase: false, keepPunctuation: true))
    private let output: (String) -> Void

    public init(storePath: String, beam: Double? = nil, output: @escaping (String) -> Void) throws {
        tagger = try TrainedStore(path: storePath).hmmTagger(beam: beam)
        self.output = output
    }

    /// Feeds one line of text (a blank line ends a paragraph).
    public func feed(line: String) {
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            splitter.feed(line: UnsafeBufferPointer(buffer)) { emit($0.tokens) }
        }
    }

    /// Ends the input.
    public func finish() { splitter.finish { emit($0.tokens) } }

    /// Tags the text of whole files (plain or gzipped).
    public func tag(files: [String], options: CorpusReadOptions = .init(stripGutenberg: false)) throws {
        finish()
        _ = try CorpusSentences(text: splitter.options, corpus: options).read(files) { emit($0.tokens) }
    }

    private func emit(_ tokens: [String]) {
        let words = tokens.flatMap(tagger.splitClitic)
        output(tagger.tag(words).map(\.description).joined(separator: " "))
    }
}

/// The HMM part of `lexiforge inspect`.
enum HMMInspect {
    static func lines(_ hmm: StoreSummary.HMM?) -> [String] {
        guard let hmm else { return [] }
        var out = ["hidden Markov model: \(hmm.states) states, \(hmm.emissions) emissions, \(hmm.transitions) first-order and \(hmm.transitions2) second-order transitions, \(hmm.suffixes) suffix counts, \(hmm.lexical) word-conditioned transitions"]
        out.append("  parameters: " + hmm.parameters.keys.sorted().map { "\($0)=\(String(format: "%.4g", hmm.parameters[$0]!))" }.joined(separator: ", "))
        out.append("states (count; top words; most likely next states):")
        for s in hmm.stateSummaries {
            let words = s.topWords.joined(separator: " ")
            let next = s.next.map { "\($0.state) \(String(format: "%.2f", $0.probability))" }.joined(separator: ", ")
            out.append("  \(s.name.padding(toLength: 8, withPad: " ", startingAt: 0)) \(String(format: "%9.0f", s.count))  \(words)  → \(next)")
        }
        return out
    }
}
