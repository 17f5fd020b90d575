import LexiforgeCorpus
import LexiforgeText

/// The tokenizer's own speed: what `lexiforge tokenize --measure` reports as "tokenizer alone".
public struct TokenizerMeasure: Sendable {
    /// Bytes handed to the tokenizer: the content lines without their line terminators
    /// (decompressed, UTF-8 checked, Gutenberg boilerplate already dropped).
    public var bytes = 0
    public var lines = 0
    /// Tokens produced (sentences mode: tokens in the sentences handed on).
    public var tokens = 0
    /// CPU seconds of this thread spent tokenizing (and splitting sentences, with `sentences`).
    public var cpuSeconds = 0.0
    /// Whether the sentence splitter ran too.
    public var sentences = false

    /// Megabytes (10^6 bytes) of input text per CPU second.
    public var megabytesPerCPUSecond: Double { Double(bytes) / max(cpuSeconds, 1e-9) / 1e6 }
}

extension TokenizeRun {
    /// Times the tokenizer alone on the inputs' text.
    ///
    /// The files are first read into memory as content lines (decompressed, UTF-8 checked,
    /// Gutenberg boilerplate dropped, as ``run(_:emit:)`` reads them; none of that is timed).
    /// Then, on one thread, the ``Tokenizer`` in the configured mode tokenizes every line into a
    /// reused token array (with `sentences`, the ``SentenceSplitter`` is fed the lines instead,
    /// which tokenizes them and copies the tokens of each sentence), and only that is timed.
    /// Nothing is printed, lowercased or lemmatized.
    /// - Complexity: O(text) time and memory: the whole decompressed text is held.
    public static func measureTokenizer(_ config: TokenizeConfig) throws -> TokenizerMeasure {
        var text: [UInt8] = []
        var ends: [Int] = []
        let options = CorpusReadOptions(replaceInvalidUTF8: config.replaceInvalidUTF8, stripGutenberg: true)
        for path in config.inputs {
            _ = try CorpusReader.readLines(of: path, options: options) { line in
                text.append(contentsOf: line)
                ends.append(text.count)
            }
        }
        var measure = TokenizerMeasure(bytes: text.count, lines: ends.count, sentences: config.sentences)
        let tokenizer = Tokenizer(mode: config.text.mode)
        var splitter = SentenceSplitter(options: TextOptions(keepPunctuation: true, mode: config.text.mode))
        var tokens: [Token] = []
        tokens.reserveCapacity(1024)
        var count = 0
        let started = threadCPUSeconds()
        text.withUnsafeBufferPointer { all in
            var from = 0
            for end in ends {
                let line = UnsafeBufferPointer(rebasing: all[from..<end])
                from = end
                if config.sentences {
                    splitter.feed(line: line) { count += $0.count }
                } else {
                    tokens.removeAll(keepingCapacity: true)
                    tokenizer.tokenize(line, into: &tokens)
                    count += tokens.count
                }
            }
            if config.sentences { splitter.finish { count += $0.count } }
        }
        measure.cpuSeconds = threadCPUSeconds() - started
        measure.tokens = count
        return measure
    }
}
