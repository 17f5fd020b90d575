import Foundation
import GRDB
import LexiforgeReader
import LexiforgeTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("lexiforge command line")
struct CLITests {
    @Test("the executable is found next to the test bundle")
    func executableFound() {
        #expect(CLI.executable != nil, "build the package first: swift build --build-tests")
    }

    /// A failing `lexiforge` run: how to set it up in a fresh folder, and what stderr must name.
    struct Failure: Sendable, CustomTestStringConvertible {
        var id: String
        /// Returns the arguments and the fragments the single stderr line must contain.
        var setUp: @Sendable (TemporaryFolder) throws -> (arguments: [String], fragments: [String])
        var status: Int32 = 1
        var testDescription: String { id }
    }

    static let failures: [Failure] = [
        Failure(id: "missing file") { dir in
            let path = dir.file("no-such.txt")
            return (["ngrams", path, "-o", dir.file("out.sqlite")], [path, "no such file"])
        },
        Failure(id: "a directory") { dir in
            let sub = dir.file("corpus-folder")
            try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: false)
            return (["ngrams", sub, "-o", dir.file("out.sqlite")], [sub, "is a directory"])
        },
        Failure(id: "unreadable file") { dir in
            let path: String
            if isRoot {
                // chmod does not stop root; reading /proc/self/mem at offset 0 fails with EIO.
                path = "/proc/self/mem"
            } else {
                path = dir.file("locked.txt")
                try Data("some words".utf8).write(to: URL(fileURLWithPath: path))
                chmod(path, 0)
            }
            return (["ngrams", path, "-o", dir.file("out.sqlite")], [path, "cannot be read"])
        },
        Failure(id: "empty corpus") { dir in
            let path = Paths.fixture("empty.txt")
            return (["ngrams", path, "-o", dir.file("out.sqlite")], [path, "contains no text"])
        },
        Failure(id: "only Gutenberg boilerplate") { dir in
            let path = Paths.fixture("gutenberg-only.txt")
            return (["ngrams", path, "-o", dir.file("out.sqlite")], [path, "contains no text"])
        },
        Failure(id: "binary file") { dir in
            let path = Paths.fixture("binary.bin")
            return (["ngrams", path, "-o", dir.file("out.sqlite")], [path, "binary", "byte offset 3"])
        },
        Failure(id: "invalid UTF-8") { dir in
            let path = Paths.fixture("invalid-utf8.txt")
            return (["ngrams", path, "-o", dir.file("out.sqlite")], [path, "invalid UTF-8", "line 3, byte offset 35"])
        },
        Failure(id: "truncated gzip") { dir in
            let path = Paths.fixture("truncated.txt.gz")
            return (["ngrams", path, "-o", dir.file("out.sqlite")], [path, "corrupt gzip"])
        },
        Failure(id: "unwritable output folder") { dir in
            let output: String
            if isRoot {
                // Permissions do not stop root; sysfs refuses to create files with EACCES.
                output = "/sys/lexiforge-test.sqlite"
            } else {
                let locked = dir.file("locked")
                try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
                chmod(locked, 0o555)
                output = locked + "/out.sqlite"
            }
            return (["ngrams", Paths.fixture("tiny.txt"), "-o", output], [output, "cannot write the store here"])
        },
        Failure(id: "output folder missing") { dir in
            let missing = dir.file("missing")
            return (["ngrams", Paths.fixture("tiny.txt"), "-o", missing + "/out.sqlite"],
                    [missing, "output folder does not exist"])
        },
        Failure(id: "output is a directory") { dir in
            (["ngrams", Paths.fixture("tiny.txt"), "-o", dir.path], [dir.path, "is a directory"])
        },
        Failure(id: "inspect a missing store") { dir in
            let path = dir.file("nope.sqlite")
            return (["inspect", path], [path, "no such store"])
        },
        Failure(id: "inspect a text file") { dir in
            let path = Paths.fixture("tiny.txt")
            return (["inspect", path], [path, "not a Lexiforge store"])
        },
        Failure(id: "suggest from a missing store") { dir in
            let path = dir.file("nope.sqlite")
            return (["suggest", path, "The cat"], [path, "no such store"])
        },
        Failure(id: "diff with a store of another schema version") { dir in
            let (store, old) = try Self.languageModelStore(dir, version: 99)
            return (["diff", old, store], [old, "schema version 99", "rebuild it"])
        },
        Failure(id: "learn into a store of another schema version") { dir in
            let (_, old) = try Self.languageModelStore(dir, version: 99)
            return (["learn", old, Paths.fixture("tiny.txt")], [old, "schema version 99", "rebuild it"])
        },
        Failure(id: "export arpa into a folder that cannot hold files") { dir in
            let (store, _) = try Self.languageModelStore(dir)
            return (["export", "arpa", store, "-o", "/proc/model.arpa"], ["/proc/model.arpa", "cannot write the ARPA file here", "choose a writable -o path"])
        },
        Failure(id: "export arpa into a missing folder") { dir in
            let (store, _) = try Self.languageModelStore(dir)
            let missing = dir.file("no-such-folder")
            return (["export", "arpa", store, "-o", missing + "/model.arpa"], [missing, "output folder does not exist"])
        },
        Failure(id: "predict on a counts-only store") { dir in
            let store = dir.file("counts.sqlite")
            _ = try CLI.run(["ngrams", Paths.fixture("tiny.txt"), "-o", store, "--quiet"])
            return (["predict", store, "The "], [store, "counts-only store", "--language-model"])
        },
        Failure(id: "train with a missing model file") { dir in
            let path = dir.file("nope.model.json")
            return (["train", path, "-o", dir.file("out.sqlite")], [path, "cannot read the model file"])
        },
    ]

    /// A language-model store of tiny.txt in `dir`, and a copy stamped with `version` when given.
    static func languageModelStore(_ dir: TemporaryFolder, version: Int? = nil) throws -> (store: String, copy: String) {
        let store = dir.file("lm.sqlite")
        let build = try CLI.run(["ngrams", Paths.fixture("tiny.txt"), "-o", store, "--language-model", "--quiet"])
        try #require(build.status == 0, "\(build.stderr)")
        guard let version else { return (store, store) }
        let copy = dir.file("v\(version).sqlite")
        try FileManager.default.copyItem(atPath: store, toPath: copy)
        let queue = try DatabaseQueue(path: copy)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = \(version)") }
        try queue.close()
        return (store, copy)
    }

    @Test("failures exit 1 with one stderr line naming the file", arguments: failures)
    func failure(_ c: Failure) throws {
        let dir = try TemporaryFolder()
        let (arguments, fragments) = try c.setUp(dir)
        let before = try dir.contents()
        // Building commands print progress on stderr unless --quiet; the others print none.
        let quiet = ["ngrams", "train"].contains(arguments[0]) ? ["--quiet"] : []
        let result = try CLI.run(arguments + quiet)
        #expect(result.status == c.status)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1, "stderr: \(result.stderr)")
        let line = result.stderrLines.first ?? ""
        #expect(line.hasPrefix("error: "))
        for fragment in fragments {
            #expect(line.contains(fragment), "\(fragment) missing from: \(line)")
        }
        // Nothing written: no store, no temporary file.
        #expect(try dir.contents() == before)
    }

    @Test("without --quiet, progress may precede it but exactly one line is an error")
    func failureWithProgress() throws {
        let dir = try TemporaryFolder()
        let path = Paths.fixture("invalid-utf8.txt")
        let result = try CLI.run(["ngrams", path, "-o", dir.file("out.sqlite")])
        #expect(result.status == 1)
        let errors = result.stderrLines.filter { $0.hasPrefix("error:") }
        #expect(errors.count == 1)
        #expect(errors.first?.contains("\(path): invalid UTF-8 at line 3, byte offset 35") == true)
    }

    @Test("--order out of range is a usage error (exit 64)", arguments: ["0", "6"])
    func orderOutOfRange(_ order: String) throws {
        let dir = try TemporaryFolder()
        let result = try CLI.run(["ngrams", Paths.fixture("tiny.txt"), "-o", dir.file("out.sqlite"), "--order", order])
        #expect(result.status == 64)
        #expect(result.stderrLines.first?.contains("--order \(order) is out of range; use 1 to 5") == true,
                "stderr: \(result.stderr)")
        #expect(try dir.contents().isEmpty)
    }

    @Test("--classes needs the language model and a sensible K and weight (exit 64)", arguments: [
        (["--classes", "8"], "add --language-model"),
        (["--language-model", "--classes", "5000"], "--classes 5000 is out of range"),
        (["--language-model", "--classes", "8", "--class-weight", "1"], "--class-weight 1.0 must be between 0 and 1"),
        (["--form-rules", "100"], "--form-rules gives unseen forms a share of the language model's <unk> probability; add --language-model"),
        (["--language-model", "--form-rules=-1"], "--form-rules -1 must be 0 (none) or more"),
    ])
    func classesValidation(_ arguments: [String], _ message: String) throws {
        let dir = try TemporaryFolder()
        let result = try CLI.run(["ngrams", Paths.fixture("tiny.txt"), "-o", dir.file("out.sqlite")] + arguments)
        #expect(result.status == 64)
        #expect(result.stderrLines.first?.contains(message) == true, "stderr: \(result.stderr)")
        #expect(try dir.contents().isEmpty)
    }

    @Test("--rerank is checked before anything is read (exit 64); the tuner has none", arguments: [
        (["eval", "swipe", "missing.sqlite", "--traces", "missing.jsonl", "--rerank=-1"], "--rerank must be 0 or more"),
        (["swipe", "decode", "missing.sqlite", "--trace", "missing.jsonl", "--rerank=-1"], "--rerank must be 0 or more"),
        (["swipe", "tune", "missing.sqlite", "--traces", "missing.jsonl", "--rerank", "8"], "Unknown option '--rerank'"),
    ])
    func rerankValidation(_ arguments: [String], _ message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderrLines.first?.contains(message) == true, "stderr: \(result.stderr)")
    }

    @Test("ngrams then inspect then suggest")
    func ngramsInspectSuggest() throws {
        let dir = try TemporaryFolder()
        let store = dir.file("tiny.sqlite")
        let build = try CLI.run(["ngrams", Paths.fixture("tiny.txt"), "-o", store, "--quiet"])
        #expect(build.status == 0, "stderr: \(build.stderr)")
        #expect(build.stderr.isEmpty)
        #expect(build.stdout.isEmpty)
        #expect(try dir.contents() == ["tiny.sqlite"])

        let inspect = try CLI.run(["inspect", store])
        #expect(inspect.status == 0, "stderr: \(inspect.stderr)")
        let lines = inspect.stdoutLines
        #expect(lines.contains("schema version: \(StoreSchema.version)"))
        for table in ["meta", "word_block", "word_order", "word_count", "bigram", "trigram"] {
            #expect(lines.contains { $0.hasPrefix("  \(table) ") }, "\(table)")
        }
        #expect(lines.contains("top words:"))
        #expect(lines.contains("  The\t2"))
        #expect(lines.contains("  cat\t2"))
        #expect(lines.contains("  ran\t2"))

        let suggest = try CLI.run(["suggest", store, "The cat"])
        #expect(suggest.status == 0, "stderr: \(suggest.stderr)")
        #expect(suggest.stdoutLines == ["sat\t1\t3", "ran\t1\t2", "The\t2\t1"])

        let empty = try CLI.run(["suggest", store])
        #expect(empty.stdoutLines == ["The\t2\t2", "It\t1\t2", "My\t1\t2"])

        let five = try CLI.run(["suggest", store, "My cat", "-c", "5"])
        #expect(five.stdoutLines == ["ran\t1\t3", "sat\t1\t2", "The\t2\t1", "cat\t2\t1", "It\t1\t1"])
    }

    @Test("progress and statistics go to stderr without --quiet")
    func statistics() throws {
        let dir = try TemporaryFolder()
        let store = dir.file("tiny.sqlite")
        let build = try CLI.run(["ngrams", Paths.fixture("tiny.txt"), "-o", store, "--order", "2"])
        #expect(build.status == 0)
        #expect(build.stdout.isEmpty)
        #expect(build.stderrLines.first == "=== 1/3 Reading and counting 1 file(s), orders 1-2 ===")
        #expect(build.stderrLines.last?.hasPrefix("\(store): ") == true)
        #expect(build.stderrLines.last?.hasSuffix(" bytes; 18 tokens, 4 sentences; 1-grams 18, 2-grams 21") == true,
                "stderr: \(build.stderr)")
    }

    /// A model folder as `train` expects it: model file, manifest.tsv, data/corpora/tiny.txt.
    static func modelFolder(sha256: String, extraModelKey: String = "") throws -> (TemporaryFolder, model: String, corpus: String) {
        let folder = try ModelFolder([.init("tiny", fixture: "tiny.txt", file: "corpora/tiny.txt", sha256: sha256)],
                                     model: #"{"name": "tiny", "description": "test model", "corpora": ["tiny"], "order": 2, "lowercase": true"# + extraModelKey + "}",
                                     modelName: "tiny.model.json")
        return (folder.dir, folder.model, folder.data("corpora/tiny.txt"))
    }

    @Test("train builds the store a model file describes")
    func train() throws {
        let (dir, model, corpus) = try Self.modelFolder(sha256: Tiny.sha256["tiny.txt"]!)
        let output = dir.file("tiny.sqlite")
        let result = try CLI.run(["train", model, "-o", output, "--quiet"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.isEmpty)
        let store = try TrainedStore(path: output)
        #expect(store.meta["model"] == "tiny")
        #expect(store.order == 2)
        #expect(store.isLowercased)
        #expect(store.meta["tokens"] == "18")
        #expect(store.meta["inputs"]?.contains("\"sha256\":\"\(Tiny.sha256["tiny.txt"]!)\"") == true)
        #expect(try store.topWords(limit: 1).map(\.word) == ["the"])
        #expect(FileManager.default.fileExists(atPath: corpus))
    }

    @Test("a model file's \"classes\" adds the class model; without \"language_model\" it is refused")
    func trainWithClasses() throws {
        let (dir, model, _) = try Self.modelFolder(sha256: Tiny.sha256["tiny.txt"]!,
                                                   extraModelKey: ", \"language_model\": true, \"classes\": 4, \"class_weight\": 0.25")
        let output = dir.file("tiny.sqlite")
        let result = try CLI.run(["train", model, "-o", output, "--quiet"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let store = try TrainedStore(path: output)
        #expect(try store.clusterSummary()?.classes == 4)
        #expect(NgramPredictor.clusterWeight(store.meta) == 0.25)
        let inspect = try CLI.run(["inspect", output])
        #expect(inspect.stdout.contains("word classes: 4 classes in use"), "stdout: \(inspect.stdout)")

        let (dir3, model3, _) = try Self.modelFolder(sha256: Tiny.sha256["tiny.txt"]!, extraModelKey: ", \"language_model\": true, \"form_rules\": -2")
        let badRules = try CLI.run(["train", model3, "-o", dir3.file("c.sqlite"), "--quiet"])
        #expect(badRules.status == 1)
        #expect(badRules.stderrLines.first?.contains("\"form_rules\" -2 must be 0 (none) or more suffix rules") == true, "stderr: \(badRules.stderr)")

        let (dir2, model2, _) = try Self.modelFolder(sha256: Tiny.sha256["tiny.txt"]!, extraModelKey: ", \"classes\": 4")
        let refused = try CLI.run(["train", model2, "-o", dir2.file("b.sqlite"), "--quiet"])
        #expect(refused.status == 1)
        #expect(refused.stderrLines.first?.contains("\"classes\" builds a class model beside the language model") == true,
                "stderr: \(refused.stderr)")
    }

    @Test("train refuses a corpus whose sha256 differs from the manifest, naming the file")
    func trainShaMismatch() throws {
        let wrong = String(repeating: "ab", count: 32)
        let (dir, model, corpus) = try Self.modelFolder(sha256: wrong)
        let output = dir.file("tiny.sqlite")
        let result = try CLI.run(["train", model, "-o", output, "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1, "stderr: \(result.stderr)")
        #expect(result.stderrLines.first
                == "error: \(corpus): sha256 is \(Tiny.sha256["tiny.txt"]!) but the manifest says \(wrong); provision it again with `make corpora`")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("train refuses an unknown model key and an unprovisioned corpus")
    func trainModelProblems() throws {
        let (dir, model, corpus) = try Self.modelFolder(sha256: Tiny.sha256["tiny.txt"]!, extraModelKey: ", \"ordr\": 3")
        let result = try CLI.run(["train", model, "-o", dir.file("a.sqlite"), "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrLines.first?.hasPrefix("error: \(model): unknown key \"ordr\"") == true, "stderr: \(result.stderr)")

        let (dir2, model2, corpus2) = try Self.modelFolder(sha256: Tiny.sha256["tiny.txt"]!)
        try FileManager.default.removeItem(atPath: corpus2)
        let missing = try CLI.run(["train", model2, "-o", dir2.file("b.sqlite"), "--quiet"])
        #expect(missing.status == 1)
        #expect(missing.stderrLines.count == 1)
        #expect(missing.stderrLines.first?.hasPrefix("error: \(corpus2): corpus \"tiny\" is not provisioned") == true,
                "stderr: \(missing.stderr)")
        _ = corpus
    }

    @Test("train applies the model file's text options and records them")
    func trainTextOptions() throws {
        let keys = #", "tokenizer": "treebank", "normalization": "nfkc", "straight_quotes": true, "number_class": true, "word_columns": true"#
        let (dir, model, _) = try Self.modelFolder(sha256: Tiny.sha256["tiny.txt"]!, extraModelKey: keys)
        let output = dir.file("options.sqlite")
        let result = try CLI.run(["train", model, "-o", output, "--quiet"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let options = try TrainedStore(path: output).meta["text_options"] ?? ""
        for member in [#""tokenizer":"treebank""#, #""normalization":"nfkc""#, #""straight_quotes":true"#, #""number_class":true"#] {
            #expect(options.contains(member), "text_options: \(options)")
        }
        #expect(try TrainedStore(path: output).hasWordClasses)
    }

    struct BadModelKey: Sendable, CustomTestStringConvertible {
        var id: String
        var key: String
        var message: String
        var testDescription: String { id }
    }

    @Test("train names a model key with a bad value", arguments: [
        BadModelKey(id: "unknown tokenizer", key: #", "tokenizer": "spacy""#,
                    message: #""tokenizer" must be one of "keyboard", "treebank", not "spacy""#),
        BadModelKey(id: "unknown normalization", key: #", "normalization": "nfd""#,
                    message: #""normalization" must be one of "none", "nfc", "nfkc", not "nfd""#),
        BadModelKey(id: "flag not a boolean", key: #", "number_class": "yes""#, message: #""number_class" must be true or false"#),
        BadModelKey(id: "lemma training without word classes", key: #", "lemma_training": ["tiny"]"#,
                    message: #""lemma_training" needs "word_columns": true"#),
    ])
    func trainBadModelKey(_ c: BadModelKey) throws {
        let (dir, model, _) = try Self.modelFolder(sha256: Tiny.sha256["tiny.txt"]!, extraModelKey: c.key)
        let result = try CLI.run(["train", model, "-o", dir.file("bad.sqlite"), "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1, "stderr: \(result.stderr)")
        #expect(result.stderrLines.first?.hasPrefix("error: \(model): \(c.message)") == true, "stderr: \(result.stderr)")
    }

    @Test("--help exits 0 and shows an example", arguments: [[], ["ngrams"], ["train"], ["inspect"], ["suggest"]] as [[String]])
    func help(_ subcommand: [String]) throws {
        let result = try CLI.run(subcommand + ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Example"), "stdout: \(result.stdout)")
        #expect(result.stdout.contains("USAGE: lexiforge \(subcommand.first.map { $0 + " " } ?? "")"))
    }
}

@Suite("learn is atomic")
struct LearnAtomicityTests {
    /// `learn` killed with SIGKILL at many points leaves the store byte for byte as it was before or
    /// as a completed `learn` makes it: never anything in between, and it always opens.
    @Test("kill -9 during learn: the store is as before or as after")
    func killNine() throws {
        let dir = try TemporaryFolder()
        let (store, _) = try CLITests.languageModelStore(dir)
        // Enough text that learning takes a while: 20,000 generated sentences.
        let words = ["cat", "dog", "sat", "ran", "home", "the", "a", "good", "day", "my", "it", "was"]
        var text = ""
        for i in 0..<20_000 {
            text += (0..<(3 + i % 6)).map { words[(i * 7 + $0 * 5 + $0 * i) % words.count] }.joined(separator: " ") + ".\n"
        }
        let input = dir.file("typed.txt")
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let finished = dir.file("finished.sqlite")
        try FileManager.default.copyItem(atPath: store, toPath: finished)
        let full = try CLI.run(["learn", finished, input, "--quiet"])
        try #require(full.status == 0, "\(full.stderr)")
        let after = try Data(contentsOf: URL(fileURLWithPath: finished))
        #expect(after != before)
        let binary = try #require(CLI.executable)
        var outcomes: [String: Int] = [:]
        for delay in stride(from: 0, through: 600, by: 40) {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["learn", store, input, "--quiet"]
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(delay * 1000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let now = try Data(contentsOf: URL(fileURLWithPath: store))
            let state = now == before ? "before" : (now == after ? "after" : "corrupt")
            outcomes[state, default: 0] += 1
            #expect(state != "corrupt", "killed after \(delay) ms: the store is neither before nor after")
            _ = try TrainedStore(path: store)
            if state == "after" {   // start over from the old store for the next delay
                try before.write(to: URL(fileURLWithPath: store))
            }
        }
        #expect(outcomes["before", default: 0] > 0)
        // The killed runs left their temporary files; the next write of the store removes them.
        #expect(try CLI.run(["learn", store, input, "--quiet"]).status == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { $0.contains(".tmp-") || $0.contains(".lexiforge-") || $0.hasSuffix(".lock") }
        #expect(leftovers.isEmpty, "abandoned temporary files: \(leftovers)")
    }
}

@Suite("train with swipe layouts is atomic")
struct TrainAtomicityTests {
    /// `train` with `swipe_layouts` writes n-grams and swipe features into one staging file and
    /// renames it once: killed at any point, the output is the old store or a complete new one
    /// (never one without its swipe tables).
    @Test("kill -9 during train with swipe layouts: the old store or a complete new one", .tags(.slow), .slow)
    func killNine() throws {
        let (dir, model, _) = try CLITests.modelFolder(sha256: Tiny.sha256["tiny.txt"]!, extraModelKey: ", \"swipe_layouts\": [\"qwerty\"]")
        let output = dir.file("tiny.sqlite")
        let first = try CLI.run(["train", model, "-o", output, "--quiet"])
        try #require(first.status == 0, "\(first.stderr)")
        #expect(try TrainedStore(path: output).swipeLayouts() == ["qwerty"])
        // An older store at the output: a different model (order 3), so "before" is recognisable.
        let old = dir.file("old.sqlite")
        let (dir2, model2, _) = try CLITests.modelFolder(sha256: Tiny.sha256["tiny.txt"]!)
        #expect(try CLI.run(["train", model2, "-o", old, "--quiet"]).status == 0)
        withExtendedLifetime(dir2) {}
        let before = try Data(contentsOf: URL(fileURLWithPath: old))
        let binary = try #require(CLI.executable)
        var outcomes: [String: Int] = [:]
        for delay in stride(from: 0, through: 300, by: 15) {
            try before.write(to: URL(fileURLWithPath: output))
            let process = Process()
            process.executableURL = binary
            process.arguments = ["train", model, "-o", output, "--quiet"]
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(delay * 1000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let now = try Data(contentsOf: URL(fileURLWithPath: output))
            if now == before { outcomes["before", default: 0] += 1; continue }
            let layouts = try TrainedStore(path: output).swipeLayouts()
            #expect(layouts == ["qwerty"], "killed after \(delay) ms: a new store without its swipe features")
            outcomes["after", default: 0] += 1
        }
        #expect(outcomes["before", default: 0] > 0)
        #expect(try CLI.run(["train", model, "-o", output, "--quiet"]).status == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".lexiforge-") || $0.hasSuffix(".lock") }
        #expect(leftovers.isEmpty, "abandoned temporary files: \(leftovers)")
    }

    /// Every stage of a model writes into the one staging file: killed at each stage boundary
    /// (after the wordlists, the hidden Markov tables, the n-grams, the swipe layout), the old
    /// store is intact, byte for byte; the next run removes what the killed one left.
    @Test("kill -9 at every stage boundary leaves the old store intact", .tags(.slow), .slow, arguments: ["wordlists", "hmm", "ngrams", "swipe qwerty"])
    func killAtStageBoundary(_ stage: String) throws {
        let folder = try ModelFolder(
            [.init("tiny", fixture: "tiny.txt", file: "corpora/tiny.txt"), .init("list", fixture: "wordlist/tiny.combined", file: "wordlists/tiny.combined")],
            model: #"{"name": "tiny", "corpora": ["tiny"], "order": 2, "lowercase": true, "wordlists": ["list"], "hmm_states": 2, "hmm_iterations": 2, "swipe_layouts": ["qwerty"]}"#)
        let (dir, model) = (folder.dir, folder.model)
        let output = dir.file("tiny.sqlite")
        try Data("an older store".utf8).write(to: URL(fileURLWithPath: output))
        let before = try Data(contentsOf: URL(fileURLWithPath: output))
        let killed = try CLI.run(["train", model, "-o", output, "--quiet"], environment: ["LEXIFORGE_KILL_AT_STAGE": stage])
        #expect(killed.status != 0, "the build was not killed at \(stage): \(killed.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == before, "killed after \(stage): the old store changed")
        let complete = try CLI.run(["train", model, "-o", output, "--quiet"])
        #expect(complete.status == 0, "\(complete.stderr)")
        let store = try TrainedStore(path: output)
        #expect(try store.swipeLayouts() == ["qwerty"])
        #expect(store.meta["hmm"] != nil)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".lexiforge-") }
        #expect(leftovers.isEmpty, "abandoned temporary files: \(leftovers)")
    }
}
