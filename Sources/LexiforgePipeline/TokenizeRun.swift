import Foundation
import LexiforgeCorpus
import LexiforgeText

/// Everything that decides what `lexiforge tokenize` prints.
public struct TokenizeConfig: Sendable {
    public var inputs: [String]
    public var text = TextOptions(keepPunctuation: true)
    /// One sentence per line (else one input line per output line; blank lines kept).
    public var sentences = false
    /// Print token/lemma with a lemmatizer from this source.
    public var lemmatizer: LemmatizerSource?
    /// With ``lemmatizer``: a store holding a UPOS tagger (`lexiforge hmm --tagged`); each
    /// sentence is tagged and every lemma voted over its word's tag posteriors
    /// (``Lemmatizer/lemma(of:tags:position:next:)``). Nil lemmatizes tag-free.
    public var tagger: String?
    public var replaceInvalidUTF8 = false
    public init(inputs: [String]) { self.inputs = inputs }
}

/// What `lexiforge tokenize` did.
public struct TokenizeReport: Sendable {
    public var files: [CorpusFileSummary] = []
    public var warnings: [String] = []
    /// Tokens lemmatized and the CPU seconds that took (through a ``LemmaCache``; `--lemmas` only).
    public var lemmatizedTokens = 0
    public var lemmatizeCPUSeconds = 0.0
    /// CPU seconds spent tagging (tag posteriors; `--tagger` only).
    public var taggingCPUSeconds = 0.0
    /// The whole run (lemmatizer training included): wall clock and CPU seconds of this thread.
    public var seconds = 0.0
    public var cpuSeconds = 0.0
    /// Bytes of text read (after decompression).
    public var textBytes: Int { files.reduce(0) { $0 + $1.textBytes } }
}

/// Text files in, lines of tokens out.
///
/// In: ``TokenizeConfig``. Out: each output line handed to `emit` as UTF-8 bytes without the
/// newline (tokens separated by one space, or `token/lemma`), streaming: memory stays bounded by
/// the longest line or sentence. Without lemmas no String is made per token: token bytes go
/// straight from the input line to the output line (``TextOptions/appendToken(_:to:)``).
/// - Throws: ``PipelineError`` listing every unreadable file (the others are still tokenized).
public enum TokenizeRun {
    public static func run(_ config: TokenizeConfig, emit: (UnsafeBufferPointer<UInt8>) -> Void) throws -> TokenizeReport {
        var report = TokenizeReport()
        let started = ContinuousClock.now, startedCPU = threadCPUSeconds()
        let lemmatizer = try config.lemmatizer.map(LemmatizerBuild.make)
        let tagger = try config.tagger.map { try TaggerLoader.open($0) }
        var cache = LemmaCache()
        var out: [UInt8] = []
        out.reserveCapacity(1 << 12)
        func send() {
            out.withUnsafeBufferPointer { emit($0) }
            out.removeAll(keepingCapacity: true)
        }
        func sendSentence(_ sentence: SentenceView) {
            if let lemmatizer {
                let tokens = sentence.tokens
                var start = threadCPUSeconds()
                let posteriors = tagger?.tagPosteriors(for: tokens)
                if tagger != nil {
                    report.taggingCPUSeconds += threadCPUSeconds() - start
                    start = threadCPUSeconds()
                }
                let lemmas = posteriors.map { cache.lemmatize(tokens, tagPosteriors: $0, lemmatizer) } ?? cache.lemmatize(tokens, tags: nil, lemmatizer)
                report.lemmatizeCPUSeconds += threadCPUSeconds() - start
                report.lemmatizedTokens += tokens.count
                for (k, (token, lemma)) in zip(tokens, lemmas).enumerated() {
                    if k > 0 { out.append(0x20) }
                    out.append(contentsOf: token.utf8)
                    out.append(UInt8(ascii: "/"))
                    out.append(contentsOf: lemma.utf8)
                }
            } else {
                sentence.appendJoined(to: &out)
            }
            send()
        }
        var errors: [String] = []
        let options = CorpusReadOptions(replaceInvalidUTF8: config.replaceInvalidUTF8, stripGutenberg: true)
        let tokenizer = Tokenizer(mode: config.text.mode)
        var tokens: [Token] = []
        var words: [UInt8] = []
        var ends: [Int] = []
        for path in config.inputs {
            if let problem = NgramBuild.checkInput(path) { errors.append(problem); continue }
            do {
                var splitter = SentenceSplitter(options: config.text)
                let summary = try CorpusReader.readLines(of: path, options: options) { bytes in
                    if config.sentences {
                        splitter.feed(line: bytes, emit: sendSentence)
                        return
                    }
                    tokens.removeAll(keepingCapacity: true)
                    tokenizer.tokenize(bytes, into: &tokens)
                    if lemmatizer == nil {
                        // The hot path: token bytes go straight into the output line.
                        var first = true
                        for token in tokens where config.text.keepPunctuation || token.kind == .word {
                            if !first { out.append(0x20) }
                            first = false
                            config.text.appendToken(UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), to: &out)
                        }
                        send()
                        return
                    }
                    words.removeAll(keepingCapacity: true)
                    ends.removeAll(keepingCapacity: true)
                    for token in tokens where config.text.keepPunctuation || token.kind == .word {
                        config.text.appendToken(UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), to: &words)
                        ends.append(words.count)
                    }
                    words.withUnsafeBufferPointer { w in
                        ends.withUnsafeBufferPointer { e in sendSentence(SentenceView(bytes: w, ends: e)) }
                    }
                }
                if config.sentences { splitter.finish(emit: sendSentence) }
                if summary.replacedSequences > 0 {
                    report.warnings.append("\(path): replaced \(summary.replacedSequences) invalid UTF-8 sequence(s) with U+FFFD")
                }
                report.files.append(summary)
            } catch let error as CorpusError {
                errors.append(error.description)
            }
        }
        if !errors.isEmpty { throw PipelineError(errors) }
        report.seconds = LemmaEval.seconds(since: started)
        report.cpuSeconds = threadCPUSeconds() - startedCPU
        return report
    }
}
