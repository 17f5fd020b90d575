import Foundation
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeTestSupport
import Testing

/// `Corpora/provision.sh` (what `make corpora` runs) against a throwaway manifest and data folder:
/// a good copy lands, a tampered source stops with both digests, an unreachable address stops
/// with the file named, and a file already in place is kept.
@Suite("Corpus provisioning")
struct ProvisioningTests {
    /// Lays out `root/Corpora/{manifest.tsv,provision.sh}` and a fake shared-data folder holding
    /// `corpora/tiny.txt` with the given contents.
    private func setUp(sharedContents: String, url: String = "https://invalid.invalid/tiny.txt") throws
        -> (TemporaryFolder, shared: String, script: String, dest: String)
    {
        let root = try TemporaryFolder("lexiforge-provision")
        let corpora = root.url.appendingPathComponent("Corpora")
        let shared = root.url.appendingPathComponent("shared/corpora")
        try FileManager.default.createDirectory(at: corpora, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let script = corpora.appendingPathComponent("provision.sh").path
        try FileManager.default.copyItem(atPath: Paths.packageRoot.appendingPathComponent("Corpora/provision.sh").path, toPath: script)
        let manifest = """
            # test manifest
            name\tfile\tsha256\tlicense\tsource\turl
            tiny\tcorpora/tiny.txt\t\(Tiny.sha256["tiny.txt"]!)\tpublic domain\tTests/LexiforgeTests/Fixtures\t\(url)

            """
        try manifest.write(to: corpora.appendingPathComponent("manifest.tsv"), atomically: true, encoding: .utf8)
        try sharedContents.write(to: shared.appendingPathComponent("tiny.txt"), atomically: true, encoding: .utf8)
        // The parsed manifest is the one lexiforge train reads: the same file, the same columns.
        let parsed = try CorpusManifest(path: corpora.appendingPathComponent("manifest.tsv").path)
        #expect(parsed.entries.map(\.name) == ["tiny"])
        return (root, root.url.appendingPathComponent("shared").path, script,
                corpora.appendingPathComponent("data/corpora/tiny.txt").path)
    }

    private func run(_ script: String, shared: String) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script]
        process.environment = ProcessInfo.processInfo.environment.merging(["SHARED_DATA": shared]) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus, stdout: "", stderr: String(decoding: data, as: UTF8.self))
    }

    private var tinyText: String {
        get throws { try String(contentsOfFile: Paths.fixture("tiny.txt"), encoding: .utf8) }
    }

    @Test("a file in the shared folder with the right sha256 is copied into data/")
    func copiesVerifiedFile() throws {
        let (root, shared, script, dest) = try setUp(sharedContents: try tinyText)
        _ = root
        let result = try run(script, shared: shared)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.contents(atPath: dest) == FileManager.default.contents(atPath: Paths.fixture("tiny.txt")))
        // Second run: already in place, nothing to do, nothing printed.
        let again = try run(script, shared: shared)
        #expect(again.status == 0)
        #expect(again.stderrLines.isEmpty)
    }

    @Test("a tampered source stops with both digests and leaves nothing behind")
    func refusesMismatch() throws {
        let (root, shared, script, dest) = try setUp(sharedContents: try tinyText + "tampered\n")
        _ = root
        let result = try run(script, shared: shared)
        #expect(result.status != 0)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("sha256 mismatch"))
        #expect(result.stderr.contains(Tiny.sha256["tiny.txt"]!))
        #expect(!FileManager.default.fileExists(atPath: dest))
        #expect(!FileManager.default.fileExists(atPath: dest + ".partial"))
    }

    @Test("without a shared copy it downloads, and an unreachable address is named")
    func downloadFailureNamesTheFile() throws {
        let (root, _, script, dest) = try setUp(sharedContents: try tinyText)
        let result = try run(script, shared: root.url.appendingPathComponent("absent").path)
        #expect(result.status != 0)
        #expect(result.stderr.contains("download failed from https://invalid.invalid/tiny.txt"))
        #expect(!FileManager.default.fileExists(atPath: dest))
    }

    @Test("without a shared copy it downloads the file from its address (curl, file:// here) and checks its sha256")
    func downloadSucceeds() throws {
        let (root, _, script, dest) = try setUp(sharedContents: try tinyText, url: URL(fileURLWithPath: Paths.fixture("tiny.txt")).absoluteString)
        let result = try run(script, shared: root.url.appendingPathComponent("absent").path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.contents(atPath: dest) == FileManager.default.contents(atPath: Paths.fixture("tiny.txt")))
        // A download whose bytes are not the manifest's is refused the same way.
        let (root2, _, script2, dest2) = try setUp(sharedContents: try tinyText, url: URL(fileURLWithPath: Paths.fixture("tiny-bom-crlf.txt")).absoluteString)
        let refused = try run(script2, shared: root2.url.appendingPathComponent("absent").path)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("sha256 mismatch"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dest2))
    }

    @Test("when the shared folder holds only a gzipped copy, it is unpacked and checked against the plain file's sha256")
    func unpacksGzippedCopy() throws {
        let (root, shared, script, dest) = try setUp(sharedContents: try tinyText)
        _ = root
        let plain = shared + "/corpora/tiny.txt"
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-n", plain]   // replaces tiny.txt by tiny.txt.gz
        try gzip.run()
        gzip.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: plain))
        let result = try run(script, shared: shared)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("(unpacked)"))
        #expect(FileManager.default.contents(atPath: dest) == FileManager.default.contents(atPath: Paths.fixture("tiny.txt")))
    }
}
