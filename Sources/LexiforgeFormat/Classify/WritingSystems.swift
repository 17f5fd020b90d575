/// The writing systems of a text, as the language identifier's script evidence reads them
/// (``LanguageRecognizer``): which scripts make up a good share of its letters.
///
/// A language is written in few scripts, and a character n-gram model cannot see that a script
/// is *absent* ("C." has no Hangul, so it is not Korean; Han without kana is rarely Japanese).
/// The trainer counts, per language, the script patterns of its training sentences; the
/// recognizer adds log P(pattern | language) to the scores (``LanguageIDModel/scripts``).
public enum WritingSystems {
    /// ISO 15924 codes of the scripts told apart, in pattern order. `Hani` counts kana too:
    /// Japanese text mixes Han with kana in any proportion, and some of its sentences are Han
    /// alone, so kana as a script of its own pushed those to Chinese (four dev sentences lost
    /// for one won); `Zzzz` is letters of any other script.
    public static let codes = ["Latn", "Cyrl", "Grek", "Arab", "Hebr", "Deva", "Thai", "Hani", "Hang", "Zzzz"]
    /// Indices into ``codes`` (constants, so a scorer's switch on them costs no look-up).
    public static let latin = 0, devanagari = 5, thai = 6, han = 7, hangul = 8

    /// A script's share of a text's letters that makes it part of the text's pattern.
    public static let majorShare = 0.3

    /// The script of a letter (an index into ``codes``), nil for what is not a letter.
    @inline(__always)
    static func script(_ s: Unicode.Scalar) -> Int? {
        let v = s.value
        if v < 0x80 { return (v | 0x20) >= 0x61 && (v | 0x20) <= 0x7A ? 0 : nil }
        switch v {
        case 0xC0...0x24F, 0x1E00...0x1EFF: return v == 0xD7 || v == 0xF7 ? nil : 0
        case 0x400...0x52F: return 1
        case 0x370...0x3FF, 0x1F00...0x1FFF: return 2
        case 0x600...0x6FF, 0x750...0x77F: return 3
        case 0x590...0x5FF: return 4
        case 0x900...0x97F: return 5
        case 0xE00...0xE7F: return 6
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0xF900...0xFAFF, 0x20000...0x2FFFF,
             0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return 7
        case 0xAC00...0xD7AF, 0x1100...0x11FF, 0x3130...0x318F: return 8
        default: return s.properties.isAlphabetic ? 9 : nil
        }
    }

    /// The scripts that make at least ``majorShare`` of the letters of `text`, as a bit set over
    /// ``codes``; 0 for a text without letters.
    public static func pattern(of text: String) -> UInt16 {
        var counts = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var total = 0
        withUnsafeMutableBytes(of: &counts) { raw in
            let c = raw.bindMemory(to: Int.self)
            for s in text.unicodeScalars {
                guard let k = script(s) else { continue }
                c[k] += 1
                total += 1
            }
        }
        guard total > 0 else { return 0 }
        var bits: UInt16 = 0
        withUnsafeBytes(of: &counts) { raw in
            let c = raw.bindMemory(to: Int.self)
            for k in 0..<codes.count where Double(c[k]) >= majorShare * Double(total) { bits |= 1 << k }
        }
        return bits
    }

    /// A pattern's name: its scripts' codes joined by `+` ("Hani+Latn"... in ``codes`` order).
    public static func name(_ pattern: UInt16) -> String {
        codes.indices.filter { pattern & (1 << $0) != 0 }.map { codes[$0] }.joined(separator: "+")
    }

    /// The pattern of a name (nil when a code is unknown or the name is empty).
    public static func pattern(named name: String) -> UInt16? {
        var bits: UInt16 = 0
        for code in name.split(separator: "+") {
            guard let k = codes.firstIndex(of: String(code)) else { return nil }
            bits |= 1 << k
        }
        return bits == 0 ? nil : bits
    }
}
