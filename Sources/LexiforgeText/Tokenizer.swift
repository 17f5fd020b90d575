/// What kind of token the tokenizer produced; the sentence splitter decides boundaries from it.
public enum TokenKind: UInt8, Sendable {
    /// Letters, digits, and the joiners inside them: don't, it’s, well-known, 3.14, 1,000, 10th, Mr., U.S.
    case word
    /// `.`, `!`, `?`, `...`, `…`: may end a sentence.
    case terminal
    /// A closing quote or bracket: `"`, `'`, `”`, `’`, `»`, `)`, `]`, `}`.
    case closing
    /// Any other punctuation or symbol, one character each (`--` and runs of hyphens are one token).
    case punctuation
}

/// One token of a line: a byte range plus what the sentence splitter needs to know.
public struct Token: Sendable, Equatable {
    public var start: Int
    public var end: Int
    public var kind: TokenKind
    /// Whitespace (or the start of the line) precedes the token.
    public var spaceBefore: Bool
    /// The first character is a lowercase letter.
    public var startsLowercase: Bool
}

/// A first real tokenizer for English-like text in UTF-8.
///
/// In: one line of UTF-8 bytes. Out: tokens as byte ranges into that line, in order.
/// Rules, in the spirit of what a keyboard user types as one word:
/// - a word is a run of letters and digits (any script); an apostrophe (`'` or `’`) between a
///   letter before and a letter after stays inside (`don't`, `it’s`, `o'clock`), as does a single
///   hyphen between letters or digits (`well-known`) and `.`/`,` between digits (`3.14`, `1,000`);
/// - a period after a known abbreviation (`Mr.`, `Mrs.`, `Dr.`, `St.`, `etc.`, ...), after a single
///   capital initial (`J.`), or inside a dotted abbreviation (`U.S.`, `e.g.`) stays attached;
/// - every other punctuation character is a token of its own; `...` and `--` are single tokens.
///
/// - Complexity: O(line length); the ASCII path looks at each byte a constant number of times.
public struct Tokenizer: Sendable {
    public init() {}

    /// Abbreviations whose trailing period belongs to the word (case-sensitive).
    public static let abbreviations: Set<[UInt8]> = Set([
        "Mr", "Mrs", "Ms", "Messrs", "Mme", "Mlle", "Dr", "St", "Jr", "Sr", "Prof", "Rev", "Gen", "Col",
        "Capt", "Lt", "Sgt", "Hon", "Gov", "Mt", "vs", "etc", "viz", "cf", "ca", "No", "Vol", "vol",
        "ch", "Ch", "pp", "fig", "Fig", "Co", "Inc", "Ltd", "Bros", "Esq", "Jan", "Feb", "Mar", "Apr",
        "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat",
        "Sun", "approx", "dept", "est", "Ave", "Blvd", "Rd",
    ].map { Array($0.utf8) })

    /// Appends the tokens of `line` to `tokens`.
    public func tokenize(_ line: UnsafeBufferPointer<UInt8>, into tokens: inout [Token]) {
        let n = line.count
        var i = 0
        var space = true
        while i < n {
            let c = line[i]
            if c < 0x80 {
                if Self.isASCIIWordByte(c) {
                    let start = i
                    i = scanWord(line, from: i)
                    i = attachAbbreviationPeriod(line, start: start, end: i)
                    tokens.append(Token(start: start, end: i, kind: .word, spaceBefore: space,
                                        startsLowercase: c >= 0x61 && c <= 0x7A))
                    space = false
                    continue
                }
                if c == 0x20 || c == 0x09 || c == 0x0B || c == 0x0C || c == 0x0D {
                    space = true
                    i += 1
                    continue
                }
                let start = i
                var kind = TokenKind.punctuation
                switch c {
                case UInt8(ascii: "."):
                    while i < n && line[i] == UInt8(ascii: ".") { i += 1 }
                    kind = .terminal
                case UInt8(ascii: "!"), UInt8(ascii: "?"):
                    i += 1
                    kind = .terminal
                case UInt8(ascii: "-"):
                    while i < n && line[i] == UInt8(ascii: "-") { i += 1 }
                case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    i += 1
                    kind = .closing
                default:
                    i += 1
                }
                tokens.append(Token(start: start, end: i, kind: kind, spaceBefore: space, startsLowercase: false))
                space = false
                continue
            }
            // Non-ASCII: decode one scalar.
            let (scalar, length) = Self.decode(line, at: i)
            if Self.isWordScalar(scalar) {
                let start = i
                i = scanWord(line, from: i)
                tokens.append(Token(start: start, end: i, kind: .word, spaceBefore: space,
                                    startsLowercase: scalar.properties.isLowercase))
                space = false
                continue
            }
            if scalar.properties.isWhitespace {
                space = true
                i += length
                continue
            }
            let kind: TokenKind
            switch scalar.value {
            case 0x2026: kind = .terminal                                  // …
            case 0x201D, 0x2019, 0x00BB, 0x203A: kind = .closing           // ” ’ » ›
            default: kind = .punctuation
            }
            tokens.append(Token(start: i, end: i + length, kind: kind, spaceBefore: space, startsLowercase: false))
            space = false
            i += length
        }
    }

    /// Convenience for tests and tools: the tokens of a string, as strings.
    public func tokens(of text: String) -> [String] {
        var bytes = Array(text.utf8)
        var tokens: [Token] = []
        bytes.withUnsafeMutableBufferPointer { tokenize(UnsafeBufferPointer($0), into: &tokens) }
        return tokens.map { String(decoding: bytes[$0.start..<$0.end], as: UTF8.self) }
    }

    // MARK: - Scanning

    @inline(__always)
    static func isASCIIWordByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
    }

    @inline(__always)
    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        if s.value < 0x80 { return isASCIIWordByte(UInt8(s.value)) }
        let p = s.properties
        if p.isAlphabetic { return true }
        switch p.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    /// Decodes the scalar at `i` (input is valid UTF-8: the corpus reader checked it).
    @inline(__always)
    static func decode(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, Int) {
        let c = b[i]
        if c < 0x80 { return (Unicode.Scalar(c), 1) }
        let n = b.count
        var value: UInt32
        var length: Int
        if c >= 0xF0 { value = UInt32(c & 0x07); length = 4 }
        else if c >= 0xE0 { value = UInt32(c & 0x0F); length = 3 }
        else { value = UInt32(c & 0x1F); length = 2 }
        guard i + length <= n else { return ("\u{FFFD}", 1) }
        for k in 1..<length { value = (value << 6) | UInt32(b[i + k] & 0x3F) }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    /// Is the character at `i` a letter (for apostrophe joining)?
    @inline(__always)
    private func isLetter(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        guard i < b.count else { return false }
        let c = b[i]
        if c < 0x80 { return (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) }
        return Self.decode(b, at: i).0.properties.isAlphabetic
    }

    @inline(__always)
    private func isWordStart(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        guard i < b.count else { return false }
        let c = b[i]
        if c < 0x80 { return Self.isASCIIWordByte(c) }
        return Self.isWordScalar(Self.decode(b, at: i).0)
    }

    /// End of the word starting at `i`, joiners included.
    private func scanWord(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let n = b.count
        var i = start
        var previous = start   // first byte of the scalar before i (for the apostrophe rule)
        while i < n {
            let c = b[i]
            if c < 0x80 {
                if Self.isASCIIWordByte(c) { previous = i; i += 1; continue }
                switch c {
                case UInt8(ascii: "'"):
                    if i > start, isLetter(b, at: previous), isLetter(b, at: i + 1) { previous = i; i += 1; continue }
                case UInt8(ascii: "-"):
                    if i + 1 < n, b[i + 1] != UInt8(ascii: "-"), isWordStart(b, at: i + 1) { previous = i; i += 1; continue }
                case UInt8(ascii: "."), UInt8(ascii: ","):
                    if Self.isDigit(b[i - 1]), i + 1 < n, Self.isDigit(b[i + 1]) { previous = i; i += 1; continue }
                default:
                    break
                }
                return i
            }
            let (scalar, length) = Self.decode(b, at: i)
            if Self.isWordScalar(scalar) { previous = i; i += length; continue }
            if scalar.value == 0x2019, i > start, isLetter(b, at: previous), isLetter(b, at: i + length) {
                previous = i
                i += length
                continue
            }
            return i
        }
        return i
    }

    /// Extends a word over a following period when the word is an abbreviation or an initial.
    private func attachAbbreviationPeriod(_ b: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Int {
        let n = b.count
        guard end < n, b[end] == UInt8(ascii: ".") else { return end }
        // "..." is an ellipsis, not an abbreviation period.
        if end + 1 < n && b[end + 1] == UInt8(ascii: ".") { return end }
        let length = end - start
        // Dotted abbreviations: U.S., e.g., i.e., a.m. (single letters separated by periods).
        if length == 1, Self.isLetterByte(b[start]) {
            var j = end
            var letters = 1
            while j + 1 < n, b[j] == UInt8(ascii: "."), Self.isLetterByte(b[j + 1]),
                  j + 2 >= n || !Self.isASCIIWordByte(b[j + 2]) {
                j += 2
                letters += 1
            }
            if letters > 1 {
                return j < n && b[j] == UInt8(ascii: ".") ? j + 1 : j
            }
            // A single capital initial (J. Smith), but not the pronoun I.
            let c = b[start]
            if c >= 0x41 && c <= 0x5A && c != UInt8(ascii: "I") { return end + 1 }
            return end
        }
        guard length <= 7 else { return end }
        let word = Array(UnsafeBufferPointer(rebasing: b[start..<end]))
        return Self.abbreviations.contains(word) ? end + 1 : end
    }

    @inline(__always)
    static func isLetterByte(_ c: UInt8) -> Bool { (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) }
}
