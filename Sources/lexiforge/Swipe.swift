import ArgumentParser
import Foundation
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader

struct Swipe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Swipe typing: per-word features, synthetic swipes, decoding.",
        subcommands: [SwipeFeaturesCommand.self, SwipeGenerateCommand.self, SwipeDecodeCommand.self, SwipeTuneCommand.self])
}

/// Decoder thresholds shared by `swipe decode` and `eval swipe`.
struct DecoderOptions: ParsableArguments {
    @Option(help: "Layout whose features to use (default: the store's first).")
    var layout: String?
    @Flag(help: "Decode without the words before each swipe (the lexicon prior alone).")
    var noContext = false
    @Option(help: "Start-point filter radius, key widths.")
    var startRadius: Double?
    @Option(help: "End-point filter radius, key widths.")
    var endRadius: Double?
    @Option(help: "Start-direction tolerance, degrees.")
    var directionTolerance: Double?
    @Option(help: "Weight of the DTW cost against ln p(word).")
    var costWeight: Double?
    @Option(help: "Weight of the location channel.")
    var locationWeight: Double?
    @Option(help: "Weight of the shape channel.")
    var shapeWeight: Double?
    @Option(help: "Weight of ln p(word | context) from the store's language model.")
    var contextWeight: Double?
    @Option(help: "Weight of the lexicon prior ln p(word) without context.")
    var frequencyWeight: Double?
    @Option(help: "Weight of the lexicon prior ln p(word) next to the context.")
    var contextFrequencyWeight: Double?
    @Option(help: "Words rescored with DTW.")
    var shortlist: Int?
    @Option(help: "Touch model: key widths each point is read higher (touches land below key centres).")
    var verticalOffset: Double?
    @Option(help: "DTW: each point pays at most this (key widths²; 0: plain squared distance).")
    var costRobustness: Double?
    @Option(help: "DTW locality: a point s key widths along the swipe fits a segment spanning [a, b] along the word's path when 0.5·a − slack ≤ s ≤ high·b + slack; this is high.")
    var localityHigh: Double?
    @Option(help: "DTW locality: the slack, key widths (see --locality-high).")
    var localitySlack: Double?
    @Flag(help: "Bound the DTW by the locality constraint, words outside it paying the capped cost (the thesis's rule; default: report it to the reranker).")
    var localityCaps = false
    @Option(help: "Length filter: a tap (a swipe under 0.3 key widths) keeps words up to this long (key widths; default: any length; 0: the bound of other swipes).")
    var tapLengthBound: Double?
    @Flag(help: "Never propose words the wordlist marks possibly_offensive (as completions do by default).")
    var blockOffensive = false

    func validate() throws {
        if let shortlist, shortlist < 1 { throw ValidationError("--shortlist must be at least 1") }
    }

    var options: SwipeDecoderOptions {
        var o = SwipeDecoderOptions()
        if let startRadius { o.startRadius = startRadius }
        if let locationWeight { o.locationWeight = locationWeight }
        if let shapeWeight { o.shapeWeight = shapeWeight }
        if let contextWeight { o.contextWeight = contextWeight }
        if let frequencyWeight { o.frequencyWeight = frequencyWeight }
        if let contextFrequencyWeight { o.contextFrequencyWeight = contextFrequencyWeight }
        if let shortlist { o.shortlist = shortlist }
        if let endRadius { o.endRadius = endRadius }
        if let directionTolerance { o.directionTolerance = directionTolerance }
        if let costWeight { o.costWeight = costWeight }
        if let verticalOffset { o.verticalOffset = verticalOffset }
        if let costRobustness { o.costRobustness = costRobustness }
        if let tapLengthBound { o.tapLengthBound = tapLengthBound }
        if let localityHigh { o.localityHigh = localityHigh }
        if let localitySlack { o.localitySlack = localitySlack }
        if localityCaps { o.localityCaps = true }
        if blockOffensive { o.allowOffensive = false }
        return o
    }
}

/// The reranker's candidate count, for the commands that decode (`swipe decode`, `eval swipe`);
/// `swipe tune` fits the linear score alone, so it has no such option.
struct RerankOption: ParsableArguments {
    @Option(help: "Candidates the reranker reorders (the shortlist's best by the selection weights, DTW included; 0: the linear order).")
    var rerank: Int?

    func validate() throws {
        if let rerank, rerank < 0 { throw ValidationError("--rerank must be 0 or more") }
    }

    /// `options` with this count, when one was given.
    func applied(to options: SwipeDecoderOptions) -> SwipeDecoderOptions {
        var o = options
        if let rerank { o.rerank = rerank }
        return o
    }
}

/// A user's own words added to the store's (`swipe decode`, `eval swipe`).
struct UserWordsOption: ParsableArguments {
    @Option(help: "A user's own words to add to the store's: a text file, one word a line, optionally a TAB and a frequency 0-255 (default 128).")
    var userWords: String?

    func read() throws -> [(word: String, frequency: Int)] { try userWords.map(SwipeUserWords.read(path:)) ?? [] }
}

struct SwipeFeaturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "features",
        abstract: "Add one layout's per-word swipe features to a store (replaced atomically).",
        discussion: """
            Layouts: qwerty, qwertz, azerty, or a JSON layout file (see README, Swipe).
            Example:
              lexiforge swipe features Artifacts/en_US-wordlist.sqlite --layout qwerty
            """)

    @Argument(help: "The store.")
    var store: String
    @Option(help: "qwerty, qwertz, azerty or a layout JSON file.")
    var layout = "qwerty"
    @Option(help: "Row height / key width (phones: 1.24 to 1.71; default: the layout's, 1.5).")
    var rowHeightRatio: Double?

    func run() throws {
        try runReportingErrors {
            let layout = try SwipeLayout.named(self.layout, rowHeightRatio: rowHeightRatio)
            let report = try SwipeFeatureBuild.run(storePath: store, layout: layout)
            FileHandle.standardError.write(Data((SwipeFeatureBuild.render(report) + "\n").utf8))
        }
    }
}

struct SwipeGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write synthetic swipes (JSON Lines trace file) of words drawn by frequency or given.",
        discussion: """
            Prints the generator's statistics next to the real-swipe figures on stderr.
            Example:
              lexiforge swipe generate --store Artifacts/en_US-wordlist.sqlite --count 2000 --seed 7 -o swipes.jsonl
              lexiforge swipe generate --words hello,world -o hello.jsonl
            """)

    @Option(help: "Store whose lexicon the words are drawn from (by frequency).")
    var store: String?
    @Option(help: "Comma-separated words instead of drawing.")
    var words: String?
    @Option(help: "Swipes to draw.")
    var count = 1000
    @Option(help: "Random seed.")
    var seed: UInt64 = 1
    @Option(help: "qwerty, qwertz, azerty or a layout JSON file.")
    var layout = "qwerty"
    @Option(name: .shortAndLong, help: "Trace file to write (default: stdout).")
    var output: String?
    @Option(help: "Real traces (JSON Lines, plain or gzipped) to measure and print next to the generated statistics.")
    var compare: String?
    @Flag(help: "Swipe the words of the --compare traces (each once, in order) instead of drawing words, so accuracies compare on the same words.")
    var sameWords = false

    func validate() throws {
        guard store != nil || words != nil || sameWords else { throw ValidationError("give --store (to draw words), --words or --compare with --same-words") }
        if sameWords && compare == nil { throw ValidationError("--same-words needs --compare TRACES") }
        guard count >= 1 else { throw ValidationError("--count must be at least 1") }
    }

    func run() throws {
        try runReportingErrors {
            var config = SwipeGenerate.Config(storePath: store, layout: try SwipeLayout.named(layout))
            config.words = words.map { $0.split(separator: ",").map(String.init) } ?? []
            if sameWords, let compare { config.words = try SwipeGenerate.words(of: compare, layout: config.layout) }
            config.count = count
            config.seed = seed
            let (lines, statistics, skipped) = try SwipeGenerate.run(config)
            let text = lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
            if let output {
                try AtomicOutput.write(Data(text.utf8), to: output, kind: "trace file")
            } else {
                print(text, terminator: "")
            }
            var table = statistics.render()
            if let compare {
                table = try SwipeGenerate.compare(statistics, tracesPath: compare, layout: config.layout)
            }
            var report = "\(lines.count) swipes (seed \(seed))\n" + table + "\n"
            if !skipped.isEmpty { report += "no key path on \(config.layout.name), skipped: \(skipped.joined(separator: ", "))\n" }
            FileHandle.standardError.write(Data(report.utf8))
        }
    }
}

struct SwipeDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode every swipe of a trace file: the top 4 words with scores.",
        discussion: """
            Example:
              lexiforge swipe decode Artifacts/en_US-wordlist.sqlite --trace hello.jsonl
            """)

    @Argument(help: "The store (with swipe features).")
    var store: String
    @Option(help: "JSON Lines trace file.")
    var trace: String
    @OptionGroup var decoder: DecoderOptions
    @OptionGroup var reranking: RerankOption
    @Flag(help: "Decode as a keyboard front end does (to measure its memory): one dictionary, adapted to the first trace's keyboard, and the language model; no per-keyboard cache.")
    var frontEnd = false
    @OptionGroup var user: UserWordsOption

    func run() throws {
        try runReportingErrors {
            let (lines, errors, warnings) = try SwipeDecode.run(storePath: store, tracePath: trace, layout: decoder.layout, options: reranking.applied(to: decoder.options),
                                                                  useContext: !decoder.noContext, frontEnd: frontEnd, userWords: try user.read())
            for line in lines { print(line) }
            let notes = warnings.map { "warning: \(trace): \($0)" } + errors.map { "error: \($0)" }
            if !notes.isEmpty { FileHandle.standardError.write(Data((notes.joined(separator: "\n") + "\n").utf8)) }
            if !errors.isEmpty { throw ExitCode.failure }
        }
    }
}

struct EvalSwipe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swipe",
        abstract: "Swipe decoding accuracy (top-1, top-4), filter recall and latency on a trace file.",
        discussion: """
            Words compare case-insensitively; figures are given over all swipes and over those whose
            word is in the dictionary. With a store that has a language model and traces with a
            "sentence", each swipe decodes after the words before it (--no-context: without),
            spelled as a keyboard would have committed them ("im" as "I'm", "whats" as "what's").
            Example:
              lexiforge eval swipe Artifacts/en_US-keyboard.sqlite --traces Corpora/data/swipe/hws-dev-20000.jsonl.gz --folds 5
              lexiforge swipe generate --store S.sqlite --count 2000 -o swipes.jsonl
              lexiforge eval swipe S.sqlite --traces swipes.jsonl
            """)

    @Argument(help: "The store (with swipe features).")
    var store: String
    @Option(help: "JSON Lines trace file (plain or gzipped).")
    var traces: String
    @OptionGroup var decoder: DecoderOptions
    @OptionGroup var reranking: RerankOption
    @Option(help: "How many misses to list.")
    var misses = 10
    @Option(help: "Report K folds split by the traces' \"user\" (a stable hash), and their total.")
    var folds = 1
    @OptionGroup var user: UserWordsOption

    func run() throws {
        try runReportingErrors {
            let reports = try SwipeEval.run(storePath: store, tracesPath: traces, layout: decoder.layout, options: reranking.applied(to: decoder.options),
                                            useContext: !decoder.noContext, folds: folds, userWords: try user.read())
            if reports.count > 1 {
                var total = SwipeEval.Report()
                for r in reports { print(r.render(listMisses: 0)); print(""); total.add(r) }
                total.title = "all \(reports.count) folds"
                total.loadSeconds = reports[0].loadSeconds
                print(total.render(listMisses: misses))
            } else {
                print(reports[0].render(listMisses: misses))
            }
            let notes = reports[0].errors.map { "error: \($0)" }
            if !notes.isEmpty { FileHandle.standardError.write(Data((notes.joined(separator: "\n") + "\n").utf8)) }
        }
    }
}

struct SwipeTuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Fit the decoder's filter thresholds and score weights to real swipes, cross-validated by user.",
        discussion: """
            Traces need "word" and "user" (and "sentence" for the context weights; --no-context
            decodes without it, so a --dump holds the context-free decoder's shortlists). Each fold is
            fitted on the other folds' users and measured on its own; the last line gives the
            weights fitted on every swipe (the defaults of SwipeDecoderOptions come from it).
            Example:
              lexiforge swipe tune Artifacts/en_US-keyboard.sqlite --traces Corpora/data/swipe/hws-dev-20000.jsonl.gz
            """)

    @Argument(help: "The store (with swipe features and, for context, a language model).")
    var store: String
    @Option(help: "JSON Lines trace file (plain or gzipped).")
    var traces: String
    @OptionGroup var decoder: DecoderOptions
    @Option(help: "Folds, split by user.")
    var folds = 5
    @Option(help: "Share of training swipes each filter must keep.")
    var filterRecall = 0.999
    @Option(help: "Shortlist kept per swipe while fitting the weights and in --dump; the decoder's by default.")
    var wideShortlist = SwipeDecoderOptions().shortlist
    @Option(help: ArgumentHelp("Also write every shortlisted word's terms, a row each, to FILE (and their spellings to FILE.words), for Tests/Bench/swipe-rerank.", valueName: "FILE"))
    var dump: String?
    @Flag(help: "Stop after writing --dump, before fitting the weights.")
    var dumpOnly = false

    func validate() throws {
        guard folds >= 2 else { throw ValidationError("--folds must be at least 2") }
        guard filterRecall > 0.5 && filterRecall <= 1 else { throw ValidationError("--filter-recall must be in (0.5, 1]") }
        guard !dumpOnly || dump != nil else { throw ValidationError("--dump-only needs --dump FILE") }
    }

    func run() throws {
        try runReportingErrors {
            var config = SwipeTune.Config(storePath: store, tracesPath: traces)
            config.layout = decoder.layout
            config.folds = folds
            config.filterRecall = filterRecall
            config.wideShortlist = wideShortlist
            config.dumpPath = dump
            config.dumpOnly = dumpOnly
            config.useContext = !decoder.noContext
            config.options = decoder.options
            let report = try SwipeTune.run(config) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
            print(report)
        }
    }
}
