import Foundation
import LexiforgeCorpus
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeText
import LexiforgeWordlist
import LexiforgeTestSupport
import Testing

/// Memory independent of line and sentence length (issue 22, part 3): lines are cut at
/// ``CorpusReader/maxLineBytes`` (4 MiB; wordlists at ``WordlistReader/maxLineBytes``) and sentences at
/// ``SentenceSplitter/maxSentenceTokens``, each with one warning per file.
///
/// Inputs are generated here: one line repeating `pattern` (no sentence end), gzipped with
/// `gzip -1` after a short first line.
@Suite("Long lines and sentences")
struct LongInputTests {
    static let pattern = Array("alpha beta gamma delta ".utf8)   // 23 bytes, 4 words

    /// A gzip file: "first line\n", then `repeats` × ``pattern`` as one line, then "\nlast line\n".
    static func longLineGzip(repeats: Int, in folder: TemporaryFolder) throws -> String {
        let plain = folder.file("long.txt")
        FileManager.default.createFile(atPath: plain, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: plain))
        try handle.write(contentsOf: Data("first line\n".utf8))
        let block = Data([UInt8]((0..<10_000).flatMap { _ in pattern }))
        var left = repeats
        while left > 0 {
            let n = min(left, 10_000)
            try handle.write(contentsOf: n == 10_000 ? block : block.prefix(n * pattern.count))
            left -= n
        }
        try handle.write(contentsOf: Data("\nlast line\n".utf8))
        try handle.close()
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gzip.arguments = ["-c", "gzip -1 -n \"$0\"", plain]
        try gzip.run()
        gzip.waitUntilExit()
        try #require(gzip.terminationStatus == 0)
        return plain + ".gz"
    }

    @Test("a 50 MB line through gzip comes out in pieces of at most 4 MiB, cut at spaces, the text unchanged, one warning")
    func longLine() throws {
        let folder = try TemporaryFolder()
        let repeats = 50_000_000 / Self.pattern.count
        let path = try Self.longLineGzip(repeats: repeats, in: folder)
        // The pattern laid out twice over 2 MiB, so any piece can be compared with one memcmp.
        let reference = [UInt8]((0..<((2 * CorpusReader.maxLineBytes) / Self.pattern.count + 2)).flatMap { _ in Self.pattern })
        var lines: [String] = []
        var position = 0, pieces = 0, largest = 0, mismatches = 0
        let summary = try CorpusReader.readLines(of: path) { line in
            if line.count < 64 && !line.starts(with: Self.pattern) {
                lines.append(String(decoding: line, as: UTF8.self))
                return
            }
            pieces += 1
            largest = max(largest, line.count)
            let same = reference.withUnsafeBufferPointer { r in
                memcmp(r.baseAddress! + position % Self.pattern.count, line.baseAddress!, line.count) == 0
            }
            if !same { mismatches += 1 }
            if line.last != UInt8(ascii: " ") { mismatches += 1 }   // cut after a space
            position += line.count
        }
        #expect(lines == ["first line", "last line"])
        #expect(position == repeats * Self.pattern.count, "every byte of the long line, once")
        #expect(mismatches == 0)
        #expect(largest <= CorpusReader.maxLineBytes)
        #expect(pieces == (position + CorpusReader.maxLineBytes - 1) / CorpusReader.maxLineBytes)
        #expect(summary.cutLines == 1 && summary.firstCutLine == 2)
        #expect(summary.cutLinesWarning == "\(path): 1 line(s) longer than 4194304 bytes (4 MiB) were cut into pieces of at most that, at spaces where possible, the first at line 2")
        #expect(summary.contentLines == 2 + pieces)
    }

    @Test("a line without spaces is cut at a UTF-8 character start; invalid UTF-8 keeps its true line and offset")
    func noSpaces() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("dense.txt")
        // "é" (2 bytes) repeated past the limit, on line 2; then a lone E9 byte on line 3.
        var bytes = Array("x\n".utf8)
        let run = (0..<(CorpusReader.maxLineBytes / 2 + 10)).flatMap { _ in Array("é".utf8) }
        bytes += run
        bytes += Array("\nab".utf8) + [0xE9, 0x0A]
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var pieces: [Int] = []
        #expect {
            _ = try CorpusReader.readLines(of: path) { line in
                #expect(String(validating: line, as: UTF8.self) != nil)
                pieces.append(line.count)
            }
        } throws: { error in
            guard case CorpusError.invalidUTF8(_, let diagnostics, total: 1) = error else { return false }
            return diagnostics.first?.line == 3 && diagnostics.first?.offset == 2 + run.count + 1 + 2
        }
        #expect(pieces == [1, CorpusReader.maxLineBytes, run.count - CorpusReader.maxLineBytes])
    }

    @Test("a sentence without an end is cut every 10,000 tokens, counted for a warning")
    func longSentence() {
        var splitter = SentenceSplitter()
        var sizes: [Int] = []
        let line = Array(String(repeating: "word ", count: 25_000).utf8)
        line.withUnsafeBufferPointer { buffer in
            splitter.feed(line: buffer) { sizes.append($0.count) }
        }
        splitter.finish { sizes.append($0.count) }
        #expect(sizes == [10_000, 10_000, 5_000])
        #expect(splitter.cutSentences == 2)
    }

    @Test("ngrams on a 10 MB line without a sentence end: correct counts, both warnings")
    func ngramsOnLongLine() throws {
        let folder = try TemporaryFolder()
        let repeats = 10_000_000 / Self.pattern.count   // 434,782 × 4 words, 10 MB on one line
        let input = try Self.longLineGzip(repeats: repeats, in: folder)
        let output = folder.file("long.sqlite")
        let report = try buildStore([input], to: output, order: 2) { $0.lemmatizer = nil }
        #expect(report.warnings.contains { $0.hasPrefix("\(input): 1 line(s) longer than 4194304 bytes (4 MiB)") })
        let words = 4 * repeats
        // "first line alpha ... delta last line": one paragraph, cut every 10,000 tokens.
        let tokens = 2 + words + 2
        let cuts = tokens / SentenceSplitter.maxSentenceTokens
        #expect(report.warnings.contains("\(input): \(cuts) sentence(s) ran past 10000 tokens (or 4194304 bytes) without a sentence end and were cut there"))
        #expect(report.tokens == tokens)
        #expect(report.sentences == cuts + (tokens % SentenceSplitter.maxSentenceTokens > 0 ? 1 : 0))
        let store = try TrainedStore(path: output)
        let vocabulary = try store.vocabulary()
        for word in ["alpha", "beta", "gamma", "delta"] {
            #expect(vocabulary.counts[Int(try #require(vocabulary.id(of: word)))] == Int64(repeats), "\(word): no word split at a cut")
        }
        #expect(vocabulary.texts.count == 3 + 4 + 3, "<unk> <s> </s>, the four words, first line last")
    }

    @Test("wordlist: a 3 MiB line keeps its first 1 MiB with one warning; the lines after it are read; NUL data is refused")
    func wordlistLongLine() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("long.combined")
        var text = "dictionary=main:en_us,locale=en_US,description=test,date=1,version=1\n word=hello,f=100\n"
        text += " word=" + String(repeating: "a", count: 3 << 20) + ",f=5\n"
        text += " word=world,f=90\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let result = WordlistReader.read(paths: [path])
        let cut = result.diagnostics.filter { $0.message.contains("line longer than 1048576 bytes") }
        #expect(cut.count == 1 && cut.first?.line == 3 && cut.first?.severity == .warning, "\(result.diagnostics)")
        #expect(result.lexicon.entries.contains { $0.word == "world" && $0.frequency == 90 })
        #expect(result.files.first?.lines == 4)

        let zeros = folder.file("zeros.combined")
        try Data(count: 3 << 20).write(to: URL(fileURLWithPath: zeros))
        let binary = WordlistReader.read(paths: [zeros])
        #expect(binary.errors.map(\.message) == ["NUL byte (\\0) at byte offset 0; a wordlist is text: binary data or a damaged file, nothing after it was read"])
        #expect(binary.errors.map(\.line) == [1])
    }
}
