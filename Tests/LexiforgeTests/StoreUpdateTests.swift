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

/// Issue 22: `learn`/`merge` hold the store lock (busy, never a lost run); unreadable meta is an error, never a default.
@Suite("Hardening: store updates", .serialized)
struct StoreUpdateTests {
    @Test("learn on a store another writer is updating fails at once as busy and changes nothing")
    func learnWhileLocked() throws {
        let dir = try TemporaryFolder()
        let (store, _) = try CLITests.languageModelStore(dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        var lock: StoreLock? = try StoreLock.acquire(for: store)
        let result = try CLI.run(["learn", store, "--sentence", "the cat sat", "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["error: busy: another lexiforge is updating \(store); try again when it finishes"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        let merge = try CLI.run(["merge", store, store, "-o", store, "--quiet"])
        #expect(merge.status == 1)
        #expect(merge.stderr.contains("busy: another lexiforge is updating \(store)"))
        lock = nil
        _ = lock
        let again = try CLI.run(["learn", store, "--sentence", "the cat sat", "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try dir.contents() == ["lm.sqlite"], "no lock file or private folder left")
    }

    @Test("two concurrent learns: each succeeds or fails as busy, and no succeeded run's sentences are lost", .tags(.slow), .slow)
    func concurrentLearns() throws {
        let dir = try TemporaryFolder()
        let (store, _) = try CLITests.languageModelStore(dir)
        let base = try TrainedStore(path: store).requiredCount("sentences")
        let words = ["cat", "dog", "sat", "ran", "home", "the", "a", "good", "day", "my", "it", "was"]
        var text = ""
        // Each line one sentence: it starts with a capital, so the period before it ends the last one.
        for i in 0..<20_000 { text += "The " + (0..<(3 + i % 5)).map { words[(i * 7 + $0 * 5) % words.count] }.joined(separator: " ") + ".\n" }
        let input = dir.file("typed.txt")
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let binary = try #require(CLI.executable)
        var processes: [Process] = []
        for _ in 0..<2 {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["learn", store, input, "--quiet"]
            process.standardError = FileHandle.nullDevice
            processes.append(process)
        }
        for process in processes { try process.run() }
        for process in processes { process.waitUntilExit() }
        let succeeded = processes.filter { $0.terminationStatus == 0 }.count
        #expect(succeeded >= 1)
        #expect(try TrainedStore(path: store).requiredCount("sentences") == base + succeeded * 20_000)
    }

    /// A copy of a language-model store with its meta changed by `sql`.
    static func damagedCopy(_ dir: TemporaryFolder, _ sql: String) throws -> String {
        let (store, _) = try CLITests.languageModelStore(dir)
        let copy = dir.file("damaged.sqlite")
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: store, toPath: copy)
        let queue = try DatabaseQueue(path: copy)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA ignore_check_constraints = ON; " + sql) }
        try queue.close()
        return copy
    }

    @Test("learn on a store whose meta order, tokens or text options are unreadable fails naming the file and the key", arguments: [
        ("UPDATE meta SET value = 'three' WHERE key = 'order'", "meta \"order\" is \"three\""),
        ("DELETE FROM meta WHERE key = 'order'", "meta \"order\" is missing"),
        ("UPDATE meta SET value = '9' WHERE key = 'order'", "meta \"order\" is \"9\""),
        ("UPDATE meta SET value = 'x' WHERE key = 'tokens'", "meta \"tokens\" is \"x\""),
        ("UPDATE meta SET value = '{oops' WHERE key = 'text_options'", "meta \"text_options\""),
    ])
    func unreadableMeta(_ sql: String, _ fragment: String) throws {
        let dir = try TemporaryFolder()
        let store = try Self.damagedCopy(dir, sql)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let result = try CLI.run(["learn", store, "--sentence", "the cat sat", "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("\(store): \(fragment)"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test("learn on a store with a negative count or an id outside the vocabulary is an error, not a trap")
    func damagedRows() throws {
        let dir = try TemporaryFolder()
        for sql in ["UPDATE bigram SET count = -5 WHERE (w1, w2) IN (SELECT w1, w2 FROM bigram LIMIT 1)",
                    "UPDATE bigram SET w2 = 99999 WHERE (w1, w2) IN (SELECT w1, w2 FROM bigram LIMIT 1)"] {
            let store = try Self.damagedCopy(dir, sql)
            let result = try CLI.run(["learn", store, "--sentence", "the cat sat", "--quiet"])
            #expect(result.status == 1)
            #expect(result.stderr.contains("\(store): damaged store: `bigram."), "\(result.stderr)")
        }
    }
}
