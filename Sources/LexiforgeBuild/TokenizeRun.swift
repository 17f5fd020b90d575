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
    /// With ``lemmatizer``: a UPOS tagger (a store of `lexiforge hmm --tagged`, or a perceptron
    /// trained at run time from `--tagger-train`); each
    /// sentence is tagged and every lemma voted over its word's tag posteriors
    /// (``Lemmatizer/lemma(of:tags:position:next:)``). Nil lemmatizes tag-free.
    public var tagger: TaggerSource?
    public var replaceInvalidUTF8 = false
    /// After the run, time the tokenizer alone (``TokenizeRun/measureTokenizer(_:)``).
    public var measureTokenizer = false
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
    /// The tokenizer alone, timed apart from reading and printing (`measureTokenizer` only).
    public var tokenizerMeasure: TokenizerMeasure?
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
        var line = TokenLineBuffers(text: config.text)
        for path in config.inputs {
            if let problem = NgramBuild.checkInput(path) { errors.append(problem); continue }
            do {
                var splitter = SentenceSplitter(options: config.text)
                let summary = try CorpusReader.readLines(of: path, options: options) { bytes in
                    if config.sentences {
                        splitter.feed(line: bytes, emit: sendSentence)
                    } else if lemmatizer == nil {
                        // The hot path: token bytes go straight into the output line.
                        line.joinTokens(of: bytes, tokenizer, emit: emit)
                    } else {
                        line.collectTokens(of: bytes, tokenizer, emit: sendSentence)
                    }
                }
                if config.sentences { splitter.finish(emit: sendSentence) }
                report.warnings += summary.warnings(cutSentences: splitter.cutSentences)
                report.files.append(summary)
            } catch let error as CorpusError {
                errors.append(error.description)
            }
        }
        if !errors.isEmpty { throw PipelineError(errors) }
        report.seconds = seconds(since: started)
        report.cpuSeconds = threadCPUSeconds() - startedCPU
        if config.measureTokenizer { report.tokenizerMeasure = try measureTokenizer(config) }
        return report
    }
}

/// The reused buffers of one line: its tokens and the output made of them. The per-token work
/// happens in these mutating methods, where accesses are checked statically, instead of on
/// variables captured by the line callback (a dynamic exclusivity check per token).
struct TokenLineBuffers {
    let text: TextOptions
    /// Tokens are printed as written (no lowercasing or rewriting).
    let plain: Bool
    var tokens: [Token] = []
    var out: [UInt8] = []
    var ends: [Int] = []

    init(text: TextOptions) {
        self.text = text
        plain = !text.lowercase && text.normalization == .none && !text.straightQuotes && !text.numberClass
        tokens.reserveCapacity(1024)
        out.reserveCapacity(1 << 12)
    }

    /// Hands `emit` the tokens of `line` joined by one space, as ``TextOptions/appendToken(_:to:)``
    /// makes them, punctuation dropped unless kept.
    mutating func joinTokens(of line: UnsafeBufferPointer<UInt8>, _ tokenizer: Tokenizer,
                             emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        tokens.removeAll(keepingCapacity: true)
        tokenizer.tokenize(line, into: &tokens)
        guard plain else {
            out.removeAll(keepingCapacity: true)
            var first = true
            for token in tokens where text.keepPunctuation || token.kind == .word {
                if !first { out.append(0x20) }
                first = false
                text.appendToken(UnsafeBufferPointer(rebasing: line[token.start..<token.end]), to: &out)
            }
            out.withUnsafeBufferPointer { emit($0) }
            return
        }
        // Tokens are disjoint ranges of the line, so the output (tokens and the spaces between
        // them) is at most twice the line: copy bytes without growing the array.
        let needed = 2 * line.count + 1
        if out.count < needed { out = [UInt8](repeating: 0, count: max(needed, 2 * out.count)) }
        let keepPunctuation = text.keepPunctuation
        out.withUnsafeMutableBufferPointer { buffer in
            let o = buffer.baseAddress!
            var length = 0
            for token in tokens where keepPunctuation || token.kind == .word {
                if length > 0 { o[length] = 0x20; length += 1 }
                for k in token.start..<token.end { o[length] = line[k]; length += 1 }
            }
            emit(UnsafeBufferPointer(start: o, count: length))
        }
    }

    /// Hands `emit` the tokens of `line` as one sentence (for lemmatizing), as
    /// ``TextOptions/appendToken(_:to:)`` makes them, punctuation dropped unless kept.
    mutating func collectTokens(of line: UnsafeBufferPointer<UInt8>, _ tokenizer: Tokenizer,
                                emit: (SentenceView) -> Void) {
        tokens.removeAll(keepingCapacity: true)
        tokenizer.tokenize(line, into: &tokens)
        out.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        for token in tokens where text.keepPunctuation || token.kind == .word {
            text.appendToken(UnsafeBufferPointer(rebasing: line[token.start..<token.end]), to: &out)
            ends.append(out.count)
        }
        out.withUnsafeBufferPointer { w in
            ends.withUnsafeBufferPointer { e in emit(SentenceView(bytes: w, ends: e)) }
        }
    }
}
