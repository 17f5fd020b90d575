import ArgumentParser
import Foundation
import LexiforgePipeline
import LexiforgeText

/// Text options shared by the commands that tokenize (recorded in a store's provenance).
struct TextFlags: ParsableArguments {
    @Option(help: "Tokenizer mode: keyboard (a token is what a person types) or treebank (UD: do + n't).")
    var tokenizer: TokenizerMode = .keyboard

    @Option(help: "Unicode normalization of every token: none, nfc or nfkc.")
    var normalize: UnicodeNormalization = .none

    @Flag(help: "Curly quotes and apostrophes become straight ones.")
    var straightQuotes = false

    @Flag(help: "Numbers (3.14, 1,000, 5:30) become the class token <num>.")
    var numberClass = false

    func apply(to options: inout TextOptions) {
        options.mode = tokenizer
        options.normalization = normalize
        options.straightQuotes = straightQuotes
        options.numberClass = numberClass
    }
}

extension UnicodeNormalization: ExpressibleByArgument {}

struct Tokenize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the tokens of text files, one line of input or one sentence per line.",
        discussion: """
            Reads plain or gzipped UTF-8 text (Project Gutenberg boilerplate dropped) and prints the \
            tokens separated by spaces. With --sentences, one sentence per line (a line break inside \
            a paragraph is not a sentence end, a blank line is); with --lemmas, each token as \
            token/lemma (lemmas from --lemma-train and WordNet; tag-free, or voted over the tag \
            posteriors of a --tagger store or of a perceptron tagger trained on --tagger-train).
            Example:
              lexiforge tokenize --mode treebank --sentences Corpora/data/corpora/dorian-gray-ch1.txt
            """)

    @Argument(help: "Text files (plain or .gz).")
    var files: [String] = []

    @Option(help: "keyboard (default) or treebank.")
    var mode: TokenizerMode = .keyboard

    @Flag(help: "One sentence per line.")
    var sentences = false

    @Flag(help: "Print token/lemma.")
    var lemmas = false

    @Option(help: "CoNLL-U file the lemmatizer learns from (repeat for several); WordNet alone without it.")
    var lemmaTrain: [String] = []

    @Option(help: "With --lemmas: a store holding a UPOS tagger (lexiforge hmm --tagged); lemmas follow its tag posteriors (use --mode treebank, the tokens it was trained on).")
    var tagger: String?

    @Option(help: "With --lemmas: CoNLL-U file (UPOS column) an averaged-perceptron tagger is trained on now (repeat for several; excludes --tagger); use --mode treebank.")
    var taggerTrain: [String] = []

    @Flag(help: "Lowercase every token.")
    var lowercase = false

    @Flag(help: "Drop punctuation and symbol tokens.")
    var dropPunctuation = false

    @Option(help: "Unicode normalization of every token: none, nfc or nfkc.")
    var normalize: UnicodeNormalization = .none

    @Flag(help: "Curly quotes and apostrophes become straight ones.")
    var straightQuotes = false

    @Flag(help: "Numbers become the class token <num>.")
    var numberClass = false

    @Flag(help: "Replace invalid UTF-8 with U+FFFD (a warning) instead of failing.")
    var replaceInvalid = false

    @Flag(help: .hidden)
    var measure = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one text file") }
        try TaggerFlags.check(store: tagger, training: taggerTrain)
        if (tagger != nil || !taggerTrain.isEmpty) && !lemmas { throw ValidationError("\(tagger != nil ? "--tagger" : "--tagger-train") picks lemmas: add --lemmas (and --lemma-train)") }
    }

    func run() throws {
        try runReportingErrors {
            var config = TokenizeConfig(inputs: files)
            config.text = TextOptions(lowercase: lowercase, keepPunctuation: !dropPunctuation, mode: mode,
                                      normalization: normalize, straightQuotes: straightQuotes, numberClass: numberClass)
            config.sentences = sentences
            config.replaceInvalidUTF8 = replaceInvalid
            config.measureTokenizer = measure
            if lemmas { config.lemmatizer = LemmatizerSource(training: lemmaTrain) }
            config.tagger = TaggerFlags.source(store: tagger, training: taggerTrain)
            let out = BufferedOutput()
            let report = try TokenizeRun.run(config) { out.write($0) }
            out.flush()
            for warning in report.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
            if measure {
                var line = String(format: "measure: whole run (read, gunzip, SHA-256, UTF-8 check, Gutenberg filter, tokenize, print): %d bytes, %.3f s wall (%.1f MB/s), %.3f CPU s (%.1f MB per CPU second)",
                                  report.textBytes, report.seconds, Double(report.textBytes) / max(report.seconds, 1e-9) / 1e6,
                                  report.cpuSeconds, Double(report.textBytes) / max(report.cpuSeconds, 1e-9) / 1e6)
                if report.lemmatizedTokens > 0 {
                    line += String(format: "; lemmatizing %d tokens %.3f CPU s, %.2f M tokens per CPU second", report.lemmatizedTokens,
                                   report.lemmatizeCPUSeconds, Double(report.lemmatizedTokens) / max(report.lemmatizeCPUSeconds, 1e-9) / 1e6)
                }
                if config.tagger != nil {
                    line += String(format: "; tagging (posteriors) %.3f CPU s, %.2f M tokens per CPU second", report.taggingCPUSeconds,
                                   Double(report.lemmatizedTokens) / max(report.taggingCPUSeconds, 1e-9) / 1e6)
                }
                if let t = report.tokenizerMeasure {
                    let what = t.sentences ? "tokenizer and sentence splitter" : "tokenizer"
                    line += "\nmeasure: \(what) alone (\(mode.rawValue) mode, lines in memory, no output): "
                        + String(format: "%d bytes in %d lines, %d tokens, %.3f CPU s, %.1f MB per CPU second",
                                 t.bytes, t.lines, t.tokens, t.cpuSeconds, t.megabytesPerCPUSecond)
                }
                FileHandle.standardError.write(Data((line + "\n").utf8))
            }
        }
    }
}

/// Buffered stdout for streaming output.
final class BufferedOutput {
    private var buffer: [UInt8] = []
    init() { buffer.reserveCapacity(1 << 16) }
    func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }
    func write(_ line: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: line)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }
    func flush() {
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}
