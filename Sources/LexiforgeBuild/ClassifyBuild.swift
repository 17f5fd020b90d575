import Foundation
import LexiforgeClassify
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeText

/// `lexiforge classify train`: what to read, how to train, where to write.
public struct ClassifyTrainConfig: Sendable {
    public var sources: [String]
    public var output: String
    public var options = ClassifierOptions()
    /// Choose the algorithm by cross-validation among nb, logistic and nbsvm.
    public var chooseAlgorithm = false
    /// Folds of the cross-validation that reports accuracy and fits the probability scale (≥ 2).
    public var folds = 10
    public var strict = false
    public var modelName: String?
    /// Where the lemmatizer of lemma features (`options.lemmas`) learns from.
    public var lemmatizer = LemmatizerSource()

    public init(sources: [String], output: String) {
        self.sources = sources
        self.output = output
    }
}

public struct ClassifyTrainReport: Sendable {
    public var documents: Int
    public var labels: [String]
    public var features: Int
    public var storedFeatures: Int
    /// Cross-validated accuracy of each algorithm tried (with `chooseAlgorithm`), then the chosen one.
    public var candidates: [(String, Double)]
    public var options: ClassifierOptions
    public var crossValidation: CrossValidation
    /// Reading and featurizing, and fitting the final model (without cross-validation).
    public var featurizeSeconds: Double
    public var trainSeconds: Double
    public var storeBytes: Int
    public var warnings: [String]

    public func render() -> String {
        var lines: [String] = []
        for (name, accuracy) in candidates { lines.append(String(format: "cross-validation %-9@ %.2f%%", name as NSString, accuracy * 100)) }
        lines.append(String(format: "%d-fold cross-validation accuracy (%@): %.2f%% (folds %@)", crossValidation.folds,
                            options.algorithm.rawValue, crossValidation.accuracy * 100,
                            crossValidation.foldAccuracies.map { String(format: "%.1f", $0 * 100) }.joined(separator: " ")))
        lines.append(String(format: "documents %d, labels %@, features %d (stored %d); features %.3f s, training %.3f s; store %d bytes",
                            documents, labels.joined(separator: " "), features, storedFeatures, featurizeSeconds, trainSeconds, storeBytes))
        return lines.joined(separator: "\n")
    }
}

/// Labeled texts in, a text-classifier store out: read → featurize → cross-validate (choose,
/// report, fit the probability scale) → train on everything → write atomically.
public enum ClassifyTrain {
    public static func run(_ config: ClassifyTrainConfig, progress: StageProgress) throws -> ClassifyTrainReport {
        guard config.folds >= 2 else { throw PipelineError("--folds must be at least 2") }
        let file = try AtomicStoreFile.prepare(path: config.output)
        progress.stage(1, of: 4, "Reading labeled texts")
        let data = try ClassifyData.read(config.sources, strict: config.strict)
        for warning in data.warnings { progress.say("warning: " + warning) }
        let started = Date()
        var lemmas: [String: String] = [:]
        if config.options.lemmas {
            progress.say("Training the lemmatizer")
            lemmas = lemmaTable(data.documents, lowercase: config.options.lowercase, lemmatizer: try LemmatizerBuild.make(config.lemmatizer))
        }
        let corpus = FeaturizedCorpus(data.documents, maxOrder: config.options.maxOrder, lowercase: config.options.lowercase,
                                      negation: config.options.negation, ending: config.options.ending, lemmas: lemmas)
        let featurizeSeconds = Date().timeIntervalSince(started)
        let smallest = corpus.labels.indices.map { l in corpus.documentLabels.filter { $0 == l }.count }.min() ?? 0
        guard smallest >= config.folds else {
            throw PipelineError("\(config.sources.joined(separator: ", ")): a label has only \(smallest) texts, fewer than the \(config.folds) cross-validation folds; give more texts or fewer --folds")
        }
        progress.say("\(corpus.documentCount) texts, labels \(corpus.labels.joined(separator: " ")), \(corpus.features.count) features")
        progress.stage(2, of: 4, "Cross-validating (\(config.folds) folds)")
        var options = config.options
        var candidates: [(String, Double)] = []
        var chosen: CrossValidation?
        if config.chooseAlgorithm {
            var best = -1.0
            for algorithm in ClassifierAlgorithm.allCases {
                var trial = config.options
                trial.algorithm = algorithm
                let cv = ClassifierTrainer.crossValidate(corpus, options: trial, folds: config.folds)
                progress.say(String(format: "%@: %.2f%%", algorithm.rawValue, cv.accuracy * 100))
                candidates.append((algorithm.rawValue, cv.accuracy))
                if cv.accuracy > best { best = cv.accuracy; options = trial; chosen = cv }
            }
        }
        let cv = chosen ?? ClassifierTrainer.crossValidate(corpus, options: options, folds: config.folds)
        progress.say(String(format: "cross-validation accuracy %.2f%%", cv.accuracy * 100))
        progress.stage(3, of: 4, "Training on every text")
        let trainStarted = Date()
        let model = ClassifierTrainer.model(corpus, options: options, calibration: cv)
        let trainSeconds = Date().timeIntervalSince(trainStarted)
        progress.stage(4, of: 4, "Writing the store")
        var meta = provenance(modelName: config.modelName, inputs: data)
        if config.options.lemmas { meta[StoreSchema.MetaKey.lemmatizer] = config.lemmatizer.json }
        meta[StoreSchema.ClassifyMetaKey.classifier] = model.metaJSON(extra: [
            "options": options.dictionary, "documents": corpus.documentCount,
            "cross_validation": ["folds": cv.folds, "accuracy": cv.accuracy],
        ])
        try StoreWriter.write(classifier: model, meta: meta, to: file)
        progress.endStage()
        let bytes = (try? FileManager.default.attributesOfItem(atPath: config.output)[.size] as? Int) ?? 0
        return ClassifyTrainReport(documents: corpus.documentCount, labels: corpus.labels, features: corpus.features.count,
                                   storedFeatures: model.features.count, candidates: candidates, options: options,
                                   crossValidation: cv, featurizeSeconds: featurizeSeconds, trainSeconds: trainSeconds,
                                   storeBytes: bytes, warnings: data.warnings)
    }

    /// The lemma table of lemma features: each token form of `documents` (as featurized) and each
    /// form the lemmatizer learnt, with its tag-free lemma (``Lemmatizer/lemma(of:tag:position:predicted:next:)``)
    /// where that differs. One lemma per form, whatever the sentence, so that a reader, which has
    /// only this table, replaces exactly what training replaced.
    public static func lemmaTable(_ documents: [LabeledDocument], lowercase: Bool, lemmatizer: Lemmatizer) -> [String: String] {
        // Featurized form → the spelling to look up: the form itself, unless only another case of
        // it is one the lemmatizer learnt ("Loved" at a sentence start).
        var lookup: [String: String] = [:]
        for document in documents {
            for token in ClassifierFeatures.tokens(of: document.text, lowercase: lowercase).tokens { lookup[token] = token }
        }
        let known = lemmatizer.knownForms
        let knownSet = Set(known)
        for form in known.sorted() {
            let key = lowercase ? form.lowercased() : form
            if form == key || !(knownSet.contains(lookup[key] ?? "")) { lookup[key] = form }
        }
        var table: [String: String] = [:]
        for (form, spelling) in lookup {
            var lemma = lemmatizer.lemma(of: spelling, tag: nil)
            // An irregular form the treebanks lacked ("sang") keeps itself tag-free; WordNet's
            // exception lists know it: taken when all its parts of speech agree on one base.
            if lemma == spelling, !knownSet.contains(spelling) {
                let bases = Set(WordNet.POS.allCases.flatMap { lemmatizer.wordNet.exceptions[$0.rawValue][spelling.lowercased()] ?? [] })
                if bases.count == 1, let base = bases.first { lemma = base }
            }
            if lowercase { lemma = lemma.lowercased() }
            // A lemma is a token: never empty, never with white space (feature texts join tokens by one space).
            guard lemma != form, !lemma.isEmpty, !lemma.contains(where: \.isWhitespace) else { continue }
            table[form] = lemma
        }
        return table
    }

    /// The common meta rows of classifier and language-ID stores.
    static func provenance(modelName: String?, inputs: ClassifyData) -> [String: String] {
        typealias Key = StoreSchema.MetaKey
        var meta: [String: String] = [
            Key.schemaVersion: String(StoreSchema.version),
            Key.toolchain: toolchainVersion,
            Key.order: "1",
            Key.inputs: json(["files": inputs.inputs.count, "bytes": inputs.inputs.reduce(0) { $0 + $1.bytes },
                              "sha256": inputs.digest, "documents": inputs.documents.count]),
        ]
        if let modelName { meta[Key.model] = modelName }
        meta[Key.created] = StoreProvenance.buildTimestamp()
        return meta
    }

    static func json(_ object: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// Accuracy, per-label precision, recall and F1, and the confusion matrix.
public struct ConfusionReport: Sendable {
    public var labels: [String]
    /// `matrix[gold][predicted]`.
    public var matrix: [[Int]]
    public var seconds = 0.0
    public var cpuSeconds = 0.0

    public init(labels: [String]) {
        self.labels = labels
        matrix = Array(repeating: Array(repeating: 0, count: labels.count), count: labels.count)
    }

    public var total: Int { matrix.reduce(0) { $0 + $1.reduce(0, +) } }
    public var correct: Int { labels.indices.reduce(0) { $0 + matrix[$1][$1] } }
    public var accuracy: Double { total == 0 ? 0 : Double(correct) / Double(total) }

    public func precision(_ l: Int) -> Double {
        let predicted = labels.indices.reduce(0) { $0 + matrix[$1][l] }
        return predicted == 0 ? 0 : Double(matrix[l][l]) / Double(predicted)
    }
    public func recall(_ l: Int) -> Double {
        let gold = matrix[l].reduce(0, +)
        return gold == 0 ? 0 : Double(matrix[l][l]) / Double(gold)
    }
    public func f1(_ l: Int) -> Double {
        let p = precision(l), r = recall(l)
        return p + r == 0 ? 0 : 2 * p * r / (p + r)
    }

    /// The table: accuracy, then per label P/R/F1 and support, then the confusion matrix (rows gold).
    public func render(title: String = "accuracy") -> String {
        var lines = [String(format: "%@ %.2f%% (%d of %d)", title as NSString, accuracy * 100, correct, total)]
        let width = max(6, labels.map(\.count).max() ?? 0)
        func pad(_ s: String) -> String { s.padding(toLength: width, withPad: " ", startingAt: 0) }
        lines.append(pad("label") + "  precision  recall     F1  support")
        for l in labels.indices {
            lines.append(pad(labels[l]) + String(format: "  %8.2f%%  %5.2f%%  %5.2f%%  %7d", precision(l) * 100, recall(l) * 100, f1(l) * 100, matrix[l].reduce(0, +)))
        }
        lines.append("confusion (rows gold, columns predicted):")
        lines.append(pad("") + labels.map { " " + $0.padding(toLength: max(5, $0.count), withPad: " ", startingAt: 0) }.joined())
        for l in labels.indices {
            lines.append(pad(labels[l]) + labels.indices.map { " " + String(matrix[l][$0]).padding(toLength: max(5, labels[$0].count), withPad: " ", startingAt: 0) }.joined())
        }
        return lines.joined(separator: "\n")
    }
}

/// `lexiforge eval classify` and `lexiforge classify STORE FILE...`.
public enum ClassifyEval {
    /// Classifies labeled texts with a store's classifier. Labels the classifier does not know
    /// count as errors (a row of their own in the matrix).
    public static func run(storePath: String, sources: [String], strict: Bool) throws -> ConfusionReport {
        let classifier = try TextClassifier(store: TrainedStore(path: storePath))
        let data = try ClassifyData.read(sources, strict: strict)
        var labels = classifier.labels
        for d in data.documents where !labels.contains(d.label) { labels.append(d.label) }
        let id = Dictionary(uniqueKeysWithValues: labels.enumerated().map { ($1, $0) })
        var report = ConfusionReport(labels: labels)
        let started = Date(), startedCPU = processCPUSeconds()
        for d in data.documents {
            report.matrix[id[d.label]!][id[classifier.predictedLabel(for: d.text)]!] += 1
        }
        report.seconds = Date().timeIntervalSince(started)
        report.cpuSeconds = processCPUSeconds() - startedCPU
        return report
    }

    /// One line per file: path, label, probability of that label.
    public static func classify(storePath: String, files: [String]) throws -> [String] {
        let classifier = try TextClassifier(store: TrainedStore(path: storePath))
        var lines: [String] = [], problems: [String] = []
        var data = ClassifyData()
        for file in files {
            guard let (bytes, _) = data.readFile(file, problems: &problems) else { continue }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                problems.append("\(file): invalid UTF-8 at byte offset \(firstInvalidUTF8(bytes)); convert it to UTF-8")
                continue
            }
            let best = classifier.probabilities(for: text)[0]
            lines.append("\(file)\t\(best.label)\t" + String(format: "%.4f", best.probability))
        }
        if !problems.isEmpty { throw PipelineError(problems) }
        return lines
    }
}
