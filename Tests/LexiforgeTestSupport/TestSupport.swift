import Foundation
import LexiforgeCorpus
import LexiforgeReader
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folders `TemporaryFolder.forProcess` made, removed at exit.
private let processFolders = Mutex<[String]>([])

/// Paths shared by the tests: the hand-made fixtures, the package root, ../shared/data.
public enum Paths {
    /// Tests/LexiforgeTests/ (beside this module's folder, Tests/LexiforgeTestSupport/)
    public static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("LexiforgeTests")
    /// Tests/LexiforgeTests/Fixtures/
    public static let fixtures = testsFolder.appendingPathComponent("Fixtures")
    /// The package root: three levels up from this file (Tests/LexiforgeTests/TestSupport.swift).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// ../shared/data relative to the package root.
    public static let sharedData = packageRoot.appendingPathComponent("../shared/data").standardizedFileURL

    public static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    public static var sharedDataAvailable: Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: sharedData.path, isDirectory: &isDir) && isDir.boolValue
    }

    public static func sharedCorpus(_ name: String) -> String {
        sharedData.appendingPathComponent("corpora").appendingPathComponent(name).path
    }
}

/// The exact contents of the hand-made fixtures (see Fixtures/README.md).
public enum Tiny {
    /// Lines of tiny.txt (and of every variant of it) as CorpusReader must deliver them.
    public static let lines = [
        "The cat sat on the mat. The dog ran.",
        "It was a good day.",
        "",
        "My cat ran home.",
    ]
    /// `sha256sum Fixtures/<name>`.
    public static let sha256 = [
        "tiny.txt": "d9a16a07bd8f5df8a6b38db2411b23db001e0a310390127355b6db5f7584fce7",
        "tiny-bom-crlf.txt": "5f1940dfc28278e2123bf1932303eebe7d53ec93a8b2a750e18a6fd057c7d5dd",
        "tiny.txt.gz": "cd38e8a8d6c2f0c46e38787c7339b4f64aad755850613a3179ac653e2588a3e0",
        "tiny-two-members.txt.gz": "670cac7bc28f559e687db17627807853cd8009bb02fc2a599d570628b022455a",
    ]
    /// `wc -c Fixtures/<name>`.
    public static let storedBytes = [
        "tiny.txt": 74,
        "tiny-bom-crlf.txt": 81,
        "tiny.txt.gz": 86,
        "tiny-two-members.txt.gz": 109,
    ]
}

/// A fresh, empty folder removed when the value is released.
public final class TemporaryFolder {
    public let url: URL
    public var path: String { url.path }

    /// False for `forProcess` folders, which are removed at exit instead.
    private let removedOnRelease: Bool

    public convenience init(_ label: String = "lexiforge-tests") throws {
        try self.init(label: label, removedOnRelease: true)
    }

    private init(label: String, removedOnRelease: Bool) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)")
        self.removedOnRelease = removedOnRelease
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        guard removedOnRelease else { return }
        // Restore permissions a test may have removed, so the folder can be deleted.
        if let items = FileManager.default.enumerator(atPath: url.path) {
            for case let item as String in items {
                chmod(url.appendingPathComponent(item).path, 0o755)
            }
        }
        chmod(url.path, 0o755)
        try? FileManager.default.removeItem(at: url)
    }

    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// A folder for fixtures a test process builds once and keeps for the whole run (statics are
    /// never released, so `deinit` cannot remove them). It is named `LABEL-PID-UUID`, outlives
    /// its `TemporaryFolder` value and is removed when the process exits; the folders of test
    /// processes that ended without exiting (killed, crashed) are removed by the next run that
    /// asks for the same label.
    public static func forProcess(_ label: String) throws -> TemporaryFolder {
        let temporary = FileManager.default.temporaryDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        where name.hasPrefix(label + "-") {
            let rest = name.dropFirst(label.count + 1)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
        let folder = try TemporaryFolder(label: "\(label)-\(getpid())", removedOnRelease: false)
        processFolders.withLock { paths in
            if paths.isEmpty { atexit { processFolders.withLock { $0.forEach { try? FileManager.default.removeItem(atPath: $0) } } } }
            paths.append(folder.path)
        }
        return folder
    }

    /// Names of everything in the folder (hidden files included), sorted.
    public func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}

/// Every line CorpusReader delivers for `path`, decoded, with the summary.
public func readAllLines(
    _ path: String, options: CorpusReadOptions = .init()
) throws -> (lines: [String], summary: CorpusFileSummary) {
    var lines: [String] = []
    let summary = try CorpusReader.readLines(of: path, options: options) { line in
        lines.append(String(decoding: line, as: UTF8.self))
    }
    return (lines, summary)
}

public var isRoot: Bool { geteuid() == 0 }

// MARK: - Running the lexiforge executable

/// The result of one run of the `lexiforge` executable.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        (self.status, self.stdout, self.stderr) = (status, stdout, stderr)
    }

    /// Non-empty stderr lines.
    public var stderrLines: [String] {
        stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
    public var stdoutLines: [String] {
        stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}

public enum CLI {
    /// The `lexiforge` executable built with the test bundle: looked for in the products folder of
    /// the running test binary (works for any --scratch-path), then in the usual scratch folders.
    public static let executable: URL? = {
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
    public static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        let binary = try #require(executable, "the lexiforge executable was not found next to the test bundle")
        return try run(program: binary, arguments, environment: environment)
    }

    /// Runs any program the same way (the Spark job's python3, say).
    public static func run(program binary: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
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

// MARK: - Model folders

/// A folder as `lexiforge train` expects it: a model file, `manifest.tsv` beside it, and the
/// manifest's files under `data/`, copied from fixtures. One helper for every test that trains
/// from a model file.
public struct ModelFolder {
    /// One manifest entry: its name, the fixture copied to `data/FILE` (nil: not provisioned),
    /// and the sha256 the manifest claims (nil: the copy's real digest).
    public struct Entry {
        public var name: String
        public var fixture: String?
        public var file: String
        public var sha256: String?
        public init(_ name: String, fixture: String?, file: String, sha256: String? = nil) {
            (self.name, self.fixture, self.file, self.sha256) = (name, fixture, file, sha256)
        }
    }

    public let dir: TemporaryFolder
    /// The folder holding the model file and the manifest (`dir` itself, or a subfolder).
    public let folder: URL
    public let model: String
    public let manifest: String

    /// Writes the entries' files and manifest, and `json` as the model file `modelName`, in
    /// `subfolder` of `dir` (a new temporary folder unless given: say
    /// `TemporaryFolder.forProcess(_:)` for a fixture kept for the whole run).
    public init(_ entries: [Entry], model json: String, modelName: String = "m.model.json", subfolder: String? = nil,
                in dir: TemporaryFolder? = nil) throws {
        let dir = try dir ?? TemporaryFolder()
        let folder = subfolder.map { dir.url.appendingPathComponent($0) } ?? dir.url
        (self.dir, self.folder) = (dir, folder)
        var rows = ["# test manifest", "name\tfile\tsha256\tlicense\tsource\turl"]
        for entry in entries {
            let path = folder.appendingPathComponent("data/" + entry.file)
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            if let fixture = entry.fixture { try FileManager.default.copyItem(atPath: Paths.fixture(fixture), toPath: path.path) }
            let digest = try entry.sha256 ?? Self.sha256(of: path.path)
            rows.append("\(entry.name)\t\(entry.file)\t\(digest)\tPublic domain\thand-made\thttps://example.invalid/\(entry.name)")
        }
        manifest = folder.appendingPathComponent("manifest.tsv").path
        try (rows.joined(separator: "\n") + "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        model = folder.appendingPathComponent(modelName).path
        try json.write(toFile: model, atomically: true, encoding: .utf8)
    }

    /// The path of a manifest file under `data/`.
    public func data(_ file: String) -> String { folder.appendingPathComponent("data/" + file).path }

    /// `sha256sum PATH`.
    public static func sha256(of path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: data, as: UTF8.self).prefix(64))
    }
}

// MARK: - Slow tests

extension Tag {
    /// Tests that take seconds (real processes killed in loops, byte-flip sweeps, ../shared/data).
    @Tag public static var slow: Self
}

extension Trait where Self == ConditionTrait {
    /// Slow: runs in `make test`, skipped (reported as skipped, with this reason) by `make test-quick`.
    public static var slow: Self {
        .enabled(if: ProcessInfo.processInfo.environment["LEXIFORGE_QUICK"] == nil,
                 "slow test: skipped by make test-quick (LEXIFORGE_QUICK); make test runs it")
    }
}
