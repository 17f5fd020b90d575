#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LexiforgeCorpus
import LexiforgeFormat

/// What reading one wordlist file found out about it (for provenance and statistics).
public struct WordlistFileSummary: Sendable, Equatable {
    public var path: String
    /// SHA-256 of the file as stored (the compressed bytes for gzip), lowercase hex.
    public var sha256: String
    public var storedBytes: Int
    /// Bytes after decompression.
    public var textBytes: Int
    public var lines: Int
    /// Entries imported from this file (duplicates not counted).
    public var entries: Int
    public var gzip: Bool
}

/// Everything a read produced: the lexicon, and every problem found on the way.
public struct WordlistReadResult: Sendable {
    public var lexicon: Lexicon
    public var files: [WordlistFileSummary]
    /// In file and line order.
    public var diagnostics: [WordlistDiagnostic]
    /// Problems beyond ``WordlistReader/maximumDiagnosticsPerFile`` per file, counted but not listed.
    public var omittedDiagnostics: Int

    public var errors: [WordlistDiagnostic] { diagnostics.filter { $0.severity == .error } }
    public var warnings: [WordlistDiagnostic] { diagnostics.filter { $0.severity == .warning } }

    /// The lexicon, or a ``WordlistError`` listing every error (and every warning under `strict`).
    public func lexicon(strict: Bool) throws(WordlistError) -> Lexicon {
        let failing = strict ? diagnostics : errors
        if !failing.isEmpty { throw WordlistError(diagnostics: failing, omitted: omittedDiagnostics) }
        return lexicon
    }
}

/// Reads "combined" wordlists (``CombinedFormat``) into a ``Lexicon``.
///
/// In: paths of plain or gzipped lists (gzip is recognized by its magic bytes, whatever the name),
/// read in order. Out: one lexicon with each file's header and every entry in file order; a word
/// already read (in this or an earlier file) is a warning and its later entry is dropped.
/// Files are streamed through zlib in 1 MiB chunks: memory grows with the entries, never with
/// the compressed or decompressed file. Every problem is collected with its file and line (the
/// parse goes on after an error), so one run names them all.
///
/// ```swift
/// let result = WordlistReader.read(paths: ["en_US_wordlist.combined.gz"])
/// let lexicon = try result.lexicon(strict: false)   // throws WordlistError on any error
/// ```
/// - Complexity: O(total bytes) time.
public enum WordlistReader {
    /// Diagnostics listed per file; the rest are only counted (a wrong file can have 160,000).
    public static let maximumDiagnosticsPerFile = 100
    /// The longest line read: 1 MiB (a real entry line is under 200 bytes). A longer line keeps
    /// its first 1 MiB and loses the rest, with one warning per file giving the first such line
    /// and how many there were, so a file without line feeds (`/dev/zero`) is read in constant memory.
    public static let maxLineBytes = 1 << 20

    public static func read(paths: [String]) -> WordlistReadResult {
        var result = WordlistReadResult(lexicon: Lexicon(), files: [], diagnostics: [], omittedDiagnostics: 0)
        var seen: [String: (file: String, line: Int)] = [:]
        seen.reserveCapacity(1 << 18)
        for path in paths {
            var parser = FileParser(path: path, lexicon: result.lexicon, seen: seen)
            let summary = parser.run()
            result.lexicon = parser.lexicon
            seen = parser.seen
            result.diagnostics += parser.diagnostics
            result.omittedDiagnostics += parser.omitted
            if let summary { result.files.append(summary) }
        }
        return result
    }
}

/// Parses one file, appending to the lexicon being built.
struct FileParser {
    let path: String
    var lexicon: Lexicon
    var seen: [String: (file: String, line: Int)]
    var diagnostics: [WordlistDiagnostic] = []
    var omitted = 0

    private var lineNumber = 0
    private var sawHeader = false
    private var sawContent = false
    /// Index in `lexicon.entries` of the entry child lines belong to.
    private var current: Int?
    /// The current entry was a duplicate or had errors: its child lines are checked, not kept.
    private var skipping = false
    /// An entry line (good or bad) has been seen, so child lines have a parent.
    private var sawEntry = false
    private var childPosition = 0
    private var entries = 0
    private var crlfLines = 0
    private var firstCRLFLine = 0
    private var fields: [Field] = []
    private var unescapeBuffer: [UInt8] = []

    init(path: String, lexicon: Lexicon, seen: [String: (file: String, line: Int)]) {
        self.path = path
        self.lexicon = lexicon
        self.seen = seen
    }

    struct Field {
        var keyStart: Int
        var keyEnd: Int
        /// -1 when the field has no `=`.
        var valueStart: Int
        var end: Int
        var escaped: Bool
    }

    mutating func report(_ severity: WordlistDiagnostic.Severity, line: Int?, _ message: String) {
        if diagnostics.count >= WordlistReader.maximumDiagnosticsPerFile { omitted += 1; return }
        diagnostics.append(WordlistDiagnostic(severity, file: path, line: line, message))
    }

    mutating func run() -> WordlistFileSummary? {
        let source: ByteSource
        do {
            source = try ByteSource(path: path)
        } catch {
            report(.error, line: nil, Self.message(for: error))
            return nil
        }
        if path.hasSuffix(".gz") && !source.gzip {
            report(.warning, line: nil, "named .gz but not gzip-compressed (no 1F 8B magic bytes); read as plain text")
        }
        lexicon.headers.append([])
        let capacity = 1 << 20
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { chunk.deallocate() }
        var carry: [UInt8] = []
        var textBytes = 0
        // A line past the limit keeps its first `limit` bytes; the rest is dropped, so input
        // without line feeds (/dev/zero) never piles up in memory.
        let limit = WordlistReader.maxLineBytes
        var cutting = false
        var cutLines = 0, firstCutLine = 0
        do {
            while true {
                let n = try source.read(into: chunk, capacity: capacity)
                if n == 0 { break }
                if textBytes == 0, let nul = memchr(chunk, 0, min(n, 8192)) {
                    // A wordlist is text: a NUL in the first 8 KiB means binary data (or /dev/zero),
                    // or a damaged line: reported at its line, and nothing more is read.
                    let offset = nul.assumingMemoryBound(to: UInt8.self) - chunk
                    let line = 1 + UnsafeBufferPointer(start: chunk, count: offset).reduce(0) { $0 + ($1 == CombinedFormat.lineFeed ? 1 : 0) }
                    report(.error, line: line, "NUL byte (\\0) at byte offset \(offset); a wordlist is text: binary data or a damaged file, nothing after it was read")
                    return summary(source, textBytes: n)
                }
                textBytes += n
                var start = 0
                while start < n {
                    let hit = memchr(chunk + start, Int32(CombinedFormat.lineFeed), n - start)
                    let end = hit.map { $0.assumingMemoryBound(to: UInt8.self) - chunk } ?? n
                    if hit != nil && carry.isEmpty && end - start <= limit {
                        line(UnsafeBufferPointer(start: chunk + start, count: end - start))
                    } else {
                        let room = limit - carry.count
                        if end - start > room && !cutting {
                            cutting = true
                            cutLines += 1
                            if cutLines == 1 { firstCutLine = lineNumber + 1 }
                        }
                        carry.append(contentsOf: UnsafeBufferPointer(start: chunk + start, count: min(end - start, room)))
                        if hit != nil {
                            carry.withUnsafeBufferPointer { line($0) }
                            carry.removeAll(keepingCapacity: true)
                            cutting = false
                        }
                    }
                    start = hit == nil ? n : end + 1
                }
            }
        } catch {
            report(.error, line: lineNumber + 1, Self.message(for: error) + " (after \(lineNumber) complete line(s))")
            return summary(source, textBytes: textBytes)
        }
        if !carry.isEmpty {
            carry.withUnsafeBufferPointer { line($0) }
            report(.warning, line: lineNumber, "no line feed after the last line; expected every line to end with LF (the export adds one)")
        }
        if cutLines > 0 {
            report(.warning, line: firstCutLine,
                   "line longer than \(limit) bytes (1 MiB)\(cutLines > 1 ? " (and \(cutLines - 1) more line(s))" : ""); cut there, the rest of the line dropped; expected one entry or child line per line")
        }
        if crlfLines > 0 {
            report(.warning, line: firstCRLFLine,
                   "CRLF line end\(crlfLines > 1 ? " (and on \(crlfLines - 1) more line(s))" : ""); expected LF only; CR stripped, so the export differs from this file")
        }
        if lineNumber == 0 {
            report(.error, line: nil, "empty file; expected a header line `dictionary=…` and entry lines ` word=…,f=…`")
        }
        return summary(source, textBytes: textBytes)
    }

    /// What went wrong with the file as a whole, without the path (the diagnostic carries it).
    static func message(for error: CorpusError) -> String {
        switch error {
        case .missing: return "no such file; check the path"
        case .isDirectory: return "is a directory; expected a .combined or .combined.gz wordlist file"
        case .unreadable(_, let reason): return "cannot be read (\(reason)); check its permissions"
        case .corruptGzip(_, let reason): return "corrupt gzip data (\(reason)); expected a complete gzip stream: download or provision the file again"
        default: return error.description
        }
    }

    private func summary(_ source: ByteSource, textBytes: Int) -> WordlistFileSummary {
        WordlistFileSummary(path: path, sha256: source.finalizeDigest(), storedBytes: source.storedBytes,
                            textBytes: textBytes, lines: lineNumber, entries: entries, gzip: source.gzip)
    }

    // MARK: - Lines

    private mutating func line(_ raw: UnsafeBufferPointer<UInt8>) {
        lineNumber += 1
        var bytes = raw
        if let last = bytes.last, last == CombinedFormat.carriageReturn {
            if crlfLines == 0 { firstCRLFLine = lineNumber }
            crlfLines += 1
            bytes = UnsafeBufferPointer(rebasing: bytes.dropLast())
        }
        var indent = 0
        while indent < bytes.count && bytes[indent] == CombinedFormat.space { indent += 1 }
        let body = UnsafeBufferPointer(rebasing: bytes[indent...])

        if !sawHeader && !sawContent {
            if indent == 0, body.first == CombinedFormat.commentStart {
                report(.warning, line: lineNumber, "comment line dropped (the export does not write comments)")
                return
            }
            sawContent = true
            if indent == 0 && startsWith(body, CombinedFormat.dictionaryTag + "=") {
                header(body)
                return
            }
            report(.error, line: lineNumber, "missing header: expected `dictionary=…,locale=…,version=…` as the first line")
        }
        switch indent {
        case 0:
            if body.isEmpty {
                report(.warning, line: lineNumber, "blank line dropped; expected an entry ` word=…` or a child line")
            } else if body.first == CombinedFormat.commentStart {
                report(.warning, line: lineNumber, "comment line dropped (the export does not write comments)")
            } else if startsWith(body, CombinedFormat.wordTag + "=") {
                report(.error, line: lineNumber, "entry line without its leading space; expected ` word=…` (one space first)")
            } else if startsWith(body, CombinedFormat.dictionaryTag + "=") {
                report(.error, line: lineNumber, "second header line; expected the header only on line 1")
            } else {
                report(.error, line: lineNumber, "`\(preview(body))` is not a wordlist line; expected an entry ` word=WORD,f=N,…` or an indented child line")
            }
        case 1:
            if startsWith(body, CombinedFormat.wordTag + "=") {
                entry(body)
            } else if !body.isEmpty && !startsWith(body, "f=") && !startsWith(body, CombinedFormat.flagsTag + "=") && isKeyValue(body) && !startsWith(body, "shortcut=") && !startsWith(body, "bigram=") {
                // A one-space line of another kind (` ngram=` in newer AOSP lists): kept verbatim.
                child(raw: bytes, body: body, kind: nil)
            } else {
                report(.error, line: lineNumber, "entry without word=: `\(preview(body))`; expected ` word=WORD,f=N,…`")
            }
        default:
            child(raw: bytes, body: body, kind: indent == 2 ? body : nil)
        }
    }

    private func isKeyValue(_ body: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let eq = body.firstIndex(of: CombinedFormat.assignment), eq > 0 else { return false }
        return !body[..<eq].contains(CombinedFormat.separator)
    }

    private mutating func header(_ body: UnsafeBufferPointer<UInt8>) {
        sawHeader = true
        split(body)
        var attributes: [Lexicon.HeaderAttribute] = []
        for field in fields {
            guard field.valueStart >= 0, field.keyEnd > field.keyStart else {
                report(.error, line: lineNumber, "header attribute `\(text(body, field.keyStart, field.end))` is not key=value; expected `key=value` separated by commas")
                continue
            }
            guard let key = string(body, field.keyStart, field.keyEnd, escaped: false),
                  let value = string(body, field.valueStart, field.end, escaped: field.escaped) else { continue }
            attributes.append(.init(key: key, value: value))
        }
        lexicon.headers[lexicon.headers.count - 1] = attributes
    }

    private mutating func entry(_ body: UnsafeBufferPointer<UInt8>) {
        current = nil
        sawEntry = true
        skipping = false
        childPosition = 0
        split(body)
        var word: String?
        var frequency: Int?
        var original: Int?
        var flags: String?
        var attributes: LexiconAttributes = []
        var extra: [LexiconEntry.ExtraKey] = []
        var typedSeen = 0          // bit i: CombinedFormat.typedKeyOrder[i] seen
        var lastTyped = -1
        var outOfOrder = false
        var otherKeys: [String] = []
        var ok = true
        for (position, field) in fields.enumerated() {
            guard field.valueStart >= 0, field.keyEnd > field.keyStart else {
                report(.error, line: lineNumber, "`\(text(body, field.keyStart, field.end))` is not key=value; expected `key=value` fields separated by commas")
                ok = false
                continue
            }
            // Typed keys are recognized by their bytes; only other keys become strings.
            let typed = Self.typedKeyIndex(body, field)
            let key: String
            if let typed {
                key = CombinedFormat.typedKeyOrder[typed]
                if typedSeen & (1 << typed) != 0 {
                    report(.error, line: lineNumber, "key `\(key)` appears twice; expected each key once per line")
                    ok = false
                    continue
                }
                typedSeen |= 1 << typed
                if typed < lastTyped { outOfOrder = true }
                lastTyped = typed
            } else {
                guard let other = string(body, field.keyStart, field.keyEnd, escaped: false) else { ok = false; continue }
                if otherKeys.contains(other) {
                    report(.error, line: lineNumber, "key `\(other)` appears twice; expected each key once per line")
                    ok = false
                    continue
                }
                otherKeys.append(other)
                key = other
            }
            switch key {
            case CombinedFormat.wordTag:
                guard let value = string(body, field.valueStart, field.end, escaped: field.escaped) else { ok = false; continue }
                if value.isEmpty {
                    report(.error, line: lineNumber, "empty word=; expected the word after `word=`")
                    ok = false
                }
                word = value
            case CombinedFormat.frequencyTag:
                frequency = number(body, field, key: key, range: CombinedFormat.frequencyRange)
                if frequency == nil { ok = false }
            case CombinedFormat.originalFrequencyTag:
                original = number(body, field, key: key, range: 0...Int(Int32.max))
                if original == nil { ok = false }
            case CombinedFormat.flagsTag:
                flags = string(body, field.valueStart, field.end, escaped: field.escaped)
                if flags == nil { ok = false }
            case CombinedFormat.notAWordTag, CombinedFormat.possiblyOffensiveTag:
                let value = text(body, field.valueStart, field.end)
                if value == CombinedFormat.trueValue {
                    attributes.insert(key == CombinedFormat.notAWordTag ? .notAWord : .possiblyOffensive)
                } else if value == CombinedFormat.falseValue {
                    extra.append(.init(position: position, key: key, value: value))
                } else {
                    report(.error, line: lineNumber, "\(key)=\(value): expected \(key)=true or \(key)=false")
                    ok = false
                }
            default:
                guard let value = string(body, field.valueStart, field.end, escaped: field.escaped) else { ok = false; continue }
                extra.append(.init(position: position, key: key, value: value))
            }
        }
        if frequency == nil && typedSeen & (1 << 1) == 0 {
            report(.error, line: lineNumber, "no f= in the entry; expected ` word=WORD,f=N` with N from 0 to 255")
            ok = false
        }
        guard ok, let word, let frequency else { skipping = true; return }
        if outOfOrder {
            let written = CombinedFormat.typedKeyOrder.indices.filter { typedSeen & (1 << $0) != 0 }
                .map { CombinedFormat.typedKeyOrder[$0] }.joined(separator: ",")
            report(.warning, line: lineNumber, "keys in an unusual order; expected \(written) (the export writes that order)")
        }
        if let first = seen[word] {
            report(.warning, line: lineNumber, "duplicate word `\(word)` (first at \(first.file):\(first.line)); expected each word once; this entry and its child lines are dropped")
            skipping = true
            return
        }
        seen[word] = (path, lineNumber)
        if original == nil { attributes.insert(.noOriginalFrequency) }
        lexicon.entries.append(LexiconEntry(
            word: word, frequency: frequency, originalFrequency: original, flags: flags,
            attributes: attributes, extraKeys: extra))
        current = lexicon.entries.count - 1
        entries += 1
    }

    /// A child line; `kind` is the body when the line is indented by exactly two spaces.
    private mutating func child(raw: UnsafeBufferPointer<UInt8>, body: UnsafeBufferPointer<UInt8>, kind: UnsafeBufferPointer<UInt8>?) {
        guard sawEntry else {
            report(.error, line: lineNumber, "child line before any word: `\(preview(body))`; expected an entry ` word=…` above it")
            return
        }
        // Under a dropped entry the line is still checked, but not kept.
        let index = skipping ? nil : current
        defer { childPosition += 1 }
        if let kind, startsWith(kind, CombinedFormat.shortcutTag + "=") || startsWith(kind, CombinedFormat.bigramTag + "=") {
            let isShortcut = startsWith(kind, CombinedFormat.shortcutTag + "=")
            split(kind)
            let tag = isShortcut ? CombinedFormat.shortcutTag : CombinedFormat.bigramTag
            guard fields.count >= 2, fields[1].valueStart >= 0,
                  text(kind, fields[1].keyStart, fields[1].keyEnd) == CombinedFormat.frequencyTag else {
                report(.error, line: lineNumber, "\(tag) line without f= after its target; expected `  \(tag)=WORD,f=N`")
                return
            }
            guard let target = string(kind, fields[0].valueStart, fields[0].end, escaped: fields[0].escaped) else { return }
            if target.isEmpty {
                report(.error, line: lineNumber, "empty \(tag)=; expected `  \(tag)=WORD,f=N`")
                return
            }
            let extra: String? = fields.count > 2 ? text(kind, fields[1].end, kind.count) : nil
            if isShortcut {
                var frequency: Int?
                if text(kind, fields[1].valueStart, fields[1].end) != CombinedFormat.whitelistFrequency {
                    guard let f = number(kind, fields[1], key: "f", range: CombinedFormat.frequencyRange, expected: "an integer from 0 to 255 or `whitelist`") else { return }
                    frequency = f
                }
                if let index { lexicon.entries[index].children.append(.shortcut(target: target, frequency: frequency, extra: extra)) }
            } else {
                guard let f = number(kind, fields[1], key: "f", range: CombinedFormat.frequencyRange) else { return }
                if let index { lexicon.entries[index].children.append(.bigram(next: target, frequency: f, extra: extra)) }
            }
            return
        }
        guard let line = string(raw, 0, raw.count, escaped: false), let index else { return }
        lexicon.entries[index].children.append(.other(line: line))
    }

    // MARK: - Fields

    /// Splits `body` at commas not preceded by a backslash escape into ``fields``.
    private mutating func split(_ body: UnsafeBufferPointer<UInt8>) {
        fields.removeAll(keepingCapacity: true)
        var start = 0, eq = -1, escaped = false, i = 0
        let n = body.count
        while i < n {
            let b = body[i]
            if b == CombinedFormat.escape {
                escaped = true
                i += 2
                continue
            }
            if b == CombinedFormat.assignment && eq < 0 { eq = i }
            if b == CombinedFormat.separator {
                fields.append(Field(keyStart: start, keyEnd: eq < 0 ? i : eq, valueStart: eq < 0 ? -1 : eq + 1, end: i, escaped: escaped))
                start = i + 1; eq = -1; escaped = false
            }
            i += 1
        }
        fields.append(Field(keyStart: start, keyEnd: eq < 0 ? n : eq, valueStart: eq < 0 ? -1 : eq + 1, end: n, escaped: escaped))
    }

    /// The UTF-8 text of `body[from..<to]`, unescaped when `escaped`; reports and returns nil
    /// on invalid UTF-8 or a bad escape.
    private mutating func string(_ body: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, escaped: Bool) -> String? {
        let slice = UnsafeBufferPointer(rebasing: body[from..<min(to, body.count)])
        // A NUL would cut the word wherever C strings carry it (SQLite's text functions, the keyboard).
        if slice.contains(0) {
            report(.error, line: lineNumber, "NUL byte (\\0) in `\(text(body, from, to).replacingOccurrences(of: "\u{0}", with: "\\0"))`; expected text without NUL bytes")
            return nil
        }
        var decoded: String?
        if escaped {
            unescapeBuffer.removeAll(keepingCapacity: true)
            var i = 0
            while i < slice.count {
                if slice[i] == CombinedFormat.escape {
                    guard i + 1 < slice.count, slice[i + 1] == CombinedFormat.separator || slice[i + 1] == CombinedFormat.escape else {
                        report(.error, line: lineNumber, "bad escape in `\(text(body, from, to))`; expected `\\,` (comma) or `\\\\` (backslash) after a backslash")
                        return nil
                    }
                    i += 1
                }
                unescapeBuffer.append(slice[i])
                i += 1
            }
            decoded = unescapeBuffer.withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) }
        } else {
            decoded = String(validating: slice, as: UTF8.self)
        }
        if decoded == nil {
            report(.error, line: lineNumber, "invalid UTF-8 in `\(text(body, from, to))`; expected the list to be UTF-8 text")
        }
        return decoded
    }

    /// The integer value of `field`, or nil (reported) when it is not a number in `range`.
    private mutating func number(_ body: UnsafeBufferPointer<UInt8>, _ field: Field, key: String, range: ClosedRange<Int>, expected: String? = nil) -> Int? {
        var value = 0, digits = 0
        var i = field.valueStart
        while i < field.end, digits <= 10 {
            let d = Int(body[i]) - 48
            guard d >= 0 && d <= 9 else { digits = 0; break }
            value = value * 10 + d
            digits += 1
            i += 1
        }
        if digits > 0, i == field.end, digits <= 10, range.contains(value) { return value }
        let raw = text(body, field.valueStart, field.end)
        let wanted = expected ?? "an integer from \(range.lowerBound) to \(range.upperBound)"
        guard digits > 0, i == field.end else {
            report(.error, line: lineNumber, "\(key)=\(raw) is not a number; expected \(wanted)")
            return nil
        }
        guard digits <= 10, range.contains(value) else {
            report(.error, line: lineNumber, "\(key)=\(raw) is out of range; expected \(wanted)")
            return nil
        }
        return value
    }

    private static let typedKeyBytes: [[UInt8]] = CombinedFormat.typedKeyOrder.map { Array($0.utf8) }

    /// The index in ``CombinedFormat/typedKeyOrder`` of the field's key, if it is a typed one.
    @inline(__always)
    private static func typedKeyIndex(_ body: UnsafeBufferPointer<UInt8>, _ field: Field) -> Int? {
        let length = field.keyEnd - field.keyStart
        for (index, bytes) in typedKeyBytes.enumerated() where bytes.count == length {
            var equal = true
            for j in 0..<length where body[field.keyStart + j] != bytes[j] { equal = false; break }
            if equal { return index }
        }
        return nil
    }

    private func startsWith(_ body: UnsafeBufferPointer<UInt8>, _ prefix: String) -> Bool {
        var i = 0
        for b in prefix.utf8 {
            guard i < body.count, body[i] == b else { return false }
            i += 1
        }
        return true
    }

    /// Lossy text of a byte range, for messages.
    private func text(_ body: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> String {
        guard from >= 0, from <= to else { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: body[from..<min(to, body.count)]), as: UTF8.self)
    }

    /// The start of a line, for messages.
    private func preview(_ body: UnsafeBufferPointer<UInt8>) -> String {
        let s = text(body, 0, min(body.count, 60))
        return body.count > 60 ? s + "…" : s
    }
}
