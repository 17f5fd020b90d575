import Foundation
import GRDB
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeTestSupport
import Testing

/// Issue 16, item 1: one model spec for model files and `ngrams` flags, one validate, one build entry.
@Suite("Model spec: one schema, one validate, one build entry")
struct ModelSpecTests {
    func load(_ json: String) throws -> (spec: ModelSpec, warnings: [String], path: String) {
        let dir = try TemporaryFolder()
        let path = dir.file("m.model.json")
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        let (spec, warnings) = try ModelSpec.load(path: path)
        return (spec, warnings, path)
    }

    @Test("a spec written as a model file reads back equal (every key has one name)")
    func roundTrip() throws {
        var spec = ModelSpec()
        spec.name = "m"
        spec.corpora = ["a", "b"]
        spec.order = 4
        spec.keepPunctuation = true
        spec.keepGutenbergBoilerplate = true
        spec.tokenizer = .treebank
        spec.normalization = .nfkc
        spec.wordColumns = true
        spec.lemmaTraining = ["ewt"]
        spec.languageModel = true
        spec.minCount = [1, 2]
        spec.prune = 1e-7
        spec.classes = 16
        spec.classWeight = 0.25
        spec.formRules = 10
        spec.wordlists = ["w"]
        spec.merge.listWeight = 0.7
        spec.swipeLayouts = ["qwerty"]
        spec.hmmStates = 8
        spec.hmmSeed = 3
        #expect(spec.validate().isEmpty, "\(spec.validate())")
        let json = String(decoding: try JSONEncoder().encode(spec), as: UTF8.self)
        let (read, warnings, _) = try load(json)
        #expect(read == spec)
        #expect(warnings.isEmpty)
    }

    @Test("a key's command-line flag is its name with dashes")
    func flagsShareNames() {
        #expect(ModelSpec.Key.replaceInvalidUTF8.flag == "--replace-invalid-utf8")
        #expect(ModelSpec.Key.keepGutenbergBoilerplate.flag == "--keep-gutenberg-boilerplate")
        #expect(ModelSpec.Key.wordColumns.flag == "--word-columns")
    }

    @Test("the old spelling word_classes is read as word_columns with a deprecation warning")
    func deprecatedKey() throws {
        let (spec, warnings, path) = try load(#"{"name": "m", "corpora": ["c"], "word_classes": true}"#)
        #expect(spec.wordColumns)
        #expect(warnings == ["warning: \(path): \"word_classes\" is deprecated; write \"word_columns\" (read as it for this release)"])
    }

    @Test("unknown keys, wrong types and rule violations are all reported, each naming the file and key")
    func everyProblemAtOnce() throws {
        let dir = try TemporaryFolder()
        let path = dir.file("m.model.json")
        try #"{"name": "m", "corpora": ["c"], "oder": 3, "lowercase": "yes", "classes": 8, "order": 9}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: PipelineError.self) { try ModelSpec.load(path: path) }
        let problems = error?.problems ?? []
        #expect(problems.contains { $0.hasPrefix("\(path): unknown key \"oder\"") }, "\(problems)")
        #expect(problems.contains("\(path): \"lowercase\" must be true or false"), "\(problems)")
        #expect(problems.contains("\(path): \"order\" 9 is out of range; use 1 to 5"), "\(problems)")
        #expect(problems.contains { $0.hasPrefix("\(path): \"classes\" builds a class model beside the language model; add \"language_model\": true") },
                "\(problems)")
    }

    @Test("the same rule reads as a flag on the command line and as a key in a model file")
    func renderedBothWays() {
        var spec = ModelSpec()
        spec.corpora = ["c"]
        spec.formRules = 5
        let problem = spec.validate().first
        #expect(problem?.rendered(.commandLine) == "--form-rules gives unseen forms a share of the language model's <unk> probability; add --language-model")
        #expect(problem?.rendered(.modelFile("m.json")) == "m.json: \"form_rules\" gives unseen forms a share of the language model's <unk> probability; add \"language_model\": true")
    }

    @Test("ngrams with flags and train with the same keys build the same tables")
    func ngramsAndTrainAgree() throws {
        let (dir, model, corpus) = try CLITests.modelFolder(
            sha256: Tiny.sha256["tiny.txt"]!, extraModelKey: #", "language_model": true, "keep_punctuation": true, "number_class": true"#)
        let trained = dir.file("train.sqlite"), counted = dir.file("ngrams.sqlite")
        let a = try CLI.run(["train", model, "-o", trained, "--quiet"])
        #expect(a.status == 0, "\(a.stderr)")
        let b = try CLI.run(["ngrams", corpus, "-o", counted, "--order", "2", "--lowercase", "--language-model",
                             "--keep-punctuation", "--number-class", "--quiet"])
        #expect(b.status == 0, "\(b.stderr)")
        func dump(_ path: String) throws -> [String] {
            let queue = try DatabaseQueue(path: path)
            return try queue.read { db in
                var rows: [String] = []
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'meta' ORDER BY name")
                for table in tables {
                    let rowsOfTable = try Row.fetchAll(db, sql: "SELECT * FROM \(StoreSchema.quoted(table))")
                    rows += rowsOfTable.map { "\(table): \($0)" }
                }
                let meta = try Row.fetchAll(db, sql: "SELECT key, value FROM meta WHERE key NOT IN ('model', 'created') ORDER BY key")
                return rows + meta.map { "meta: \($0)" }
            }
        }
        let trainedRows = try dump(trained), countedRows = try dump(counted)
        #expect(trainedRows.count > 10)
        #expect(trainedRows == countedRows)
    }

    @Test("deprecated flags still work and say what to write instead")
    func deprecatedFlags() throws {
        let dir = try TemporaryFolder()
        let result = try CLI.run(["ngrams", Paths.fixture("tiny.txt"), "-o", dir.file("o.sqlite"), "--replace-invalid", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderrLines.contains("warning: --replace-invalid is deprecated; use --replace-invalid-utf8 (accepted for this release)"),
                "\(result.stderr)")
    }
}
