/// The fast path for words that start with an ASCII letter or digit, most words of English text:
/// a tight loop over the run of ASCII letters and digits, and the general rules (joiners in
/// ``scanWord(_:start:resumingAt:)``, URLs, e-mail addresses, abbreviation periods, treebank
/// clitics) only when the bytes around the run call for them. It gives exactly the tokens of the
/// general path (the tests compare both on tricky lines).
extension Tokenizer {
    /// Appends the word token (or tokens, in treebank mode) starting with the ASCII letter or
    /// digit at `start`; returns where it ends.
    @inline(__always)
    func scanASCIIWordToken(_ line: UnsafeBufferPointer<UInt8>, from start: Int, spaceBefore: Bool,
                            into tokens: inout [Token]) -> Int {
        let n = line.count
        let c = line[start]
        let lower = c >= 0x61 && c <= 0x7A
        if Self.mayStartURL(line, at: start), let urlEnd = scanURL(line, from: start) {
            tokens.append(Token(start: start, end: urlEnd, kind: .word, spaceBefore: spaceBefore, startsLowercase: lower))
            return urlEnd
        }
        var i = start + 1
        while i < n && Self.isASCIIWordByte(line[i]) { i += 1 }
        if i < n && !Self.endsASCIIRun(line, at: i) { i = scanWord(line, start: start, resumingAt: i) }
        if i < n {
            if line[i] == UInt8(ascii: "@"), let emailEnd = scanEmail(line, start: start, end: i) {
                tokens.append(Token(start: start, end: emailEnd, kind: .word, spaceBefore: spaceBefore, startsLowercase: lower))
                return emailEnd
            }
            if line[i] == UInt8(ascii: ".") { i = attachAbbreviationPeriod(line, start: start, end: i) }
        }
        guard mode == .keyboard else { return appendWord(line, start: start, end: i, spaceBefore: spaceBefore, into: &tokens) }
        tokens.append(Token(start: start, end: i, kind: .word, spaceBefore: spaceBefore, startsLowercase: lower))
        return i
    }

    /// Whether a URL may start at `i` (``scanURL(_:from:)`` needs `http`, `https`, `ftp` or `www.`
    /// and at least one byte after it): a cheap test that spares most words the full check.
    @inline(__always)
    static func mayStartURL(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        guard i + 4 < b.count else { return false }
        let c = b[i] | 0x20, d = b[i + 1] | 0x20
        return ((c == UInt8(ascii: "h") || c == UInt8(ascii: "f")) && d == UInt8(ascii: "t"))
            || (c == UInt8(ascii: "w") && d == UInt8(ascii: "w"))
    }

    /// Whether the byte at `i`, after a run of ASCII letters and digits, certainly ends the word:
    /// only an apostrophe, a hyphen, a non-ASCII scalar, `.` before a letter or digit, or `,` `:`
    /// `/` between digits may continue it (``scanWord(_:start:resumingAt:)`` decides those).
    @inline(__always)
    static func endsASCIIRun(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        let c = b[i]
        switch c {
        case 0x20:
            return true
        case UInt8(ascii: "."):
            return !(i + 1 < b.count && isASCIIWordByte(b[i + 1]))
        case UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "/"):
            return !(isDigit(b[i - 1]) && i + 1 < b.count && isDigit(b[i + 1]))
        case UInt8(ascii: "'"), UInt8(ascii: "-"):
            return false
        default:
            return c < 0x80
        }
    }

    /// ``abbreviations`` of up to 7 bytes, packed by ``packed(_:start:end:)``, so that a word
    /// before a period is looked up without making an array.
    package static let packedAbbreviations: Set<UInt64> = Set(abbreviations.filter { $0.count <= 7 }.map { word in
        word.withUnsafeBufferPointer { packed($0, start: 0, end: word.count) }
    })

    /// The bytes `start..<end` (at most 8, none zero) in one integer, first byte lowest; distinct
    /// words give distinct integers.
    @inline(__always)
    static func packed(_ b: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> UInt64 {
        var value: UInt64 = 0
        var k = end
        while k > start {
            k -= 1
            value = value << 8 | UInt64(b[k])
        }
        return value
    }
}
