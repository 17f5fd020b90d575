import Foundation
import LexiforgeClassify
import LexiforgeCorpus
import LexiforgeReader
import LexiforgeStoreWriter

/// `LANG<TAB>sentence` files (optionally gzipped) for language identification.
public enum LangidData {
    /// Reads every line; a line without a tab or with an empty code or sentence is reported as
    /// file:line, all of them, and nothing is returned unless every line is good. Blank lines are skipped.
    public static func read(_ path: String) throws -> (samples: [LanguageSample], summary: CorpusFileSummary, lines: [Int]) {
        var samples: [LanguageSample] = []
        var lines: [Int] = []
        var problems: [String] = []
        var badLines = 0
        var number = 0
        let summary = try CorpusReader.readLines(of: path, options: CorpusReadOptions(stripGutenberg: false)) { line in
            number += 1
            if line.isEmpty { return }
            guard let tab = line.firstIndex(of: 0x09) else {
                badLines += 1
                if problems.count < 10 { problems.append("\(path):\(number): no tab; each line is LANG<TAB>sentence") }
                return
            }
            let code = String(decoding: UnsafeBufferPointer(rebasing: line[..<tab]), as: UTF8.self)
            let text = String(decoding: UnsafeBufferPointer(rebasing: line[(tab + 1)...]), as: UTF8.self)
            guard !code.isEmpty, code.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || ($0 >= 0x41 && $0 <= 0x5A) }) else {
                badLines += 1
                if problems.count < 10 { problems.append("\(path):\(number): language code \"\(code)\" is not letters (an ISO 639 code such as en)") }
                return
            }
            samples.append(LanguageSample(language: code, text: text))
            lines.append(number)
        }
        if badLines > problems.count { problems.append("\(path): \(badLines - problems.count) more bad lines") }
        if !problems.isEmpty { throw PipelineError(problems) }
        return (samples, summary, lines)
    }
}

public struct LangidTrainConfig: Sendable {
    public var inputs: [String]
    public var output: String
    public var options = LanguageIDOptions()
    /// Cross-validation folds to report before training (0: none).
    public var folds = 0
    public var modelName: String?
    /// sha256 the manifest expects per input path (model files).
    public var expectedSHA256: [String: String] = [:]

    public init(inputs: [String], output: String) {
        self.inputs = inputs
        self.output = output
    }
}

public struct LangidTrainReport: Sendable {
    public var sentences: Int
    public var languages: [String]
    public var crossValidation: LanguageIDScore?
    public var trainSeconds: Double
    public var storeBytes: Int

    public func render() -> String {
        var lines: [String] = []
        if let cv = crossValidation {
            lines.append(String(format: "cross-validation: %.2f%% of %d sentences, %.2f%% on their first %d characters",
                                cv.accuracy * 100, cv.sentences, cv.shortAccuracy * 100, LanguageIDScore.shortLength))
        }
        lines.append(String(format: "%d sentences, %d languages (%@); training %.3f s; store %d bytes",
                            sentences, languages.count, languages.joined(separator: " "), trainSeconds, storeBytes))
        return lines.joined(separator: "\n")
    }
}

/// Sentences in, a language-identifier store out: read → (cross-validate) → train → write atomically.
public enum LangidTrain {
    public static func run(_ config: LangidTrainConfig, progress: StageProgress) throws -> LangidTrainReport {
        let file = try AtomicStoreFile.prepare(path: config.output)
        progress.stage(1, of: 3, "Reading sentences")
        var samples: [LanguageSample] = []
        var inputs: [[String: Any]] = []
        var problems: [String] = []
        for path in config.inputs {
            do {
                let (read, summary, _) = try LangidData.read(path)
                problems += ModelBuild.shaMismatches([(path, summary.sha256)], expected: config.expectedSHA256)
                samples += read
                inputs.append(["file": URL(fileURLWithPath: path).lastPathComponent, "sha256": summary.sha256, "bytes": summary.storedBytes])
            } catch let error as PipelineError {
                problems += error.problems
            } catch {
                problems.append("\(error)")
            }
        }
        if problems.isEmpty && Set(samples.map(\.language)).count < 2 {
            problems.append("\(config.inputs.joined(separator: ", ")): sentences of \(Set(samples.map(\.language)).count) language(s); a language identifier needs at least two")
        }
        if !problems.isEmpty { throw PipelineError(problems) }
        var cv: LanguageIDScore?
        if config.folds >= 2 {
            progress.stage(2, of: 3, "Cross-validating (\(config.folds) folds)")
            cv = LanguageIDTrainer.crossValidate(samples, options: config.options, folds: config.folds)
        }
        progress.stage(config.folds >= 2 ? 3 : 2, of: 3, "Training on \(samples.count) sentences")
        let started = Date()
        let model = LanguageIDTrainer.train(samples, options: config.options)
        let trainSeconds = Date().timeIntervalSince(started)
        typealias Key = StoreSchema.MetaKey
        var langid: [String: Any] = ["algorithm": model.algorithm, "max_order": model.features.maxOrder,
                                     "bucket_bits": model.features.bucketBits, "words": model.features.words, "options": config.options.dictionary,
                                     "char_order": LanguageCharModel.order, "char_weight": model.charModel == nil ? 0 : config.options.charWeight,
                                     "char_margin": Double(model.charModel?.margin ?? LanguageCharModel.defaultMargin),
                                     "alphabet_weight": model.alphabets == nil ? 0 : config.options.alphabetWeight,
                                     "sentences": samples.count]
        if let cv { langid["cross_validation"] = ["folds": config.folds, "accuracy": cv.accuracy, "short_accuracy": cv.shortAccuracy] }
        var meta: [String: String] = [
            Key.schemaVersion: String(StoreSchema.version), Key.toolchain: toolchainVersion, Key.order: "1",
            Key.inputs: ClassifyTrain.json(inputs), StoreSchema.ClassifyMetaKey.langid: ClassifyTrain.json(langid),
        ]
        if let name = config.modelName { meta[Key.model] = name }
        meta[Key.created] = StoreProvenance.buildTimestamp()
        try StoreWriter.write(languageID: model, meta: meta, to: file)
        progress.endStage()
        let bytes = (try? FileManager.default.attributesOfItem(atPath: config.output)[.size] as? Int) ?? 0
        return LangidTrainReport(sentences: samples.count, languages: model.languages, crossValidation: cv,
                                 trainSeconds: trainSeconds, storeBytes: bytes)
    }
}

/// `lexiforge eval langid`: accuracy overall, per language and on the first 20 characters, and the confusion matrix.
public struct LangidEvaluation: Sendable {
    public var whole: ConfusionReport
    public var short: ConfusionReport
    /// Sentences per second (whole sentences, one thread), wall clock and per CPU second.
    public var sentencesPerSecond: Double
    public var sentencesPerCPUSecond: Double
    /// The first misclassified sentences, in file order (`--misses`).
    public var misses: [Miss] = []

    /// A sentence read as another language (or as none).
    public struct Miss: Sendable, Equatable {
        public var line: Int
        public var language: String
        public var predicted: String
        public var text: String
        public init(line: Int, language: String, predicted: String, text: String) {
            (self.line, self.language, self.predicted, self.text) = (line, language, predicted, text)
        }
    }

    public func render() -> String {
        misses.map { "  miss: line \($0.line): \($0.language) → \($0.predicted): \($0.text)\n" }.joined()
            + whole.render(title: "accuracy") + "\n" + String(format: "first %d characters: accuracy %.2f%% (%d of %d)",
                                                         LanguageIDScore.shortLength, short.accuracy * 100, short.correct, short.total)
            + "\nper language, first \(LanguageIDScore.shortLength) characters: "
            // Only the languages the file has sentences of (a file of one language lists one).
            + short.labels.indices.filter { short.matrix[$0].reduce(0, +) > 0 }
                .map { String(format: "%@ %.1f%%", short.labels[$0] as NSString, short.recall($0) * 100) }.joined(separator: ", ")
            + String(format: "\nspeed: %.0f sentences/s wall clock, %.0f sentences per CPU second", sentencesPerSecond, sentencesPerCPUSecond)
    }

    public static func run(storePath: String, tsv: String, constraints: [String], timingPasses: Int = 1, misses listed: Int = 0) throws -> LangidEvaluation {
        var recognizer = try LanguageRecognizer(store: TrainedStore(path: storePath))
        try recognizer.setLanguageConstraints(constraints)
        let data = try LangidData.read(tsv)
        let samples = data.samples
        var misses: [Miss] = []
        var labels = recognizer.languages
        for s in samples where !labels.contains(s.language) { labels.append(s.language) }
        labels.append("(none)")
        let id = Dictionary(uniqueKeysWithValues: labels.enumerated().map { ($1, $0) })
        var whole = ConfusionReport(labels: labels), short = ConfusionReport(labels: labels)
        for (n, s) in samples.enumerated() {
            let predicted = recognizer.dominantLanguage(for: s.text) ?? "(none)"
            whole.matrix[id[s.language]!][id[predicted]!] += 1
            if predicted != s.language && misses.count < listed {
                misses.append(Miss(line: data.lines[n], language: s.language, predicted: predicted, text: s.text))
            }
            let head = LanguageIDTrainer.prefix(s.text, characters: LanguageIDScore.shortLength)
            short.matrix[id[s.language]!][id[recognizer.dominantLanguage(for: head) ?? "(none)"]!] += 1
        }
        // Speed: the whole file again, timed, the result checked so it is not optimized away.
        let started = Date(), startedCPU = processCPUSeconds()
        var agree = 0
        for _ in 0..<max(1, timingPasses) {
            for s in samples where recognizer.dominantLanguage(for: s.text) == s.language { agree += 1 }
        }
        let seconds = Date().timeIntervalSince(started), cpu = processCPUSeconds() - startedCPU
        precondition(agree == whole.correct * max(1, timingPasses))
        let n = Double(samples.count * max(1, timingPasses))
        return LangidEvaluation(whole: whole, short: short, sentencesPerSecond: n / max(seconds, 1e-9),
                                sentencesPerCPUSecond: n / max(cpu, 1e-9), misses: misses)
    }
}

/// `lexiforge train` of a model with `langid_training`: a language identifier from those
/// manifest files, with the default options of `lexiforge langid train`.
public enum LangidModelTrain {
    public static func run(_ spec: ModelSpec, inputs: ModelInputs, output: String, progress: StageProgress) throws -> LangidTrainReport {
        var config = LangidTrainConfig(inputs: inputs.langidTraining, output: output)
        config.modelName = spec.name
        config.expectedSHA256 = inputs.expectedSHA256
        let report = try LangidTrain.run(config, progress: progress)
        progress.say(report.render())
        return report
    }
}
