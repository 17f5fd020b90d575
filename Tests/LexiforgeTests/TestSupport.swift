import Foundation
import LexiforgeCorpus
import LexiforgeReader
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Paths shared by the tests: the hand-made fixtures, the package root, ../shared/data.
enum Paths {
    /// Tests/LexiforgeTests/
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    /// Tests/LexiforgeTests/Fixtures/
    static let fixtures = testsFolder.appendingPathComponent("Fixtures")
    /// The package root: three levels up from this file (Tests/LexiforgeTests/TestSupport.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// ../shared/data relative to the package root.
    static let sharedData = packageRoot.appendingPathComponent("../shared/data").standardizedFileURL

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    static var sharedDataAvailable: Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: sharedData.path, isDirectory: &isDir) && isDir.boolValue
    }

    static func sharedCorpus(_ name: String) -> String {
        sharedData.appendingPathComponent("corpora").appendingPathComponent(name).path
    }
}

/// The exact contents of the hand-made fixtures (see Fixtures/README.md).
enum Tiny {
    /// Lines of tiny.txt (and of every variant of it) as CorpusReader must deliver them.
    static let lines = [
        "The cat sat on the mat. The dog ran.",
        "It was a good day.",
        "",
        "My cat ran home.",
    ]
    /// `sha256sum Fixtures/<name>`.
    static let sha256 = [
        "tiny.txt": "d9a16a07bd8f5df8a6b38db2411b23db001e0a310390127355b6db5f7584fce7",
        "tiny-bom-crlf.txt": "5f1940dfc28278e2123bf1932303eebe7d53ec93a8b2a750e18a6fd057c7d5dd",
        "tiny.txt.gz": "cd38e8a8d6c2f0c46e38787c7339b4f64aad755850613a3179ac653e2588a3e0",
        "tiny-two-members.txt.gz": "670cac7bc28f559e687db17627807853cd8009bb02fc2a599d570628b022455a",
    ]
    /// `wc -c Fixtures/<name>`.
    static let storedBytes = [
        "tiny.txt": 74,
        "tiny-bom-crlf.txt": 81,
        "tiny.txt.gz": 86,
        "tiny-two-members.txt.gz": 109,
    ]
}

/// A fresh, empty folder removed when the value is released.
final class TemporaryFolder {
    let url: URL
    var path: String { url.path }

    init(_ label: String = "lexiforge-tests") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        // Restore permissions a test may have removed, so the folder can be deleted.
        if let items = FileManager.default.enumerator(atPath: url.path) {
            for case let item as String in items {
                chmod(url.appendingPathComponent(item).path, 0o755)
            }
        }
        chmod(url.path, 0o755)
        try? FileManager.default.removeItem(at: url)
    }

    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Names of everything in the folder (hidden files included), sorted.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}

/// Every line CorpusReader delivers for `path`, decoded, with the summary.
func readAllLines(
    _ path: String, options: CorpusReadOptions = .init()
) throws -> (lines: [String], summary: CorpusFileSummary) {
    var lines: [String] = []
    let summary = try CorpusReader.readLines(of: path, options: options) { line in
        lines.append(String(decoding: line, as: UTF8.self))
    }
    return (lines, summary)
}

var isRoot: Bool { geteuid() == 0 }

// MARK: - Running the lexiforge executable

/// The result of one run of the `lexiforge` executable.
struct CommandResult: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Non-empty stderr lines.
    var stderrLines: [String] {
        stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
    var stdoutLines: [String] {
        stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}

enum CLI {
    /// The `lexiforge` executable built with the test bundle: looked for in the products folder of
    /// the running test binary (works for any --scratch-path), then in the usual scratch folders.
    static let executable: URL? = {
        var folders: [URL] = []
        if let path = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        if let url = Bundle.main.executableURL { folders.append(url.deletingLastPathComponent()) }
        folders.append(Bundle.main.bundleURL)
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for scratch in [".build-tests", ".build"] {
            folders.append(Paths.packageRoot.appendingPathComponent(scratch).appendingPathComponent("debug"))
        }
        for folder in folders {
            let candidate = folder.appendingPathComponent("lexiforge")
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDir), !isDir.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        return nil
    }()

    /// Runs `lexiforge arguments...` and waits for it; output is collected through files so a
    /// chatty child can never block on a full pipe.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        let binary = try #require(executable, "the lexiforge executable was not found next to the test bundle")
        let folder = try TemporaryFolder("lexiforge-cli-output")
        let outPath = folder.file("stdout"), errPath = folder.file("stderr")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return CommandResult(
            status: process.terminationStatus,
            stdout: String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self),
            stderr: String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self))
    }
}
