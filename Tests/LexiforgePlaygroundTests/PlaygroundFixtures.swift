import Foundation
import LexiforgePlayground
import LexiforgeReader
import LexiforgeTestSupport
import Testing

/// The stores the playground tests query, trained once per test run by `lexiforge train` from the
/// hand-written fixture `Fixtures/playground/said-lord.txt` (see its README):
/// - `main`: orders 1-3 with a language model, word columns with lemmas and a tagger learned from
///   `Fixtures/hmm/good.conllu`, and qwerty swipe features;
/// - `counts`: orders 1-2, counts only (nothing to tag, no swipe features).
enum PlaygroundFixtures {
    struct Stores: Sendable {
        var folder: String
        var main: String
        var counts: String
    }

    static let built: Result<Stores, any Error> = Result { try build() }

    static func stores() throws -> Stores { try built.get() }

    static let playground: Result<Playground, any Error> = Result {
        let stores = try built.get()
        return try Playground(storePaths: [stores.main, stores.counts])
    }

    static func build() throws -> Stores {
        let entries: [ModelFolder.Entry] = [
            .init("said-lord", fixture: "playground/said-lord.txt", file: "corpora/said-lord.txt"),
            .init("good-conllu", fixture: "hmm/good.conllu", file: "ud/good.conllu"),
        ]
        // Kept for the whole run (statics are never released): folders of the process, removed at exit.
        let main = try ModelFolder(entries, model: """
            {"name": "playground", "description": "playground test store", "corpora": ["said-lord"], "order": 3,
             "language_model": true, "word_columns": true, "lemma_training": ["good-conllu"],
             "hmm_tagged": ["good-conllu"], "swipe_layouts": ["qwerty"]}
            """, modelName: "playground.model.json", in: TemporaryFolder.forProcess("lexiforge-playground-stores"))
        let counts = try ModelFolder(entries, model: """
            {"name": "playground-counts", "description": "counts only", "corpora": ["said-lord"], "order": 2}
            """, modelName: "counts.model.json", in: TemporaryFolder.forProcess("lexiforge-playground-counts"))
        let mainStore = main.dir.file("playground.sqlite"), countsStore = main.dir.file("counts.sqlite")
        for (model, output) in [(main.model, mainStore), (counts.model, countsStore)] {
            let result = try CLI.run(["train", model, "-o", output, "--quiet"])
            guard result.status == 0 else { throw PlaygroundError("lexiforge train \(model) failed: \(result.stderr)") }
        }
        return Stores(folder: main.dir.path, main: mainStore, counts: countsStore)
    }

    /// A perfect swipe of `word` over the layout's key centres (layout units), `steps` points per
    /// segment: what a finger drawing the word exactly would give.
    static func perfectSwipe(_ word: String, keys: [String: (x: Double, y: Double)], steps: Int = 6) -> [[String: Double]] {
        let centres = word.compactMap { keys[String($0)] }
        var points: [[String: Double]] = []
        for (a, b) in zip(centres, centres.dropFirst()) {
            for i in 0..<steps {
                let t = Double(i) / Double(steps)
                points.append(["x": a.x + (b.x - a.x) * t, "y": a.y + (b.y - a.y) * t])
            }
        }
        if let last = centres.last { points.append(["x": last.x, "y": last.y]) }
        return points
    }
}

/// JSON helpers for the tests.
enum Body {
    static func json(_ object: Any) throws -> [UInt8] { Array(try JSONSerialization.data(withJSONObject: object)) }
    static func object(_ response: PlaygroundResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], "not a JSON object: \(response.text)")
    }
}

/// `lexiforge-serve` running on a free loopback port, for the live and browser tests.
final class ServeProcess {
    let process = Process()
    let folder: TemporaryFolder
    let baseURL: URL

    /// The `lexiforge-serve` built with the tests (same folder as the test bundle or `.build/debug`).
    static let executable: URL? = {
        var folders: [URL] = []
        if let path = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let cli = CLI.executable { folders.append(cli.deletingLastPathComponent()) }
        folders.append(Paths.packageRoot.appendingPathComponent(".build/debug"))
        return folders.map { $0.appendingPathComponent("lexiforge-serve") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    init(stores: [String], extra: [String] = []) throws {
        let binary = try #require(Self.executable, "lexiforge-serve was not built next to the tests")
        folder = try TemporaryFolder("lexiforge-serve-test")
        let out = folder.file("stdout"), err = folder.file("stderr")
        FileManager.default.createFile(atPath: out, contents: nil)
        FileManager.default.createFile(atPath: err, contents: nil)
        process.executableURL = binary
        process.arguments = stores + ["--port", "0"] + extra
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The server prints "lexiforge-serve: serving NAMES on http://HOST:PORT/" once it listens.
        let deadline = Date().addingTimeInterval(30)
        var found: URL?
        while found == nil, Date() < deadline, process.isRunning {
            let text = String(decoding: FileManager.default.contents(atPath: out) ?? Data(), as: UTF8.self)
            if let range = text.range(of: "http://"), let end = text[range.lowerBound...].firstIndex(of: "\n") {
                found = URL(string: String(text[range.lowerBound..<end]))
            } else {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        guard let found else {
            if process.isRunning { process.terminate() }
            let stderr = String(decoding: FileManager.default.contents(atPath: err) ?? Data(), as: UTF8.self)
            throw PlaygroundError("lexiforge-serve did not start: \(stderr)")
        }
        baseURL = found
    }

    var stdout: String { String(decoding: FileManager.default.contents(atPath: folder.file("stdout")) ?? Data(), as: UTF8.self) }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}
