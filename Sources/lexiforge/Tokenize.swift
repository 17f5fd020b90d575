import ArgumentParser
import Foundation
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeText

/// Text options shared by the commands that tokenize (recorded in a store's provenance).
struct TextFlags: ParsableArguments {
    @Option(help: "Tokenizer mode: keyboard (a token is what a person types) or treebank (UD: do + n't).")
    var tokenizer: TokenizerMode = .keyboard

    @Option(name: .customLong("mode"), help: .hidden)
    var deprecatedMode: TokenizerMode?

    @Option(help: "Unicode normalization of every token: none, nfc or nfkc.")
    var normalization: UnicodeNormalization = .none

    @Option(name: .customLong("normalize"), help: .hidden)
    var deprecatedNormalize: UnicodeNormalization?

    @Flag(help: "Curly quotes and apostrophes become straight ones.")
    var straightQuotes = false

    @Flag(help: "Numbers (3.14, 1,000, 5:30) become the class token <num>.")
    var numberClass = false

    /// The tokenizer after the deprecated `--mode` (which warns).
    var mode: TokenizerMode {
        if let deprecatedMode { warnDeprecated("--mode", "--tokenizer"); return deprecatedMode }
        return tokenizer
    }

    func apply(to options: inout TextOptions) {
        options.mode = mode
        options.normalization = deprecatedNormalize.map { warnDeprecated("--normalize", "--normalization"); return $0 } ?? normalization
        options.straightQuotes = straightQuotes
        options.numberClass = numberClass
    }
}

extension UnicodeNormalization: ExpressibleByArgument {}

/// How corpora are read, shared by every command that reads them.
struct ReadFlags: ParsableArguments {
    @Flag(name: .customLong("replace-invalid-utf8"), help: "Replace invalid UTF-8 with U+FFFD (a warning) instead of failing.")
    var replaceInvalidUTF8Flag = false

    @Flag(name: .customLong("replace-invalid"), help: .hidden)
    var deprecatedReplaceInvalid = false

    var replaceInvalidUTF8: Bool {
        if deprecatedReplaceInvalid { warnDeprecated("--replace-invalid", "--replace-invalid-utf8") }
        return replaceInvalidUTF8Flag || deprecatedReplaceInvalid
    }
}

/// The lemmatizer's training files, shared by `ngrams`, `tokenize` and `wordlist import`.
struct LemmaTrainingFlags: ParsableArguments {
    @Option(help: "CoNLL-U file the lemmatizer learns from, beside WordNet (repeat for several).")
    var lemmaTraining: [String] = []

    @Option(name: .customLong("lemma-train"), help: .hidden)
    var deprecatedLemmaTrain: [String] = []

    var files: [String] {
        if !deprecatedLemmaTrain.isEmpty { warnDeprecated("--lemma-train", "--lemma-training") }
        return lemmaTraining + deprecatedLemmaTrain
    }
}

/// `--word-columns`: each word's lemma and script class (`--word-classes` before).
struct WordColumnFlags: ParsableArguments {
    @Flag(help: "Write each word's lemma and script class (indexed columns; larger store).")
    var wordColumns = false

    @Flag(name: .customLong("word-classes"), help: .hidden)
    var deprecatedWordClasses = false

    @OptionGroup var lemmas: LemmaTrainingFlags

    var enabled: Bool {
        if deprecatedWordClasses { warnDeprecated("--word-classes", "--word-columns") }
        return wordColumns || deprecatedWordClasses
    }

    func validate() throws {
        if !(lemmas.lemmaTraining + lemmas.deprecatedLemmaTrain).isEmpty && !(wordColumns || deprecatedWordClasses) {
            throw ValidationError("--lemma-training needs --word-columns (the lemmas go in the word table's lemma column)")
        }
    }
}

/// One warning for an old spelling, still accepted for this release (once per run).
nonisolated(unsafe) private var deprecationsWarned: Set<String> = []
func warnDeprecated(_ old: String, _ new: String) {
    guard deprecationsWarned.insert(old).inserted else { return }
    FileHandle.standardError.write(Data("warning: \(old) is deprecated; use \(new) (accepted for this release)\n".utf8))
}

struct Tokenize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the tokens of text files, one line of input or one sentence per line.",
        discussion: """
            Reads plain or gzipped UTF-8 text (Project Gutenberg boilerplate dropped) and prints the \
            tokens separated by spaces. With --sentences, one sentence per line (a line break inside \
            a paragraph is not a sentence end, a blank line is); with --lemmas, each token as \
            token/lemma (lemmas from --lemma-training and WordNet; tag-free, or voted over the tag \
            posteriors of a --tagger store or of a perceptron tagger trained on --tagger-train).
            Example:
              lexiforge tokenize --tokenizer treebank --sentences Corpora/data/corpora/dorian-gray-ch1.txt
            """)

    @Argument(help: "Text files (plain or .gz).")
    var files: [String] = []

    @Flag(help: "One sentence per line.")
    var sentences = false

    @Flag(help: "Print token/lemma.")
    var lemmas = false

    @OptionGroup var lemmaTraining: LemmaTrainingFlags

    @Option(help: "With --lemmas: a store holding a UPOS tagger (lexiforge hmm --tagged); lemmas follow its tag posteriors (use --tokenizer treebank, the tokens it was trained on).")
    var tagger: String?

    @Option(help: "With --lemmas: CoNLL-U file (UPOS column) an averaged-perceptron tagger is trained on now (repeat for several; excludes --tagger); use --tokenizer treebank.")
    var taggerTrain: [String] = []

    @Flag(help: "Lowercase every token.")
    var lowercase = false

    @Flag(help: "Drop punctuation and symbol tokens.")
    var dropPunctuation = false

    @OptionGroup var text: TextFlags

    @OptionGroup var reading: ReadFlags

    @Flag(help: .hidden)
    var measure = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one text file") }
        try TaggerFlags.check(store: tagger, training: taggerTrain)
        if (tagger != nil || !taggerTrain.isEmpty) && !lemmas { throw ValidationError("\(tagger != nil ? "--tagger" : "--tagger-train") picks lemmas: add --lemmas (and --lemma-training)") }
    }

    func run() throws {
        try runReportingErrors {
            var config = TokenizeConfig(inputs: files)
            config.text = TextOptions(lowercase: lowercase, keepPunctuation: !dropPunctuation)
            text.apply(to: &config.text)
            config.sentences = sentences
            config.replaceInvalidUTF8 = reading.replaceInvalidUTF8
            config.measureTokenizer = measure
            if lemmas { config.lemmatizer = LemmatizerSource(training: lemmaTraining.files) }
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
                    line += "\nmeasure: \(what) alone (\(config.text.mode.rawValue) mode, lines in memory, no output): "
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
