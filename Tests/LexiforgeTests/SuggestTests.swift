import Foundation
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeTestSupport
import Testing

@Suite("Suggest: the text typed so far → next words")
struct SuggestTests {
    let folder: TemporaryFolder
    let tinyStore: String

    init() throws {
        folder = try TemporaryFolder()
        tinyStore = folder.file("tiny.sqlite")
        try buildStore([Paths.fixture("tiny.txt")], to: tinyStore)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var text: String
        /// "word/count/order" per suggestion.
        var expected: [String]
        var testDescription: String { id }
    }

    @Test("suggestions from tiny.txt", arguments: [
        Case(id: "two words of context", text: "The cat", expected: ["sat/1/3", "ran/1/2", "The/2/1"]),
        Case(id: "empty text gives starting words", text: "", expected: ["The/2/2", "It/1/2", "My/1/2"]),
        Case(id: "a period ends the sentence: starting words", text: "The dog ran.",
             expected: ["The/2/2", "It/1/2", "My/1/2"]),
        Case(id: "! ends the sentence: starting words", text: "The dog ran!", expected: ["The/2/2", "It/1/2", "My/1/2"]),
        Case(id: "the same words without the period continue", text: "The dog ran",
             expected: ["home/1/2", "The/2/1", "cat/2/1"]),
        Case(id: "only the last sentence is context", text: "The cat sat. My",
             expected: ["cat/1/2", "The/2/1", "ran/2/1"]),
        Case(id: "punctuation is not context in a words-only store", text: "The cat, ",
             expected: ["sat/1/3", "ran/1/2", "The/2/1"]),
        Case(id: "text over several lines", text: "It was\na", expected: ["good/1/3", "The/2/1", "cat/2/1"]),
    ])
    func tiny(_ c: Case) throws {
        let got = try Suggest.run(storePath: tinyStore, text: c.text, limit: 3).map { "\($0.word)/\($0.count)/\($0.order)" }
        #expect(got == c.expected)
    }

    @Test("an abbreviation period does not end the sentence")
    func abbreviation() throws {
        let corpus = folder.file("mr.txt")
        try Data("I saw Mr. Smith. Then Mr. Jones came.\n".utf8).write(to: URL(fileURLWithPath: corpus))
        let store = folder.file("mr.sqlite")
        try buildStore([corpus], to: store)
        let got = try Suggest.run(storePath: store, text: "I saw Mr.", limit: 3).map { "\($0.word)/\($0.count)/\($0.order)" }
        #expect(got == ["Smith/1/3", "Jones/1/2", "Mr./2/1"])
    }

    @Test("the query is normalized as the store's text was (straight quotes, number class)")
    func normalizedQuery() throws {
        let corpus = folder.file("quotes.txt")
        try Data("I don't know.\nWe paid 3 dollars.\nWe paid 12 dollars.\n".utf8).write(to: URL(fileURLWithPath: corpus))
        let store = folder.file("quotes.sqlite")
        try buildStore([corpus], to: store) {
            $0.text.straightQuotes = true
            $0.text.numberClass = true
        }
        let curly = try Suggest.run(storePath: store, text: "I don\u{2019}t", limit: 1).map(\.word)
        #expect(curly == ["know"])
        let number = try Suggest.run(storePath: store, text: "We paid 40", limit: 1).map { "\($0.word)/\($0.count)/\($0.order)" }
        #expect(number == ["dollars/2/3"])
    }

    @Test("a store built with punctuation keeps it in the query context")
    func keepPunctuation() throws {
        let corpus = folder.file("yes.txt")
        try Data("Yes, the cat sat.\nYes the dog ran.\n".utf8).write(to: URL(fileURLWithPath: corpus))
        let store = folder.file("yes.sqlite")
        try buildStore([corpus], to: store) { $0.text.keepPunctuation = true }
        #expect(try TrainedStore(path: store).keepsPunctuation)
        // Context "Yes ," → trigram → "the"; never the punctuation itself.
        let got = try Suggest.run(storePath: store, text: "Yes,", limit: 2).map { "\($0.word)/\($0.count)/\($0.order)" }
        #expect(got == ["the/1/3", "Yes/2/1"])
    }
}
