import Foundation
import GRDB
import LexiforgeClassify
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeTestSupport
import Testing

@Suite("Text classifiers and language identification")
struct ClassifyTests {
    /// The four-document example of Manning, Raghavan & Schütze, "Introduction to Information
    /// Retrieval", §13.2 (multinomial naive Bayes, add-one smoothing), worked by hand:
    /// V = {chinese, beijing, shanghai, macao, tokyo, japan} (6 words). Class c has 8 tokens,
    /// 5 of them "chinese"; class j has 3 tokens, 1 "chinese", 1 "tokyo", 1 "japan".
    /// P(chinese|c) = (5+1)/(8+6) = 3/7; P(tokyo|c) = P(japan|c) = 1/14;
    /// P(chinese|j) = P(tokyo|j) = P(japan|j) = (1+1)/(3+6) = 2/9; P(c) = 3/4, P(j) = 1/4.
    /// Test text "Chinese Chinese Chinese Tokyo Japan": P(c|d) ∝ 3/4 · (3/7)³ · (1/14)² ≈ 3.012e-4,
    /// P(j|d) ∝ 1/4 · (2/9)³ · (2/9)² ≈ 1.355e-4, so P(c|d) = 0.68975 and P(j|d) = 0.31025.
    static let fourDocuments = [
        LabeledDocument(text: "Chinese Beijing Chinese", label: "c", source: "d1"),
        LabeledDocument(text: "Chinese Chinese Shanghai", label: "c", source: "d2"),
        LabeledDocument(text: "Chinese Macao", label: "c", source: "d3"),
        LabeledDocument(text: "Tokyo Japan Chinese", label: "j", source: "d4"),
    ]

    static var naiveBayesCounts: ClassifierOptions {
        var options = ClassifierOptions()
        options.algorithm = .nb
        options.maxOrder = 1
        options.binary = false
        options.alpha = 1
        options.keepMinDocuments = 1
        return options
    }

    static func fourDocumentModel() -> TextClassifierModel {
        let corpus = FeaturizedCorpus(fourDocuments, maxOrder: 1, lowercase: true)
        return ClassifierTrainer.model(corpus, options: naiveBayesCounts, calibration: nil)
    }

    @Test("naive Bayes on the four-document corpus: the probabilities worked out by hand")
    func naiveBayesByHand() throws {
        let model = Self.fourDocumentModel()
        #expect(model.labels == ["c", "j"])
        #expect(model.features == ["beijing", "chinese", "japan", "macao", "shanghai", "tokyo"])
        let chinese = model.features.firstIndex(of: "chinese")!
        #expect(abs(model.weights[chinese * 2] - log(3.0 / 7)) < 1e-12)
        #expect(abs(model.weights[chinese * 2 + 1] - log(2.0 / 9)) < 1e-12)
        #expect(abs(model.bias[0] - log(0.75)) < 1e-12)
        let p = TextClassifier(model: model).probabilities(for: "Chinese Chinese Chinese Tokyo Japan")
        let c = 0.75 * pow(3.0 / 7, 3) * pow(1.0 / 14, 2), j = 0.25 * pow(2.0 / 9, 5)
        #expect(p[0].label == "c")
        #expect(abs(p[0].probability - c / (c + j)) < 1e-9)
        #expect(abs(p[0].probability - 0.68975) < 1e-4)
        #expect(abs(p[1].probability - 0.31025) < 1e-4)
    }

    @Test("classifier store round trip: same labels, features, weights (to the stored unit) and probabilities")
    func classifierRoundTrip() throws {
        let folder = try TemporaryFolder()
        let model = Self.fourDocumentModel()
        let path = folder.file("nb.sqlite")
        try StoreWriter.write(classifier: model, meta: ["classifier": model.metaJSON()], to: AtomicStoreFile.prepare(path: path))
        let read = try TrainedStore(path: path).textClassifierModel()
        #expect(read.labels == model.labels && read.features == model.features && read.labelDocuments == [3, 1])
        #expect(zip(read.weights, model.weights).allSatisfy { abs($0 - $1) <= 0.5 / StoreSchema.classifierWeightScale })
        let direct = try TextClassifier(store: TrainedStore(path: path))
        let p = direct.probabilities(for: "Chinese Chinese Chinese Tokyo Japan")
        #expect(abs(p[0].probability - 0.68975) < 1e-3)
        // Read straight into its hash table, the classifier scores exactly as one built from the read model.
        let viaModel = TextClassifier(model: read)
        for text in ["Chinese Chinese Chinese Tokyo Japan", "Macao", "nothing known", ""] {
            #expect(direct.scores(for: text) == viaModel.scores(for: text), "\(text)")
        }
        #expect(direct.settings.features.isEmpty && direct.settings.probabilityScale == model.probabilityScale)
        // Damage: a weight of a feature that is not there.
        try DatabaseQueue(path: path).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "INSERT INTO classifier_weight(feature, label, weight) VALUES (99, 0, 1)")
        }
        let error = #expect(throws: (any Error).self) { try TextClassifier(store: TrainedStore(path: path)) }
        #expect("\(error!)".contains("classifier_weight"))
    }

    @Test("feature hashes are the same from tokens and from stored feature text")
    func featureHashes() {
        let hashes = ClassifierFeatures.tokenHashes(of: "Not GOOD, Café!", lowercase: true).hashes
        let tokens = ClassifierFeatures.tokens(of: "Not GOOD, Café!", lowercase: true).tokens
        #expect(tokens == ["not", "good", ",", "café", "!"])
        #expect(hashes == tokens.map { ClassifierFeatures.hash(token: $0) })
        #expect(ClassifierFeatures.hash(ngram: hashes[0..<2]) == ClassifierFeatures.hash(ofFeatureText: "not good"))
    }

    @Test("training on the review fixture is deterministic: byte-identical stores", arguments: ["nb", "logistic", "nbsvm"])
    func deterministic(algorithm: String) throws {
        let folder = try TemporaryFolder()
        var paths: [String] = []
        for name in ["a.sqlite", "b.sqlite"] {
            var config = ClassifyTrainConfig(sources: [Paths.fixture("classify/reviews")], output: folder.file(name))
            config.options.algorithm = ClassifierAlgorithm(rawValue: algorithm)!
            config.folds = 3
            _ = try ClassifyTrain.run(config, progress: StageProgress(quiet: true))
            paths.append(config.output)
        }
        let a = try Data(contentsOf: URL(fileURLWithPath: paths[0])), b = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
        #expect(a == b)
        let classifier = try TextClassifier(store: TrainedStore(path: paths[0]))
        #expect(classifier.predictedLabel(for: "a wonderful , great film") == "pos")
        #expect(classifier.predictedLabel(for: "a boring , bad film") == "neg")
        let p = classifier.probabilities(for: "a boring , bad film")
        #expect(abs(p.reduce(0) { $0 + $1.probability } - 1) < 1e-9)
    }

    @Test("JSON Lines and CSV sources read the same documents as labeled folders would")
    func jsonlAndCSV() throws {
        let folder = try TemporaryFolder()
        try "{\"text\": \"good film\", \"label\": \"pos\"}\n{\"text\": \"bad film\", \"label\": \"neg\"}\n".write(toFile: folder.file("a.jsonl"), atomically: true, encoding: .utf8)
        try "label,text\npos,\"good, \"\"fine\"\" film\"\nneg,\"bad\nfilm\"\n".write(toFile: folder.file("a.csv"), atomically: true, encoding: .utf8)
        let jsonl = try ClassifyData.read([folder.file("a.jsonl")], strict: true).documents
        #expect(jsonl.map(\.label) == ["pos", "neg"] && jsonl[0].text == "good film")
        let csv = try ClassifyData.read([folder.file("a.csv")], strict: true).documents
        #expect(csv.map(\.text) == ["good, \"fine\" film", "bad\nfilm"] && csv.map(\.label) == ["pos", "neg"])
    }

    struct BadSource: Sendable, CustomTestStringConvertible {
        var id: String
        var files: [String: [UInt8]]
        var strict: Bool
        var message: String
        var testDescription: String { id }
    }

    @Test("bad classifier input: one clear message, nothing written", arguments: [
        BadSource(id: "empty-folder", files: [:], strict: false, message: "no label folders inside"),
        BadSource(id: "empty-label", files: ["pos/a.txt": Array("good".utf8), "neg/.keep": []], strict: false, message: "holds no readable text files"),
        BadSource(id: "one-label", files: ["pos/a.txt": Array("good".utf8), "pos/b.txt": Array("fine".utf8)], strict: false, message: "only one label (pos)"),
        BadSource(id: "latin1-strict", files: ["pos/a.txt": Array("good".utf8), "neg/b.txt": [0x62, 0xE9, 0x61], "neg/c.txt": Array("bad".utf8)],
                  strict: true, message: "neg/b.txt: invalid UTF-8 at byte offset 1"),
        BadSource(id: "bad-jsonl", files: ["x.jsonl": Array("{\"text\": \"a\", \"label\": \"b\"}\n{\"text\": 3}\n".utf8)], strict: false, message: "x.jsonl:2: not a JSON object"),
    ])
    func badInput(_ bad: BadSource) throws {
        let folder = try TemporaryFolder()
        let root = folder.file("data")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for (name, bytes) in bad.files {
            let path = root + "/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        let source = bad.files.keys.first { $0.hasSuffix(".jsonl") }.map { root + "/" + $0 } ?? root
        var config = ClassifyTrainConfig(sources: [source], output: folder.file("out.sqlite"))
        config.strict = bad.strict
        config.folds = 2
        let error = #expect(throws: PipelineError.self) { try ClassifyTrain.run(config, progress: StageProgress(quiet: true)) }
        #expect(error?.description.contains(bad.message) == true, "\(error?.description ?? "")")
        #expect(!FileManager.default.fileExists(atPath: config.output))
    }

    @Test("a non-UTF-8 file is named and skipped without --strict")
    func skippedFile() throws {
        let folder = try TemporaryFolder()
        for (name, bytes) in ["pos/a.txt": Array("good".utf8), "pos/b.txt": Array("fine".utf8), "neg/c.txt": [0x62, 0xE9, 0x61] as [UInt8],
                              "neg/d.txt": Array("bad".utf8), "neg/e.txt": Array("awful".utf8)] {
            let path = folder.file("data/" + name)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        let data = try ClassifyData.read([folder.file("data")], strict: false)
        #expect(data.documents.count == 4)
        #expect(data.warnings.count == 1 && data.warnings[0].contains("neg/c.txt: invalid UTF-8 at byte offset 1; skipped"))
    }

    // MARK: - Language identification

    static func tinyLanguageModel() throws -> LanguageIDModel {
        let samples = try LangidData.read(Paths.fixture("classify/langid-tiny.tsv")).samples
        var options = LanguageIDOptions()
        options.bucketBits = 12
        options.epochs = 20
        return LanguageIDTrainer.train(samples, options: options)
    }

    /// The tiny model written as `langid.sqlite` in `folder`; its path.
    static func tinyLanguageStore(in folder: TemporaryFolder) throws -> String {
        let path = folder.file("langid.sqlite")
        try StoreWriter.write(languageID: try tinyLanguageModel(), meta: ["langid": "{\"max_order\":5,\"bucket_bits\":12,\"words\":true}"],
                              to: AtomicStoreFile.prepare(path: path))
        return path
    }

    @Test("language-ID store round trip: the reader gets the quantized model back, and the same answers")
    func langidRoundTrip() throws {
        let folder = try TemporaryFolder()
        let model = try Self.tinyLanguageModel()
        let path = folder.file("langid.sqlite")
        try StoreWriter.write(languageID: model, meta: ["langid": "{\"max_order\":5,\"bucket_bits\":12,\"words\":true,\"algorithm\":\"logistic\",\"char_weight\":0.2,\"char_margin\":4,\"alphabet_weight\":1}"],
                              to: AtomicStoreFile.prepare(path: path))
        let read = try TrainedStore(path: path).languageIDModel()
        #expect(read == model.quantized())
        var recognizer = try LanguageRecognizer(store: TrainedStore(path: path))
        #expect(recognizer.languages == ["en", "fr"])
        #expect(recognizer.dominantLanguage(for: "the cat is on the mat") == "en")
        #expect(recognizer.dominantLanguage(for: "le chat est sur le tapis") == "fr")
        #expect(recognizer.dominantLanguage(for: "  12 !") == "en" || recognizer.dominantLanguage(for: "  12 !") == "fr")
        #expect(recognizer.dominantLanguage(for: " ?! ") == nil)
        let h = recognizer.hypotheses(for: "le chat", maximum: 5)
        #expect(h.count == 2 && h[0].language == "fr" && abs(h[0].probability + h[1].probability - 1) < 1e-9)
        try recognizer.setLanguageConstraints(["en"])
        #expect(recognizer.dominantLanguage(for: "le chat est sur le tapis") == "en")
        #expect(recognizer.hypotheses(for: "le chat", maximum: 5).map(\.language) == ["en"])
        try recognizer.setLanguageConstraints([])
        try recognizer.setLanguageHints(["en": 0.999999])
        let hinted = recognizer.hypotheses(for: "le", maximum: 2)
        let plain = try LanguageRecognizer(store: TrainedStore(path: path)).hypotheses(for: "le", maximum: 2)
        #expect(hinted.first { $0.language == "en" }!.probability > plain.first { $0.language == "en" }!.probability)
    }

    /// A copy of the store at `path` (`damaged.sqlite` in `folder`, replacing an earlier one)
    /// with `damage` run on it, CHECK constraints and foreign keys off; its path.
    static func damagedCopy(of path: String, in folder: TemporaryFolder, _ damage: String) throws -> String {
        let copy = folder.file("damaged.sqlite")
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try DatabaseQueue(path: copy).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON; PRAGMA foreign_keys = OFF")
            try db.execute(sql: damage)
        }
        return copy
    }

    @Test("language-ID store: a damaged script row is an error naming the table, never a crash")
    func langidDamagedScripts() throws {
        let folder = try TemporaryFolder()
        let path = try Self.tinyLanguageStore(in: folder)
        for damage in ["UPDATE langid_script SET pattern = 'Latn+Tlhn'", "UPDATE langid_script SET language = 7 WHERE language = 0",
                       "UPDATE langid_script SET pattern = 'Latn+Hani'"] {
            let copy = try Self.damagedCopy(of: path, in: folder, damage)
            if damage.hasSuffix("'Latn+Hani'") {
                #expect(try TrainedStore(path: copy).languageIDModel().scripts.keys.map(WritingSystems.name) == ["Latn+Hani"])
                continue
            }
            let error = #expect(throws: (any Error).self) { try TrainedStore(path: copy).languageIDModel() }
            #expect("\(error!)".contains("langid_script"), "\(damage): \(error!)")
        }
    }

    @Test("language ID: an unknown language code in constraints or hints is an error naming the known ones")
    func unknownLanguage() throws {
        var recognizer = LanguageRecognizer(model: try Self.tinyLanguageModel())
        let error = #expect(throws: ClassifyStoreError.self) { try recognizer.setLanguageConstraints(["en", "xx"]) }
        #expect(error?.description == "language \"xx\" is not one the identifier knows; use one of en fr")
        #expect(throws: ClassifyStoreError.self) { try recognizer.setLanguageHints(["de": 0.5]) }
        #expect(throws: LanguageHintError.self) { try recognizer.setLanguageHints(["en": 1.5]) }
    }

    @Test("eval langid --misses lists the misread sentences with their file line (blank lines counted)")
    func langidMisses() throws {
        let folder = try TemporaryFolder()
        let path = try Self.tinyLanguageStore(in: folder)
        // Line 3 is French labelled English, line 4 has no letters (read as no language).
        let tsv = folder.file("dev.tsv")
        try "en\tthe cat is on the mat\n\nen\tle chat est sur le tapis\nfr\t?!\nfr\tle chat\n".write(toFile: tsv, atomically: true, encoding: .utf8)
        let all = try LangidEvaluation.run(storePath: path, tsv: tsv, constraints: [], misses: 10)
        #expect(all.misses == [.init(line: 3, language: "en", predicted: "fr", text: "le chat est sur le tapis"),
                               .init(line: 4, language: "fr", predicted: "(none)", text: "?!")])
        #expect(all.render().hasPrefix("  miss: line 3: en → fr: le chat est sur le tapis\n  miss: line 4: fr → (none): ?!\n"))
        #expect(try LangidEvaluation.run(storePath: path, tsv: tsv, constraints: [], misses: 1).misses.count == 1)
        #expect(try LangidEvaluation.run(storePath: path, tsv: tsv, constraints: []).misses.isEmpty)
    }

    @Test("eval langid: the per-language line on short inputs names only the languages the file has sentences of")
    func langidShortLinePresentLanguages() throws {
        let folder = try TemporaryFolder()
        let path = try Self.tinyLanguageStore(in: folder)
        let tsv = folder.file("english.tsv")
        try "en\tthe cat is on the mat\nen\tthe dog is in the house\n".write(toFile: tsv, atomically: true, encoding: .utf8)
        let line = try LangidEvaluation.run(storePath: path, tsv: tsv, constraints: []).render()
            .split(separator: "\n").first { $0.hasPrefix("per language, first") }
        // The store knows en and fr; an English-only file lists en alone (no "fr 0.0%" for no sentences).
        #expect(line == "per language, first 20 characters: en 100.0%")
    }

    // MARK: - Character trigram models

    /// Two languages, one text each: "aa" and "bb" (hand-checked below).
    static let twoTexts = LanguageCharModel.train([["aa"], ["bb"]], weight: 1, margin: .infinity)

    @Test("character models: Witten-Bell probabilities worked out by hand")
    func charModelByHand() throws {
        // "aa" is read as space, a, a, space after two U+0002: trigrams (2 2 ␣) (2 ␣ a) (␣ a a) (a a ␣).
        // Language 0: n(·) = 4 characters of T(·) = 2 kinds, so p(a) = (2 + 2 · 1/1003) / (4 + 2);
        // after "a" (n 2, T 2: a and space) p(a | a) = (1 + 2 p(a)) / 4; after "␣a" (n 1, T 1)
        // p(a | ␣a) = (1 + p(a | a)) / 2.
        let m = Self.twoTexts
        let pa = (2 + 2.0 / 1003) / 6, paa = (1 + 2 * pa) / 4, pspaa = (1 + paa) / 2
        let space: UInt32 = 32, a: UInt32 = 97
        #expect(abs(Double(m.grams[[a]]![0]) - log(pa)) < 1e-6)
        #expect(abs(Double(m.grams[[a, a]]![0]) - log(paa)) < 1e-6)
        #expect(abs(Double(m.grams[[space, a, a]]![0]) - log(pspaa)) < 1e-6)
        // Language 1 never saw "a": every level backs off to its share of the uniform bottom,
        // 2 kinds of 4 characters times 1 / (2 + 1 + 1000).
        #expect(abs(Double(m.grams[[space, a, a]]![1]) - log(2.0 / 6 / 1003)) < 1e-6)
        #expect(abs(Double(m.grams[[]]![0]) - log(2.0 / 6 / 1003)) < 1e-6)
        // Backoff weights: after "a" language 0 saw 2 tokens of 2 kinds, T / (n + T) = 1/2; language 1 none (0).
        #expect(abs(Double(m.contexts[[a]]![0]) - log(0.5)) < 1e-6)
        #expect(m.contexts[[a]]![1] == 0)
        #expect(m.logLikelihood(of: "aa")[0] > m.logLikelihood(of: "aa")[1])
        #expect(m.logLikelihood(of: "bb")[1] > m.logLikelihood(of: "bb")[0])
    }

    @Test("character models: the recognizer's hashed scorer adds what the tables give, backoffs and unseen characters included")
    func charModelScorer() throws {
        var plain = try Self.tinyLanguageModel().quantized()
        plain.charModel = nil
        var with = plain
        with.charModel = LanguageCharModel.train([["the cat is on the mat"], ["le chat est sur le tapis"]], weight: 1, margin: .infinity).quantized()
        let a = LanguageRecognizer(model: plain), b = LanguageRecognizer(model: with)
        for text in ["the cat", "le chat", "zzq xw", "Ünïcödé 42", "猫 the", ""] {
            let expected = with.charModel!.logLikelihood(of: text)
            let got = zip(b.scores(for: text), a.scores(for: text)).map { Double($0 - $1) }
            #expect(zip(got, expected).allSatisfy { abs($0 - $1) < 1e-3 * max(1, abs($1)) }, "\(text): \(got) against \(expected)")
        }
        // A margin of 0 never consults them.
        var never = with
        never.charModel!.margin = 0
        #expect(LanguageRecognizer(model: never).scores(for: "the cat") == a.scores(for: "the cat"))
    }

    @Test("character models: store round trip, and a store without them reads as before")
    func charModelRoundTrip() throws {
        let folder = try TemporaryFolder()
        var model = try Self.tinyLanguageModel()
        model.charModel = LanguageCharModel.train([["the cat is on the mat"], ["le chat est sur le tapis"]], weight: 0.2, margin: 3)
        let path = folder.file("langid.sqlite")
        try StoreWriter.write(languageID: model, meta: ["langid": "{\"max_order\":5,\"bucket_bits\":12,\"words\":true,\"algorithm\":\"logistic\",\"char_weight\":0.2,\"char_margin\":3,\"alphabet_weight\":1}"],
                              to: AtomicStoreFile.prepare(path: path))
        let read = try TrainedStore(path: path).languageIDModel(), expected = model.quantized()
        #expect(read.charModel?.weight == 0.2 && read.charModel?.margin == 3)
        #expect(read.charModel?.grams == expected.charModel?.grams)
        #expect(read.charModel?.contexts == expected.charModel?.contexts)
        #expect(read == expected)
        // The recognizer read straight from the store (Int16 weights, the scorer built row by
        // row) scores exactly as one built from the model.
        let direct = try LanguageRecognizer(store: TrainedStore(path: path)), viaModel = LanguageRecognizer(model: expected)
        for text in ["the cat", "le chat", "zzq xw", "Ünïcödé 42", "猫 the", ""] {
            #expect(direct.scores(for: text) == viaModel.scores(for: text), "\(text)")
        }
        // A store without them (from before them) reads as before.
        let other = try TemporaryFolder()
        let old = try Self.tinyLanguageStore(in: other)
        #expect(try TrainedStore(path: old).languageIDModel().charModel == nil)
        // Damage: a blob of the wrong size is an error naming the table.
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "UPDATE langid_char SET logprobs = x'0102' WHERE gram = 'a' AND backoff = 0") }
        let error = #expect(throws: (any Error).self) { try TrainedStore(path: path).languageIDModel() }
        #expect("\(error!)".contains("langid_char"))
        #expect(throws: (any Error).self) { try LanguageRecognizer(store: TrainedStore(path: path)) }
        // Without the row of an unseen character the scorer is incomplete: damage, both ways.
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE langid_char SET logprobs = x'\(String(repeating: "00", count: 4))' WHERE gram = 'a' AND backoff = 0")
            try db.execute(sql: "DELETE FROM langid_char WHERE gram = '' AND backoff = 0")
        }
        for attempt in [{ _ = try TrainedStore(path: path).languageIDModel() }, { _ = try LanguageRecognizer(store: TrainedStore(path: path)) }] {
            let missing = #expect(throws: (any Error).self) { try attempt() }
            #expect("\(missing!)".contains("no row for an unseen character"))
        }
    }

    @Test("language-ID training is deterministic")
    func langidDeterministic() throws {
        #expect(try Self.tinyLanguageModel() == Self.tinyLanguageModel())
    }

    @Test("a TSV line without a tab is reported as file:line, every one, and no store is written")
    func badTSV() throws {
        let folder = try TemporaryFolder()
        let config = LangidTrainConfig(inputs: [Paths.fixture("classify/langid-bad.tsv")], output: folder.file("x.sqlite"))
        let error = #expect(throws: PipelineError.self) { try LangidTrain.run(config, progress: StageProgress(quiet: true)) }
        let path = Paths.fixture("classify/langid-bad.tsv")
        #expect(error?.problems == ["\(path):2: no tab; each line is LANG<TAB>sentence", "\(path):5: no tab; each line is LANG<TAB>sentence"])
        #expect(try folder.contents().isEmpty)
    }

    @Test("script patterns: the scripts making 30% of a text's letters, kana counted as Han, names round trip")
    func scriptPatterns() {
        let latin = WritingSystems.pattern(named: "Latn")!, han = WritingSystems.pattern(named: "Hani")!
        let hangul = WritingSystems.pattern(named: "Hang")!
        #expect(WritingSystems.pattern(of: "The cat, née Ça.") == latin)
        #expect(WritingSystems.pattern(of: "設立は1965年。") == han)           // 3 Han + 1 kana: one script
        #expect(WritingSystems.pattern(of: "華山松（學名：Pinus armandii），是一種松科植物。") == han | latin)   // 11 Han of 24 letters
        #expect(WritingSystems.pattern(of: "華山松（學名：Pinus armandii）") == latin)   // 5 Han of 18 letters: under 30%
        #expect(WritingSystems.pattern(of: "걸즈 힙합 You Tube") == latin | hangul)
        #expect(WritingSystems.pattern(of: "Москва is big and old and far") == latin)   // 6 Cyrillic of 23 letters: under 30%
        #expect(WritingSystems.pattern(of: "12 !?") == 0)
        #expect(WritingSystems.name(han | latin) == "Latn+Hani")
        #expect(WritingSystems.pattern(named: "Latn+Hani") == han | latin)
        #expect(WritingSystems.pattern(named: "Latn+Kana") == nil && WritingSystems.pattern(named: "") == nil)
        // The named indices are those of the codes.
        #expect([WritingSystems.latin, WritingSystems.devanagari, WritingSystems.thai, WritingSystems.han, WritingSystems.hangul]
                    .map { WritingSystems.codes[$0] } == ["Latn", "Deva", "Thai", "Hani", "Hang"])
    }

    @Test("script evidence: equal n-gram scores are decided by log P(pattern | language), smoothed; none for an unseen pattern")
    func scriptEvidence() throws {
        let features = LanguageIDFeatures(maxOrder: 2, bucketBits: 12)
        let latin = WritingSystems.pattern(named: "Latn")!, hangul = WritingSystems.pattern(named: "Hang")!
        // Two languages whose n-gram weights are all 0: only the script evidence separates them.
        let model = LanguageIDModel(languages: ["fr", "ko"], sentences: [100, 100], bias: [0, 0],
                                    weights: [Float](repeating: 0, count: features.buckets * 2), features: features, algorithm: "test",
                                    scripts: [latin: [100, 2], hangul: [0, 98]])
        let recognizer = LanguageRecognizer(model: model)
        #expect(recognizer.dominantLanguage(for: "C.") == "fr")
        #expect(recognizer.dominantLanguage(for: "한국어") == "ko")
        // P(Latn | ko) = (2 + 0.5) / (100 + 0.5 · 3), P(Latn | fr) = (100 + 0.5) / (100 + 0.5 · 3): worked out by hand.
        let p = recognizer.hypotheses(for: "C.", maximum: 2)
        #expect(abs(p[0].probability - 100.5 / 103) < 1e-6 && p[1].language == "ko")
        // Greek was in no training sentence: no evidence, a tie broken by id.
        #expect(recognizer.hypotheses(for: "αβγ", maximum: 2).map(\.probability) == [0.5, 0.5])
        // Without script counts (a store from before them) the scripts weigh nothing.
        var plain = model
        plain.scripts = [:]
        #expect(LanguageRecognizer(model: plain).hypotheses(for: "한국어", maximum: 2).map(\.probability) == [0.5, 0.5])
    }

    @Test("character n-gram buckets: case folded, whitespace runs as one space, every order")
    func buckets() {
        let features = LanguageIDFeatures(maxOrder: 3, bucketBits: 16, words: false)
        var a: [Int] = [], b: [Int] = []
        features.forEachBucket(of: "Ab  ÇД") { a.append($0) }
        features.forEachBucket(of: "ab çд") { b.append($0) }
        #expect(a == b)
        // " ab çд " is 7 scalars: 1 + 2 + 3·5 n-grams of orders 1-3.
        #expect(a.count == 1 + 2 + 3 * 5)
        var withWords: [Int] = []
        LanguageIDFeatures(maxOrder: 3, bucketBits: 16, words: true).forEachBucket(of: "ab çд") { withWords.append($0) }
        #expect(withWords.count == a.count + 2)
        #expect(a.allSatisfy { (0..<(1 << 16)).contains($0) })
    }
}

@Suite("Classifiers on ../shared/data", .enabled(if: Paths.sharedDataAvailable, "../shared/data absent"))
struct ClassifySharedDataTests {
    @Test("langid dev: 4,800 sentences of 16 languages read without a problem")
    func langidDev() throws {
        let samples = try LangidData.read(Paths.sharedData.appendingPathComponent("langid/langid-dev.tsv.gz").path).samples
        #expect(samples.count == 4800)
        #expect(Set(samples.map(\.language)).count == 16)
    }
}
