import LexiforgeText
import LexiforgeTestSupport
import Testing

@Suite("Tokenizer")
struct TokenizerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var text: String
        var tokens: [String]
        var testDescription: String { id }
    }

    static let cases: [Case] = [
        Case(id: "don't", text: "I don't know", tokens: ["I", "don't", "know"]),
        Case(id: "it's", text: "it's late", tokens: ["it's", "late"]),
        Case(id: "it’s (U+2019)", text: "it\u{2019}s late", tokens: ["it\u{2019}s", "late"]),
        Case(id: "o'clock", text: "at ten o'clock", tokens: ["at", "ten", "o'clock"]),
        Case(id: "well-known", text: "a well-known fact", tokens: ["a", "well-known", "fact"]),
        Case(id: "double hyphen separate", text: "yes--no", tokens: ["yes", "--", "no"]),
        Case(id: "double hyphen spaced", text: "yes -- no", tokens: ["yes", "--", "no"]),
        Case(id: "3.14", text: "pi is 3.14.", tokens: ["pi", "is", "3.14", "."]),
        Case(id: "1,000", text: "1,000 men, 2 boys", tokens: ["1,000", "men", ",", "2", "boys"]),
        Case(id: "10th", text: "the 10th day", tokens: ["the", "10th", "day"]),
        Case(id: "Mr. Smith", text: "Mr. Smith", tokens: ["Mr.", "Smith"]),
        Case(id: "U.S.", text: "the U.S. army", tokens: ["the", "U.S.", "army"]),
        Case(id: "e.g.", text: "fruit, e.g. apples", tokens: ["fruit", ",", "e.g.", "apples"]),
        Case(id: "J. Smith", text: "J. Smith wrote", tokens: ["J.", "Smith", "wrote"]),
        Case(id: "pronoun I is not an initial", text: "so did I.", tokens: ["so", "did", "I", "."]),
        Case(id: "quoted speech", text: "\"Hello,\" said he.",
             tokens: ["\"", "Hello", ",", "\"", "said", "he", "."]),
        Case(id: "ellipsis ...", text: "Wait... what", tokens: ["Wait", "...", "what"]),
        Case(id: "ellipsis …", text: "Wait\u{2026} what", tokens: ["Wait", "\u{2026}", "what"]),
        Case(id: "curly quotes", text: "\u{201C}Hi,\u{201D} she said",
             tokens: ["\u{201C}", "Hi", ",", "\u{201D}", "she", "said"]),
        Case(id: "non-ASCII words", text: "café naïve Привет", tokens: ["café", "naïve", "Привет"]),
        Case(id: "em dash", text: "yes\u{2014}no", tokens: ["yes", "\u{2014}", "no"]),
        Case(id: "em dash spaced", text: "yes \u{2014} no", tokens: ["yes", "\u{2014}", "no"]),
        Case(id: "question and exclamation", text: "Why?! Now!", tokens: ["Why", "?", "!", "Now", "!"]),
        Case(id: "leading apostrophe is punctuation", text: "'twas", tokens: ["'", "twas"]),
        Case(id: "trailing apostrophe is punctuation", text: "dogs' bones", tokens: ["dogs", "'", "bones"]),
        Case(id: "brackets", text: "(see above)", tokens: ["(", "see", "above", ")"]),
        Case(id: "decomposed accent stays in the word", text: "cafe\u{301} au lait", tokens: ["cafe\u{301}", "au", "lait"]),
        Case(id: "apostrophe after a 2-byte letter", text: "café's menu", tokens: ["café's", "menu"]),
        Case(id: "curly apostrophe after ë", text: "Zoë’s hat", tokens: ["Zoë’s", "hat"]),
        Case(id: "apostrophe after Cyrillic", text: "Петя's book", tokens: ["Петя's", "book"]),
        Case(id: "hyphen after a non-ASCII letter", text: "naïveté-like", tokens: ["naïveté-like"]),
        Case(id: "empty", text: "", tokens: []),
        Case(id: "whitespace only", text: " \t ", tokens: []),
    ]

    @Test("tokens(of:)", arguments: cases)
    func tokens(_ c: Case) {
        #expect(Tokenizer().tokens(of: c.text) == c.tokens)
    }

    /// Regression: the apostrophe rule once decoded the byte before the apostrophe, which after a
    /// multi-byte letter is a continuation byte: "ë" (C3 AB) + "'" decoded as U+02E7 and split "Zoë's".
    @Test("apostrophe after a letter that ends in certain continuation bytes", arguments: ["Zoë's", "voilà's"])
    func apostropheAfterMultiByteLetter(_ word: String) {
        #expect(Tokenizer().tokens(of: word) == [word])
    }

    @Test("token kinds and flags the sentence splitter relies on")
    func kinds() {
        var bytes = Array("\"Go.\" then".utf8)
        var tokens: [Token] = []
        bytes.withUnsafeMutableBufferPointer { Tokenizer().tokenize(UnsafeBufferPointer($0), into: &tokens) }
        #expect(tokens.map(\.kind) == [.closing, .word, .terminal, .closing, .word])
        #expect(tokens.map(\.spaceBefore) == [true, false, false, false, true])
        #expect(tokens.map(\.startsLowercase) == [false, false, false, false, true])
        #expect(tokens.map { [$0.start, $0.end] } == [[0, 1], [1, 3], [3, 4], [4, 5], [6, 10]])
    }
}
