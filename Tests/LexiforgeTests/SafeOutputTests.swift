import Foundation
import GRDB
import LexiforgeCorpus
import LexiforgeHMM
import LexiforgeNgrams
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeWordlist
import LexiforgeTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 22, item 1: every output built in a private folder beside it and renamed into place; -o a regular file or absent.
@Suite("Hardening: safe outputs")
struct SafeOutputTests {
    /// A file that must never change, and its contents.
    static func victim(_ dir: TemporaryFolder) throws -> (path: String, bytes: Data) {
        let path = dir.file("victim.txt")
        let bytes = Data("precious\n".utf8)
        try bytes.write(to: URL(fileURLWithPath: path))
        return (path, bytes)
    }

    @Test("a symlink planted at the old predictable temporary name is not followed (store and wordlist writers)")
    func plantedTemporaryLinkNotFollowed() throws {
        let dir = try TemporaryFolder()
        let (victim, bytes) = try Self.victim(dir)
        let store = dir.file("out.sqlite")
        let storeLink = dir.file(".out.sqlite.tmp-\(getpid())")
        #expect(symlink(victim, storeLink) == 0)
        try buildStore([Paths.fixture("tiny.txt")], to: store)
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == bytes)
        #expect(try TrainedStore(path: store).meta["tokens"] == "18")

        let list = dir.file("out.combined")
        let listLink = dir.file(".out.combined.tmp-\(getpid())")
        #expect(symlink(victim, listLink) == 0)
        let lexicon = try WordlistReader.read(paths: [Paths.fixture("wordlist/tiny.combined")]).lexicon(strict: false)
        try WordlistWriter.write(lexicon, to: list)
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == bytes)
        #expect(FileManager.default.fileExists(atPath: list))
        // Only what was there and the outputs: no private folder left.
        #expect(try dir.contents().filter { $0.contains(AtomicOutput.folderInfix) }.isEmpty)
    }

    @Test("-o naming a symlink or a FIFO is refused with one message naming it; neither is replaced",
          arguments: ["symlink", "fifo"])
    func outputMustBeRegular(_ kind: String) throws {
        let dir = try TemporaryFolder()
        let (victim, bytes) = try Self.victim(dir)
        let output = dir.file("out.sqlite")
        if kind == "symlink" { #expect(symlink(victim, output) == 0) } else { #expect(mkfifo(output, 0o644) == 0) }
        let before = try dir.contents()
        for arguments in [["ngrams", Paths.fixture("tiny.txt"), "-o", output, "--quiet"],
                          ["wordlist", "export", try Self.wordlistStore(dir), "-o", output]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 1, "\(arguments[0]): \(result.stderr)")
            let errors = result.stderrLines.filter { $0.hasPrefix("error:") }
            #expect(errors.count == 1, "\(result.stderr)")
            let line = errors.first ?? ""
            #expect(line.contains(output))
            #expect(line.contains(kind == "symlink" ? "is a symbolic link" : "is a FIFO"), "\(line)")
        }
        var info = stat()
        #expect(lstat(output, &info) == 0)
        #expect((info.st_mode & S_IFMT) == (kind == "symlink" ? S_IFLNK : S_IFIFO))
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == bytes)
        #expect(try dir.contents().filter { !$0.hasSuffix("list.sqlite") } == before)
    }

    /// A wordlist store built in `dir` (once).
    static func wordlistStore(_ dir: TemporaryFolder) throws -> String {
        let store = dir.file("list.sqlite")
        if !FileManager.default.fileExists(atPath: store) {
            let result = try CLI.run(["wordlist", "import", Paths.fixture("wordlist/tiny.combined"), "-o", store, "--quiet"])
            try #require(result.status == 0, "\(result.stderr)")
        }
        return store
    }

    @Test("the private folder is mode 0700 and goes after success, after a failure and when abandoned")
    func privateFolderRemoved() throws {
        let dir = try TemporaryFolder()
        let output = dir.file("tokens.txt")
        try AtomicOutput.write(Data("a b\n".utf8), to: output, kind: "token list")
        #expect(try dir.contents() == ["tokens.txt"])
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "a b\n")

        do {
            let prepared = try AtomicOutput.prepare(path: output, kind: "token list")
            let mode = try FileManager.default.attributesOfItem(atPath: prepared.folder)[.posixPermissions] as? Int
            #expect(mode == 0o700)
            let fd = try prepared.createFile()
            close(fd)
            // Released without commit: a failed writer.
        }
        #expect(try dir.contents() == ["tokens.txt"])

        // A writer killed with its folder in place: the next one removes it.
        let dead = dir.file(".tokens.txt\(AtomicOutput.folderInfix)2147483646-xYz123")
        try FileManager.default.createDirectory(atPath: dead, withIntermediateDirectories: false)
        try Data("half".utf8).write(to: URL(fileURLWithPath: dead + "/tokens.txt"))
        try AtomicOutput.write(Data("c\n".utf8), to: output, kind: "token list")
        #expect(try dir.contents() == ["tokens.txt"])

        var scratchPath = ""
        do {
            let scratch = try ScratchFolder(label: "lexiforge-test")
            scratchPath = scratch.path
            #expect((try FileManager.default.attributesOfItem(atPath: scratchPath)[.posixPermissions] as? Int) == 0o700)
        }
        #expect(!FileManager.default.fileExists(atPath: scratchPath))
    }
}
