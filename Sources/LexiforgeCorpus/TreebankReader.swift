/// One syntactic word of a CoNLL-U sentence: the columns the text stage uses.
public struct TreebankWord: Sendable, Equatable {
    public var form: String
    public var lemma: String
    /// Universal POS tag (column 4).
    public var upos: String
    public init(form: String, lemma: String, upos: String) {
        self.form = form
        self.lemma = lemma
        self.upos = upos
    }
}

/// One written token: a word, or a multiword token ("don't") and the words it holds ("do", "n't").
public struct TreebankToken: Sendable, Equatable {
    /// The token as written in the text.
    public var form: String
    /// Indexes into ``TreebankSentence/words``.
    public var words: Range<Int>
    public init(form: String, words: Range<Int>) {
        self.form = form
        self.words = words
    }
}

/// A sentence of a CoNLL-U file.
public struct TreebankSentence: Sendable, Equatable {
    /// The `# text =` comment, when present.
    public var text: String?
    public var words: [TreebankWord] = []
    public var tokens: [TreebankToken] = []
    /// Line number of the sentence's first line (1-based), for diagnostics.
    public var line: Int
    public init(text: String? = nil, line: Int) {
        self.text = text
        self.line = line
    }
}

/// Streams the sentences of a CoNLL-U treebank with their words, lemmas, tags and written tokens.
///
/// In: a plain or gzipped CoNLL-U file (read with ``CorpusReader``). Out: each sentence in file
/// order. Multiword-token ranges (`3-4	don't`) become one ``TreebankToken`` over their words;
/// empty nodes (`8.1`) are skipped. Malformed lines (fewer than 10 columns, a bad id) are
/// collected as `file:line: problem` and the sentence holding one is not handed on.
///
/// ```swift
/// let problems = try TreebankReader.read(path: "en_ewt-ud-dev.conllu.gz") { sentence in
///     print(sentence.text ?? "", sentence.words.map(\.lemma))
/// }
/// ```
/// - Throws: ``CorpusError`` when the file cannot be read.
public enum TreebankReader {
    public static func read(
        path: String, _ body: (TreebankSentence) throws -> Void
    ) throws -> [String] {
        var problems: [String] = []
        var lineNumber = 0
        var current: TreebankSentence?
        var bad = false
        var pendingRange: (end: Int, form: String, first: Int)?
        func finish() throws {
            if let s = current, !s.words.isEmpty || s.text != nil {
                if !bad { try body(s) }
            }
            current = nil
            bad = false
            pendingRange = nil
        }
        var options = CorpusReadOptions(replaceInvalidUTF8: true, stripGutenberg: false)
        options.treebankText = false   // the token lines are what this reader parses
        _ = try CorpusReader.readLines(of: path, options: options) { bytes in
            lineNumber += 1
            if bytes.isEmpty || bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                try finish()
                return
            }
            if current == nil { current = TreebankSentence(line: lineNumber) }
            if bytes[0] == UInt8(ascii: "#") {
                let line = String(decoding: bytes, as: UTF8.self)
                if line.hasPrefix("# text = ") { current!.text = String(line.dropFirst(9)) }
                else if line.hasPrefix("# text=") { current!.text = String(line.dropFirst(7)) }
                return
            }
            if let nul = bytes.firstIndex(of: 0) {
                problems.append("\(path):\(lineNumber): NUL byte (\\0) at byte \(nul - bytes.startIndex + 1) of the line; CoNLL-U is text without NUL bytes")
                bad = true
                return
            }
            let columns = bytes.split(separator: 0x09, omittingEmptySubsequences: false)
            guard columns.count >= 10 else {
                problems.append("\(path):\(lineNumber): \(columns.count) tab-separated columns, CoNLL-U needs 10")
                bad = true
                return
            }
            let id = String(decoding: columns[0], as: UTF8.self)
            let form = String(decoding: columns[1], as: UTF8.self)
            if id.contains(".") { return }   // empty node
            if let dash = id.firstIndex(of: "-") {
                guard let first = Int(id[..<dash]), let last = Int(id[id.index(after: dash)...]), last >= first else {
                    problems.append("\(path):\(lineNumber): bad multiword token range '\(id)'")
                    bad = true
                    return
                }
                pendingRange = (last, form, current!.words.count)
                return
            }
            guard let number = Int(id) else {
                problems.append("\(path):\(lineNumber): bad word id '\(id)'")
                bad = true
                return
            }
            let index = current!.words.count
            current!.words.append(TreebankWord(
                form: form, lemma: String(decoding: columns[2], as: UTF8.self),
                upos: String(decoding: columns[3], as: UTF8.self)))
            if let range = pendingRange {
                if number == range.end {
                    current!.tokens.append(TreebankToken(form: range.form, words: range.first..<(index + 1)))
                    pendingRange = nil
                }
            } else {
                current!.tokens.append(TreebankToken(form: form, words: index..<(index + 1)))
            }
        }
        try finish()
        return problems
    }
}
