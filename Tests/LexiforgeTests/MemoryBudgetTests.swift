import Foundation
import LexiforgeBuild
import LexiforgeFormat
import LexiforgeNgrams
import LexiforgeReader
import LexiforgeTestSupport
import Testing

/// Issue 17, item 1: a memory budget. Counting writes its tables out as runs when they reach the
/// budget, the runs are sorted and merged on disk, and estimation and writing stream over the
/// sorted n-grams; the store is the one an unbounded build writes, byte for byte.
///
/// The corpora are the committed fixtures of ``ScaleTests``. `LEXIFORGE_SPILL_BYTES` caps every
/// share of the budget at a few kilobytes, so that they spill dozens of times (the real budget's
/// figures on gutenberg-100m are `make bench`'s).
@Suite("Memory budget: spilled runs, streaming estimation, identical bytes")
struct MemoryBudgetTests {
    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// `train` without a budget: the reference.
    static func reference(_ folder: ModelFolder) throws -> String {
        let path = folder.dir.file("reference.sqlite")
        let result = try CLI.run(["train", folder.model, "-o", path, "--quiet", "--threads", "1"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return path
    }

    /// How many runs counting wrote, from the stage line.
    static func runs(in stderr: String) -> Int? {
        guard let range = stderr.range(of: #"\((\d+) run\(s\) written"#, options: .regularExpression) else { return nil }
        return Int(stderr[range].dropFirst().prefix { $0.isNumber })
    }

    @Test("a budget that spills many times, with any thread count, gives train's store byte for byte; the temporary files are gone")
    func spillingIsExact() throws {
        let folder = try ScaleTests.modelFolder()
        let reference = try Self.reference(folder)
        for (threads, cap, batch) in [(1, 1024, 1 << 22), (2, 1024, 64), (3, 600, 40)] {
            let output = folder.dir.file("budget-\(threads).sqlite")
            let result = try CLI.run(["train", folder.model, "-o", output, "--threads", String(threads), "--memory", "16M"],
                                     environment: ["LEXIFORGE_SPILL_BYTES": String(cap), "LEXIFORGE_BATCH_BYTES": String(batch)])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let runs = try #require(Self.runs(in: result.stderr), "stderr: \(result.stderr)")
            #expect(runs >= 3, "counting spilled (threads \(threads)): \(runs) runs")
            #expect(result.stderr.contains("streaming over sorted n-grams"))
            #expect(try Self.bytes(output) == Self.bytes(reference), "threads \(threads), spill cap \(cap)")
        }
        let left = try folder.dir.contents().filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "no temporary folder is left: \(left)")
    }

    @Test("count and entropy pruning, word classes, form rules, vocab_size and hidden Markov tables stream, and give the unbounded store")
    func estimationOptionsStream() throws {
        let streaming = "streaming over sorted n-grams"
        let cases: [(extra: String, says: [String])] = [
            (#", "min_count": [1, 2]"#, [streaming, "pruned n-grams per order"]),
            (#", "min_count": [1, 1, 2], "prune": 1e-6, "classes": 6, "form_rules": 20"#, [streaming, "word classes: 6", "form rules:"]),
            (#", "vocab_size": 12"#, [streaming]),
            (#", "vocab_size": 12, "word_columns": true"#, [streaming]),
            (#", "hmm_states": 2, "hmm_iterations": 1, "vocab_size": 20"#, [streaming, "hidden Markov tables: 2 states"]),
        ]
        for (extra, says) in cases {
            let folder = try ScaleTests.modelFolder(extra: extra)
            let reference = try Self.reference(folder)
            let output = folder.dir.file("budget.sqlite")
            let result = try CLI.run(["train", folder.model, "-o", output, "--memory", "16M"],
                                     environment: ["LEXIFORGE_SPILL_BYTES": "1024"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(!result.stderr.contains("in memory"), "\(extra): \(result.stderr)")
            for line in says { #expect(result.stderr.contains(line), "\(extra): \(result.stderr)") }
            #expect(try Self.bytes(output) == Self.bytes(reference), "\(extra)")
        }
        // An order-1 language model has no n-gram tables to spill or stream: the same store.
        let unigrams = try ModelFolder([.init("books", fixture: "gutenberg-two-books.txt", file: "corpora/books.txt")],
                                       model: #"{"name": "one", "corpora": ["books"], "order": 1, "language_model": true}"#,
                                       modelName: "one.model.json")
        let loaded = try CLI.run(["train", unigrams.model, "-o", unigrams.dir.file("budget.sqlite"), "--memory", "16M"],
                                 environment: ["LEXIFORGE_SPILL_BYTES": "256"])
        #expect(loaded.status == 0, "stderr: \(loaded.stderr)")
        #expect(try Self.bytes(unigrams.dir.file("budget.sqlite")) == Self.bytes(Self.reference(unigrams)))
        let folder = try ScaleTests.modelFolder()

        // A counts-only store (ngrams without --language-model) too.
        let books = folder.data("corpora/books.txt")
        let plain = folder.dir.file("plain.sqlite"), bounded = folder.dir.file("bounded.sqlite")
        #expect(try CLI.run(["ngrams", books, "-o", plain, "--quiet"]).status == 0)
        let counted = try CLI.run(["ngrams", books, "-o", bounded, "--memory", "16M", "--threads", "2"],
                                  environment: ["LEXIFORGE_SPILL_BYTES": "1024"])
        #expect(counted.status == 0, "stderr: \(counted.stderr)")
        #expect((Self.runs(in: counted.stderr) ?? 0) > 0, "stderr: \(counted.stderr)")
        #expect(counted.stderr.contains("streaming the sorted n-grams") && !counted.stderr.contains("in memory"), "stderr: \(counted.stderr)")
        #expect(try Self.bytes(bounded) == Self.bytes(plain))
    }

    @Test("a wordlist merged under a budget renumbers the n-grams on disk: the unbounded store, byte for byte")
    func wordlistMergeStreams() throws {
        for extra in ["", #", "vocab_size": 30, "min_count": [1, 2], "frequency_source": "mix""#] {
            let folder = try ModelFolder(
                [.init("books", fixture: "gutenberg-two-books.txt", file: "corpora/books.txt"),
                 .init("list", fixture: "wordlist/merge.combined", file: "wordlists/merge.combined")],
                model: #"{"name": "keyboard", "corpora": ["books"], "wordlists": ["list"], "order": 3, "language_model": true"# + extra + "}",
                modelName: "keyboard.model.json")
            let reference = try Self.reference(folder)
            let output = folder.dir.file("budget.sqlite")
            let result = try CLI.run(["train", folder.model, "-o", output, "--memory", "16M"],
                                     environment: ["LEXIFORGE_SPILL_BYTES": "1024"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect((Self.runs(in: result.stderr) ?? 0) > 0, "counting spilled: \(result.stderr)")
            #expect(result.stderr.contains("merged 5 list entries") && result.stderr.contains("streaming over sorted n-grams")
                    && !result.stderr.contains("in memory"), "\(extra): \(result.stderr)")
            #expect(try Self.bytes(output) == Self.bytes(reference), "\(extra)")
            let store = try TrainedStore(path: output)
            #expect(store.meta[StoreSchema.LexiconMetaKey.entries] != nil)
        }
    }

    @Test("count shards merged on disk under a budget, flat or in a tree, give train's store byte for byte")
    func shardsMergedOnDisk() throws {
        let folder = try ScaleTests.modelFolder()
        let reference = try Self.reference(folder)
        let environment = ["LEXIFORGE_BATCH_BYTES": "24", "LEXIFORGE_SPILL_BYTES": "1024"]
        var parts: [String] = []
        for k in 0..<4 {
            let part = folder.dir.file("part\(k).sqlite")
            let count = try CLI.run(["count", "--model", folder.model, "--part", "\(k)/4", "-o", part, "--quiet", "--memory", "16M"],
                                    environment: environment)
            #expect(count.status == 0, "stderr: \(count.stderr)")
            parts.append(part)
        }
        let flat = folder.dir.file("flat.sqlite")
        let merge = try CLI.run(["merge"] + parts + ["--model", folder.model, "-o", flat, "--memory", "16M"], environment: environment)
        #expect(merge.status == 0, "stderr: \(merge.stderr)")
        #expect(merge.stderr.contains("merging 4 count shard(s) on disk") && merge.stderr.contains("streaming over sorted n-grams"),
                "stderr: \(merge.stderr)")
        #expect(try Self.bytes(flat) == Self.bytes(reference))

        let left = folder.dir.file("left.sqlite"), tree = folder.dir.file("tree.sqlite")
        let inner = try CLI.run(["merge", "--shard", parts[0], parts[2], "-o", left, "--memory", "16M"], environment: environment)
        #expect(inner.status == 0 && inner.stderr.contains("on disk"), "stderr: \(inner.stderr)")
        let final = try CLI.run(["merge", left, parts[1], parts[3], "--model", folder.model, "-o", tree, "--quiet", "--memory", "16M"],
                                environment: environment)
        #expect(final.status == 0, "stderr: \(final.stderr)")
        #expect(try Self.bytes(tree) == Self.bytes(reference))
        let left0 = try folder.dir.contents().filter { $0.hasPrefix(".") }
        #expect(left0.isEmpty, "no temporary folder is left: \(left0)")
    }

    @Test("a temporary folder that is missing or not a folder: one line naming it, nothing written, the old store kept")
    func badTemporaryFolder() throws {
        let folder = try ScaleTests.modelFolder()
        let output = folder.dir.file("store.sqlite")
        try Data("the old store".utf8).write(to: URL(fileURLWithPath: output))
        let missing = folder.dir.file("no-such-folder")
        let notFolder = folder.data("corpora/books.txt")
        for temp in [missing, notFolder] {
            let result = try CLI.run(["train", folder.model, "-o", output, "--memory", "16M", "--temp", temp])
            #expect(result.status == 1)
            #expect(result.stderr.contains("\(temp): temporary folder does not exist or is not a folder"), "stderr: \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }.count == 1, "one message: \(result.stderr)")
            #expect(try Self.bytes(output) == Data("the old store".utf8))
        }
        #expect(try folder.dir.contents().filter { $0.hasPrefix(".") }.isEmpty)
    }

    /// Runs `mount`/`umount` (root only; a container may refuse).
    static func run(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Whether this machine lets the tests mount a small tmpfs (a full disk on demand).
    static let canMount: Bool = {
        guard getuid() == 0, let dir = try? TemporaryFolder("lexiforge-mount") else { return false }
        guard run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir.path]) else { return false }
        return run(["umount", dir.path])
    }()

    @Test("a temporary folder that fills up: the file and the reason named, nothing left, the old store kept",
          .enabled(if: canMount, "mounting a small tmpfs needs root and a machine that allows it"))
    func fullTemporaryFolder() throws {
        let folder = try ScaleTests.modelFolder()
        let small = try TemporaryFolder("lexiforge-full")
        #expect(Self.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", small.path]))
        defer { _ = Self.run(["umount", small.path]) }
        let output = folder.dir.file("store.sqlite")
        try Data("the old store".utf8).write(to: URL(fileURLWithPath: output))
        let result = try CLI.run(["train", folder.model, "-o", output, "--memory", "16M", "--temp", small.path],
                                 environment: ["LEXIFORGE_SPILL_BYTES": "300"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot write sorted n-grams to the temporary folder (No space left on device)"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains(small.path + "/.lexiforge-spill-"), "the file is named: \(result.stderr)")
        #expect(try Self.bytes(output) == Data("the old store".utf8))
        #expect(try small.contents().isEmpty, "the spill folder is removed")
        #expect(try folder.dir.contents().filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test("a temporary folder that cannot be written (a read-only file system): one line naming it, before any reading",
          .enabled(if: canMount, "mounting a small tmpfs needs root and a machine that allows it"))
    func readOnlyTemporaryFolder() throws {
        let folder = try ScaleTests.modelFolder()
        let readOnly = try TemporaryFolder("lexiforge-readonly")
        #expect(Self.run(["mount", "-t", "tmpfs", "-o", "size=16k,ro", "tmpfs", readOnly.path]))
        defer { _ = Self.run(["umount", readOnly.path]) }
        let output = folder.dir.file("store.sqlite")
        try Data("the old store".utf8).write(to: URL(fileURLWithPath: output))
        let result = try CLI.run(["train", folder.model, "-o", output, "--memory", "16M", "--temp", readOnly.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(readOnly.path): cannot create temporary files here (Read-only file system); choose a writable folder with --temp"),
                "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("Reading and counting"), "the folder is checked before any reading: \(result.stderr)")
        #expect(try Self.bytes(output) == Data("the old store".utf8))
        #expect(try folder.dir.contents().filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test("--temp holds the runs; folders of a killed build are removed by the next, a live build's are not")
    func abandonedSpillFolders() throws {
        let folder = try ScaleTests.modelFolder()
        let temp = try TemporaryFolder("lexiforge-spill")
        // A build that was killed (a process id that is not running) and one still running (this test).
        let dead = temp.file(".lexiforge-spill-\(Int32.max - 7)-abc123"), live = temp.file(".lexiforge-spill-\(getpid())-def456")
        for path in [dead, live] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            try Data(count: 100).write(to: URL(fileURLWithPath: path + "/1-counts3"))
        }
        let output = folder.dir.file("store.sqlite")
        let result = try CLI.run(["train", folder.model, "-o", output, "--memory", "16M", "--temp", temp.path],
                                 environment: ["LEXIFORGE_SPILL_BYTES": "1024"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains(temp.path + "/.lexiforge-spill-"), "the runs went to --temp: \(result.stderr)")
        #expect(try temp.contents() == [".lexiforge-spill-\(getpid())-def456"])
    }

    @Test("the model key memory and --memory take sizes as lmplz -S does")
    func sizes() throws {
        #expect(MemoryBudget.parse("256M") == 256 << 20)
        #expect(MemoryBudget.parse("4G") == 4 << 30)
        #expect(MemoryBudget.parse("1.5G") == 3 << 29)
        #expect(MemoryBudget.parse("512k") == 512 << 10)
        #expect(MemoryBudget.parse("1000000") == 1_000_000)
        #expect(MemoryBudget.parse("50%") == Int(ProcessInfo.processInfo.physicalMemory / 2))
        for bad in ["", "lots", "-5M", "0", "150%", "M", "12Q"] { #expect(MemoryBudget.parse(bad) == nil, "\(bad)") }

        let folder = try ScaleTests.modelFolder(extra: #", "memory": "lots""#)
        let result = try CLI.run(["train", folder.model, "-o", folder.dir.file("x.sqlite")])
        #expect(result.status == 1)
        #expect(result.stderr.contains(#""memory""#) && result.stderr.contains("a size such as 256M"), "stderr: \(result.stderr)")
        // A value with braces is quoted as it is (the fuzzer's "{}" once crashed the message).
        let braces = try ScaleTests.modelFolder(extra: #", "memory": "{}""#)
        let quoted = try CLI.run(["train", braces.model, "-o", braces.dir.file("x.sqlite")])
        #expect(quoted.status == 1)
        #expect(quoted.stderr.contains(#""{}" is not a size such as 256M"#), "stderr: \(quoted.stderr)")
        let small = try ScaleTests.modelFolder(extra: #", "memory": "1M""#)
        let tooSmall = try CLI.run(["train", small.model, "-o", small.dir.file("x.sqlite")])
        #expect(tooSmall.status == 1)
        #expect(tooSmall.stderr.contains("1M is too small; use at least 16M"), "stderr: \(tooSmall.stderr)")
        let flag = try CLI.run(["train", small.model, "-o", small.dir.file("x.sqlite"), "--memory", "a lot"])
        #expect(flag.status != 0)
        #expect(flag.stderr.contains("--memory a lot is not a size such as 256M"), "stderr: \(flag.stderr)")
    }

    // MARK: - The parts

    struct Pair: SortableRecord, Equatable {
        var key: UInt64
        var payload: UInt32
        static func precedes(_ a: Pair, _ b: Pair) -> Bool { a.key < b.key || (a.key == b.key && a.payload < b.payload) }
    }

    @Test("the external sorter gives what sorting in memory gives, through many runs or none")
    func externalSort() throws {
        let temp = try TemporaryFolder()
        let folder = try SpillFolder(in: temp.path)
        var rng = SplitMix64(seed: 17)
        for (count, budget) in [(0, 4096), (1, 4096), (10_000, 4096), (10_000, 1 << 20), (50_000, 30_000)] {
            let records = (0..<count).map { i in Pair(key: rng.next() % 5000, payload: UInt32(i)) }
            let sorter = ExternalSorter<Pair>(folder: folder, name: "t", budget: budget)
            for r in records { try sorter.append(r) }
            var out: [Pair] = []
            try sorter.finish { out.append($0) }
            let runs = sorter.runsWritten
            #expect(out == records.sorted(by: Pair.precedes), "\(count) records, budget \(budget), \(runs) runs")
            if budget == 4096 && count == 10_000 { #expect(runs >= 9) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "merged runs are deleted")
    }

    @Test("the radix sort of packed entries sorts as a comparison sort does, whatever the key width")
    func radixSort() {
        var rng = SplitMix64(seed: 23)
        for (count, bits) in [(0, 8), (100, 20), (20_000, 7), (70_000, 33), (70_000, 64), (50_000, 48)] {
            let mask = bits == 64 ? UInt64.max : (UInt64(1) << UInt64(bits)) - 1
            var items = (0..<count).map { i in (rng.next() & mask, UInt32(i)) }
            let expected = items.sorted { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
            NgramCounts.Table.radixSort(&items, keyBits: bits)
            #expect(items.map(\.0) == expected.map(\.0) && items.map(\.1) == expected.map(\.1), "\(count) keys of \(bits) bits")
        }
    }

    @Test("packed keys compare as id tuples and give their ids back")
    func packedKeys() {
        var rng = SplitMix64(seed: 5)
        for (n, bits) in [(2, 7), (3, 21), (3, 32), (4, 32), (5, 25), (1, 1)] {
            let mask = bits == 32 ? UInt64(UInt32.max) : (UInt64(1) << UInt64(bits)) - 1
            var previous: ([UInt32], PackedKey)?
            for _ in 0..<500 {
                let ids = (0..<n).map { _ in UInt32(rng.next() & mask) }
                let key = ids.withUnsafeBufferPointer { PackedKey($0.baseAddress!, n: n, bits: bits) }
                #expect(key.ids(n: n, bits: bits) == ids)
                if let (other, otherKey) = previous {
                    #expect((key < otherKey) == ids.lexicographicallyPrecedes(other), "\(ids) vs \(other)")
                }
                previous = (ids, key)
            }
        }
    }

    @Test("a counter's table limit keeps its tables, while growing too, within the bytes given")
    func entryLimit() {
        for order in 2...5 {
            for bytes in [100_000, 10 << 20, 256 << 20] {
                let limit = NgramCounter.entryLimit(order: order, bytes: bytes)
                let slots = 2 * limit
                let total = (2...order).reduce(0) { $0 + NgramTable.bytes(n: $1, slots: slots) + NgramTable.bytes(n: $1, slots: slots / 2) }
                #expect(total <= max(bytes, (2...order).reduce(0) { $0 + 3 * NgramTable.bytes(n: $1, slots: 1024) }))
                #expect(limit >= 8)
            }
        }
    }
}
