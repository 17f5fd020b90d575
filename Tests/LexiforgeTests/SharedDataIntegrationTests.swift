import Foundation
import LexiforgeCorpus
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeTestSupport
import Testing

/// Real corpora from ../shared/data (relative to the package root). Expected line numbers were
/// read off the files with `grep -n "PROJECT GUTENBERG"` and `wc -l`.
// Skipped, not failed, on machines without the shared data folder.
@Suite("Integration on ../shared/data", .tags(.slow), .slow, .enabled(if: Paths.sharedDataAvailable, "../shared/data absent"))
struct SharedDataIntegrationTests {
    struct Book: Sendable, CustomTestStringConvertible {
        var file: String
        var firstLine: String
        var lastLine: String
        var contentLines: Int
        var boilerplateLines: Int
        var testDescription: String { file }
    }

    @Test("Gutenberg books: no boilerplate reaches the body, the body is intact", arguments: [
        // Markers wrap: line 21 "*** START OF THIS PROJECT GUTENBERG EBOOK THE ADVENTURES OF SHERLOCK",
        // line 22 "HOLMES ***"; end marker at lines 11850-11851; 12218 lines in all.
        Book(file: "sherlock-holmes-pg1661.txt",
             firstLine: "The Adventures of Sherlock Holmes",
             lastLine: "where I believe that she has met with considerable success.",
             contentLines: 11849 - 23 + 1, boilerplateLines: 12218 - (11849 - 23 + 1)),
        // BOM + CRLF; new-edition start marker at line 23, end marker at line 8557; 8907 lines.
        Book(file: "dorian-gray-pg174.txt",
             firstLine: "The Picture of Dorian Gray",
             lastLine: "THE END",
             contentLines: 8556 - 24 + 1, boilerplateLines: 8907 - (8556 - 24 + 1)),
        // BOM + CRLF; old-edition start marker at line 21, no footer; 600 lines.
        Book(file: "dorian-gray-ch1.txt",
             firstLine: "Produced by Judith Boss.  HTML version by Al Haines.",
             lastLine: "by the arm, he almost led him into the house.",
             contentLines: 600 - 22 + 1, boilerplateLines: 21),
    ])
    func gutenbergBook(_ book: Book) throws {
        let (lines, summary) = try readAllLines(Paths.sharedCorpus(book.file))
        let text = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(text.first?.trimmingCharacters(in: .whitespaces) == book.firstLine)
        #expect(text.last?.trimmingCharacters(in: .whitespaces) == book.lastLine)
        #expect(!lines.contains { $0.range(of: "Project Gutenberg", options: .caseInsensitive) != nil })
        #expect(!lines.contains { $0.contains("\r") || $0.contains("\u{FEFF}") })
        #expect(summary.contentLines == book.contentLines)
        #expect(summary.boilerplateLines == book.boilerplateLines)
    }

    @Test("dorian-gray-ch1.txt, order 3: sentences start with \"I\" and \"The\" most often")
    func chapterOneStore() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("ch1.sqlite")
        let report = try buildStore([Paths.sharedCorpus("dorian-gray-ch1.txt")], to: path, order: 3)
        #expect(report.files.first?.sha256 == "a85ed4da70862fe1b01a6046845233936c0464966b2cc1e39f542d59a954f1f7")
        let store = try TrainedStore(path: path)
        #expect(store.order == 3)
        let starting = try store.startingWords(limit: 3)
        #expect(Array(starting.prefix(2).map(\.word)) == ["I", "The"])
        #expect(starting.allSatisfy { $0.order == 2 })
        #expect(try store.id(of: "Gutenberg") == nil)
        #expect(try store.id(of: "Hallward") != nil)
    }

    @Test("size budgets: chapter 1 at order 2 ≤ 91,136 bytes, at order 3 ≤ 163,840 bytes", arguments: [
        (2, 91_136), (3, 163_840),
    ])
    func sizeBudget(order: Int, budget: Int) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("ch1-order\(order).sqlite")
        let report = try buildStore([Paths.sharedCorpus("dorian-gray-ch1.txt")], to: path, order: order)
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size == report.storeBytes)
        #expect(size <= budget, "order \(order): \(size) bytes, budget \(budget)")
    }
}
