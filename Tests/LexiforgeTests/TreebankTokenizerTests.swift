import LexiforgeText
import LexiforgeTestSupport
import Testing

@Suite("Tokenizer modes and special tokens")
struct TreebankTokenizerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var mode: TokenizerMode
        var text: String
        /// Syntactic words; "+" joins the words of one written token.
        var tokens: [String]
        var testDescription: String { "\(mode.rawValue): \(id)" }
    }

    static let cases: [Case] = [
        Case(id: "don't splits like UD", mode: .treebank, text: "I don't know", tokens: ["I", "do+n't", "know"]),
        Case(id: "can't → ca + n't", mode: .treebank, text: "I can't", tokens: ["I", "ca+n't"]),
        Case(id: "it’s with U+2019", mode: .treebank, text: "it\u{2019}s late", tokens: ["it+\u{2019}s", "late"]),
        Case(id: "I'm, we'll, they've, she'd", mode: .treebank, text: "I'm we'll they've she'd",
             tokens: ["I+'m", "we+'ll", "they+'ve", "she+'d"]),
        Case(id: "should've", mode: .treebank, text: "should've", tokens: ["should+'ve"]),
        Case(id: "cannot, gonna", mode: .treebank, text: "cannot gonna", tokens: ["can+not", "gon+na"]),
        Case(id: "dont without apostrophe", mode: .treebank, text: "dont go", tokens: ["do+nt", "go"]),
        Case(id: "plural possessive", mode: .treebank, text: "the veterans' attack", tokens: ["the", "veterans+'", "attack"]),
        Case(id: "closing single quote after s", mode: .treebank, text: "a 'big dogs' day",
             tokens: ["a", "'", "big", "dogs", "'", "day"]),
        Case(id: "hyphen splits", mode: .treebank, text: "so-called follow-up", tokens: ["so", "-", "called", "follow", "-", "up"]),
        Case(id: "bound prefix keeps hyphen", mode: .treebank, text: "e-mail non-human re-elect",
             tokens: ["e-mail", "non-human", "re-elect"]),
        Case(id: "phone number vs range", mode: .treebank, text: "713-853-3989 400-500",
             tokens: ["713-853-3989", "400", "-", "500"]),
        Case(id: "punctuation runs", mode: .treebank, text: "what?!? ***", tokens: ["what", "?!?", "***"]),
        Case(id: "keyboard keeps don't whole", mode: .keyboard, text: "I don't", tokens: ["I", "don't"]),
        Case(id: "keyboard keeps well-known", mode: .keyboard, text: "well-known", tokens: ["well-known"]),
        Case(id: "URL without trailing period", mode: .keyboard, text: "see https://example.com/a?b=1.",
             tokens: ["see", "https://example.com/a?b=1", "."]),
        Case(id: "www URL", mode: .treebank, text: "www.enron.com, now", tokens: ["www.enron.com", ",", "now"]),
        Case(id: "e-mail address", mode: .keyboard, text: "mail carol.st.clair@enron.com.",
             tokens: ["mail", "carol.st.clair@enron.com", "."]),
        Case(id: "times and dates", mode: .keyboard, text: "at 5:30 on 11/28/2000", tokens: ["at", "5:30", "on", "11/28/2000"]),
        Case(id: "domain name", mode: .keyboard, text: "Amazon.com sells", tokens: ["Amazon.com", "sells"]),
        Case(id: "Ph.D. and a.m.", mode: .keyboard, text: "a Ph.D. at 9 a.m. today", tokens: ["a", "Ph.D.", "at", "9", "a.m.", "today"]),
        Case(id: "emoticons", mode: .keyboard, text: "ok :) sure :-( fine", tokens: ["ok", ":)", "sure", ":-(", "fine"]),
        Case(id: "10:30 is not an emoticon", mode: .keyboard, text: "re:Dinner", tokens: ["re", ":", "Dinner"]),
        Case(id: "emoji with skin tone", mode: .keyboard, text: "nice👍🏽!", tokens: ["nice", "👍🏽", "!"]),
        Case(id: "ZWJ family is one token", mode: .keyboard, text: "👨\u{200D}👩\u{200D}👧 ok", tokens: ["👨\u{200D}👩\u{200D}👧", "ok"]),
        Case(id: "flag is one token", mode: .keyboard, text: "🇯🇵🇫🇷", tokens: ["🇯🇵", "🇫🇷"]),
        Case(id: "Han + okurigana stays, katakana splits", mode: .keyboard, text: "食べる カタカナです",
             tokens: ["食べる", "カタカナ", "です"]),
        Case(id: "Latin|Han boundary", mode: .keyboard, text: "iPhone用", tokens: ["iPhone", "用"]),
        Case(id: "full-width terminal", mode: .keyboard, text: "行く。", tokens: ["行く", "。"]),
        Case(id: "em dash and double hyphen", mode: .treebank, text: "yes\u{2014}no--maybe", tokens: ["yes", "\u{2014}", "no", "--", "maybe"]),
        Case(id: "1960's", mode: .keyboard, text: "the 1960's", tokens: ["the", "1960's"]),
        Case(id: "'72", mode: .keyboard, text: "in '72 we", tokens: ["in", "'72", "we"]),
        Case(id: "NUL byte is a space", mode: .keyboard, text: "a\u{0}b", tokens: ["a", "b"]),
        Case(id: "only punctuation", mode: .treebank, text: "!!! ... ,;", tokens: ["!!!", "...", ",", ";"]),
        Case(id: "mixed scripts", mode: .keyboard, text: "Привет hello 안녕", tokens: ["Привет", "hello", "안녕"]),
    ]

    @Test("tokens by mode", arguments: cases)
    func tokens(_ c: Case) {
        #expect(Self.words(c.text, mode: c.mode) == c.tokens)
    }

    @Test("a 10 MB line without a newline tokenizes in bounded time")
    func longLine() {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 10_000_000)
        for k in stride(from: 7, to: bytes.count, by: 8) { bytes[k] = 0x20 }
        var tokens: [Token] = []
        bytes.withUnsafeBufferPointer { Tokenizer(mode: .treebank).tokenize($0, into: &tokens) }
        #expect(tokens.count == 1_250_000)
    }

    /// Words of `text`, the words of one written token joined with "+".
    static func words(_ text: String, mode: TokenizerMode) -> [String] {
        var bytes = Array(text.utf8)
        var tokens: [Token] = []
        bytes.withUnsafeMutableBufferPointer { Tokenizer(mode: mode).tokenize(UnsafeBufferPointer($0), into: &tokens) }
        var out: [String] = []
        for t in tokens {
            let s = String(decoding: bytes[t.start..<t.end], as: UTF8.self)
            if t.continuesToken, !out.isEmpty { out[out.count - 1] += "+" + s } else { out.append(s) }
        }
        return out
    }
}

@Suite("Normalization and sentence ends")
struct NormalizationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var options: TextOptions
        var text: String
        var sentences: [[String]]
        var testDescription: String { id }
    }

    static let cases: [Case] = [
        Case(id: "straight quotes", options: .init(straightQuotes: true), text: "Don\u{2019}t go", sentences: [["Don't", "go"]]),
        Case(id: "NFC composes", options: .init(normalization: .nfc), text: "cafe\u{301}", sentences: [["caf\u{E9}"]]),
        Case(id: "NFKC folds ligatures and full-width", options: .init(normalization: .nfkc), text: "\u{FB01}ne \u{FF21}", sentences: [["fine", "A"]]),
        Case(id: "numbers to <num>", options: .init(numberClass: true), text: "pay 1,000 at 5:30 or 3.14 now", sentences: [["pay", "<num>", "at", "<num>", "or", "<num>", "now"]]),
        Case(id: "lowercase after quotes", options: .init(lowercase: true, straightQuotes: true), text: "It\u{2019}S", sentences: [["it's"]]),
        Case(id: "U.S. then He ends a sentence", options: .init(), text: "He lives in the U.S. He likes it.",
             sentences: [["He", "lives", "in", "the", "U.S."], ["He", "likes", "it"]]),
        Case(id: "Mr. never ends one", options: .init(), text: "Ask Mr. He knows.", sentences: [["Ask", "Mr.", "He", "knows"]]),
        Case(id: "decimal is not an end", options: .init(), text: "It costs 3.50 now. Yes.", sentences: [["It", "costs", "3.50", "now"], ["Yes"]]),
        Case(id: "treebank mode through the splitter", options: .init(mode: .treebank), text: "I can't. Go.", sentences: [["I", "ca", "n't"], ["Go"]]),
    ]

    @Test("sentences(in:options:)", arguments: cases)
    func sentences(_ c: Case) {
        #expect(SentenceSplitter.sentences(in: c.text, options: c.options) == c.sentences)
    }
}
