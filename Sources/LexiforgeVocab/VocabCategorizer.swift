import LexiforgeFormat

/// The category of a vocabulary entry from its script classes and the list's own markers.
///
/// In: the expression as the list writes it, its reading and meaning (nil when absent). Out: one
/// ``VocabCategory``, decided in this order:
/// 1. untestable: no reading or no meaning;
/// 2. prefix / suffix: after usage notes in parentheses are removed, a trailing ～ (故～) makes a
///    prefix and a leading ～ (～区) a suffix (～, 〜 or ~); otherwise a meaning that says
///    "prefix" or "suffix" as a word ("negative prefix", "plural suffix");
/// 3. the script classes of what is left (spaces, commas, ・ and the long-vowel mark ー don't
///    count): only katakana, only hiragana, only kanji (with 々 〆 〇 ヶ), kanji and hiragana;
///    anything else (katakana with kanji, Latin letters, digits, nothing left) is miscellaneous.
public enum VocabCategorizer {
    static let tildes: Set<Unicode.Scalar> = ["\u{FF5E}", "\u{301C}", "~"]

    public static func category(expression: String, reading: String?, meaning: String?) -> VocabCategory {
        guard let reading, !reading.isEmpty, let meaning, !meaning.isEmpty else { return .untestable }
        let core = withoutParentheses(expression)
        let starts = core.first.map(tildes.contains) ?? false
        let ends = core.count > 1 && (core.last.map(tildes.contains) ?? false)
        if starts != ends { return starts ? .suffix : .prefix }
        if !starts {
            let words = meaning.lowercased().split { !$0.isLetter }
            if words.contains("prefix") { return .prefix }
            if words.contains("suffix") { return .suffix }
        }
        var hiragana = false, katakana = false, kanji = false, other = false
        for scalar in core {
            switch scalar.value {
            case 0x30FC, 0x20, 0x3000, 0x2C, 0x3001, 0x30FB, 0xFF0C, 0x2F, 0x3B: continue  // ー, spaces, commas, ・, / ;
            case 0x3041...0x309F: hiragana = true
            case 0x30F5, 0x30F6: kanji = true  // ヵ ヶ as counters (一ヶ月)
            case 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: katakana = true
            case 0x3005...0x3007, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F: kanji = true
            default: other = true
            }
        }
        if starts { other = true }  // ～ at both ends
        switch (hiragana, katakana, kanji, other) {
        case (false, true, false, false): return .katakana
        case (true, false, false, false): return .hiragana
        case (false, false, true, false): return .kanji
        case (true, false, true, false): return .kanjiHiragana
        default: return .miscellaneous
        }
    }

    /// The expression's scalars without parenthesized notes (`(みずを～)`, `（…）`), trimmed.
    static func withoutParentheses(_ text: String) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        var depth = 0
        for scalar in text.unicodeScalars {
            switch scalar {
            case "(", "\u{FF08}": depth += 1
            case ")", "\u{FF09}": depth = max(0, depth - 1)
            default: if depth == 0 { out.append(scalar) }
            }
        }
        while let first = out.first, first.properties.isWhitespace { out.removeFirst() }
        while let last = out.last, last.properties.isWhitespace { out.removeLast() }
        return out
    }
}
