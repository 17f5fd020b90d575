/// The writing system of a word, for front ends that pick words by script (a Japanese
/// vocabulary app selecting all Kanji words of a level with an index lookup, seed 004).
///
/// Raw values are the codes stored in a store's `word.script` column; their names are
/// `StoreSchema.scriptNames` in LexiforgeReader (a test checks that the two agree).
///
/// ```swift
/// ScriptClass(of: "食べる")   // .kanjiKana
/// ScriptClass(of: "カタカナ") // .katakana
/// ScriptClass(of: "don't")    // .latin
/// ScriptClass(of: "3.14")     // .digits
/// ```
public enum ScriptClass: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// Letters of a script not listed here (Arabic, Devanagari, ...).
    case other = 0
    case latin = 1
    case hiragana = 2
    case katakana = 3
    /// Han characters only (Kanji, Hanzi).
    case han = 4
    /// Han with hiragana or katakana: 食べる, 東京タワー.
    case kanjiKana = 5
    case hangul = 6
    case cyrillic = 7
    case greek = 8
    /// Digits with their separators only: 42, 3.14, 1,000, 5:30.
    case digits = 9
    /// No letters or digits: punctuation, emoji, `<s>`'s brackets alone.
    case symbols = 10
    /// Letters of two or more scripts that are not Han + kana: "Tシャツ" is kana + Latin.
    case mixed = 11

    public var name: String {
        ["other", "latin", "hiragana", "katakana", "han", "kanji_kana", "hangul", "cyrillic", "greek",
         "digits", "symbols", "mixed"][Int(rawValue)]
    }

    public var description: String { name }

    /// The class of one scalar's letters, or nil for digits and symbols.
    static func letterClass(_ s: Unicode.Scalar) -> ScriptClass? {
        let v = s.value
        switch v {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF, 0xFF21...0xFF3A, 0xFF41...0xFF5A:
            return v == 0xD7 || v == 0xF7 ? nil : .latin
        case 0x3041...0x309F: return .hiragana
        case 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return .katakana
        case 0x3005, 0x3007, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F: return .han
        case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: return .hangul
        case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: return .cyrillic
        case 0x370...0x3FF, 0x1F00...0x1FFF: return .greek
        default:
            return s.properties.isAlphabetic ? .other : nil
        }
    }

    /// Classifies a word. Combining marks, apostrophes, hyphens and other joiners do not count;
    /// digits inside a word of letters do not either ("10th" is Latin).
    /// - Complexity: O(word length).
    public init(of word: some StringProtocol) {
        var seen: UInt16 = 0   // bit per letter class
        var digits = false
        var symbols = false
        for s in word.unicodeScalars {
            if let c = Self.letterClass(s) {
                seen |= 1 << c.rawValue
                continue
            }
            let p = s.properties
            if p.numericType != nil { digits = true; continue }
            switch p.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            default: break
            }
            if s == "." || s == "," || s == ":" || s == "/" || s == "-" || s == "'" || s == "\u{2019}" { continue }
            if s.value == 0x30FC { seen |= 1 << ScriptClass.katakana.rawValue; continue }  // ー
            symbols = true
        }
        if seen == 0 {
            self = digits && !symbols ? .digits : .symbols
            return
        }
        let japanese: UInt16 = (1 << 2) | (1 << 3) | (1 << 4)
        if seen.nonzeroBitCount == 1 {
            self = ScriptClass(rawValue: UInt8(seen.trailingZeroBitCount))!
        } else if seen & ~japanese == 0 && seen & (1 << 4) != 0 {
            self = .kanjiKana
        } else {
            self = .mixed
        }
    }
}
