import LexiforgeFormat

/// The hashed keys a word contributes to the features of itself and its neighbours: its form,
/// its normalized lowercase (digits → 0), suffixes and prefixes of that, and its shape.
struct WordKeys {
    var form: UInt64
    var lower: UInt64
    var suffix1: UInt64, suffix2: UInt64, suffix3: UInt64, suffix4: UInt64
    var prefix1: UInt64, prefix2: UInt64, prefix3: UInt64
    var shape: UInt64
    /// The tags training saw the word with (its ambiguity class), and those of its lowercase
    /// form when that is another word; a fixed value when unknown.
    var ambiguity: UInt64 = 0
    var lowerAmbiguity: UInt64 = 0
    /// 1 in a title-case sentence (at least 60% of the words with letters after the first
    /// capitalized), where capitals say little about names.
    var titleCase: UInt64 = 0

    /// A sentence boundary before (`-1`, `-2`) or after (`1`, `2`) the words.
    init(boundary: Int) {
        let h = mix(0xB0B0_0000 &+ UInt64(bitPattern: Int64(boundary)))
        form = h; lower = h; suffix1 = h; suffix2 = h; suffix3 = h; suffix4 = h
        prefix1 = h; prefix2 = h; prefix3 = h; shape = h
    }

    init(_ word: String) {
        form = fnv(word.utf8)
        var lowered: [UInt8] = []
        var shapeBytes: [UInt8] = []
        lowered.reserveCapacity(word.utf8.count)
        // Shape: X upper, x lower, d digit, other ASCII as itself, o other; runs capped at 2.
        func addShape(_ c: UInt8) {
            let n = shapeBytes.count
            if n >= 2 && shapeBytes[n - 1] == c && shapeBytes[n - 2] == c { return }
            shapeBytes.append(c)
        }
        var ascii = true
        for b in word.utf8 where b >= 0x80 { ascii = false; break }
        if ascii {
            for b in word.utf8 {
                switch b {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): lowered.append(b | 0x20); addShape(UInt8(ascii: "X"))
                case UInt8(ascii: "a")...UInt8(ascii: "z"): lowered.append(b); addShape(UInt8(ascii: "x"))
                case UInt8(ascii: "0")...UInt8(ascii: "9"): lowered.append(UInt8(ascii: "0")); addShape(UInt8(ascii: "d"))
                default: lowered.append(b); addShape(b)
                }
            }
        } else {
            for scalar in word.unicodeScalars {
                let p = scalar.properties
                addShape(p.isUppercase ? UInt8(ascii: "X") : p.isLowercase ? UInt8(ascii: "x")
                         : p.numericType != nil ? UInt8(ascii: "d") : scalar.isASCII ? UInt8(scalar.value) : UInt8(ascii: "o"))
            }
            for scalar in word.lowercased().unicodeScalars {
                if scalar.properties.numericType == .decimal { lowered.append(UInt8(ascii: "0")) } else {
                    lowered.append(contentsOf: String(scalar).utf8)
                }
            }
        }
        lower = fnv(lowered)
        shape = fnv(shapeBytes)
        // Scalar boundaries of the lowercase form (UTF-8 lead bytes), for suffixes and prefixes.
        var starts: [Int] = []
        starts.reserveCapacity(lowered.count)
        for (k, b) in lowered.enumerated() where b & 0xC0 != 0x80 { starts.append(k) }
        func suffix(_ n: Int) -> UInt64 {
            fnv(lowered[(starts.count > n ? starts[starts.count - n] : 0)...]) &+ UInt64(n)
        }
        func prefix(_ n: Int) -> UInt64 {
            fnv(lowered[..<(starts.count > n ? starts[n] : lowered.count)]) &+ UInt64(n) &* 0x100
        }
        suffix1 = suffix(1); suffix2 = suffix(2); suffix3 = suffix(3); suffix4 = suffix(4)
        prefix1 = prefix(1); prefix2 = prefix(2); prefix3 = prefix(3)
    }

    /// The keys of a sentence with two boundary words on each side (word `i` at `i + 2`);
    /// `classes` maps training words to their ambiguity classes.
    static func padded(_ words: [String], classes: [String: UInt64]) -> [WordKeys] {
        var out = [WordKeys(boundary: -2), WordKeys(boundary: -1)]
        out.reserveCapacity(words.count + 4)
        for word in words {
            var keys = WordKeys(word)
            keys.ambiguity = classes[word] ?? 1
            if keys.lower != keys.form {
                let lower = word.lowercased()
                keys.lowerAmbiguity = lower == word ? 2 : classes[lower] ?? 1
            } else {
                keys.lowerAmbiguity = 2
            }
            out.append(keys)
        }
        var lettered = 0, capitalized = 0
        for word in words.dropFirst() {
            guard let first = word.unicodeScalars.first, first.properties.isAlphabetic else { continue }
            lettered += 1
            if first.properties.isUppercase { capitalized += 1 }
        }
        if lettered >= 2 && capitalized * 10 >= lettered * 6 {
            for k in 2..<out.count { out[k].titleCase = 1 }
        }
        out.append(WordKeys(boundary: 1))
        out.append(WordKeys(boundary: 2))
        return out
    }
}

/// FNV-1a over bytes.
@inline(__always)
func fnv<S: Sequence>(_ bytes: S) -> UInt64 where S.Element == UInt8 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
    return h
}

/// A well-spread 64-bit key of `x`: the first output of SplitMix64 seeded with it.
@inline(__always)
func mix(_ x: UInt64) -> UInt64 { SplitMix64.finalize(x &+ 0x9E37_79B9_7F4A_7C15) }

/// The feature templates: each feature is a template number and one or two hashed values.
enum PerceptronFeatures {
    @inline(__always)
    static func key(_ template: UInt64, _ a: UInt64, _ b: UInt64 = 0) -> UInt64 {
        let k = mix(mix(a &+ template &* 0x1000_0000_01B3) ^ b)
        return k == 0 ? 1 : k
    }

    /// Every feature of word `i` (index into the unpadded sentence) given the two tags before it
    /// (`prev`, `prev2`: tag numbers, or -1 / -2 at the sentence start).
    static func keys(_ w: [WordKeys], _ i: Int, prev: Int, prev2: Int, into keys: inout [UInt64]) {
        keys.removeAll(keepingCapacity: true)
        let c = i + 2
        let word = w[c], before = w[c - 1], before2 = w[c - 2], after = w[c + 1], after2 = w[c + 2]
        let p1 = UInt64(bitPattern: Int64(prev)), p2 = UInt64(bitPattern: Int64(prev2))
        // One value per template (templates 1, 2, ... in this order), then pairs of values
        // (templates 100, 101, ...); appended directly, no array per word.
        var t: UInt64 = 0
        func single(_ value: UInt64) { t += 1; keys.append(key(t, value)) }
        single(0)  // bias
        single(word.form); single(word.lower); single(word.suffix1); single(word.suffix2); single(word.suffix3)
        single(word.suffix4); single(word.prefix1); single(word.prefix2); single(word.prefix3); single(word.shape)
        single(before.lower); single(before.suffix3); single(before.shape); single(before2.lower)
        single(after.lower); single(after.suffix3); single(after.shape); single(after2.lower)
        single(p1); single(p2)
        t = 99
        func pair(_ a: UInt64, _ b: UInt64) { t += 1; keys.append(key(t, a, b)) }
        pair(word.shape, i == 0 ? 1 : 0); pair(p1, p2); pair(p1, word.lower); pair(p1, word.shape); pair(p1, after.lower)
        pair(word.lower, after.lower); pair(before.lower, word.lower)
        pair(word.ambiguity, 0); pair(word.lowerAmbiguity, word.shape); pair(after.ambiguity, 0); pair(p1, after.ambiguity)
        pair(after.lowerAmbiguity, after.shape); pair(word.titleCase, word.shape); pair(word.titleCase, word.lowerAmbiguity)
    }
}

/// The feature index (shared with the entity tagger).
typealias FeatureMap = FeatureTable
