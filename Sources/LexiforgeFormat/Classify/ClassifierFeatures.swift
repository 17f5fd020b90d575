import LexiforgeText

/// Word n-gram features of a text, as the classifier's trainer and reader both compute them.
///
/// Tokens come from the keyboard ``Tokenizer`` (every token: words, numbers, punctuation), line
/// by line, as one stream; with `lowercase` each token is folded to lowercase (ASCII bytes
/// directly, anything else with `String.lowercased()`). A feature is an n-gram of 1 to `maxOrder`
/// consecutive tokens; its stored text is the tokens joined by one space (tokens never hold
/// whitespace), and its hash (``hash(ofFeatureText:)``) is the same whether computed from the
/// text or from the tokens, so a reader finds a feature without building strings.
public enum ClassifierFeatures {
    /// The tokens of `text`, lowercased when asked (the trainer's view: strings). With
    /// `negation`, tokens after a negation word (``negators``, or a word ending in n't) up to the
    /// next punctuation mark or "but" are marked with a leading "¬" ("not ¬good ¬at ¬all .").
    ///
    /// `endingStart` is the index of the first token of the last `ending` lines that hold tokens
    /// (the token count when `ending` is 0): n-grams from there on are also features of their own,
    /// marked by a leading "§" token, since reviews state their verdict at the end.
    ///
    /// `lemmas` maps a (lowercased) token to the lemma that stands for it (``TextClassifierModel/lemmas``);
    /// negation scopes follow the tokens as written.
    public static func tokens(of text: String, lowercase: Bool, negation: Bool = false, ending: Int = 0,
                              lemmas: [String: String] = [:]) -> (tokens: [String], endingStart: Int) {
        var out: [String] = []
        var lines: [Int] = []
        var scope = NegationScope()
        forEachToken(in: text) { bytes, line in
            lines.append(line)
            var token = String(decoding: bytes, as: UTF8.self)
            if lowercase { token = token.lowercased() }
            let negated = negation && scope.next(hash(token: token), bytes)
            if let lemma = lemmas[token] { token = lemma }
            out.append(negated ? "¬" + token : token)
        }
        return (out, endingStart(lines, ending))
    }

    static func endingStart(_ lines: [Int], _ ending: Int) -> Int {
        guard ending > 0, let last = lines.last else { return lines.count }
        return lines.firstIndex { $0 > last - ending } ?? lines.count
    }

    /// The token that marks an n-gram of the ending.
    public static let endingMark = "§"
    static let endingMarkHash = hash(token: endingMark)

    /// Calls `body` with every feature of a token sequence: each n-gram (1...maxOrder) as a range
    /// with `false`, then again with `true` when it lies in the ending.
    @inline(__always)
    public static func forEachFeature(count: Int, endingStart: Int, maxOrder: Int, _ body: (Range<Int>, Bool) -> Void) {
        forEachNgram(count: count, maxOrder: maxOrder) { range in
            body(range, false)
            if range.lowerBound >= endingStart { body(range, true) }
        }
    }

    /// The hash of a feature: the n-gram of token hashes, with the ending mark in front when `ending`.
    @inline(__always)
    public static func featureHash(_ hashes: ArraySlice<UInt64>, ending: Bool) -> UInt64 {
        guard ending else { return hash(ngram: hashes) }
        // hash(ngram: [endingMarkHash] + hashes), without building the array.
        var h: UInt64 = 0x243F_6A88_85A3_08D3 &+ UInt64(hashes.count + 1)
        h = finish(h ^ endingMarkHash) &+ 0x9E37_79B9_7F4A_7C15
        for t in hashes { h = finish(h ^ t) &+ 0x9E37_79B9_7F4A_7C15 }
        return h
    }

    /// The token hashes of `text` (the reader's view: no strings for ASCII tokens); the same as
    /// ``hash(token:)`` of each of ``tokens(of:lowercase:negation:ending:lemmas:)`` when `lemmas`
    /// is the same table.
    public static func tokenHashes(of text: String, lowercase: Bool, negation: Bool = false, ending: Int = 0,
                                   lemmas: LemmaHashes? = nil) -> (hashes: [UInt64], endingStart: Int) {
        var out: [UInt64] = []
        var lines: [Int] = []
        var scope = NegationScope()
        forEachToken(in: text) { bytes, line in
            lines.append(line)
            let plain: UInt64
            if lowercase {
                if bytes.allSatisfy({ $0 < 0x80 }) {
                    var h = fnvOffset
                    for b in bytes { h = (h ^ UInt64(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)) &* fnvPrime }
                    plain = finish(h)
                } else {
                    plain = hash(token: String(decoding: bytes, as: UTF8.self).lowercased())
                }
            } else {
                var h = fnvOffset
                for b in bytes { h = (h ^ UInt64(b)) &* fnvPrime }
                plain = finish(h)
            }
            let negated = negation && scope.next(plain, bytes)
            if let lemmas, let id = lemmas.index.id(of: plain) {
                out.append(negated ? lemmas.negated[id] : lemmas.plain[id])
            } else if negated {
                if lowercase && bytes.allSatisfy({ $0 < 0x80 }) {
                    // hash(token: "¬" + token) without the string: "¬" is C2 AC.
                    var h = (((fnvOffset ^ 0xC2) &* fnvPrime) ^ 0xAC) &* fnvPrime
                    for b in bytes { h = (h ^ UInt64(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)) &* fnvPrime }
                    out.append(finish(h))
                } else {
                    var token = String(decoding: bytes, as: UTF8.self)
                    if lowercase { token = token.lowercased() }
                    out.append(hash(token: "¬" + token))
                }
            } else {
                out.append(plain)
            }
        }
        return (out, endingStart(lines, ending))
    }

    /// A lemma table (token → lemma) as hashes, for ``tokenHashes(of:lowercase:negation:ending:lemmas:)``:
    /// each token's hash leads to its lemma's hash, plain and marked as negated.
    public struct LemmaHashes: Sendable {
        let index: HashIndex
        let plain: [UInt64]
        let negated: [UInt64]

        public init(_ lemmas: [String: String]) {
            let pairs = lemmas.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            index = HashIndex(pairs.map { ClassifierFeatures.hash(token: $0.key) })
            plain = pairs.map { ClassifierFeatures.hash(token: $0.value) }
            negated = pairs.map { ClassifierFeatures.hash(token: "¬" + $0.value) }
        }
    }

    /// Words that negate what follows (lowercase).
    public static let negators = ["not", "no", "never", "cannot", "nothing", "nobody", "none", "nor", "neither", "without"]
    /// Tokens that end a negation's scope.
    public static let scopeEnds = [".", ",", ";", ":", "!", "?", "(", ")", "but"]

    /// Tracks whether the current token is inside a negation's scope.
    struct NegationScope {
        // Plain arrays: a handful of compares beats hashing the hash (Set uses SipHash).
        let negatorHashes = negators.map { ClassifierFeatures.hash(token: $0) }
        let endHashes = scopeEnds.map { ClassifierFeatures.hash(token: $0) }
        var inside = false

        /// Whether the token (its plain hash and bytes) is negated; updates the scope.
        mutating func next(_ plain: UInt64, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            if endHashes.contains(plain) { inside = false; return false }
            let negated = inside
            let n = bytes.count
            if negatorHashes.contains(plain)
                || (n >= 3 && bytes[n - 3] | 0x20 == 0x6E && bytes[n - 2] == 0x27 && bytes[n - 1] | 0x20 == 0x74)
                || (n >= 5 && bytes[n - 5] | 0x20 == 0x6E && bytes[n - 4] == 0xE2 && bytes[n - 3] == 0x80 && bytes[n - 2] == 0x99 && bytes[n - 1] | 0x20 == 0x74) {
                inside = true
            }
            return negated
        }
    }

    /// The hash of one (already lowercased) token.
    public static func hash(token: String) -> UInt64 {
        var h = fnvOffset
        for b in token.utf8 { h = (h ^ UInt64(b)) &* fnvPrime }
        return finish(h)
    }

    /// The hash of the n-gram of token hashes `tokens` (1 or more).
    @inline(__always)
    public static func hash<C: Collection>(ngram tokens: C) -> UInt64 where C.Element == UInt64 {
        var h: UInt64 = 0x243F_6A88_85A3_08D3 &+ UInt64(tokens.count)
        for t in tokens { h = finish(h ^ t) &+ 0x9E37_79B9_7F4A_7C15 }
        return h
    }

    /// The hash of a stored feature text (tokens joined by one space).
    public static func hash(ofFeatureText text: String) -> UInt64 {
        hash(ngram: text.split(separator: " ", omittingEmptySubsequences: false).map { hash(token: String($0)) })
    }

    /// Calls `body` with every n-gram (orders 1...maxOrder) of `count` tokens as a range.
    @inline(__always)
    public static func forEachNgram(count: Int, maxOrder: Int, _ body: (Range<Int>) -> Void) {
        for start in 0..<count {
            for n in 1...maxOrder where start + n <= count { body(start..<(start + n)) }
        }
    }

    /// Calls `body` with each token and the number of its line among the lines holding tokens.
    static func forEachToken(in text: String, _ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
        let tokenizer = Tokenizer(mode: .keyboard)
        var copy = text
        var tokens: [Token] = []
        copy.withUTF8 { all in
            var lineStart = 0
            var lineNumber = 0
            let n = all.count
            while lineStart <= n {
                var end = lineStart
                while end < n && all[end] != 0x0A { end += 1 }
                let line = UnsafeBufferPointer(rebasing: all[lineStart..<end])
                tokens.removeAll(keepingCapacity: true)
                tokenizer.tokenize(line, into: &tokens)
                for t in tokens { body(UnsafeBufferPointer(rebasing: line[t.start..<t.end]), lineNumber) }
                if !tokens.isEmpty { lineNumber += 1 }
                lineStart = end + 1
            }
        }
    }

    static let fnvOffset: UInt64 = 0xCBF2_9CE4_8422_2325
    static let fnvPrime: UInt64 = 0x0000_0100_0000_01B3

    /// A 64-bit finalizer (splitmix64), so nearby inputs spread over all bits.
    @inline(__always)
    static func finish(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A fixed open-addressing table from 64-bit keys to dense ids (one flat array of slots, key
/// and id side by side, so a probe touches one cache line; built once).
public struct HashIndex: Sendable {
    private struct Slot: Sendable { var key: UInt64; var id: Int32 }
    private var slots: [Slot]
    private let mask: Int

    /// `keys[i]` gets id `i`; duplicates keep their first id.
    public init(_ input: [UInt64]) {
        var size = 16
        while size < input.count * 2 { size <<= 1 }
        mask = size - 1
        slots = Array(repeating: Slot(key: 0, id: -1), count: size)
        for (id, key) in input.enumerated() {
            var slot = Int(truncatingIfNeeded: key >> 20) & mask
            while slots[slot].id >= 0 && slots[slot].key != key { slot = (slot + 1) & mask }
            if slots[slot].id < 0 { slots[slot] = Slot(key: key, id: Int32(id)) }
        }
    }

    /// The id of `key`, or nil.
    @inline(__always)
    public func id(of key: UInt64) -> Int? {
        slots.withUnsafeBufferPointer { table in
            var slot = Int(truncatingIfNeeded: key >> 20) & mask
            while true {
                let entry = table[slot]
                if entry.id < 0 { return nil }
                if entry.key == key { return Int(entry.id) }
                slot = (slot + 1) & mask
            }
        }
    }
}
