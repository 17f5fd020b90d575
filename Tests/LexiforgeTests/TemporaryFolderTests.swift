import Foundation
import LexiforgeTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tests' own temporary folders: `make test` must leave nothing behind in the temporary
/// directory, including the fixtures statics keep for a whole run.
struct TemporaryFolderTests {
    @Test("a folder is removed when released; a per-process folder outlives its value, and those of ended processes are swept")
    func lifetimes() throws {
        let temporary = FileManager.default.temporaryDirectory
        var path = ""
        do {
            let folder = try TemporaryFolder("lexiforge-folder-test")
            path = folder.path
            try "x".write(toFile: folder.file("a.txt"), atomically: true, encoding: .utf8)
        }
        #expect(!FileManager.default.fileExists(atPath: path))

        // A process that has ended: its folder is stale.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let label = "lexiforge-folder-test-\(UUID().uuidString.prefix(8))"
        let stale = temporary.appendingPathComponent("\(label)-\(ended.processIdentifier)-0000").path
        let live = temporary.appendingPathComponent("\(label)-\(getpid())-1111").path
        let unrelated = temporary.appendingPathComponent("\(label)-notapid").path
        for made in [stale, live, unrelated] { try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true) }
        defer { for made in [live, unrelated] { try? FileManager.default.removeItem(atPath: made) } }

        do {
            let folder = try TemporaryFolder.forProcess(label)
            path = folder.path
            #expect(folder.url.lastPathComponent.hasPrefix("\(label)-\(getpid())-"))
        }
        #expect(FileManager.default.fileExists(atPath: path), "a per-process folder stays until the process exits")
        #expect(!FileManager.default.fileExists(atPath: stale), "the folder of an ended process is removed")
        #expect(FileManager.default.fileExists(atPath: live), "this process's folders stay")
        #expect(FileManager.default.fileExists(atPath: unrelated), "a name without a process id is not ours to remove")
    }
}
