import LexiforgeText
import LexiforgeTestSupport
import Testing

@Suite("Sentence splitter")
struct SentenceSplitterTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var text: String
        var options: TextOptions = .init()
        var sentences: [[String]]
        var testDescription: String { id }
    }

    static let cases: [Case] = [
        Case(id: "abbreviation is not a boundary",
             text: "Mr. Smith went. He left.",
             sentences: [["Mr.", "Smith", "went"], ["He", "left"]]),
        Case(id: "closing quote stays with the first sentence",
             text: "He said \"Go.\" Then he left.",
             options: .init(keepPunctuation: true),
             sentences: [["He", "said", "\"", "Go", ".", "\""], ["Then", "he", "left", "."]]),
        Case(id: "closing curly quote stays with the first sentence",
             text: "She said \u{201C}Stop!\u{201D} Nobody moved.",
             options: .init(keepPunctuation: true),
             sentences: [["She", "said", "\u{201C}", "Stop", "!", "\u{201D}"], ["Nobody", "moved", "."]]),
        Case(id: "closing quote, punctuation dropped",
             text: "He said \"Go.\" Then he left.",
             sentences: [["He", "said", "Go"], ["Then", "he", "left"]]),
        Case(id: "line break inside a paragraph is not a boundary",
             text: "The cat\nsat down.",
             sentences: [["The", "cat", "sat", "down"]]),
        Case(id: "blank line is a boundary",
             text: "The cat\n\nsat down",
             sentences: [["The", "cat"], ["sat", "down"]]),
        Case(id: "whitespace-only line is a boundary",
             text: "The cat\n  \t\nsat down",
             sentences: [["The", "cat"], ["sat", "down"]]),
        Case(id: "terminal at a line end, capital on the next line",
             text: "The dog ran.\nIt was late.",
             sentences: [["The", "dog", "ran"], ["It", "was", "late"]]),
        Case(id: "capital initial before an opener ends the sentence",
             text: "We need a plan B. Then we go.",
             sentences: [["We", "need", "a", "plan", "B."], ["Then", "we", "go"]]),
        Case(id: "capital initial before a name does not",
             text: "Dr. J. Watson and J. R. R. Tolkien met.",
             sentences: [["Dr.", "J.", "Watson", "and", "J.", "R.", "R.", "Tolkien", "met"]]),
        Case(id: "abbreviation that can end a sentence, before an opener",
             text: "He moved to the U.S. The rest followed.",
             sentences: [["He", "moved", "to", "the", "U.S."], ["The", "rest", "followed"]]),
        Case(id: "etc. and: abbreviation with lowercase continuation",
             text: "Apples, pears, etc. and plums.",
             sentences: [["Apples", "pears", "etc.", "and", "plums"]]),
        Case(id: "terminal followed by a lowercase word is not a boundary",
             text: "He stopped. and then went on.",
             sentences: [["He", "stopped", "and", "then", "went", "on"]]),
        Case(id: "! ? and ellipsis end sentences",
             text: "Run! Why? Wait... Go\u{2026} Stop.",
             sentences: [["Run"], ["Why"], ["Wait"], ["Go"], ["Stop"]]),
        Case(id: "digit after a terminal starts a sentence",
             text: "It ended. 42 remained.",
             sentences: [["It", "ended"], ["42", "remained"]]),
        Case(id: "lowercase option",
             text: "The Cat SAT. Привет Мир.",
             options: .init(lowercase: true),
             sentences: [["the", "cat", "sat"], ["привет", "мир"]]),
        Case(id: "keepPunctuation false drops punctuation tokens",
             text: "Yes, the cat -- a big one -- sat (quietly); ok?",
             sentences: [["Yes", "the", "cat", "a", "big", "one", "sat", "quietly", "ok"]]),
        Case(id: "keepPunctuation true keeps them",
             text: "Yes, the cat -- a big one -- sat (quietly); ok?",
             options: .init(keepPunctuation: true),
             sentences: [["Yes", ",", "the", "cat", "--", "a", "big", "one", "--", "sat", "(", "quietly", ")", ";", "ok", "?"]]),
        Case(id: "punctuation-only text gives no sentence", text: "... !", sentences: []),
        Case(id: "empty text", text: "", sentences: []),
    ]

    @Test("sentences(in:options:)", arguments: cases)
    func sentences(_ c: Case) {
        #expect(SentenceSplitter.sentences(in: c.text, options: c.options) == c.sentences)
    }

    @Test("feed/finish: a sentence spanning lines comes out once, at the boundary")
    func streaming() {
        var splitter = SentenceSplitter()
        var out: [[String]] = []
        for line in ["The cat sat. The", "dog ran", "", "Home."] {
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBufferPointer { b in
                splitter.feed(line: UnsafeBufferPointer(b)) { out.append($0.tokens) }
            }
            if line == "The cat sat. The" { #expect(out == [["The", "cat", "sat"]]) }
        }
        #expect(out == [["The", "cat", "sat"], ["The", "dog", "ran"]])
        splitter.finish { out.append($0.tokens) }
        #expect(out == [["The", "cat", "sat"], ["The", "dog", "ran"], ["Home"]])
    }
}

@Suite("ASCII apostrophes")
struct AsciiApostropheTests {
    typealias Case = TokenizerTests.Case

    @Test("straightQuotes writes the apostrophe inside words as '", arguments: [
        Case(id: "it’s", text: "it\u{2019}s late", tokens: ["it's", "late"]),
        Case(id: "two in one word", text: "rock\u{2019}n\u{2019}roll", tokens: ["rock'n'roll"]),
        Case(id: "after a multi-byte letter", text: "Zoë\u{2019}s hat", tokens: ["Zoë's", "hat"]),
        Case(id: "ASCII stays", text: "don't go", tokens: ["don't", "go"]),
        Case(id: "closing quote is not a word", text: "\u{2018}Yes\u{2019} she said", tokens: ["Yes", "she", "said"]),
    ])
    func fold(_ c: Case) {
        let sentences = SentenceSplitter.sentences(in: c.text, options: TextOptions(straightQuotes: true))
        #expect(sentences.flatMap { $0 } == c.tokens)
    }
}
