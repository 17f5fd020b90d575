import Foundation
import LexiforgeCorpus
import LexiforgeTestSupport
import Testing

@Suite("Corpus reading")
struct CorpusReaderTests {
    /// tiny.txt and its BOM+CRLF, gzip and two-member gzip variants must deliver the same lines.
    struct Variant: Sendable, CustomTestStringConvertible {
        var file: String
        /// Decoded text bytes (BOM and CRs included: offsets count them).
        var textBytes: Int
        var testDescription: String { file }
    }

    @Test("every variant of tiny.txt delivers the same lines", arguments: [
        Variant(file: "tiny.txt", textBytes: 74),
        Variant(file: "tiny-bom-crlf.txt", textBytes: 81),
        Variant(file: "tiny.txt.gz", textBytes: 74),
        Variant(file: "tiny-two-members.txt.gz", textBytes: 74),
    ])
    func variants(_ variant: Variant) throws {
        let path = Paths.fixture(variant.file)
        let (lines, summary) = try readAllLines(path)
        #expect(lines == Tiny.lines)
        #expect(lines.allSatisfy { !$0.contains("\r") && !$0.contains("\u{FEFF}") })
        #expect(summary.path == path)
        #expect(summary.sha256 == Tiny.sha256[variant.file])
        #expect(summary.storedBytes == Tiny.storedBytes[variant.file])
        #expect(summary.textBytes == variant.textBytes)
        #expect(summary.contentLines == 4)
        #expect(summary.boilerplateLines == 0)
        #expect(summary.replacedSequences == 0)
    }

    @Test("the BOM is removed from the first line only, as bytes")
    func bomRemoved() throws {
        var first: [UInt8]?
        _ = try CorpusReader.readLines(of: Paths.fixture("tiny-bom-crlf.txt")) { line in
            if first == nil { first = Array(line) }
        }
        #expect(first == Array("The cat sat on the mat. The dog ran.".utf8))
    }

    @Test("old-edition Gutenberg file: header, End-of line, end marker and license dropped")
    func gutenbergOld() throws {
        let (lines, summary) = try readAllLines(Paths.fixture("gutenberg-old.txt"))
        #expect(lines == ["", "The fox jumped. The hen slept.", "End of the story, said the hen.", ""])
        #expect(summary.contentLines == 4)
        #expect(summary.boilerplateLines == 15)
        #expect(summary.sha256 == "bfd21c87e96fd0a03168a028ba4eb03aa8e3f521a15459e73582453f1809d825")
    }

    @Test("stripGutenberg false keeps every line")
    func gutenbergKept() throws {
        let (lines, summary) = try readAllLines(
            Paths.fixture("gutenberg-old.txt"), options: .init(stripGutenberg: false))
        #expect(lines.count == 19)
        #expect(lines.first == "The Project Gutenberg EBook of Tiny Tales, by Nobody")
        #expect(lines.last == "Gutenberg-tm electronic works. LICENSE TEXT.")
        #expect(summary.boilerplateLines == 0)
    }

    @Test("new-edition Gutenberg file: markers that wrap onto a second line are dropped whole")
    func gutenbergNewWrapped() throws {
        let (lines, summary) = try readAllLines(Paths.fixture("gutenberg-new.txt"))
        #expect(lines == ["", "Holmes smiled. Watson nodded.", ""])
        #expect(summary.contentLines == 3)
        #expect(summary.boilerplateLines == 16)
    }

    @Test("two concatenated books: both headers and both licenses are dropped")
    func gutenbergTwoBooks() throws {
        let (lines, summary) = try readAllLines(Paths.fixture("gutenberg-two-books.txt"))
        #expect(lines == ["", "Holmes smiled. Watson nodded.", "", "", "Alice laughed. Bob waved.", ""])
        #expect(summary.contentLines == 6)
        #expect(summary.boilerplateLines == 23)
        for line in lines {
            #expect(!line.uppercased().contains("GUTENBERG"))
            #expect(!line.contains("***"))
            #expect(!line.contains("HOLMES ***") && line != "BOOK***")
            #expect(!line.uppercased().contains("LICENSE"))
        }
    }

    @Test("a file of nothing but Gutenberg boilerplate is empty")
    func gutenbergOnly() throws {
        let path = Paths.fixture("gutenberg-only.txt")
        #expect(throws: CorpusError.empty(path)) { try readAllLines(path) }
    }

    @Test("invalid UTF-8 is reported with its line and byte offset")
    func invalidUTF8() throws {
        let path = Paths.fixture("invalid-utf8.txt")
        #expect(throws: CorpusError.invalidUTF8(path, [.init(line: 3, offset: 35)], total: 1)) {
            try readAllLines(path)
        }
        let message = CorpusError.invalidUTF8(path, [.init(line: 3, offset: 35)], total: 1).description
        #expect(message.hasPrefix("\(path): invalid UTF-8 at line 3, byte offset 35;"))
        #expect(!message.contains("\n"))
    }

    @Test("with replaceInvalidUTF8 the line arrives with U+FFFD and the replacement is counted")
    func invalidUTF8Replaced() throws {
        let (lines, summary) = try readAllLines(
            Paths.fixture("invalid-utf8.txt"), options: .init(replaceInvalidUTF8: true))
        #expect(lines == ["Line one is fine.", "Line two too.", "Caf\u{FFFD} au lait.", "The end."])
        #expect(summary.replacedSequences == 1)
        #expect(summary.textBytes == 55)
        #expect(summary.sha256 == "bbb42ac12538083025765eca35e8a8a29fb34a0eb292c6775104138a11e69bc4")
    }

    @Test("a NUL byte means a binary file, with its offset")
    func binary() throws {
        let path = Paths.fixture("binary.bin")
        #expect(throws: CorpusError.binary(path, offset: 3)) { try readAllLines(path) }
    }

    @Test("an empty file is refused as empty")
    func empty() throws {
        let path = Paths.fixture("empty.txt")
        #expect(throws: CorpusError.empty(path)) { try readAllLines(path) }
    }

    @Test("a missing file is .missing")
    func missing() throws {
        let path = Paths.fixture("no-such-file.txt")
        #expect(throws: CorpusError.missing(path)) { try readAllLines(path) }
    }

    @Test("a directory is .isDirectory")
    func directory() throws {
        let path = Paths.fixtures.path
        #expect(throws: CorpusError.isDirectory(path)) { try readAllLines(path) }
    }

    @Test("a truncated gzip file is .corruptGzip")
    func truncatedGzip() throws {
        let path = Paths.fixture("truncated.txt.gz")
        let error = #expect(throws: CorpusError.self) { try readAllLines(path) }
        guard case .corruptGzip(let reported, _)? = error else {
            Issue.record("expected .corruptGzip, got \(String(describing: error))")
            return
        }
        #expect(reported == path)
    }

    @Test("zero padding after the last gzip member ends the file; data after the padding is .corruptGzip")
    func gzipZeroPadding() throws {
        let folder = try TemporaryFolder()
        let gzip = try Data(contentsOf: URL(fileURLWithPath: Paths.fixture("tiny.txt.gz")))
        let padded = folder.file("padded.txt.gz")
        try (gzip + Data(repeating: 0, count: 300_000)).write(to: URL(fileURLWithPath: padded))   // longer than one 256 KiB read
        #expect(try readAllLines(padded).0 == Tiny.lines)
        let garbage = folder.file("garbage.txt.gz")
        try (gzip + Data(repeating: 0, count: 10) + Data("x".utf8)).write(to: URL(fileURLWithPath: garbage))
        let error = #expect(throws: CorpusError.self) { try readAllLines(garbage) }
        guard case .corruptGzip(_, let reason)? = error else {
            Issue.record("expected .corruptGzip, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("byte offset \(gzip.count + 10)"), "\(reason)")
    }

    @Test("an unreadable file is .unreadable")
    func unreadable() throws {
        let folder = try TemporaryFolder()
        let path: String
        if isRoot {
            // chmod does not stop root; reading /proc/self/mem at offset 0 fails with EIO.
            path = "/proc/self/mem"
        } else {
            path = folder.file("locked.txt")
            try Data("words".utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0)
        }
        let error = #expect(throws: CorpusError.self) { try readAllLines(path) }
        guard case .unreadable(let reported, _)? = error else {
            Issue.record("expected .unreadable, got \(String(describing: error))")
            return
        }
        #expect(reported == path)
    }

    @Test("a line longer than one read chunk arrives whole")
    func longLineAcrossChunks() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("long.txt")
        // 1.5 MiB of "ab " on one line, then a short line: larger than the 1 MiB chunk.
        let long = String(repeating: "ab ", count: 524_288)
        try Data((long + "\nend\n").utf8).write(to: URL(fileURLWithPath: path))
        let (lines, summary) = try readAllLines(path)
        #expect(lines.count == 2)
        #expect(lines.first?.utf8.count == 1_572_864)
        #expect(lines.last == "end")
        #expect(summary.textBytes == 1_572_864 + 5)
    }

    @Test("a last line without a newline is delivered")
    func noFinalNewline() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("no-newline.txt")
        try Data("one\r\ntwo".utf8).write(to: URL(fileURLWithPath: path))
        let (lines, summary) = try readAllLines(path)
        #expect(lines == ["one", "two"])
        #expect(summary.contentLines == 2)
    }
}
