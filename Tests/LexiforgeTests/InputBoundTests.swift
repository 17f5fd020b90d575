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

/// Issue 22: bounded sizes (hmm_states, tags), manifest paths confined to data/, NUL and reversed ranges in parsers.
@Suite("Hardening: bounds, paths and parsers")
struct InputBoundTests {
    @Test("a model file's hmm_states has the CLI's bound, with a message naming the file")
    func hmmStatesBound() throws {
        let dir = try TemporaryFolder()
        let model = dir.file("m.model.json")
        try #"{"name": "m", "corpora": ["c"], "hmm_states": 100000}"#.write(toFile: model, atomically: true, encoding: .utf8)
        let error = #expect(throws: PipelineError.self) { try ModelSpec.load(path: model) }
        #expect(error?.problems.contains { $0.hasPrefix("\(model): \"hmm_states\" 100000 is out of range; use 1 to \(BaumWelchConfig.maxStates)") } == true,
                "\(String(describing: error))")
    }

    @Test("a tagged corpus with more distinct tags than a tagger holds is refused naming the file")
    func tooManyTags() throws {
        let dir = try TemporaryFolder()
        let corpus = dir.file("many.txt")
        let tags = SupervisedHMMTrainer.maxTags + 1
        try (0..<tags).map { "w\($0)/T\($0) x/X" }.joined(separator: "\n").appending("\n").write(toFile: corpus, atomically: true, encoding: .utf8)
        let output = dir.file("tagger.sqlite")
        let result = try CLI.run(["hmm", "--tagged", corpus, "-o", output, "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(corpus): \(tags + 1) distinct"), "\(result.stderr)")
        #expect(result.stderr.contains("more than the \(SupervisedHMMTrainer.maxTags)"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// `root/Corpora/{m.model.json,manifest.tsv,data/corpora/}`, the manifest's one entry `c` at `file` (not provisioned).
    static func modelFolder(file: String, sha256: String, extra: String = "") throws -> (TemporaryFolder, model: String, manifest: String) {
        let folder = try ModelFolder([.init("c", fixture: nil, file: "corpora/.keep", sha256: sha256)],
                                     model: "{\"name\": \"m\", \"corpora\": [\"c\"]\(extra)}", subfolder: "Corpora")
        // The entry's file as given (it may leave data/: the tests check that it is refused).
        let manifest = "name\tfile\tsha256\tlicense\tsource\turl\nc\t\(file)\t\(sha256)\t-\t-\t-\n"
        try manifest.write(toFile: folder.manifest, atomically: true, encoding: .utf8)
        return (folder.dir, folder.model, folder.manifest)
    }

    @Test("a manifest file that leaves data/ is refused by train, naming the manifest line",
          arguments: ["../../../etc/passwd", "/etc/passwd", "corpora/../../x.txt"])
    func manifestConfined(_ file: String) throws {
        let (root, model, manifest) = try Self.modelFolder(file: file, sha256: String(repeating: "a", count: 64))
        let error = #expect(throws: PipelineError.self) {
            try Train.run(modelPath: model, output: root.file("out.sqlite"), strict: false, progress: StageProgress(quiet: true))
        }
        #expect(error?.problems.first?.hasPrefix("\(manifest):2: file '\(file)'") == true, "\(String(describing: error))")
    }

    @Test("provision.sh refuses a manifest file that leaves data/ and writes nothing outside it")
    func provisionConfined() throws {
        let root = try TemporaryFolder("lexiforge-provision")
        let corpora = root.url.appendingPathComponent("Corpora")
        let shared = root.url.appendingPathComponent("shared/data")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: corpora, withIntermediateDirectories: true)
        let script = corpora.appendingPathComponent("provision.sh").path
        try FileManager.default.copyItem(atPath: Paths.packageRoot.appendingPathComponent("Corpora/provision.sh").path, toPath: script)
        // shared/data/../escape.txt exists with the right digest: only the path check stops it.
        try FileManager.default.copyItem(atPath: Paths.fixture("tiny.txt"), toPath: root.file("shared/escape.txt"))
        try "name\tfile\tsha256\tlicense\tsource\turl\nx\t../escape.txt\t\(Tiny.sha256["tiny.txt"]!)\t-\t-\t-\n"
            .write(to: corpora.appendingPathComponent("manifest.tsv"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script]
        process.environment = ProcessInfo.processInfo.environment.merging(["SHARED_DATA": shared.path]) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(stderr.contains("provision: x: file '../escape.txt' must be a relative path inside"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: corpora.appendingPathComponent("escape.txt").path))
    }

    @Test("a data file that links outside data/ is never read and its digest never printed")
    func linkOutsideDataRefused() throws {
        let (root, model, _) = try Self.modelFolder(file: "corpora/c.txt", sha256: String(repeating: "0", count: 64))
        let path = root.url.appendingPathComponent("Corpora/data/corpora/c.txt").path
        // The outside file is a copy: the folder's clean-up chmods through links, never at a fixture.
        let outside = root.file("outside.txt")
        try FileManager.default.copyItem(atPath: Paths.fixture("tiny.txt"), toPath: outside)
        #expect(symlink(outside, path) == 0)
        let error = #expect(throws: PipelineError.self) {
            try Train.run(modelPath: model, output: root.file("out.sqlite"), strict: false, progress: StageProgress(quiet: true))
        }
        let text = error?.description ?? ""
        #expect(text.contains("\(path): corpus \"c\" is a link to a file outside"), "\(text)")
        #expect(!text.contains(Tiny.sha256["tiny.txt"]!))
    }

    @Test("swipe_layouts errors name the model file")
    func swipeLayoutNamesModel() throws {
        let (root, model, _) = try Self.modelFolder(file: "corpora/c.txt", sha256: Tiny.sha256["tiny.txt"]!,
                                                    extra: ", \"swipe_layouts\": [\"dvorak-nope\"]")
        try FileManager.default.copyItem(atPath: Paths.fixture("tiny.txt"), toPath: root.url.appendingPathComponent("Corpora/data/corpora/c.txt").path)
        let error = #expect(throws: PipelineError.self) {
            try Train.run(modelPath: model, output: root.file("out.sqlite"), strict: false, progress: StageProgress(quiet: true))
        }
        #expect(error?.description.hasPrefix("\(model): \"swipe_layouts\" names a layout that cannot be used: ") == true, "\(String(describing: error))")
        #expect(error?.description.contains("dvorak-nope") == true)
    }

    @Test("a NUL inside a wordlist word is an error with file:line")
    func wordlistNUL() throws {
        let dir = try TemporaryFolder()
        let list = dir.file("nul.combined")
        try Data("dictionary=main:x\n word=ab\u{0}cd,f=100\n word=ok,f=90\n".utf8).write(to: URL(fileURLWithPath: list))
        let result = WordlistReader.read(paths: [list])
        #expect(result.errors.map(\.line) == [2])
        #expect(result.errors.first?.description.hasPrefix("\(list):2: error: NUL byte") == true, "\(result.errors)")
    }

    @Test("CoNLL-U: a NUL in a form and a reversed range are errors with file:line")
    func conlluNULAndReversedRange() throws {
        let dir = try TemporaryFolder()
        let file = dir.file("bad.conllu")
        // 200 good sentences first: a NUL in the first 8 KiB makes the whole file "binary".
        let good = String(repeating: "# text = Swim\n1\tSwim\tswim\tVERB\tVB\t_\t0\troot\t_\t_\n\n", count: 200)
        let text = good + "# text = I swim\n1\tI\tI\tPRON\tPRP\t_\t2\tnsubj\t_\t_\n2\tsw\u{0}im\tswim\tVERB\tVB\t_\t0\troot\t_\t_\n\n"
            + "# text = I do\n2-1\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n1\tdo\tdo\tAUX\tVBP\t_\t0\troot\t_\t_\n\n"
        #expect(good.utf8.count > 8192)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let nulLine = 600 + 3, rangeLine = 600 + 6
        let summary = TaggedCorpusReader.read(path: file, format: .conllu) { _, _ in }
        #expect(summary.errors.map(\.line) == [nulLine, rangeLine], "\(summary.errors)")
        #expect(summary.errors.first?.description.contains("\(file):\(nulLine): NUL byte") == true, "\(summary.errors)")
        #expect(summary.errors.last?.description.contains("\(file):\(rangeLine): multiword token range '2-1' is reversed") == true, "\(summary.errors)")
        let problems = try TreebankReader.read(path: file) { _ in }
        #expect(problems.contains { $0.hasPrefix("\(file):\(nulLine): NUL byte") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("\(file):\(rangeLine): bad multiword token range '2-1'") }, "\(problems)")
    }
}
