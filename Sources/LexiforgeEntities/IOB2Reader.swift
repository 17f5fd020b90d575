import Foundation
import LexiforgeCorpus

/// One sentence with a BIO label per word.
public struct LabeledSentence: Sendable, Equatable {
    public var words: [String]
    public var labels: [String]
    /// The document the sentence belongs to (a count of `# newdoc` lines; in files without
    /// them every sentence is a document of its own), for cross-validation folds.
    public var document: Int
    public init(words: [String], labels: [String], document: Int = 0) {
        precondition(words.count == labels.count, "one label per word")
        self.words = words
        self.labels = labels
        self.document = document
    }
}

/// What reading named-entity files found.
public struct IOB2ReadResult: Sendable {
    public var sentences: [LabeledSentence] = []
    /// Repaired lines (an `I-T` that continues no `T` is read as `B-T`; an empty word is
    /// skipped), as `file:line: ...`.
    public var warnings: [String] = []
    /// Lines that cannot be read (no tag, a tag that is not IOB2), as `file:line: ...`.
    public var errors: [String] = []
    /// What was read of each file (path, SHA-256, bytes), for provenance.
    public var files: [CorpusFileSummary] = []
    public var tokens: Int { sentences.reduce(0) { $0 + $1.words.count } }
}

/// Reads named-entity training and evaluation files: UNER's `.iob2` (TAB-separated columns:
/// index, word, IOB2 tag, ...; `#` comment lines) and CoNLL two-column files (`word<TAB>tag`, or
/// separated by spaces, as the Broad Twitter Corpus and CoNLL 2003 are), plain or gzipped.
///
/// A blank line ends a sentence. A line that starts with `#` and has no TAB is a comment;
/// `# newdoc` starts a document. A token line needs a tag (`O`, `B-TYPE` or `I-TYPE`): a line
/// without one, or with another tag, is an error naming file and line, and every such line of
/// every file is reported. An `I-TYPE` after `O`, after another type or at a sentence start is
/// repaired to `B-TYPE` with a warning (counted; `--strict` makes warnings errors), and so is a
/// token line with an empty word (BTC dev has three), which is skipped.
public enum IOB2Reader {
    public static func read(_ paths: [String]) -> IOB2ReadResult {
        var result = IOB2ReadResult()
        var document = 0
        for path in paths {
            var words: [String] = [], labels: [String] = []
            var lineNumber = 0
            var sawNewdoc = false
            func endSentence() {
                guard !words.isEmpty else { return }
                if !sawNewdoc { document += 1 }
                result.sentences.append(LabeledSentence(words: words, labels: labels, document: document))
                words.removeAll()
                labels.removeAll()
            }
            do {
                let summary = try CorpusReader.readLines(of: path, options: CorpusReadOptions(stripGutenberg: false)) { bytes in
                    lineNumber += 1
                    let line = String(decoding: bytes, as: UTF8.self)
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    if trimmed.isEmpty { endSentence(); return }
                    if line.hasPrefix("#") && !line.contains("\t") {
                        if line.hasPrefix("# newdoc") { endSentence(); document += 1; sawNewdoc = true }
                        return
                    }
                    let columns = line.contains("\t")
                        ? line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                        : trimmed.split(whereSeparator: { $0 == " " }).map(String.init)
                    let word: String, tag: String
                    if columns.count >= 3, Int(columns[0]) != nil {
                        (word, tag) = (columns[1], columns[2])
                    } else if columns.count >= 2 {
                        (word, tag) = (columns[0], columns[columns.count - 1])
                    } else {
                        result.errors.append("\(path):\(lineNumber): a token line without a tag; expected WORD<TAB>TAG (CoNLL) or UNER's INDEX<TAB>WORD<TAB>TAG<TAB>...")
                        return
                    }
                    let cleanTag = tag.trimmingCharacters(in: .whitespaces)
                    guard !word.isEmpty else {
                        result.warnings.append("\(path):\(lineNumber): an empty word (a line starting with TAB); skipped")
                        return
                    }
                    guard cleanTag == "O" || ((cleanTag.hasPrefix("B-") || cleanTag.hasPrefix("I-")) && cleanTag.count > 2) else {
                        result.errors.append("\(path):\(lineNumber): tag \"\(cleanTag)\" is not IOB2; use O, B-TYPE or I-TYPE")
                        return
                    }
                    var label = cleanTag
                    if cleanTag.hasPrefix("I-") {
                        let type = cleanTag.dropFirst(2)
                        let previous = labels.last ?? "O"
                        if previous == "O" || previous.dropFirst(2) != type {
                            label = "B-" + type
                            result.warnings.append("\(path):\(lineNumber): \(cleanTag) after \(labels.isEmpty ? "the sentence start" : previous); read as \(label)")
                        }
                    }
                    words.append(word)
                    labels.append(label)
                }
                endSentence()
                result.files.append(summary)
            } catch let error as CorpusError {
                result.errors.append(error.description)
            } catch {
                result.errors.append("\(path): \(error)")
            }
        }
        return result
    }
}
