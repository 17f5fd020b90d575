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
    public var replaceInvalidUTF8 = false
    public init(inputs: [String]) { self.inputs = inputs }
}

/// What `lexiforge tokenize` did.
public struct TokenizeReport: Sendable {
    public var files: [CorpusFileSummary] = []
    public var warnings: [String] = []
}

/// Text files in, lines of tokens out.
///
/// In: ``TokenizeConfig``. Out: each output line handed to `emit` (tokens separated by one space,
/// or `token/lemma`), streaming: memory stays bounded by the longest line or sentence.
/// - Throws: ``PipelineError`` listing every unreadable file (the others are still tokenized).
public enum TokenizeRun {
    public static func run(_ config: TokenizeConfig, emit: (String) -> Void) throws -> TokenizeReport {
        var report = TokenizeReport()
        let lemmatizer = try config.lemmatizer.map(LemmatizerBuild.make)
        func line(_ tokens: [String]) -> String {
            guard let lemmatizer else { return tokens.joined(separator: " ") }
            let lemmas = lemmatizer.lemmatize(tokens, tags: nil)
            return zip(tokens, lemmas).map { "\($0)/\($1)" }.joined(separator: " ")
        }
        var errors: [String] = []
        let options = CorpusReadOptions(replaceInvalidUTF8: config.replaceInvalidUTF8, stripGutenberg: true)
        let tokenizer = Tokenizer(mode: config.text.mode)
        var tokens: [Token] = []
        for path in config.inputs {
            if let problem = NgramBuild.checkInput(path) { errors.append(problem); continue }
            do {
                var splitter = SentenceSplitter(options: config.text)
                let summary = try CorpusReader.readLines(of: path, options: options) { bytes in
                    if config.sentences {
                        splitter.feed(line: bytes) { emit(line($0.tokens)) }
                    } else {
                        tokens.removeAll(keepingCapacity: true)
                        tokenizer.tokenize(bytes, into: &tokens)
                        let words = tokens.filter { config.text.keepPunctuation || $0.kind == .word }.map {
                            config.text.normalize(String(decoding: UnsafeBufferPointer(rebasing: bytes[$0.start..<$0.end]), as: UTF8.self))
                        }
                        emit(line(words))
                    }
                }
                if config.sentences { splitter.finish { emit(line($0.tokens)) } }
                if summary.replacedSequences > 0 {
                    report.warnings.append("\(path): replaced \(summary.replacedSequences) invalid UTF-8 sequence(s) with U+FFFD")
                }
                report.files.append(summary)
            } catch let error as CorpusError {
                errors.append(error.description)
            }
        }
        if !errors.isEmpty { throw PipelineError(errors) }
        return report
    }
}
