import Foundation
import GRDB
import LexiforgeCorpus
import LexiforgeNgrams
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeTestSupport
import Testing

/// Builds a store from fixtures with the library entry point (no progress output).
@discardableResult
func buildStore(
    _ inputs: [String], to output: String, order: Int = 3, configure: (inout NgramBuildConfig) -> Void = { _ in }
) throws -> NgramBuildReport {
    var config = NgramBuildConfig(inputs: inputs, output: output)
    config.order = order
    configure(&config)
    return try NgramBuild.run(config, progress: StageProgress(quiet: true))
}

@Suite("Store: build, open, query")
struct StoreTests {
    let folder: TemporaryFolder
    let storePath: String
    let report: NgramBuildReport

    init() throws {
        folder = try TemporaryFolder()
        storePath = folder.file("tiny.sqlite")
        report = try buildStore([Paths.fixture("tiny.txt")], to: storePath)
    }

    @Test("the build report counts what was worked out by hand")
    func buildReport() {
        #expect(report.tokens == 18)
        #expect(report.sentences == 4)
        #expect(report.vocabulary == 18)
        #expect(report.ngrams == [18, 21, 18])
        #expect(report.warnings.isEmpty)
        #expect(report.files.map(\.sha256) == [Tiny.sha256["tiny.txt"]!])
        let size = (try? FileManager.default.attributesOfItem(atPath: storePath)[.size] as? Int) ?? -1
        #expect(report.storeBytes == size)
    }

    @Test("meta: schema version, order, inputs with sha256, tokens, sentences")
    func meta() throws {
        let store = try TrainedStore(path: storePath)
        #expect(store.order == 3)
        #expect(store.meta["schema_version"] == String(StoreSchema.version))
        #expect(store.meta["order"] == "3")
        #expect(store.meta["tokens"] == "18")
        #expect(store.meta["sentences"] == "4")
        #expect(store.meta["vocabulary"] == "18")
        #expect(store.meta["toolchain"] == "lexiforge 0.1.0")
        // Codable records written with sorted keys (LexiforgeFormat's MetaJSON): one way to write, one to read.
        #expect(store.meta["inputs"]
                == #"[{"bytes":74,"file":"tiny.txt","sha256":"d9a16a07bd8f5df8a6b38db2411b23db001e0a310390127355b6db5f7584fce7"}]"#)
        #expect(InputRecord.list(store.meta) == [InputRecord(file: "tiny.txt", sha256: "d9a16a07bd8f5df8a6b38db2411b23db001e0a310390127355b6db5f7584fce7", bytes: 74)])
        #expect(store.meta["text_options"]
                == #"{"keep_punctuation":false,"lowercase":false,"normalization":"none","number_class":false,"replace_invalid_utf8":false,"straight_quotes":false,"strip_gutenberg":true,"tokenizer":"keyboard"}"#)
        #expect(store.meta["model"] == nil)
        #expect(!store.isLowercased)
    }

    @Test("word table and bigram_view hold the hand-worked rows")
    func views() throws {
        let queue = try DatabaseQueue(path: storePath, configuration: { var c = Configuration(); c.readonly = true; return c }())
        try queue.read { db in
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == StoreSchema.version)
            #expect(try Int32.fetchOne(db, sql: "PRAGMA application_id") == 0x4C58_4647)
            let words = try Row.fetchAll(db, sql: "SELECT id, text, count FROM word ORDER BY id")
                .map { "\($0["id"] as Int) \($0["text"] as String) \($0["count"] as Int)" }
            #expect(words == [
                "0 <unk> 0", "1 <s> 4", "2 </s> 4", "3 The 2", "4 cat 2", "5 ran 2", "6 It 1", "7 My 1",
                "8 a 1", "9 day 1", "10 dog 1", "11 good 1", "12 home 1", "13 mat 1", "14 on 1", "15 sat 1",
                "16 the 1", "17 was 1",
            ])
            let bigrams = try Row.fetchAll(db, sql: "SELECT w1, w2, count FROM bigram_view")
                .map { "\($0["w1"] as String) \($0["w2"] as String) \($0["count"] as Int)" }
            #expect(Set(bigrams) == [
                "<s> The 2", "<s> It 1", "<s> My 1", "The cat 1", "The dog 1", "cat ran 1", "cat sat 1",
                "ran </s> 1", "ran home 1", "It was 1", "My cat 1", "a good 1", "day </s> 1", "dog ran 1",
                "good day 1", "home </s> 1", "mat </s> 1", "on the 1", "sat on 1", "the mat 1", "was a 1",
            ])
            #expect(bigrams.count == 21)
            // The table is keyed (and so stored) by id tuple.
            let ids = try Row.fetchAll(db, sql: "SELECT w1, w2 FROM bigram").map { [$0[0] as Int, $0[1] as Int] }
            #expect(ids == ids.sorted { $0.lexicographicallyPrecedes($1) })
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM trigram_view") == 18)
            #expect(try Int.fetchOne(db, sql: "SELECT count FROM trigram_view WHERE w1 = '<s>' AND w2 = 'The' AND w3 = 'cat'") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM trigram_view WHERE w1 = '<s>' AND w2 = '<s>'") == 0)
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            #expect(tables == ["bigram", "meta", "trigram", "word_block", "word_count", "word_order"])
            // The `word` view unpacks the blocks in id order.
            let spellings: [String] = try String.fetchAll(db, sql: "SELECT text FROM word")
            #expect(spellings.count == 18)
            #expect(Array(spellings.prefix(3)) == ["<unk>", "<s>", "</s>"])
            let wordIDs: [Int] = try Int.fetchAll(db, sql: "SELECT id FROM word")
            #expect(wordIDs == Array(0..<18))
        }
    }

    struct Backoff: Sendable, CustomTestStringConvertible {
        var id: String
        var context: [String]
        /// "word/count/order" per suggestion.
        var expected: [String]
        var testDescription: String { id }
    }

    @Test("nextWords backs off trigram → bigram → unigram", arguments: [
        Backoff(id: "trigram, then bigram, then unigram", context: ["The", "cat"],
                expected: ["sat/1/3", "ran/1/2", "The/2/1"]),
        Backoff(id: "only the last order-1 words count", context: ["It", "was", "My", "cat"],
                expected: ["ran/1/3", "sat/1/2", "The/2/1"]),
        Backoff(id: "no trigram: bigram, then unigrams", context: ["good", "cat"],
                expected: ["ran/1/2", "sat/1/2", "The/2/1"]),
        Backoff(id: "</s> is never suggested", context: ["dog", "ran"],
                expected: ["home/1/2", "The/2/1", "cat/2/1"]),
        Backoff(id: "unknown word cuts the context", context: ["zebra", "cat"],
                expected: ["ran/1/2", "sat/1/2", "The/2/1"]),
        Backoff(id: "unknown last word gives word frequency, as NgramPredictor does", context: ["cat", "zebra"],
                expected: ["The/2/1", "cat/2/1", "ran/2/1"]),
        Backoff(id: "unknown words only give starting words", context: ["zebra", "okapi"],
                expected: ["The/2/2", "It/1/2", "My/1/2"]),
        Backoff(id: "empty context gives starting words", context: [],
                expected: ["The/2/2", "It/1/2", "My/1/2"]),
    ])
    func nextWords(_ c: Backoff) throws {
        let store = try TrainedStore(path: storePath)
        let got = try store.nextWords(after: c.context, limit: 3).map { "\($0.word)/\($0.count)/\($0.order)" }
        #expect(got == c.expected)
    }

    @Test("relative frequencies and startingWords")
    func frequencies() throws {
        let store = try TrainedStore(path: storePath)
        let next = try store.nextWords(after: ["The", "cat"], limit: 3)
        #expect(next.map(\.relativeFrequency) == [1.0, 0.5, 2.0 / 18.0])
        let starting = try store.startingWords(limit: 5)
        #expect(starting.map(\.word) == ["The", "It", "My", "cat", "ran"])
        #expect(starting.map(\.order) == [2, 2, 2, 1, 1])
        #expect(starting.prefix(3).map(\.relativeFrequency) == [0.5, 0.25, 0.25])
        #expect(try store.topWords(limit: 4).map(\.word) == ["The", "cat", "ran", "It"])
        #expect(try store.id(of: "cat") == 4)
        #expect(try store.id(of: "zebra") == nil)
    }

    @Test("an order-1 store suggests plain word frequency")
    func orderOne() throws {
        let path = folder.file("unigram.sqlite")
        try buildStore([Paths.fixture("tiny.txt")], to: path, order: 1)
        let store = try TrainedStore(path: path)
        #expect(store.order == 1)
        #expect(try store.nextWords(after: ["The", "cat"], limit: 3).map(\.word) == ["The", "cat", "ran"])
        #expect(try store.nextWords(after: ["The"], limit: 3).allSatisfy { $0.order == 1 })
    }

    @Test("a lowercased build records it and is queried in lowercase")
    func lowercased() throws {
        let path = folder.file("lower.sqlite")
        try buildStore([Paths.fixture("tiny.txt")], to: path) { $0.text.lowercase = true }
        let store = try TrainedStore(path: path)
        #expect(store.isLowercased)
        #expect(try store.id(of: "The") == nil)
        // "the" is now 3 (The ×2 + the), the most frequent word.
        #expect(try store.topWords(limit: 1).map { "\($0.word)/\($0.count)" } == ["the/3"])
        let suggestions = try Suggest.run(storePath: path, text: "The Cat", limit: 2)
        #expect(suggestions.map { "\($0.word)/\($0.order)" } == ["sat/3", "ran/2"])
    }

    @Test("a store with another user_version is refused with wrongVersion")
    func wrongVersion() throws {
        let copy = folder.file("v99.sqlite")
        try FileManager.default.copyItem(atPath: storePath, toPath: copy)
        let queue = try DatabaseQueue(path: copy)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = 99") }
        try queue.close()
        let error = #expect(throws: StoreError.self) { try TrainedStore(path: copy) }
        guard case .wrongVersion(let path, let found, let expected)? = error else {
            Issue.record("expected .wrongVersion, got \(String(describing: error))")
            return
        }
        #expect(path == copy)
        #expect(found == 99)
        #expect(expected == StoreSchema.version)
        #expect(error?.description.contains("schema version 99") == true)
    }

    @Test("a SQLite database that is not a store is refused")
    func foreignDatabase() throws {
        let path = folder.file("other.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (1)") }
        try queue.close()
        let error = #expect(throws: StoreError.self) { try TrainedStore(path: path) }
        guard case .notAStore(let reported, _)? = error else {
            Issue.record("expected .notAStore, got \(String(describing: error))")
            return
        }
        #expect(reported == path)
    }

    @Test("a text file and a missing path are refused")
    func notSQLite() throws {
        let text = Paths.fixture("tiny.txt")
        let error = #expect(throws: StoreError.self) { try TrainedStore(path: text) }
        guard case .notAStore(let reported, _)? = error else {
            Issue.record("expected .notAStore, got \(String(describing: error))")
            return
        }
        #expect(reported == text)

        let missing = folder.file("nope.sqlite")
        let missingError = #expect(throws: StoreError.self) { try TrainedStore(path: missing) }
        guard case .missing(let reportedMissing)? = missingError else {
            Issue.record("expected .missing, got \(String(describing: missingError))")
            return
        }
        #expect(reportedMissing == missing)
    }

    @Test("two builds of the same input are byte-identical, whatever the input's encoding")
    func byteIdentical() throws {
        let second = folder.file("tiny-again.sqlite")
        try buildStore([Paths.fixture("tiny.txt")], to: second)
        let a = try Data(contentsOf: URL(fileURLWithPath: storePath))
        let b = try Data(contentsOf: URL(fileURLWithPath: second))
        #expect(a == b)
        #expect(a.count > 0)

        // BOM+CRLF and gzip variants give the same counts (only the recorded inputs differ).
        for variant in ["tiny-bom-crlf.txt", "tiny.txt.gz", "tiny-two-members.txt.gz"] {
            let path = folder.file("\(variant).sqlite")
            let r = try buildStore([Paths.fixture(variant)], to: path)
            #expect(r.ngrams == [18, 21, 18], "\(variant)")
            let store = try TrainedStore(path: path)
            #expect(try store.nextWords(after: ["The", "cat"], limit: 3).map(\.word) == ["sat", "ran", "The"], "\(variant)")
            #expect(InputRecord.list(store.meta) == [InputRecord(file: variant, sha256: Tiny.sha256[variant]!, bytes: Tiny.storedBytes[variant]!)])
        }
    }

    @Test("a failed build leaves an existing store untouched and no temporary file behind")
    func atomicity() throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: storePath))
        let contentsBefore = try folder.contents()
        let error = #expect(throws: PipelineError.self) {
            try buildStore([Paths.fixture("gutenberg-old.txt"), Paths.fixture("invalid-utf8.txt")], to: storePath)
        }
        #expect(error?.problems == [
            CorpusError.invalidUTF8(Paths.fixture("invalid-utf8.txt"), [.init(line: 3, offset: 35)], total: 1).description,
        ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: storePath)) == before)
        #expect(try folder.contents() == contentsBefore)
        #expect(try TrainedStore(path: storePath).meta["tokens"] == "18")
    }

    static func smallCounts() -> NgramCounts {
        let counter = NgramCounter(order: 2)
        counter.add(sentence: ["new", "words"])
        return counter.finish()
    }

    @Test("a writer killed earlier left its private folder: the next one removes it, a live writer's stays")
    func abandonedTemporaryFiles() throws {
        let dead = folder.file(".tiny.sqlite.lexiforge-2147483646-AbCdEf")   // above any pid_max: no such process
        let live = folder.file(".tiny.sqlite.lexiforge-1-AbCdEf")            // init is always running
        let other = folder.file(".other.sqlite.lexiforge-2147483646-AbCdEf") // another store's: not ours to touch
        for dir in [dead, live, other] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
            try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/tiny.sqlite"))
        }
        // Temporary files of earlier versions (.NAME.tmp-PID) go the same way.
        let legacy = folder.file(".tiny.sqlite.tmp-2147483646")
        let legacyJournal = legacy + "-journal"
        for path in [legacy, legacyJournal] { try Data("x".utf8).write(to: URL(fileURLWithPath: path)) }
        let file = try AtomicStoreFile.prepare(path: storePath)
        try StoreWriter.write(counts: Self.smallCounts(), meta: ["k": "v"], to: file)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(!FileManager.default.fileExists(atPath: legacy))
        #expect(!FileManager.default.fileExists(atPath: legacyJournal))
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(FileManager.default.fileExists(atPath: other))
    }

    @Test("the writer fails mid-write: the existing store stays, the private folder goes")
    func writerFailsMidWrite() throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: storePath))
        let file = try AtomicStoreFile.prepare(path: storePath)
        let privateFolder = URL(fileURLWithPath: file.temporaryPath).deletingLastPathComponent()
        #expect(privateFolder.deletingLastPathComponent().path == folder.path)
        #expect(privateFolder.lastPathComponent.hasPrefix(".tiny.sqlite.lexiforge-\(getpid())-"))
        #expect(URL(fileURLWithPath: file.temporaryPath).lastPathComponent == "tiny.sqlite")
        #expect(!FileManager.default.fileExists(atPath: file.temporaryPath))
        let mode = try FileManager.default.attributesOfItem(atPath: privateFolder.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        // Junk where SQLite will open the temporary file: every statement fails with SQLITE_NOTADB.
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: file.temporaryPath))
        let error = #expect(throws: StoreWriteError.self) {
            try StoreWriter.write(counts: Self.smallCounts(), meta: ["k": "v"], to: file)
        }
        guard case .sqlite(let path, _)? = error else {
            Issue.record("expected .sqlite, got \(String(describing: error))")
            return
        }
        #expect(path == storePath)
        #expect(try Data(contentsOf: URL(fileURLWithPath: storePath)) == before)
        #expect(try folder.contents() == ["tiny.sqlite"])
    }

    @Test("the final rename fails: the temporary file is removed")
    func commitFails() throws {
        let output = folder.file("blocked.sqlite")
        let file = try AtomicStoreFile.prepare(path: output)
        // After the checks, something puts a non-empty folder where the store should go.
        try FileManager.default.createDirectory(atPath: output + "/inside", withIntermediateDirectories: true)
        let error = #expect(throws: StoreWriteError.self) {
            try StoreWriter.write(counts: Self.smallCounts(), meta: [:], to: file)
        }
        guard case .outputNotWritable(let path, _)? = error else {
            Issue.record("expected .outputNotWritable, got \(String(describing: error))")
            return
        }
        #expect(path == output)
        #expect(try folder.contents() == ["blocked.sqlite", "tiny.sqlite"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: output) == ["inside"])
    }

    @Test("discarding a prepared file leaves the folder as it was")
    func discard() throws {
        let file = try AtomicStoreFile.prepare(path: folder.file("never.sqlite"))
        file.discard()
        #expect(try folder.contents() == ["tiny.sqlite"])
    }

    @Test("every bad input is named in one run")
    func allProblemsReported() throws {
        let output = folder.file("never.sqlite")
        let error = #expect(throws: PipelineError.self) {
            try buildStore([Paths.fixture("binary.bin"), Paths.fixture("tiny.txt"), Paths.fixture("empty.txt")], to: output)
        }
        #expect(error?.problems == [
            CorpusError.binary(Paths.fixture("binary.bin"), offset: 3).description,
            CorpusError.empty(Paths.fixture("empty.txt")).description,
        ])
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try folder.contents() == ["tiny.sqlite"])
    }

    @Test("a successful rebuild replaces the store and leaves no temporary file")
    func replace() throws {
        let r = try buildStore([Paths.fixture("gutenberg-old.txt")], to: storePath, order: 2)
        #expect(r.tokens == 13)   // The fox jumped / The hen slept / End of the story said the hen
        #expect(r.sentences == 3)
        #expect(try TrainedStore(path: storePath).order == 2)
        #expect(try folder.contents() == ["tiny.sqlite"])
    }

    @Test("a sentence never spans two input files; inputs are recorded in order")
    func multipleFiles() throws {
        let a = folder.file("a.txt"), b = folder.file("b.txt")
        try Data("the cat".utf8).write(to: URL(fileURLWithPath: a))      // no terminal, no newline
        try Data("sat down\n".utf8).write(to: URL(fileURLWithPath: b))
        let output = folder.file("ab.sqlite")
        let r = try buildStore([a, b], to: output, order: 2)
        #expect(r.tokens == 4)
        #expect(r.sentences == 2)
        let store = try TrainedStore(path: output)
        #expect(try store.nextWords(after: ["cat"], limit: 1).first?.order == 1)   // no "cat sat" bigram
        #expect(try store.nextWords(after: ["the"], limit: 1).map { "\($0.word)/\($0.order)" } == ["cat/2"])
        let inputs = try JSONSerialization.jsonObject(with: Data((store.meta["inputs"] ?? "").utf8)) as? [[String: Any]]
        #expect(inputs?.map { $0["file"] as? String } == ["a.txt", "b.txt"])
        #expect(inputs?.map { $0["bytes"] as? Int } == [7, 9])

        // The same file twice counts everything twice.
        let twice = try buildStore([Paths.fixture("tiny.txt"), Paths.fixture("tiny.txt.gz")], to: folder.file("twice.sqlite"))
        #expect(twice.tokens == 36)
        #expect(twice.sentences == 8)
        #expect(twice.ngrams == [18, 21, 18])
    }

    @Test("output checks: missing folder and a directory as -o")
    func outputChecks() throws {
        let missingDir = folder.file("missing")
        let error = #expect(throws: StoreWriteError.self) {
            try buildStore([Paths.fixture("tiny.txt")], to: missingDir + "/out.sqlite")
        }
        guard case .outputDirectoryMissing(let dir)? = error else {
            Issue.record("expected .outputDirectoryMissing, got \(String(describing: error))")
            return
        }
        #expect(dir == missingDir)

        let isDirError = #expect(throws: StoreWriteError.self) {
            try buildStore([Paths.fixture("tiny.txt")], to: folder.path)
        }
        guard case .outputIsDirectory(let reported)? = isDirError else {
            Issue.record("expected .outputIsDirectory, got \(String(describing: isDirError))")
            return
        }
        #expect(reported == folder.path)
    }

    @Test("sha256 expected by a manifest must match")
    func shaMismatch() throws {
        let output = folder.file("sha.sqlite")
        let input = Paths.fixture("tiny.txt")
        let wrong = String(repeating: "0", count: 64)
        let error = #expect(throws: PipelineError.self) {
            try buildStore([input], to: output) { $0.expectedSHA256 = [input: wrong] }
        }
        #expect(error?.problems == [
            "\(input): sha256 is \(Tiny.sha256["tiny.txt"]!) but the manifest says \(wrong); provision it again with `make corpora`",
        ])
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("inspect renders the schema version, tables and top words")
    func inspect() throws {
        let text = try InspectReport.render(path: storePath)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "store: \(storePath)")
        #expect(lines.contains("schema version: \(StoreSchema.version)"))
        #expect(lines.contains("  order: 3"))
        for table in ["meta", "word_block", "word_order", "word_count", "bigram", "trigram"] {
            #expect(lines.contains { $0.hasPrefix("  \(table) ") }, "\(table)")
        }
        // 18 words, 17 of them with a count (not <unk>).
        #expect(lines.contains("  vocabulary: 18"))
        #expect(lines.contains { $0.hasPrefix("  word_count ") && $0.contains(" 17 ") })
        #expect(lines.contains { $0.hasPrefix("vocabulary: 18 words") })
        #expect(lines.contains { $0.hasPrefix("  bigram ") && $0.contains(" 21 ") })
        let top = lines.firstIndex(of: "top words:").map { Array(lines[($0 + 1)...($0 + 3)]) }
        #expect(top == ["  The\t2", "  cat\t2", "  ran\t2"])
        let starting = lines.firstIndex(of: "starting words:").map { Array(lines[($0 + 1)...($0 + 3)]) }
        #expect(starting == ["  The\t2", "  It\t1", "  My\t1"])
        #expect(lines.contains("  cat → ran (1), sat (1)"))
    }
}
