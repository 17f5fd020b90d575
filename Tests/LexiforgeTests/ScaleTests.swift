import Foundation
import LexiforgeReader
import LexiforgeTestSupport
import Testing

/// Issue 17: threads, count shards and merges, and the Spark job give the bytes one `train` gives.
///
/// The corpora are committed fixtures (two Gutenberg-style books in one file, and a few short
/// paragraphs); `LEXIFORGE_BATCH_BYTES` cuts them into batches of a few bytes, so the parallel
/// reader's batches, its long-paragraph path (paragraphs over four batches) and the parts of a
/// split all have work to do on a tiny corpus.
@Suite("Scale: threads, count shards, merge, Spark")
struct ScaleTests {
    /// A model of two corpora, order 3, with a language model.
    static func modelFolder(extra: String = "") throws -> ModelFolder {
        try ModelFolder([.init("books", fixture: "gutenberg-two-books.txt", file: "corpora/books.txt"),
                         .init("sample", fixture: "lm/sample.txt", file: "corpora/sample.txt")],
                        model: #"{"name": "scale", "corpora": ["books", "sample"], "order": 3, "language_model": true"# + extra + "}",
                        modelName: "scale.model.json")
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    static func train(_ folder: ModelFolder, _ output: String, threads: Int, batch: Int) throws {
        let result = try CLI.run(["train", folder.model, "-o", output, "--quiet", "--threads", String(threads)],
                                 environment: ["LEXIFORGE_BATCH_BYTES": String(batch)])
        #expect(result.status == 0, "stderr: \(result.stderr)")
    }

    @Test("any thread count and any batch size give the same store, byte for byte")
    func threadsAreDeterministic() throws {
        let folder = try Self.modelFolder()
        let reference = folder.dir.file("one.sqlite")
        try Self.train(folder, reference, threads: 1, batch: 1 << 22)
        let store = try TrainedStore(path: reference)
        #expect(store.meta["tokens"] != "0")
        for (threads, batch) in [(2, 16), (3, 40), (4, 7), (2, 1 << 22)] {
            let output = folder.dir.file("t\(threads)-\(batch).sqlite")
            try Self.train(folder, output, threads: threads, batch: batch)
            #expect(try Self.bytes(output) == Self.bytes(reference), "threads \(threads), batches of \(batch) bytes")
        }
    }

    @Test("the parts of a split, merged flat or in a tree, give the store train gives")
    func partsAddUpToTheWhole() throws {
        let folder = try Self.modelFolder()
        let reference = folder.dir.file("train.sqlite")
        try Self.train(folder, reference, threads: 1, batch: 1 << 22)
        let environment = ["LEXIFORGE_BATCH_BYTES": "24"]
        var parts: [String] = []
        for k in 0..<5 {
            let part = folder.dir.file("part\(k).sqlite")
            let count = try CLI.run(["count", "--model", folder.model, "--part", "\(k)/5", "-o", part, "--quiet", "--threads", "2"],
                                    environment: environment)
            #expect(count.status == 0, "stderr: \(count.stderr)")
            parts.append(part)
        }
        let shard = try TrainedStore(path: parts[3])
        #expect(shard.meta["count_shard"] == #"{"part":[3],"parts":5}"#)
        #expect(shard.meta["language_model"] == nil, "a shard holds counts only")

        let flat = folder.dir.file("flat.sqlite")
        let merge = try CLI.run(["merge"] + parts.reversed() + ["--model", folder.model, "-o", flat, "--quiet"])
        #expect(merge.status == 0, "stderr: \(merge.stderr)")
        #expect(try Self.bytes(flat) == Self.bytes(reference))

        let left = folder.dir.file("left.sqlite"), right = folder.dir.file("right.sqlite")
        #expect(try CLI.run(["merge", "--shard", parts[0], parts[4], "-o", left, "--quiet"]).status == 0)
        #expect(try CLI.run(["merge", "--shard", parts[2], parts[1], parts[3], "-o", right, "--quiet"]).status == 0)
        #expect(try TrainedStore(path: right).meta["count_shard"] == #"{"part":[1,2,3],"parts":5}"#)
        let tree = folder.dir.file("tree.sqlite")
        let final = try CLI.run(["merge", right, left, "--model", folder.model, "-o", tree, "--quiet"])
        #expect(final.status == 0, "stderr: \(final.stderr)")
        #expect(try Self.bytes(tree) == Self.bytes(reference))
    }

    @Test("whole-file shards merged without a model equal ngrams over the same files")
    func wholeFileShards() throws {
        let folder = try Self.modelFolder()
        let books = folder.data("corpora/books.txt"), sample = folder.data("corpora/sample.txt")
        let a = folder.dir.file("a.sqlite"), b = folder.dir.file("b.sqlite")
        #expect(try CLI.run(["count", books, "-o", a, "--order", "2", "--lowercase", "--quiet"]).status == 0)
        #expect(try CLI.run(["count", sample, "-o", b, "--order", "2", "--lowercase", "--quiet"]).status == 0)
        let merged = folder.dir.file("ab.sqlite"), direct = folder.dir.file("direct.sqlite")
        let merge = try CLI.run(["merge", a, b, "--language-model", "-o", merged, "--quiet"])
        #expect(merge.status == 0, "stderr: \(merge.stderr)")
        #expect(try CLI.run(["ngrams", books, sample, "-o", direct, "--order", "2", "--lowercase", "--language-model", "--quiet"]).status == 0)
        #expect(try Self.bytes(merged) == Self.bytes(direct))
    }

    @Test("shards that do not add up are refused, saying what differs; nothing is written")
    func mismatchedShards() throws {
        let folder = try Self.modelFolder()
        let books = folder.data("corpora/books.txt")
        func count(_ name: String, _ arguments: [String]) throws -> String {
            let path = folder.dir.file(name)
            let result = try CLI.run(["count"] + arguments + ["-o", path, "--quiet"], environment: ["LEXIFORGE_BATCH_BYTES": "24"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            return path
        }
        let order3 = try count("o3.sqlite", [books])
        let order2 = try count("o2.sqlite", [books, "--order", "2"])
        let lower = try count("lower.sqlite", [books, "--lowercase"])
        let p0 = try count("p0.sqlite", ["--model", folder.model, "--part", "0/3"])
        let p1 = try count("p1.sqlite", ["--model", folder.model, "--part", "1/3"])
        let p1of2 = try count("p1of2.sqlite", ["--model", folder.model, "--part", "1/2"])
        let output = folder.dir.file("out.sqlite")
        func refused(_ inputs: [String], _ extra: [String] = [], saying expected: String) throws {
            let result = try CLI.run(["merge"] + inputs + extra + ["-o", output])
            #expect(result.status == 1)
            #expect(result.stderr.contains(expected), "stderr: \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
        try refused([order3, order2], saying: "order 2 differs from \(order3)'s 3")
        try refused([order3, lower], saying: "text options")
        try refused([p0, p1], saying: "part(s) 2 of 3 are missing")
        try refused([p0, p0], saying: "part 0 of 3 again")
        try refused([p0, p1of2], saying: "split into 3")
        try refused([p0, order3], saying: "whole-file shards cannot be merged together")
        try refused([order3], ["--model", folder.model], saying: "the model's corpora are books.txt, sample.txt")
        // An ordinary store beside a shard.
        let store = folder.dir.file("store.sqlite")
        #expect(try CLI.run(["ngrams", books, "-o", store, "--quiet"]).status == 0)
        try refused([order3, store], saying: "not count shard(s)")
        let badPart = try CLI.run(["count", "--model", folder.model, "--part", "3/3", "-o", output])
        #expect(badPart.status != 0)
        #expect(badPart.stderr.contains("--part '3/3' must be K/N with 0 <= K < N"), "stderr: \(badPart.stderr)")
    }

    // MARK: - Spark

    static let python = "/usr/bin/env"
    /// pyspark importable and a Java runtime present (`make test` installs both).
    static let sparkAvailable: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["python3", "-c", "import pyspark, shutil, sys; sys.exit(0 if shutil.which('java') else 1)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    static let job = Paths.packageRoot.appendingPathComponent("Sources/spark/lexiforge_spark.py").path

    static func spark(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        let binary = try #require(CLI.executable)
        return try CLI.run(program: URL(fileURLWithPath: python), ["python3", job, "--binary", binary.path] + arguments,
                           environment: environment)
    }

    @Test("on Spark local[2], with a task that fails once, the store is train's byte for byte",
          .slow, .enabled(if: sparkAvailable, "pyspark or Java is missing: `make test` installs them (Sources/spark/requirements.txt, openjdk-17-jre-headless)"))
    func sparkMatchesTrain() throws {
        let folder = try Self.modelFolder()
        let reference = folder.dir.file("train.sqlite")
        try Self.train(folder, reference, threads: 1, batch: 1 << 22)
        let output = folder.dir.file("spark.sqlite")
        let run = try Self.spark(["--model", folder.model, "-o", output, "--master", "local[2]", "--parts", "6",
                                  "--fan-in", "2", "--fail-once", "4"],
                                 environment: ["LEXIFORGE_BATCH_BYTES": "24"])
        #expect(run.status == 0, "stderr: \(run.stderr.suffix(3000))")
        #expect(run.stderr.contains("injected failure"), "the injected failure happened and Spark retried the task")
        #expect(run.stderr.contains("merge level 2"), "the shards were merged in a tree")
        #expect(try Self.bytes(output) == Self.bytes(reference))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.dir.url.path).filter { $0.contains(".spark-") }
        #expect(leftovers.isEmpty, "the shards' folder is removed: \(leftovers)")
    }

    @Test("a part that fails every attempt stops the job, naming the part; no store is written",
          .slow, .enabled(if: sparkAvailable, "pyspark or Java is missing: `make test` installs them"))
    func sparkFailureNamesThePart() throws {
        let folder = try Self.modelFolder()
        // The corpus vanished after the model was written: every count task fails.
        try FileManager.default.removeItem(atPath: folder.data("corpora/sample.txt"))
        let output = folder.dir.file("spark.sqlite")
        // Tasks still running when the job aborts are killed: their scratch folders must not stay
        // in the temporary folder (they lie in Spark's folder of the application, removed with it).
        func scratch() throws -> Set<String> {
            Set(try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
                .filter { $0.hasPrefix("lexiforge-count-") || $0.hasPrefix("lexiforge-merge-") })
        }
        let before = try scratch()
        let run = try Self.spark(["--model", folder.model, "-o", output, "--master", "local[2]", "--parts", "2"])
        #expect(try scratch().subtracting(before).isEmpty, "task scratch folders left behind")
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: the Spark job failed: part "), "stderr: \(run.stderr.suffix(3000))")
        #expect(run.stderr.contains("sample.txt"), "lexiforge's own message names the missing file")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
