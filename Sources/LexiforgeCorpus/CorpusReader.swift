/// Options for reading one corpus file.
public struct CorpusReadOptions: Sendable, Equatable {
    /// Replace invalid UTF-8 sequences with U+FFFD instead of failing.
    public var replaceInvalidUTF8 = false
    /// Drop Project Gutenberg headers, license footers and "End of ..." lines.
    public var stripGutenberg = true
    /// Read a CoNLL-U treebank (by its name, ``CorpusReader/isTreebank(_:)``) for its sentences'
    /// text only: each `# text = ...` comment as a paragraph of its own. Set by the n-gram stage;
    /// readers of the annotation itself leave it off.
    public var treebankText = false
    /// Lines longer than this are cut into pieces of at most this many bytes (see
    /// ``CorpusReader/maxLineBytes``); `Int.max` keeps them whole (a JSON file read as one text).
    public var maxLineBytes = CorpusReader.maxLineBytes

    public init(replaceInvalidUTF8: Bool = false, stripGutenberg: Bool = true, treebankText: Bool = false) {
        self.replaceInvalidUTF8 = replaceInvalidUTF8
        self.stripGutenberg = stripGutenberg
        self.treebankText = treebankText
    }
}

/// What reading a file found out about it, for provenance and statistics.
public struct CorpusFileSummary: Sendable, Equatable {
    public var path: String
    /// SHA-256 of the file as stored (the compressed bytes for gzip), lowercase hex.
    public var sha256: String
    /// Bytes as stored.
    public var storedBytes: Int
    /// Bytes of decoded text (after decompression).
    public var textBytes: Int
    /// Content lines handed on (after boilerplate removal), blank lines included.
    public var contentLines: Int
    /// Lines dropped as Project Gutenberg boilerplate.
    public var boilerplateLines: Int
    /// Invalid UTF-8 sequences replaced with U+FFFD (only with `replaceInvalidUTF8`).
    public var replacedSequences: Int
    /// Lines longer than ``CorpusReadOptions/maxLineBytes``, handed on in pieces, and the first of them.
    public var cutLines = 0
    public var firstCutLine: Int?

    /// The one warning about cut lines, nil when none was cut.
    public var cutLinesWarning: String? {
        guard cutLines > 0, let first = firstCutLine else { return nil }
        return "\(path): \(cutLines) line(s) longer than \(CorpusReader.maxLineBytes) bytes (\(CorpusReader.maxLineBytes >> 20) MiB) were cut into pieces of at most that, at spaces where possible, the first at line \(first)"
    }
}

/// Streams the text lines of a corpus file.
///
/// In: a path to a plain or gzipped file of UTF-8 text, with or without a byte order mark, with
/// LF or CRLF line ends. Out: each content line, in order, as bytes without its line terminator
/// (a blank line marks a paragraph break), with Project Gutenberg boilerplate removed. Memory stays
/// constant in the file size: only the current line (and, at the start, the lines that might
/// still turn out to be a Gutenberg header) is held.
///
/// ```swift
/// let summary = try CorpusReader.readLines(of: "novel.txt.gz") { line in
///     print(String(decoding: line, as: UTF8.self))
/// }
/// ```
/// - Throws: ``CorpusError``. Invalid UTF-8 is collected over the whole file and reported once,
///   with line numbers and byte offsets, unless `replaceInvalidUTF8` is set.
public enum CorpusReader {
    /// The longest line handed on whole: 4 MiB (a long paragraph is a few KB; lines up to the
    /// 1 MiB read chunk and beyond still arrive whole). A longer line (a book without line
    /// breaks) is handed on in pieces of at most this many bytes, cut after a space where one is
    /// near, so memory never follows line length; line breaks are not sentence ends, so the text
    /// itself reads the same. ``CorpusFileSummary/cutLines`` counts such lines for the one
    /// warning per file (``CorpusFileSummary/cutLinesWarning``).
    public static let maxLineBytes = 1 << 22

    public static func readLines(
        of path: String,
        options: CorpusReadOptions = .init(),
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws -> CorpusFileSummary {
        let source = try ByteSource(path: path)
        var splitter = LineSplitter(path: path, options: options)
        // A treebank (CoNLL-U, by its name) contributes its sentences' text: each `# text = ...`
        // comment as a paragraph of its own; token lines, other comments and blanks are skipped.
        let treebank = options.treebankText && Self.isTreebank(path)
        var gutenberg = GutenbergFilter(enabled: options.stripGutenberg)
        let capacity = 1 << 20
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { chunk.deallocate() }
        var contentLines = 0
        var sawText = false
        try withoutActuallyEscaping(body) { body in
            let plain: (UnsafeBufferPointer<UInt8>) throws -> Void = { line in
                contentLines += 1
                if !sawText && !LineSplitter.isBlank(line) { sawText = true }
                try body(line)
            }
            let textPrefix = Array("# text = ".utf8)
            let emit: (UnsafeBufferPointer<UInt8>) throws -> Void = !treebank ? plain : { line in
                guard line.count > textPrefix.count, line.starts(with: textPrefix) else { return }
                try plain(UnsafeBufferPointer(rebasing: line[textPrefix.count...]))
                try [UInt8]().withUnsafeBufferPointer { try plain($0) }   // a paragraph break ends the sentence
            }
            while true {
                let n = try source.read(into: chunk, capacity: capacity)
                if n == 0 { break }
                try splitter.feed(UnsafeBufferPointer(start: chunk, count: n)) { line in
                    try gutenberg.process(line, emit: emit)
                }
            }
            try splitter.finish { line in try gutenberg.process(line, emit: emit) }
            try gutenberg.finish(emit: emit)
        }
        if !splitter.invalid.isEmpty {
            throw CorpusError.invalidUTF8(path, Array(splitter.invalid.prefix(10)), total: splitter.invalidCount)
        }
        if !sawText { throw CorpusError.empty(path) }
        return CorpusFileSummary(
            path: path, sha256: source.finalizeDigest(), storedBytes: source.storedBytes,
            textBytes: splitter.offset, contentLines: contentLines,
            boilerplateLines: gutenberg.droppedLines, replacedSequences: splitter.replacedCount,
            cutLines: splitter.cutLines, firstCutLine: splitter.firstCutLine)
    }

    /// Whether a corpus path names a CoNLL-U treebank (`.conllu`, optionally gzipped), read for
    /// its `# text = ` lines.
    public static func isTreebank(_ path: String) -> Bool {
        path.hasSuffix(".conllu") || path.hasSuffix(".conllu.gz")
    }
}
