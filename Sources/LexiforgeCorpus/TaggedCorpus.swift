import Foundation

/// The formats of a tagged (part-of-speech annotated) corpus.
public enum TaggedFormat: String, Sendable, CaseIterable {
    /// CoNLL-U: ten tab-separated columns, sentences separated by blank lines.
    case conllu
    /// One sentence per line, tokens separated by spaces, each `word/TAG` or `word_TAG`.
    case slash
    /// Create ML's word-tagger JSON: `[{"tokens": [...], "tags": [...]}, ...]`.
    case json

    /// The format a file name implies: `.conllu` and `.json` (optionally `.gz`), else `slash`.
    public static func guess(path: String) -> TaggedFormat {
        var name = path.lowercased()
        if name.hasSuffix(".gz") { name.removeLast(3) }
        if name.hasSuffix(".conllu") || name.hasSuffix(".conll") { return .conllu }
        if name.hasSuffix(".json") { return .json }
        return .slash
    }
}

/// Which CoNLL-U column gives the tag.
public enum TagColumn: String, Sendable, CaseIterable {
    /// Universal POS tags (column 4).
    case upos
    /// Language-specific tags (column 5; Penn Treebank tags for English EWT).
    case xpos
}

/// One problem at one line of a tagged corpus: `file:line: message`.
public struct TaggedCorpusDiagnostic: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var message: String
    public init(path: String, line: Int, message: String) { self.path = path; self.line = line; self.message = message }
    public var description: String { "\(path):\(line): \(message)" }
}

/// What reading one tagged file found.
public struct TaggedFileSummary: Sendable {
    public var file: CorpusFileSummary?
    public var sentences = 0
    public var tokens = 0
    /// Problems that make the file unusable (the build fails).
    public var errors: [TaggedCorpusDiagnostic] = []
    /// Problems that are errors only under `--strict`.
    public var warnings: [TaggedCorpusDiagnostic] = []
}

/// Streams the sentences of a tagged corpus.
///
/// In: a path (plain or gzipped UTF-8) and its ``TaggedFormat``. Out: each well-formed sentence as
/// parallel `words` and `tags` arrays, in file order, plus a ``TaggedFileSummary`` that lists every
/// malformed line (all of them, not just the first) with its file and line number. A sentence
/// with any problem is not handed on. CoNLL-U multiword-token ranges (`3-4 don't`) are skipped in
/// favour of their syntactic words (`do`, `n't`), and empty nodes (`8.1`) are skipped: they are
/// not surface tokens.
///
/// ```swift
/// let summary = TaggedCorpusReader.read(path: "en_ewt-ud-train.conllu.gz", format: .conllu) { words, tags in
///     trainer.add(words: words, tags: tags)
/// }
/// ```
public enum TaggedCorpusReader {
    public static func read(
        path: String, format: TaggedFormat, tagColumn: TagColumn = .upos,
        replaceInvalidUTF8: Bool = false,
        _ sentence: ([String], [String]) -> Void
    ) -> TaggedFileSummary {
        var summary = TaggedFileSummary()
        var options = CorpusReadOptions(replaceInvalidUTF8: replaceInvalidUTF8, stripGutenberg: false)
        options.treebankText = false   // the token lines are what this reader parses
        if format == .json { options.maxLineBytes = .max }   // one JSON text, often one line
        do {
            switch format {
            case .conllu:
                var parser = CoNLLUParser(path: path, column: tagColumn == .upos ? 3 : 4)
                summary.file = try CorpusReader.readLines(of: path, options: options) { line in
                    parser.feed(line, &summary, sentence)
                }
                parser.finish(&summary, sentence)
            case .slash:
                var lineNumber = 0
                summary.file = try CorpusReader.readLines(of: path, options: options) { line in
                    lineNumber += 1
                    parseSlashLine(String(decoding: line, as: UTF8.self), path: path, line: lineNumber, &summary, sentence)
                }
            case .json:
                var text: [UInt8] = []
                summary.file = try CorpusReader.readLines(of: path, options: options) { line in
                    text.append(contentsOf: line)
                    text.append(0x0A)
                }
                parseJSON(text, path: path, &summary, sentence)
            }
        } catch let error as CorpusError {
            if case .empty = error {
                summary.errors.append(.init(path: path, line: 1, message: "empty file; a tagged corpus needs at least one sentence"))
            } else {
                summary.errors.append(.init(path: path, line: 1, message: error.description.replacingOccurrences(of: "\(path): ", with: "")))
            }
        } catch {
            summary.errors.append(.init(path: path, line: 1, message: "\(error)"))
        }
        if let file = summary.file, file.replacedSequences > 0 {
            summary.warnings.append(.init(path: path, line: 1, message: "replaced \(file.replacedSequences) invalid UTF-8 sequence(s) with U+FFFD"))
        }
        if summary.errors.isEmpty && summary.sentences == 0 {
            summary.errors.append(.init(path: path, line: 1, message: "no tagged sentence in the file; expected \(format.rawValue) format (\(formatHint(format)))"))
        }
        return summary
    }

    static func formatHint(_ format: TaggedFormat) -> String {
        switch format {
        case .conllu: return "ten tab-separated columns per word, a blank line after each sentence"
        case .slash: return "one sentence per line of word/TAG or word_TAG tokens"
        case .json: return "[{\"tokens\": [...], \"tags\": [...]}]"
        }
    }

    /// Splits `word/TAG` or `word_TAG` at the last `/` or `_`.
    static func parseSlashLine(
        _ text: String, path: String, line: Int, _ summary: inout TaggedFileSummary, _ sentence: ([String], [String]) -> Void
    ) {
        let items = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard !items.isEmpty else { return }
        var words: [String] = [], tags: [String] = []
        var bad = false
        for item in items {
            guard let cut = item.lastIndex(where: { $0 == "/" || $0 == "_" }),
                  cut != item.startIndex, item.index(after: cut) != item.endIndex else {
                summary.errors.append(.init(path: path, line: line, message: "token '\(item)' is not word/TAG or word_TAG (a tag is missing)"))
                bad = true
                continue
            }
            words.append(String(item[..<cut]))
            tags.append(String(item[item.index(after: cut)...]))
        }
        guard !bad else { return }
        summary.sentences += 1
        summary.tokens += words.count
        sentence(words, tags)
    }

    static func parseJSON(_ bytes: [UInt8], path: String, _ summary: inout TaggedFileSummary, _ sentence: ([String], [String]) -> Void) {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            let nsError = error as NSError
            let detail = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
            let line = Int(detail.range(of: #"line (\d+)"#, options: .regularExpression).map {
                detail[$0].dropFirst(5) } ?? "1") ?? 1
            summary.errors.append(.init(path: path, line: line, message: "not valid JSON (\(detail))"))
            return
        }
        let lines = topLevelElementLines(bytes)
        guard let array = parsed as? [Any] else {
            summary.errors.append(.init(path: path, line: 1, message: "expected a JSON array of {\"tokens\": [...], \"tags\": [...]} objects"))
            return
        }
        for (index, element) in array.enumerated() {
            let line = index < lines.count ? lines[index] : 1
            guard let object = element as? [String: Any] else {
                summary.errors.append(.init(path: path, line: line, message: "sentence \(index + 1) is not an object with \"tokens\" and \"tags\""))
                continue
            }
            guard let tokens = object["tokens"] as? [String], let tags = object["tags"] as? [String] else {
                let missing = object["tokens"] == nil ? "\"tokens\"" : object["tags"] == nil ? "\"tags\"" : "arrays of strings in \"tokens\" and \"tags\""
                summary.errors.append(.init(path: path, line: line, message: "sentence \(index + 1) lacks \(missing)"))
                continue
            }
            guard tokens.count == tags.count else {
                summary.errors.append(.init(path: path, line: line, message: "sentence \(index + 1) has \(tokens.count) tokens but \(tags.count) tags; give one tag per token"))
                continue
            }
            if let empty = tags.firstIndex(where: { $0.isEmpty }) {
                summary.errors.append(.init(path: path, line: line, message: "sentence \(index + 1): token \(empty + 1) ('\(tokens[empty])') has an empty tag"))
                continue
            }
            guard !tokens.isEmpty else {
                summary.warnings.append(.init(path: path, line: line, message: "sentence \(index + 1) is empty; skipped"))
                continue
            }
            summary.sentences += 1
            summary.tokens += tokens.count
            sentence(tokens, tags)
        }
    }

    /// 1-based line of the start of each element of the top-level JSON array.
    static func topLevelElementLines(_ bytes: [UInt8]) -> [Int] {
        var lines: [Int] = []
        var line = 1, depth = 0, inString = false, escaped = false, expectElement = false
        for b in bytes {
            if b == 0x0A { line += 1 }
            if inString {
                if escaped { escaped = false } else if b == 0x5C { escaped = true } else if b == 0x22 { inString = false }
                continue
            }
            if expectElement && depth == 1 && b > 0x20 && b != 0x5D {
                lines.append(line)
                expectElement = false
            }
            switch b {
            case 0x22: inString = true
            case 0x5B, 0x7B:
                depth += 1
                if depth == 1 { expectElement = true }
            case 0x5D, 0x7D: depth -= 1
            case 0x2C: if depth == 1 { expectElement = true }
            default: break
            }
        }
        return lines
    }
}

/// Line-by-line CoNLL-U reader: checks the column count, the ids and the tag of every line.
struct CoNLLUParser {
    let path: String
    let column: Int
    var line = 0
    var words: [String] = []
    var tags: [String] = []
    var sentenceBad = false
    var sentenceLine = 0

    init(path: String, column: Int) { self.path = path; self.column = column }

    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ summary: inout TaggedFileSummary, _ emit: ([String], [String]) -> Void) {
        line += 1
        if bytes.isEmpty || bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            finish(&summary, emit)
            return
        }
        if bytes[0] == UInt8(ascii: "#") { return }
        if words.isEmpty && !sentenceBad { sentenceLine = line }
        if let nul = bytes.firstIndex(of: 0) {
            fail(&summary, "NUL byte (\\0) at byte \(nul - bytes.startIndex + 1) of the line; CoNLL-U is text without NUL bytes")
            return
        }
        let fields = bytes.split(separator: 0x09, omittingEmptySubsequences: false)
        guard fields.count == 10 else {
            fail(&summary, "\(fields.count) tab-separated columns, expected 10 (ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC)")
            return
        }
        let id = fields[0]
        if let dash = id.firstIndex(of: UInt8(ascii: "-")) {
            // A multiword token range: its words follow on their own lines.
            guard let first = Self.integer(id[id.startIndex..<dash]), let last = Self.integer(id[(dash + 1)...]) else {
                fail(&summary, "id '\(String(decoding: id, as: UTF8.self))' is not an integer, a range like 3-4 or a decimal like 8.1")
                return
            }
            guard first <= last else {
                fail(&summary, "multiword token range '\(first)-\(last)' is reversed; expected first ≤ last, like \(last)-\(first)")
                return
            }
            return
        }
        if let dot = id.firstIndex(of: UInt8(ascii: ".")) {
            // An empty node of the enhanced graph: not a surface word.
            guard Self.integer(id[id.startIndex..<dot]) != nil, Self.integer(id[(dot + 1)...]) != nil else {
                fail(&summary, "id '\(String(decoding: id, as: UTF8.self))' is not an integer, a range like 3-4 or a decimal like 8.1")
                return
            }
            return
        }
        guard let n = Self.integer(id) else {
            fail(&summary, "id '\(String(decoding: id, as: UTF8.self))' is not an integer, a range like 3-4 or a decimal like 8.1")
            return
        }
        if !sentenceBad && n != words.count + 1 {
            fail(&summary, "word id \(n) out of order; expected \(words.count + 1)")
            return
        }
        let form = String(decoding: fields[1], as: UTF8.self)
        let tag = String(decoding: fields[column], as: UTF8.self)
        if form.isEmpty {
            fail(&summary, "word \(n) has an empty FORM column")
            return
        }
        if tag.isEmpty || tag == "_" {
            fail(&summary, "word \(n) ('\(form)') has no \(column == 3 ? "UPOS" : "XPOS") tag (column \(column + 1) is '\(tag)')")
            return
        }
        words.append(form)
        tags.append(tag)
    }

    mutating func finish(_ summary: inout TaggedFileSummary, _ emit: ([String], [String]) -> Void) {
        if !sentenceBad && !words.isEmpty {
            summary.sentences += 1
            summary.tokens += words.count
            emit(words, tags)
        }
        words.removeAll(keepingCapacity: true)
        tags.removeAll(keepingCapacity: true)
        sentenceBad = false
    }

    private mutating func fail(_ summary: inout TaggedFileSummary, _ message: String) {
        summary.errors.append(.init(path: path, line: line, message: message))
        sentenceBad = true
    }

    static func integer(_ bytes: some Collection<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count < 10 else { return nil }
        var n = 0
        for b in bytes {
            guard b >= 0x30 && b <= 0x39 else { return nil }
            n = n * 10 + Int(b - 0x30)
        }
        return n
    }
}
