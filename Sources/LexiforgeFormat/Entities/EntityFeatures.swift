/// The names learnt from training data: lowercased phrases (words joined by one space) with how
/// often each was tagged as each entity type.
///
/// A sentence is matched left to right, longest phrase first (up to ``maxLength`` words); the
/// words of a match get the phrase's most frequent type and their place in it (first or
/// inside). Training matches each sentence against the counts minus that sentence's own names
/// (leave-one-out), so the tagger learns how far a name seen *elsewhere* is to be trusted.
public struct EntityGazetteer: Sendable {
    /// Phrase → count per type (indexed like the model's types).
    public private(set) var counts: [String: [Int32]] = [:]
    /// Where phrases start and how far they go, for the matcher.
    private var starts = PhraseStarts()
    public let typeCount: Int
    /// The longest phrase, in words.
    public private(set) var maxLength = 0
    /// Phrases longer than this are not learnt.
    public static let longestPhrase = 6

    public init(typeCount: Int) { self.typeCount = typeCount }

    /// Adds `count` occurrences of `words` (already lowercased) as a name of type `type`.
    public mutating func add(_ words: [String], type: Int, count: Int32 = 1) {
        guard !words.isEmpty, words.count <= Self.longestPhrase else { return }
        let phrase = words.joined(separator: " ")
        counts[phrase, default: [Int32](repeating: 0, count: typeCount)][type] += count
        starts.add(words)
        maxLength = max(maxLength, words.count)
    }

    /// Per word: 0 outside any known name, else 1 + 2·type + (0 first word, 1 inside).
    /// `excluding` (phrase → count per type) is subtracted first.
    public func match(_ lowered: [String], excluding: [String: [Int32]]? = nil) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: lowered.count)
        guard maxLength > 0 else { return out }
        matchLongestFirst(count: lowered.count, longest: { starts.longest(lowered, at: $0) }) { i, length in
            let phrase = joinedPhrase(lowered, i, length)
            guard var row = counts[phrase] else { return false }
            if let own = excluding?[phrase] { for t in row.indices { row[t] -= own[t] } }
            var best = 0
            for t in row.indices where row[t] > row[best] { best = t }
            guard row[best] > 0 else { return false }
            out[i] = UInt8(1 + 2 * best)
            for k in (i + 1)..<(i + length) { out[k] = UInt8(2 + 2 * best) }
            return true
        }
        return out
    }
}

/// Left-to-right, longest-first phrase matching over `count` words (the gazetteer, the lexicon
/// and document consistency): at word `i`, `longest(i)` is the longest phrase that may start
/// there (nil: none does); lengths from it (at most the words left) down to 1 are offered to
/// `accept(i, length)` until it takes one, and the scan goes on after the match, or at the next
/// word when none was taken.
func matchLongestFirst(count: Int, longest: (Int) -> Int?, accept: (_ start: Int, _ length: Int) -> Bool) {
    var i = 0
    while i < count {
        guard let most = longest(i) else { i += 1; continue }
        var matched = 0
        for length in stride(from: min(most, count - i), through: 1, by: -1) where accept(i, length) {
            matched = length
            break
        }
        i += max(matched, 1)
    }
}

/// The phrases of a name list as ``matchLongestFirst(count:longest:accept:)`` needs them: the
/// longest phrase each first word starts, and every phrase's prefixes of two words or more
/// (joined by one space), so that the scan at a word extends the phrase word by word while some
/// phrase goes on that way; a longer stretch, which no phrase can be, is never joined to be looked
/// up ("the" starts names of up to six words, but "the cat" starts none).
struct PhraseStarts: Sendable, Equatable {
    private var longestFrom: [String: Int] = [:]
    private var prefixes: Set<String> = []

    /// Adds a phrase (its words, lowercased).
    mutating func add<S: StringProtocol>(_ words: [S]) {
        guard let first = words.first else { return }
        longestFrom[String(first)] = max(longestFrom[String(first), default: 0], words.count)
        var key = String(first)
        for word in words.dropFirst() {
            key += " "
            key += word
            prefixes.insert(key)
        }
    }

    /// The most words a phrase starting at word `i` can have (nil: none starts there).
    func longest(_ lowered: [String], at i: Int) -> Int? {
        guard let most = longestFrom[lowered[i]] else { return nil }
        let limit = min(most, lowered.count - i)
        var length = 1
        var key = lowered[i]
        while length < limit {
            key += " "
            key += lowered[i + length]
            guard prefixes.contains(key) else { break }
            length += 1
        }
        return length
    }
}

/// Words `start ..< start + length` joined by one space (a phrase key).
func joinedPhrase(_ words: [String], _ start: Int, _ length: Int) -> String {
    length == 1 ? words[start] : words[start..<(start + length)].joined(separator: " ")
}

/// The hashed features of every word of a sentence, for ``EntityModel``.
///
/// Per word: its form, lowercase, shape (X upper, x lower, d digit, other characters as
/// themselves; runs capped at two) and short shape (runs of one), prefixes of 1–3 and suffixes
/// of 1–4 characters, capitalization class with sentence position and with the sentence's case
/// style (all lowercase, title case, ordinary); the lowercase forms of the words i−2…i+2, the
/// shapes of i±1, the word bigrams with each neighbour, the short-shape trigrams centred on i,
/// ending at i and starting at i, the next word's form with this word's capitalization; the
/// gazetteer match of the word and of its neighbours (with the capitalization class); with a
/// part-of-speech tagger, the UPOS tags of the word and its neighbours (with the capitalization
/// class) and the tag trigram; with a lexicon (WordNet names, ``EntityLexicon``), its match of
/// the word (alone, with the capitalization class, with each neighbour's); with word classes
/// (``EntityClusters``), the classes of i−1, i, i+1, i's with its capitalization class, and the
/// class bigrams with each neighbour. The templates of a resource the model has not are 0 (no
/// feature: never stored, skipped by training and Viterbi).
public enum EntityFeatures {
    /// Features per word (the length of each word's run of keys).
    public static let perWord = 48

    struct WordInfo {
        var form: UInt64 = 0, lower: UInt64 = 0, shape: UInt64 = 0, shortShape: UInt64 = 0
        var prefix: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var suffix: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        /// 0 no letters, 1 lowercase, 2 capitalized, 3 all caps, 4 one capital letter, 5 mixed.
        var caps: UInt64 = 0
        var gazetteer: UInt64 = 0
        var tag: UInt64 = 0
        var lexicon: UInt64 = 0
        var cluster: UInt64 = 0

        static func boundary(_ side: Int) -> WordInfo {
            let h = SplitMix64.finalize(0xB0B0_0000 &+ UInt64(bitPattern: Int64(side)))
            var w = WordInfo(form: h, lower: h, shape: h, shortShape: h)
            w.caps = 6
            w.gazetteer = 255
            w.tag = h
            w.lexicon = 0x1_0000
            w.cluster = h
            return w
        }
    }

    @inline(__always)
    static func fnv<S: Sequence>(_ bytes: S) -> UInt64 where S.Element == UInt8 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return h
    }

    @inline(__always)
    static func key(_ template: UInt64, _ a: UInt64, _ b: UInt64 = 0, _ c: UInt64 = 0) -> UInt64 {
        var h = SplitMix64.finalize(a &+ template &* 0x9E37_79B9_7F4A_7C15)
        h = SplitMix64.finalize(h ^ b)
        if c != 0 { h = SplitMix64.finalize(h ^ c) }
        return h == 0 ? 1 : h
    }

    static func info(_ word: String, lower: String) -> WordInfo {
        var w = WordInfo()
        w.form = fnv(word.utf8)
        w.lower = fnv(lower.utf8)
        var shape: [UInt8] = [], short: [UInt8] = []
        var upper = 0, lowerCount = 0, firstUpper = false
        for (k, scalar) in word.unicodeScalars.enumerated() {
            let c: UInt8
            if scalar.isASCII {
                let b = UInt8(scalar.value)
                switch b {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): c = UInt8(ascii: "X"); upper += 1; if k == 0 { firstUpper = true }
                case UInt8(ascii: "a")...UInt8(ascii: "z"): c = UInt8(ascii: "x"); lowerCount += 1
                case UInt8(ascii: "0")...UInt8(ascii: "9"): c = UInt8(ascii: "d")
                default: c = b
                }
            } else {
                let p = scalar.properties
                if p.isUppercase { c = UInt8(ascii: "X"); upper += 1; if k == 0 { firstUpper = true } }
                else if p.isLowercase { c = UInt8(ascii: "x"); lowerCount += 1 }
                else if p.numericType != nil { c = UInt8(ascii: "d") }
                else { c = UInt8(ascii: "o") }
            }
            let n = shape.count
            if !(n >= 2 && shape[n - 1] == c && shape[n - 2] == c) { shape.append(c) }
            if short.last != c { short.append(c) }
        }
        w.shape = fnv(shape)
        w.shortShape = fnv(short) &+ 1
        w.caps = upper + lowerCount == 0 ? 0 : upper == 0 ? 1 : lowerCount == 0 ? (upper == 1 ? 4 : 3)
            : firstUpper && upper == 1 ? 2 : 5
        let scalars = Array(lower.unicodeScalars)
        func piece(_ range: Range<Int>, _ salt: UInt64) -> UInt64 {
            var h: UInt64 = 0xCBF2_9CE4_8422_2325
            for s in scalars[range] { h = (h ^ UInt64(s.value)) &* 0x100_0000_01B3 }
            return h &+ salt
        }
        let n = scalars.count
        w.prefix = (piece(0..<min(1, n), 1), piece(0..<min(2, n), 2), piece(0..<min(3, n), 3))
        w.suffix = (piece(max(0, n - 1)..<n, 11), piece(max(0, n - 2)..<n, 12), piece(max(0, n - 3)..<n, 13),
                    piece(max(0, n - 4)..<n, 14))
        return w
    }

    /// A tag name as the `tags` of ``extract(_:lowered:gazetteer:tags:)``.
    public static func tagKey(_ name: String) -> UInt64 { fnv(name.utf8) | 1 }

    /// The lowercase of each word, as the gazetteer matches them.
    public static func lowered(_ words: [String]) -> [String] { words.map { $0.lowercased() } }

    /// All features of a sentence: word `i`'s are `keys[i * perWord ..< (i + 1) * perWord]`.
    /// `gazetteer` codes come from ``EntityGazetteer/match(_:excluding:)``; `tags` are the words'
    /// part-of-speech tags (any stable numbers, e.g. hashes of the tag names), nil without a tagger.
    public static func extract(_ words: [String], lowered: [String], gazetteer: [UInt8], tags: [UInt64]? = nil,
                               lexicon: [UInt16]? = nil, clusters: [UInt64]? = nil) -> [UInt64] {
        let n = words.count
        var infos = [WordInfo.boundary(-2), WordInfo.boundary(-1)]
        infos.reserveCapacity(n + 4)
        var lettered = 0, capitalized = 0, anyUpper = false
        for i in 0..<n {
            var w = info(words[i], lower: lowered[i])
            w.gazetteer = UInt64(gazetteer[i])
            w.tag = tags?[i] ?? 0
            w.lexicon = UInt64(lexicon?[i] ?? 0)
            w.cluster = clusters?[i] ?? 0
            if w.caps >= 2 { anyUpper = true }
            if i > 0 && w.caps > 0 { lettered += 1; if w.caps >= 2 { capitalized += 1 } }
            infos.append(w)
        }
        infos.append(WordInfo.boundary(1))
        infos.append(WordInfo.boundary(2))
        // 1 all lowercase, 2 title case (60% of the lettered words after the first capitalized), 0 ordinary.
        let hasLexicon = lexicon != nil, hasClusters = clusters != nil
        let style: UInt64 = !anyUpper ? 1 : (lettered >= 2 && capitalized * 10 >= lettered * 6) ? 2 : 0
        // Written through a buffer of the final size: 48 inlined `Array.append`s made this one
        // function take half a minute of the optimizer in a release build.
        return [UInt64](unsafeUninitializedCapacity: n * perWord) { keys, initialized in
            var j = 0
            func put(_ k: UInt64) {
                precondition(j < keys.count, "EntityFeatures.extract: more than \(perWord) keys per word")
                keys[j] = k
                j += 1
            }
            for i in 0..<n {
                let c = i + 2
                let w = infos[c], p1 = infos[c - 1], p2 = infos[c - 2], n1 = infos[c + 1], n2 = infos[c + 2]
                let first: UInt64 = i == 0 ? 1 : 0
                put(key(1, 0))
                put(key(2, w.form))
                put(key(3, w.lower))
                put(key(4, w.shape))
                put(key(5, w.shortShape))
                put(key(6, w.prefix.0)); put(key(7, w.prefix.1)); put(key(8, w.prefix.2))
                put(key(9, w.suffix.0)); put(key(10, w.suffix.1)); put(key(11, w.suffix.2))
                put(key(12, w.suffix.3))
                put(key(13, w.caps, first))
                put(key(14, w.caps, style, first))
                put(key(15, p1.lower)); put(key(16, n1.lower))
                put(key(17, p2.lower)); put(key(18, n2.lower))
                put(key(19, p1.shape)); put(key(20, n1.shape))
                put(key(21, p1.lower, w.lower)); put(key(22, w.lower, n1.lower))
                put(key(23, p1.shortShape, w.shortShape, n1.shortShape))
                put(key(24, w.gazetteer))
                put(key(25, w.gazetteer, w.caps))
                put(key(26, p1.gazetteer, w.gazetteer))
                put(key(27, w.gazetteer, n1.gazetteer))
                put(key(28, p1.caps, w.caps, n1.caps))
                put(key(29, p1.form, w.caps))
                put(key(30, w.lower, style))
                put(key(31, w.tag))
                put(key(32, p1.tag, w.tag))
                put(key(33, w.tag, n1.tag))
                put(key(34, w.tag, w.caps, first))
                // A resource's value as templates `t`: alone, with the capitalization class, with the
                // previous word's and the next word's; 0 (no feature) without the resource.
                func resource(_ present: Bool, _ t: UInt64, _ p: UInt64, _ v: UInt64, _ n: UInt64) {
                    guard present else { for _ in 0..<4 { put(0) }; return }
                    put(key(t, v)); put(key(t + 1, v, w.caps)); put(key(t + 2, p, v)); put(key(t + 3, v, n))
                }
                resource(hasLexicon, 35, p1.lexicon, w.lexicon, n1.lexicon)
                put(key(39, n1.form, w.caps))
                put(key(40, p2.shortShape, p1.shortShape, w.shortShape))
                put(key(41, w.shortShape, n1.shortShape, n2.shortShape))
                put(key(42, p1.tag, w.tag, n1.tag))
                resource(hasClusters, 43, p1.cluster, w.cluster, n1.cluster)
                put(hasClusters ? key(47, p1.cluster) : 0)
                put(hasClusters ? key(48, n1.cluster) : 0)
            }
            precondition(j == n * perWord, "EntityFeatures.extract wrote \(j) keys for \(n) words")
            initialized = j
        }
    }
}
