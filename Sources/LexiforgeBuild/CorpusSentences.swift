import Foundation
import LexiforgeCorpus
import LexiforgeText

/// The one way corpora become sentences: every file read in order (plain or gzipped, Gutenberg
/// boilerplate and UTF-8 handled by ``CorpusReader``), lines fed to a ``SentenceSplitter`` with
/// the given text options, a file's last sentence ended with the file (a sentence never spans two
/// files). Every file is read even after one fails, so one run names every bad file; warnings
/// (replaced UTF-8, cut lines and sentences) are collected per file and become errors under
/// `strict`; a digest that differs from `expectedSHA256` is an error naming both.
///
/// Used by the n-gram counter, Baum-Welch training, perplexity evaluation and tagging.
public struct CorpusSentences {
    public var text: TextOptions
    public var corpus: CorpusReadOptions
    public var strict = false
    /// Expected sha256 per path (from the manifest).
    public var expectedSHA256: [String: String] = [:]

    public init(text: TextOptions, corpus: CorpusReadOptions) {
        self.text = text
        self.corpus = corpus
    }

    /// What a read found: one summary per file read whole, and the warnings (not printed).
    public struct Result: Sendable {
        public var files: [CorpusFileSummary] = []
        public var warnings: [String] = []
    }

    /// Reads `paths`, handing each sentence to `emit` and each finished file to `fileDone`.
    /// - Throws: ``PipelineError`` with every problem of every file (missing, unreadable, invalid
    ///   UTF-8, sha256 mismatch, and warnings under `strict`), after all files were read.
    public func read(_ paths: [String], fileDone: (CorpusFileSummary) -> Void = { _ in },
                     emit: (SentenceView) -> Void) throws -> Result {
        var splitter = SentenceSplitter(options: text)
        var result = Result()
        var errors: [String] = []
        for path in paths {
            if let problem = NgramBuild.checkInput(path) { errors.append(problem); continue }
            do {
                let cutBefore = splitter.cutSentences
                let summary = try CorpusReader.readLines(of: path, options: corpus) { line in
                    splitter.feed(line: line, emit: emit)
                }
                splitter.finish(emit: emit)
                errors += ModelBuild.shaMismatches([(path, summary.sha256)], expected: expectedSHA256)
                result.warnings += summary.warnings(cutSentences: splitter.cutSentences - cutBefore)
                result.files.append(summary)
                fileDone(summary)
            } catch let error as CorpusError {
                errors.append(error.description)
                splitter = SentenceSplitter(options: text)
            }
        }
        if strict { errors += result.warnings.map { $0 + " (an error under --strict)" } }
        if !errors.isEmpty { throw PipelineError(errors) }
        return result
    }
}
