/// The one definition of Android LatinIME's "combined" wordlist format, shared by the parser, the
/// writer and the tests.
///
/// ```text
/// dictionary=main:en_us,locale=en_US,description=English (US),date=1414726260,version=54
///  word=the,f=222,flags=,originalFreq=222
///  word=ill,f=90,flags=,originalFreq=90
///   shortcut=I'll,f=whitelist
///  word=aint,f=0,not_a_word=true
///   bigram=new,f=1
/// ```
/// - Line 1 is the header: `key=value` attributes separated by commas, starting with
///   `dictionary=`. Any attribute is kept verbatim and in order.
/// - An entry line starts with ONE space and `word=`; its other keys follow, comma-separated.
/// - Child lines start with TWO spaces: `shortcut=TARGET,f=N|whitelist` and `bigram=NEXT,f=N`.
/// - Lines end with LF. `#` lines are comments (AOSP's dicttool skips them).
///
/// Escapes: AOSP's dicttool splits every line on every comma and knows no escape, so a word with a
/// comma cannot be written for it. This toolchain reads and writes `\,` for a comma and `\\` for a
/// backslash inside keys' values; a backslash before anything else is an error. No AOSP list
/// contains a backslash, so real lists read and write exactly as dicttool does.
public enum CombinedFormat {
    public static let dictionaryTag = "dictionary"
    public static let wordTag = "word"
    public static let frequencyTag = "f"
    public static let flagsTag = "flags"
    public static let originalFrequencyTag = "originalFreq"
    public static let notAWordTag = "not_a_word"
    public static let possiblyOffensiveTag = "possibly_offensive"
    /// `whitelist=TARGET` on an entry line: the autocorrect target. Kept as an extra key.
    public static let whitelistTag = "whitelist"
    public static let shortcutTag = "shortcut"
    public static let bigramTag = "bigram"
    /// `f=whitelist` on a shortcut line: the shortcut replaces the typed word outright.
    public static let whitelistFrequency = "whitelist"
    public static let trueValue = "true"
    public static let falseValue = "false"

    public static let entryIndent = " "
    public static let childIndent = "  "
    public static let commentStart: UInt8 = UInt8(ascii: "#")
    public static let separator: UInt8 = UInt8(ascii: ",")
    public static let assignment: UInt8 = UInt8(ascii: "=")
    public static let escape: UInt8 = UInt8(ascii: "\\")
    public static let space: UInt8 = UInt8(ascii: " ")
    public static let lineFeed: UInt8 = 0x0A
    public static let carriageReturn: UInt8 = 0x0D

    /// The range of `f=` on entry and bigram lines (a log scale, see ``LexiconEntry/probability``).
    public static let frequencyRange = 0...255

    /// The order the writer puts an entry's typed keys in (AOSP's order). Extra keys go where their
    /// recorded position puts them.
    public static let typedKeyOrder = [
        wordTag, frequencyTag, flagsTag, originalFrequencyTag, notAWordTag, possiblyOffensiveTag,
    ]

    /// `value` with `\` and `,` escaped.
    public static func escaped(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == separator || $0 == escape }) else { return value }
        var out = ""
        for ch in value {
            if ch == "," || ch == "\\" { out.append("\\") }
            out.append(ch)
        }
        return out
    }
}
