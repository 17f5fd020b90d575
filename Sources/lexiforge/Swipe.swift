import ArgumentParser
import Foundation
import LexiforgePipeline
import LexiforgeReader

struct Swipe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Swipe typing: per-word features, synthetic swipes, decoding.",
        subcommands: [SwipeFeaturesCommand.self, SwipeGenerateCommand.self, SwipeDecodeCommand.self])
}

/// Decoder thresholds shared by `swipe decode` and `eval swipe`.
struct DecoderOptions: ParsableArguments {
    @Option(help: "Layout whose features to use (default: the store's first).")
    var layout: String?
    @Option(help: "Worker threads for the DTW (1 = one core).")
    var threads = 1
    @Option(help: "Start-point filter radius, key widths.")
    var startRadius: Double?
    @Option(help: "End-point filter radius, key widths.")
    var endRadius: Double?
    @Option(help: "Start-direction tolerance, degrees.")
    var directionTolerance: Double?
    @Option(help: "Weight of the DTW cost against ln p(word).")
    var costWeight: Double?

    func validate() throws {
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
    }

    var options: SwipeDecoderOptions {
        var o = SwipeDecoderOptions()
        o.threads = threads
        if let startRadius { o.startRadius = startRadius }
        if let endRadius { o.endRadius = endRadius }
        if let directionTolerance { o.directionTolerance = directionTolerance }
        if let costWeight { o.costWeight = costWeight }
        return o
    }
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

    func validate() throws {
        guard store != nil || words != nil else { throw ValidationError("give --store (to draw words) or --words") }
        guard count >= 1 else { throw ValidationError("--count must be at least 1") }
    }

    func run() throws {
        try runReportingErrors {
            var config = SwipeGenerate.Config(storePath: store, layout: try SwipeLayout.named(layout))
            config.words = words.map { $0.split(separator: ",").map(String.init) } ?? []
            config.count = count
            config.seed = seed
            let (lines, statistics, skipped) = try SwipeGenerate.run(config)
            let text = lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
            if let output {
                guard FileManager.default.createFile(atPath: output, contents: Data(text.utf8)) else {
                    throw ValidationError("\(output): cannot write the trace file; choose a writable path")
                }
            } else {
                print(text, terminator: "")
            }
            var report = "\(lines.count) swipes (seed \(seed))\n" + statistics.render() + "\n"
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

    func run() throws {
        try runReportingErrors {
            let (lines, errors, warnings) = try SwipeDecode.run(storePath: store, tracePath: trace, layout: decoder.layout, options: decoder.options)
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
            Example:
              lexiforge swipe generate --store S.sqlite --count 2000 -o swipes.jsonl
              lexiforge eval swipe S.sqlite --traces swipes.jsonl
            """)

    @Argument(help: "The store (with swipe features).")
    var store: String
    @Option(help: "JSON Lines trace file.")
    var traces: String
    @OptionGroup var decoder: DecoderOptions
    @Option(help: "How many misses to list.")
    var misses = 10

    func run() throws {
        try runReportingErrors {
            let report = try SwipeEval.run(storePath: store, tracesPath: traces, layout: decoder.layout, options: decoder.options)
            print(report.render(listMisses: misses))
            let notes = report.errors.map { "error: \($0)" }
            if !notes.isEmpty { FileHandle.standardError.write(Data((notes.joined(separator: "\n") + "\n").utf8)) }
        }
    }
}
