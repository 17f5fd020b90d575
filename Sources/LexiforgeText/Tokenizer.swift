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
    /// Treebank mode: this token is a further syntactic word of the written token before it
    /// ("n't" after "do" in "don't"); never set in keyboard mode.
    public var continuesToken: Bool = false
}

/// How the tokenizer treats contractions and hyphenated compounds.
public enum TokenizerMode: String, Sendable, CaseIterable, Codable {
    /// The default for training: a token is what a person types as one word. "don't" and
    /// "well-known" stay whole.
    case keyboard
    /// Universal Dependencies (English EWT) conventions, so output can be scored against gold:
    /// clitics split off as further words of the same written token ("do" + "n't", "it" + "'s",
    /// "can" + "not", "gon" + "na"), and hyphens between words are tokens of their own
    /// ("so - called") except after bound prefixes ("e-mail", "non-human", "re-elect") and inside
    /// phone numbers ("713-853-3989").
    case treebank
}

/// The tokenizer for English-like text in UTF-8, with correct Unicode beyond ASCII.
///
/// In: one line of UTF-8 bytes. Out: tokens as byte ranges into that line, in order.
/// Rules, in the spirit of what a keyboard user types as one word:
/// - a word is a run of letters and digits (any script); an apostrophe (`'` or `’`) between a
///   letter before and a letter after stays inside (`don't`, `it’s`, `o'clock`), as does a single
///   hyphen between letters or digits (`well-known`; see ``TokenizerMode`` for treebank mode),
///   `.`/`,` between digits (`3.14`, `1,000`), `:` and `/` between digits (`5:30`, `11/28/2000`)
///   and `.` between letters or digits (`Amazon.com`, `report.doc`);
/// - a period after a known abbreviation (`Mr.`, `Mrs.`, `Dr.`, `St.`, `etc.`, ...), after a single
///   capital initial (`J.`), or after a dotted abbreviation (`U.S.`, `e.g.`, `Ph.D.`) stays attached;
/// - URLs (`https://…`, `www.…`) and e-mail addresses (`name@host.org`) are one token, without
///   trailing sentence punctuation;
/// - CJK text has no spaces and no dictionary here, so runs split where the script changes:
///   Han followed by hiragana stays together (okurigana: `食べる`), every other change of script
///   (Latin|Han, hiragana|Han, Han|katakana, ...) starts a new token; `。！？` are terminals;
/// - emoji are one token each, with their modifiers, variation selectors and ZWJ sequences
///   (`👍🏽`, `👨‍👩‍👧`, flags); emoticons (`:)`, `:-(`, `;D`) are one token;
/// - every other punctuation character is a token of its own; `...`, `--` and `—` are single tokens.
///
/// - Complexity: O(line length); the ASCII path looks at each byte a constant number of times.
public struct Tokenizer: Sendable {
    public let mode: TokenizerMode
    /// Words that start with an ASCII letter or digit take ``scanASCIIWordToken(_:from:spaceBefore:into:)``
    /// (off only in tests, which check that both paths give the same tokens).
    let asciiFastPath: Bool

    public init(mode: TokenizerMode = .keyboard) {
        self.init(mode: mode, asciiFastPath: true)
    }

    package init(mode: TokenizerMode, asciiFastPath: Bool) {
        self.mode = mode
        self.asciiFastPath = asciiFastPath
    }

    /// Abbreviations whose trailing period belongs to the word (case-sensitive).
    public static let abbreviations: Set<[UInt8]> = Set([
        "Mr", "Mrs", "Ms", "Messrs", "Mme", "Mlle", "Dr", "St", "Jr", "Sr", "Prof", "Rev", "Gen", "Col",
        "Capt", "Lt", "Sgt", "Hon", "Gov", "Mt", "vs", "etc", "viz", "cf", "ca", "No", "Vol", "vol",
        "ch", "Ch", "pp", "fig", "Fig", "Co", "Inc", "Ltd", "Bros", "Esq", "Jan", "Feb", "Mar", "Apr",
        "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat",
        "approx", "dept", "est", "Ave", "Blvd", "Rd", "Corp", "Ft", "Sen", "Rep", "Pres", "Adm",
        "Maj", "Hwy", "Univ", "Assn", "Dist",
        // US states as newspapers abbreviate them (not Ill., Ind., Miss., Me.: words too).
        "Ala", "Ariz", "Ark", "Calif", "Colo", "Conn", "Fla", "Ga", "Kan", "Ky", "La", "Md", "Mass",
        "Mich", "Minn", "Neb", "Nev", "Okla", "Ore", "Pa", "Penn", "Tenn", "Tex", "Va", "Vt", "Wash",
        "Wis", "Wyo",
    ].map { Array($0.utf8) })

    /// Titles: an abbreviation that is never the last word of a sentence (the sentence splitter
    /// may end a sentence after "Inc." or "U.S." but not after "Mr.").
    public static let titles: Set<[UInt8]> = Set([
        "Mr", "Mrs", "Ms", "Messrs", "Mme", "Mlle", "Dr", "Prof", "Rev", "Gen", "Col", "Capt", "Lt",
        "Sgt", "Hon", "Gov", "Sen", "Rep", "Pres", "Adm", "Maj", "St", "Mt", "Ft", "No", "Vol", "vol",
        "vs", "cf", "viz", "ca", "approx", "fig", "Fig", "pp", "ch", "Ch",
    ].map { Array($0.utf8) })

    /// Bound prefixes whose hyphen stays inside the word in treebank mode (UD English keeps
    /// "e-mail", "non-human", "re-elect" whole and splits "so - called", "follow - up").
    static let boundPrefixes: Set<[UInt8]> = Set([
        "e", "non", "pre", "anti", "mid", "re", "post", "co", "over", "pro", "multi", "ex", "sub",
        "semi", "cross", "neo", "psycho", "socio", "counter", "intra", "micro", "macro",
        "un", "mega", "ultra", "bi", "tri", "quasi", "pseudo", "trans", "mis", "hyper", "arch",
    ].map { Array($0.utf8) })

    /// Appends the tokens of `line` to `tokens`.
    public func tokenize(_ line: UnsafeBufferPointer<UInt8>, into tokens: inout [Token]) {
        let n = line.count
        var i = 0
        var space = true
        while i < n {
            let c = line[i]
            if c < 0x80 {
                if asciiFastPath && Self.isASCIIWordByte(c) {
                    i = scanASCIIWordToken(line, from: i, spaceBefore: space, into: &tokens)
                    space = false
                    continue
                }
                if Self.isASCIIWordByte(c) {
                    let start = i
                    if let urlEnd = scanURL(line, from: i) {
                        tokens.append(Token(start: start, end: urlEnd, kind: .word, spaceBefore: space,
                                            startsLowercase: c >= 0x61 && c <= 0x7A))
                        i = urlEnd
                        space = false
                        continue
                    }
                    i = scanWord(line, from: i)
                    if let emailEnd = scanEmail(line, start: start, end: i) {
                        tokens.append(Token(start: start, end: emailEnd, kind: .word, spaceBefore: space,
                                            startsLowercase: c >= 0x61 && c <= 0x7A))
                        i = emailEnd
                        space = false
                        continue
                    }
                    i = attachAbbreviationPeriod(line, start: start, end: i)
                    i = appendWord(line, start: start, end: i, spaceBefore: space, into: &tokens)
                    space = false
                    continue
                }
                if c == 0x20 || c == 0x09 || c == 0x0B || c == 0x0C || c == 0x0D || c == 0 {
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
                    if mode == .treebank {   // ?!?! is one token in UD English
                        while i < n && (line[i] == UInt8(ascii: "!") || line[i] == UInt8(ascii: "?")) { i += 1 }
                    }
                    kind = .terminal
                case UInt8(ascii: "-"):
                    while i < n && line[i] == UInt8(ascii: "-") { i += 1 }
                case UInt8(ascii: "'") where i + 2 < n && Self.isDigit(line[i + 1]) && Self.isDigit(line[i + 2])
                        && (i + 3 == n || !Self.isASCIIWordByte(line[i + 3])) && space:
                    i += 3   // '72: a year with its century left out
                    kind = .word
                case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    i += 1
                    if mode == .treebank && c != UInt8(ascii: ")") && c != UInt8(ascii: "]") && c != UInt8(ascii: "}") {
                        while i < n && line[i] == c { i += 1 }   // '' as one token
                    }
                    kind = .closing
                case UInt8(ascii: "*"), UInt8(ascii: "="), UInt8(ascii: "~"), UInt8(ascii: "#"), UInt8(ascii: "+"),
                     UInt8(ascii: "_"), UInt8(ascii: "<"), UInt8(ascii: ">"):
                    i += 1
                    if mode == .treebank { while i < n && line[i] == c { i += 1 } }   // *** and == as one token
                case UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "="):
                    i = emoticonEnd(line, from: i, spaceBefore: space) ?? i + 1
                default:
                    i += 1
                }
                tokens.append(Token(start: start, end: i, kind: kind, spaceBefore: space, startsLowercase: false))
                space = false
                continue
            }
            i = tokenizeNonASCII(line, at: i, space: &space, into: &tokens)
        }
    }

    /// The token (or whitespace) that starts with the non-ASCII scalar at `i`; returns where it ends.
    /// Out of line: the Unicode property lookups stay out of ``tokenize(_:into:)``'s ASCII loop.
    @inline(never)
    func tokenizeNonASCII(_ line: UnsafeBufferPointer<UInt8>, at i: Int, space: inout Bool, into tokens: inout [Token]) -> Int {
        let n = line.count
        let (scalar, length) = Self.decode(line, at: i)
        if Self.isWordScalar(scalar) {
            let end = appendWord(line, start: i, end: scanWord(line, from: i), spaceBefore: space, into: &tokens,
                                 startsLowercase: scalar.properties.isLowercase)
            space = false
            return end
        }
        if scalar.properties.isWhitespace {
            space = true
            return i + length
        }
        let kind: TokenKind
        switch scalar.value {
        case 0x2026, 0x3002, 0xFF0E, 0xFF01, 0xFF1F: kind = .terminal               // … 。 ． ！ ？
        case 0x201D, 0x2019, 0x00BB, 0x203A, 0x300D, 0x300F, 0xFF09: kind = .closing  // ” ’ » › 」 』 ）
        default: kind = .punctuation
        }
        var end = Self.emojiSequenceEnd(line, scalar: scalar, at: i, length: length)
        if mode == .treebank, scalar.value == 0x2018 || scalar.value == 0x2019 || scalar.value == 0x201C || scalar.value == 0x201D,
           end + 3 <= n, line[end] == 0xE2, line[end + 1] == 0x80, line[end + 2] == 0x98 || line[end + 2] == 0x99 {
            end += 3   // ‘’ and ’’ (typed for ”) are one token in UD English
        }
        tokens.append(Token(start: i, end: end, kind: kind, spaceBefore: space, startsLowercase: false))
        space = false
        return end
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

    @inline(never)
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
    func isLetter(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        guard i < b.count else { return false }
        let c = b[i]
        if c < 0x80 { return (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) }
        return Self.isAlphabetic(Self.decode(b, at: i).0)
    }

    /// Out of line, so that callers on the ASCII path carry no Unicode property lookups.
    @inline(never)
    static func isAlphabetic(_ s: Unicode.Scalar) -> Bool { s.properties.isAlphabetic }

    @inline(__always)
    func isWordStart(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        guard i < b.count else { return false }
        let c = b[i]
        if c < 0x80 { return Self.isASCIIWordByte(c) }
        return Self.isWordScalar(Self.decode(b, at: i).0)
    }

    @inline(__always)
    static func isLetterByte(_ c: UInt8) -> Bool { (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) }
}
