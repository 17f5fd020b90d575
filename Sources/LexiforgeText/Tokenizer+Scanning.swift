/// The scanning rules of ``Tokenizer``: words and their joiners, abbreviations, URLs, e-mail
/// addresses, emoticons, emoji sequences, CJK script changes and treebank clitics.
extension Tokenizer {
    /// Script families that decide where a CJK run splits (0 = not CJK).
    @inline(__always)
    static func cjkFamily(_ v: UInt32) -> UInt8 {
        if v < 0x3000 { return 0 }
        switch v {
        case 0x3041...0x309F: return 2                                    // hiragana
        case 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return 3  // katakana (ー included)
        case 0x3005, 0x3007, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F:
            return 1                                                      // Han (々 〇 included)
        default: return 0
        }
    }

    /// Whether a word may continue from script family `a` into `b` without a token boundary.
    @inline(__always)
    static func cjkJoins(_ a: UInt8, _ b: UInt8) -> Bool { a == b || (a == 1 && b == 2) }

    /// End of the word starting at `start`, joiners included.
    func scanWord(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        scanWord(b, start: start, resumingAt: start)
    }

    /// End of the word starting at `start`, resuming at `resume` when `start..<resume` are
    /// ASCII letters and digits (as ``scanASCIIWordToken(_:from:spaceBefore:into:)`` found them).
    func scanWord(_ b: UnsafeBufferPointer<UInt8>, start: Int, resumingAt resume: Int) -> Int {
        let n = b.count
        var i = resume
        var previous = resume > start ? resume - 1 : start   // first byte of the scalar before i (for the apostrophe rule)
        var family: UInt8 = 0  // CJK family of the scalar before i
        var segmentStart = start  // start of the current hyphen-separated segment (treebank)
        while i < n {
            let c = b[i]
            if c < 0x80 {
                if Self.isASCIIWordByte(c) {
                    if family != 0 { return i }
                    previous = i; i += 1; continue
                }
                switch c {
                case UInt8(ascii: "'"):
                    if i > start, isLetter(b, at: previous), isLetter(b, at: i + 1) { previous = i; i += 1; continue }
                    // 1960's, AK47's
                    if i > start, Self.isDigit(b[i - 1]), i + 1 < n, b[i + 1] == UInt8(ascii: "s"),
                       i + 2 >= n || !Self.isASCIIWordByte(b[i + 2]) { previous = i + 1; i += 2; continue }
                case UInt8(ascii: "-"):
                    if i + 1 < n, b[i + 1] != UInt8(ascii: "-"), isWordStart(b, at: i + 1),
                       mode == .keyboard || treebankKeepsHyphen(b, segment: segmentStart..<i, first: segmentStart == start) {
                        previous = i; i += 1; segmentStart = i; family = 0; continue
                    }
                case UInt8(ascii: "."):
                    // 3.14, Amazon.com, U.S (the last period is the abbreviation rule's).
                    if i > start, Self.isASCIIWordByte(b[i - 1]), i + 1 < n, Self.isASCIIWordByte(b[i + 1]) {
                        previous = i; i += 1; continue
                    }
                case UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "/"):
                    if i > start, Self.isDigit(b[i - 1]), i + 1 < n, Self.isDigit(b[i + 1]) { previous = i; i += 1; continue }
                default:
                    break
                }
                return i
            }
            let length = wordScalarLength(b, at: i, start: start, previous: previous, family: &family)
            if length == 0 { return i }
            previous = i
            i += length
        }
        return i
    }

    /// Bytes of the non-ASCII scalar at `i` when it continues the word `start..<i`, else 0.
    /// Out of line: the Unicode property lookups stay out of ``scanWord(_:start:resumingAt:)``'s
    /// ASCII loop.
    @inline(never)
    func wordScalarLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int, start: Int, previous: Int, family: inout UInt8) -> Int {
        let (scalar, length) = Self.decode(b, at: i)
        if Self.isWordScalar(scalar) {
            let f = Self.cjkFamily(scalar.value)
            if i > start && f != family {
                // A combining mark or the prolonged sound mark continues whatever came before.
                let continues = scalar.properties.generalCategory == .nonspacingMark
                    || scalar.properties.generalCategory == .spacingMark
                    || (scalar.value == 0x30FC && family != 0)
                if !continues && !Self.cjkJoins(family, f) { return 0 }
                if !continues { family = f }
            } else {
                family = f
            }
            return length
        }
        if scalar.value == 0x2019, i > start, isLetter(b, at: previous), isLetter(b, at: i + length) { return length }
        return 0
    }

    /// Treebank mode: does the hyphen after `segment` stay inside the word?
    /// Yes after a bound prefix (e-mail, non-human) and inside phone numbers (713-853-3989, 1-800-…).
    func treebankKeepsHyphen(_ b: UnsafeBufferPointer<UInt8>, segment: Range<Int>, first: Bool) -> Bool {
        let count = segment.count
        guard count > 0, count <= 7 else { return false }
        var digits = 0
        var lower: [UInt8] = []
        lower.reserveCapacity(count)
        for k in segment {
            let c = b[k]
            if Self.isDigit(c) { digits += 1 }
            lower.append(c >= 0x41 && c <= 0x5A ? c | 0x20 : c)
        }
        if digits == count {
            // Phone numbers: 345-9945, 713-853-3989, 1-800-991-9019 (not ranges like 400-500).
            var j = segment.upperBound + 1
            var next = 0
            while j < b.count, Self.isDigit(b[j]) { next += 1; j += 1 }
            if j < b.count, Self.isASCIIWordByte(b[j]) { return false }
            let continues = j + 1 < b.count && b[j] == UInt8(ascii: "-") && Self.isDigit(b[j + 1])
            let inside = !first && b[segment.lowerBound - 1] == UInt8(ascii: "-")
            return (next == 4 && (count == 3 || inside)) || (next == 3 && continues && (count == 3 || count == 1))
        }
        return first && digits == 0 && Self.boundPrefixes.contains(lower)
    }

    /// Extends a word over a following period when the word is an abbreviation or an initial.
    func attachAbbreviationPeriod(_ b: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Int {
        let n = b.count
        guard end < n, b[end] == UInt8(ascii: ".") else { return end }
        // "..." is an ellipsis, not an abbreviation period; "D.C.." is an abbreviation and a period.
        let doubled = end + 1 < n && b[end + 1] == UInt8(ascii: ".")
        if doubled && end + 2 < n && b[end + 2] == UInt8(ascii: ".") { return end }
        if doubled && !(end > start + 1 && b[end - 2] == UInt8(ascii: ".")) { return end }
        let length = end - start
        // Dotted abbreviations: U.S., e.g., i.e., a.m., Ph.D. (letter groups of one or two).
        var segment = 0
        var dotted = false
        var allLetters = true
        for k in start..<end {
            let c = b[k]
            if c == UInt8(ascii: ".") {
                dotted = true
                if segment == 0 || segment > 2 { allLetters = false }
                segment = 0
            } else {
                if !Self.isLetterByte(c) { allLetters = false }
                segment += 1
            }
        }
        if dotted { return allLetters && segment <= 2 ? end + 1 : end }
        if length == 1, Self.isLetterByte(b[start]) {
            // A single capital initial (J. Smith), but not the pronoun I.
            let c = b[start]
            return c >= 0x41 && c <= 0x5A && c != UInt8(ascii: "I") ? end + 1 : end
        }
        guard length <= 7 else { return end }
        return Self.packedAbbreviations.contains(Self.packed(b, start: start, end: end)) ? end + 1 : end
    }

    // MARK: - URLs, e-mail, emoticons, emoji

    /// If a URL starts at `i` (`http://`, `https://`, `ftp://`, `www.`), its end: the run of
    /// non-space characters, without trailing sentence punctuation or an unbalanced bracket.
    func scanURL(_ b: UnsafeBufferPointer<UInt8>, from i: Int) -> Int? {
        let c = b[i] | 0x20
        guard c == UInt8(ascii: "h") || c == UInt8(ascii: "w") || c == UInt8(ascii: "f") else { return nil }
        func hasPrefix(_ p: StaticString) -> Bool {
            let count = p.utf8CodeUnitCount
            guard i + count <= b.count else { return false }
            let u = p.utf8Start
            for k in 0..<count where (b[i + k] | (Self.isLetterByte(b[i + k]) ? 0x20 : 0)) != u[k] { return false }
            return true
        }
        var end: Int
        if hasPrefix("https://") { end = i + 8 } else if hasPrefix("http://") || hasPrefix("www.") { end = i + (b[i] | 0x20 == UInt8(ascii: "w") ? 4 : 7) }
        else if hasPrefix("ftp://") { end = i + 6 } else { return nil }
        let bodyStart = end
        var open = 0
        while end < b.count {
            let d = b[end]
            if d <= 0x20 || d == UInt8(ascii: "\"") || d == UInt8(ascii: "<") || d == UInt8(ascii: ">") { break }
            if d == UInt8(ascii: "(") { open += 1 }
            if d == UInt8(ascii: ")") { if open == 0 { break }; open -= 1 }
            end += 1
        }
        while end > bodyStart, [UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"),
                                UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: "'")].contains(b[end - 1]) {
            end -= 1
        }
        return end > bodyStart ? end : nil
    }

    /// If the word `start..<end` is the local part of an e-mail address (`name@host.org`,
    /// `Rice@ENRON`), the end of the address.
    func scanEmail(_ b: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Int? {
        let n = b.count
        guard end + 1 < n, b[end] == UInt8(ascii: "@"), Self.isASCIIWordByte(b[end + 1]) else { return nil }
        var j = end + 1
        while j < n {
            let c = b[j]
            if Self.isASCIIWordByte(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") { j += 1; continue }
            if c == UInt8(ascii: "."), j + 1 < n, Self.isASCIIWordByte(b[j + 1]) { j += 1; continue }
            break
        }
        return j
    }

    /// Emoticons `:)`, `:-(`, `;D`, `:P`, `=)`: the end, or nil. Only after a space or the start
    /// of the line, and not followed by a letter or digit (so `re:Dinner` and `10:30` are safe).
    func emoticonEnd(_ b: UnsafeBufferPointer<UInt8>, from i: Int, spaceBefore: Bool) -> Int? {
        guard spaceBefore else { return nil }
        var j = i + 1
        if j < b.count, b[j] == UInt8(ascii: "-") || b[j] == UInt8(ascii: "'") { j += 1 }
        guard j < b.count else { return nil }
        let mouths: [UInt8] = Array(")(DPpO/\\|][*$@3".utf8)
        guard mouths.contains(b[j]) else { return nil }
        var k = j + 1
        if b[j] == UInt8(ascii: ")") || b[j] == UInt8(ascii: "(") {
            while k < b.count, b[k] == b[j] { k += 1 }   // :)) and :((
        }
        if k < b.count, Self.isASCIIWordByte(b[k]) { return nil }
        if b[j] == UInt8(ascii: "/") || b[j] == UInt8(ascii: "3"), j == i + 1, k < b.count, b[k] != 0x20 { return nil }
        return k
    }

    /// The end of the emoji (or other symbol) starting at `i`: modifiers, variation selectors,
    /// keycaps and tag characters attach, a ZWJ joins the next scalar, and two regional
    /// indicators make one flag.
    static func emojiSequenceEnd(_ b: UnsafeBufferPointer<UInt8>, scalar: Unicode.Scalar, at i: Int, length: Int) -> Int {
        var end = i + length
        var last = scalar.value
        var regional = (0x1F1E6...0x1F1FF).contains(last) ? 1 : 0
        while end < b.count, b[end] >= 0x80 {
            let (next, nextLength) = decode(b, at: end)
            let v = next.value
            if (0xFE00...0xFE0F).contains(v) || (0x1F3FB...0x1F3FF).contains(v) || v == 0x20E3
                || (0xE0020...0xE007F).contains(v) {
                end += nextLength
            } else if v == 0x200D, end + nextLength < b.count {
                let (joined, joinedLength) = decode(b, at: end + nextLength)
                guard !isWordScalar(joined), !joined.properties.isWhitespace else { break }
                end += nextLength + joinedLength
                last = joined.value
            } else if regional == 1, (0x1F1E6...0x1F1FF).contains(v) {
                end += nextLength
                regional = 2
            } else {
                break
            }
        }
        _ = last
        return end
    }

    // MARK: - Treebank clitics

    /// Appends the word `start..<end`; in treebank mode split into its syntactic words (and
    /// extended over a plural possessive apostrophe). Returns where the word ends.
    func appendWord(_ b: UnsafeBufferPointer<UInt8>, start: Int, end: Int, spaceBefore: Bool,
                    into tokens: inout [Token], startsLowercase: Bool? = nil) -> Int {
        let lower = startsLowercase ?? (b[start] >= 0x61 && b[start] <= 0x7A)
        guard mode == .treebank, end - start >= 2 else {
            tokens.append(Token(start: start, end: end, kind: .word, spaceBefore: spaceBefore, startsLowercase: lower))
            return end
        }
        var cuts: [Int] = []
        var end = end
        if Self.mayHaveClitic(b, start: start, end: end) { Self.cliticCuts(b, start: start, end: end, into: &cuts) }
        // Plural possessive: "veterans' attack" is veterans + ' unless a single quote is open.
        if b[end - 1] == UInt8(ascii: "s"), end < b.count, let apostrophe = Self.apostropheLength(b, at: end),
           end + apostrophe == b.count || !isLetter(b, at: end + apostrophe), !Self.singleQuoteOpen(b, before: start) {
            cuts.append(end)
            end += apostrophe
        }
        if cuts.isEmpty {
            tokens.append(Token(start: start, end: end, kind: .word, spaceBefore: spaceBefore, startsLowercase: lower))
            return end
        }
        var from = start
        for (k, cut) in (cuts + [end]).enumerated() {
            tokens.append(Token(start: from, end: cut, kind: .word, spaceBefore: k == 0 ? spaceBefore : false,
                                startsLowercase: k == 0 ? lower : true, continuesToken: k > 0))
            from = cut
        }
        return end
    }

    /// Bytes of the apostrophe (' or ’) at `i`, or nil.
    static func apostropheLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        if b[i] == UInt8(ascii: "'") { return 1 }
        if b[i] == 0xE2, i + 2 < b.count, b[i + 1] == 0x80, b[i + 2] == 0x99 { return 3 }
        return nil
    }

    /// Whether a single quote (' or ‘ after a space or the line start) opens before `i` and is
    /// not closed yet.
    static func singleQuoteOpen(_ b: UnsafeBufferPointer<UInt8>, before i: Int) -> Bool {
        var open = false
        var k = 0
        while k < i {
            if b[k] == 0xE2, k + 2 < b.count, b[k + 1] == 0x80, b[k + 2] == 0x98 { open = true; k += 3; continue }
            if b[k] == UInt8(ascii: "'") {
                if k == 0 || b[k - 1] == 0x20 { open = true }
                else if k + 1 >= b.count || !isASCIIWordByte(b[k + 1]) { open = false }
            }
            k += 1
        }
        return open
    }

    /// Contractions written without an apostrophe, split as EWT splits them (dont → do + nt).
    static let bareContractions: [[UInt8]: Int] = {
        var table: [[UInt8]: Int] = [:]
        for w in ["dont", "didnt", "doesnt", "isnt", "wasnt", "arent", "werent", "havent", "hasnt", "hadnt",
                  "couldnt", "wouldnt", "shouldnt", "aint", "cant", "wont", "mustnt", "neednt"] {
            table[Array(w.utf8)] = w.count - 2
        }
        for (w, cut) in [("cannot", 3), ("gonna", 3), ("wanna", 3), ("gotta", 3), ("outta", 3),
                         ("im", 1), ("ive", 1), ("youre", 3), ("theyre", 4), ("thats", 4), ("theres", 5),
                         ("whats", 4), ("wheres", 5), ("heres", 4)] {
            table[Array(w.utf8)] = cut
        }
        return table
    }()

    /// ``bareContractions`` packed by ``packed(_:start:end:)`` (all of them are at most 8 bytes).
    static let packedBareContractions: Set<UInt64> = Set(bareContractions.keys.map { word in
        word.withUnsafeBufferPointer { packed($0, start: 0, end: word.count) }
    })

    /// Whether ``cliticCuts(_:start:end:into:)`` may cut the word `start..<end`: it holds an
    /// apostrophe (`'`, or a byte that may begin `’`), or it is, lowercased, a bare contraction.
    /// Most words are neither and skip the lowercased copy.
    static func mayHaveClitic(_ b: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Bool {
        var ascii = true
        for k in start..<end {
            let c = b[k]
            if c == UInt8(ascii: "'") || c == 0xE2 { return true }
            if c >= 0x80 { ascii = false }
        }
        guard ascii, end - start <= 8 else { return false }
        var value: UInt64 = 0
        var k = end
        while k > start {
            k -= 1
            let c = b[k]
            value = value << 8 | UInt64(c >= 0x41 && c <= 0x5A ? c | 0x20 : c)
        }
        return packedBareContractions.contains(value)
    }

    /// Where the word `start..<end` splits into syntactic words (treebank mode), in order.
    static func cliticCuts(_ b: UnsafeBufferPointer<UInt8>, start: Int, end: Int, into cuts: inout [Int]) {
        // Lowercased ASCII copy with ’ folded to ' (mapping positions back to bytes).
        var lower: [UInt8] = []
        var position: [Int] = []
        var k = start
        while k < end {
            let c = b[k]
            if c < 0x80 {
                lower.append(c >= 0x41 && c <= 0x5A ? c | 0x20 : c); position.append(k); k += 1
            } else if c == 0xE2, k + 2 < end, b[k + 1] == 0x80, b[k + 2] == 0x99 {
                lower.append(UInt8(ascii: "'")); position.append(k); k += 3
            } else {
                lower.append(0x80); position.append(k); k += 1
            }
        }
        let apostrophe = UInt8(ascii: "'")
        let m = lower.count
        if let cut = bareContractions[lower] {
            cuts.append(position[cut])
            return
        }
        guard m >= 3, let a = lower.lastIndex(of: apostrophe), a > 0 else { return }
        let tail = Array(lower[(a + 1)...])
        // n't: the n belongs to the clitic (do|n't, ca|n't, wo|n't).
        if tail == [UInt8(ascii: "t")], lower[a - 1] == UInt8(ascii: "n"), a >= 2 {
            cuts.append(position[a - 1])
            return
        }
        let clitics: [[UInt8]] = [Array("s".utf8), Array("re".utf8), Array("ve".utf8), Array("ll".utf8),
                                  Array("d".utf8), Array("m".utf8)]
        if clitics.contains(tail) {
            // should've, I'd've: split the inner clitic too.
            let inner = lower[..<a]
            if let a2 = inner.lastIndex(of: apostrophe), a2 > 0, clitics.contains(Array(inner[(a2 + 1)...])) {
                cuts.append(position[a2])
            }
            cuts.append(position[a])
        }
    }
}
