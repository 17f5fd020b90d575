import ArgumentParser
import Foundation
import LexiforgeClassify
import LexiforgeBuild
import LexiforgeEvaluation

/// `lexiforge classify`: train a text classifier, or classify files with one.
struct Classify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Classify text files with a classifier store (label and probability), or train one (`classify train`).",
        discussion: """
            Prints one line per file: the file, the most probable label and its probability.
            Example:
              lexiforge classify train polarity-train/ -o Artifacts/sentiment.sqlite
              lexiforge classify Artifacts/sentiment.sqlite review1.txt review2.txt
            """,
        subcommands: [ClassifyTrainCommand.self, ClassifyFiles.self],
        defaultSubcommand: ClassifyFiles.self)
}

struct ClassifyFiles: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "files", abstract: "Print the label and probability of each file (the default subcommand).")

    @Argument(help: "The classifier store.")
    var store: String

    @Argument(help: "Text files (UTF-8, optionally gzipped), one document each.")
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one text file to classify") }
    }

    func run() throws {
        try runReportingErrors {
            for line in try ClassifyEval.classify(storePath: store, files: files) { print(line) }
        }
    }
}

struct ClassifyTrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a text classifier from labeled texts into a store.",
        discussion: """
            A source is a folder of label folders (one text per file; Create ML's labeled \
            directories), a JSON Lines file ({"text": ..., "label": ...} per line) or a CSV file \
            with text and label columns. Features are word n-grams of our tokenizer's lowercased \
            tokens. Cross-validation (--folds) reports the accuracy and fits the probability scale; \
            --algorithm auto picks the algorithm by it. Unreadable or non-UTF-8 files are named and \
            skipped (errors with --strict).
            Example:
              lexiforge classify train ../shared/data/sentiment/polarity-train -o Artifacts/sentiment.sqlite
            """)

    @Argument(help: "Labeled folders, .jsonl or .csv files.")
    var sources: [String]

    @Option(name: .shortAndLong, help: "The store to write.")
    var output: String

    @Option(help: "nb (multinomial naive Bayes), logistic (logistic regression), nbsvm (NB-SVM), or auto (the best by cross-validation).")
    var algorithm = "nbsvm"

    @Option(help: "Longest word n-gram.")
    var order = 2

    @Option(help: "Cross-validation folds.")
    var folds = 10

    @Flag(help: "Count features instead of marking presence.")
    var counts = false

    @Flag(help: "Scale each text's feature vector to unit length.")
    var normalize = false

    @Flag(inversion: .prefixedNo, help: "Mark the words after a negation (not, never, n't ...) up to the next punctuation: \"not ¬good\".")
    var negation = true

    @Option(help: "Also count the n-grams of the last N lines as features of their own (0: off).")
    var ending = 15

    @Flag(help: "Keep case (default: lowercase tokens).")
    var keepCase = false

    @Flag(help: "Features are n-grams of lemmas (\"loved\" → \"love\"): the lemmatizer learnt from --lemma-training and WordNet.")
    var lemmas = false

    @OptionGroup var lemmaTraining: LemmaTrainingFlags

    @Option(help: "WordNet dictionary folder (Debian wordnet-base), for --lemmas.")
    var wordnet = "/usr/share/wordnet"

    @Option(help: "Naive Bayes smoothing α (also of NB-SVM's log-count ratios).")
    var alpha = 2.0

    @Option(help: "NB-SVM: SVM cost C.")
    var cost = 0.2

    @Option(help: "NB-SVM: interpolation β between scaled naive Bayes (0) and the SVM (1).")
    var beta = 0.25

    @Option(help: "Logistic regression: passes over the data; NB-SVM: a third of the most coordinate-descent passes.")
    var epochs = 30

    @Option(help: "Train only on features in at least this many training texts.")
    var minDocuments = 1

    @Option(help: "Store only features in at least this many training texts (pruned after training; cross-validation measures the pruned model).")
    var keepMinDocuments = 2

    @OptionGroup var build: BuildOptions

    func validate() throws {
        if algorithm != "auto" && ClassifierAlgorithm(rawValue: algorithm) == nil {
            throw ValidationError("--algorithm \(algorithm) is unknown; use nb, logistic, nbsvm or auto")
        }
        if !(1...5).contains(order) { throw ValidationError("--order must be 1 to 5") }
        if folds < 2 { throw ValidationError("--folds must be at least 2") }
        if !(alpha > 0) || !(cost > 0) || !(0...1).contains(beta) { throw ValidationError("--alpha and --cost must be positive and --beta in 0...1") }
        if !lemmas && !(lemmaTraining.lemmaTraining + lemmaTraining.deprecatedLemmaTrain).isEmpty {
            throw ValidationError("--lemma-training teaches the lemmatizer of --lemmas; add --lemmas, or leave it out")
        }
        if ending < 0 { throw ValidationError("--ending takes a number of lines, 0 (off) or more") }
        if epochs < 1 || minDocuments < 1 || keepMinDocuments < 1 { throw ValidationError("--epochs and --min-documents must be at least 1") }
    }

    func run() throws {
        try runReportingErrors {
            let progress = StageProgress(quiet: build.quiet)
            var config = ClassifyTrainConfig(sources: sources, output: output)
            config.chooseAlgorithm = algorithm == "auto"
            config.options.algorithm = ClassifierAlgorithm(rawValue: algorithm) ?? .nbsvm
            config.options.maxOrder = order
            config.options.binary = !counts
            config.options.normalize = normalize
            config.options.lowercase = !keepCase
            config.options.negation = negation
            config.options.ending = ending
            config.options.lemmas = lemmas
            config.lemmatizer = LemmatizerSource(training: lemmaTraining.files, wordNet: wordnet)
            config.options.alpha = alpha
            config.options.cost = cost
            config.options.beta = beta
            config.options.epochs = epochs
            config.options.minDocuments = minDocuments
            config.options.keepMinDocuments = keepMinDocuments
            config.folds = folds
            config.strict = build.strict
            let report = try ClassifyTrain.run(config, progress: progress)
            print(report.render())
            printMeasure(progress, build.measure)
        }
    }
}

/// `lexiforge eval classify`.
struct EvalClassify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classify",
        abstract: "Accuracy, per-label precision, recall and F1, and the confusion matrix of a classifier store on labeled texts.",
        discussion: """
            Example:
              lexiforge eval classify Artifacts/sentiment.sqlite polarity-test/
            """)

    @Argument(help: "The classifier store.")
    var store: String

    @Argument(help: "Labeled folders, .jsonl or .csv files.")
    var sources: [String]

    @Flag(help: "Unreadable or non-UTF-8 files are errors instead of skipped.")
    var strict = false

    func validate() throws {
        if sources.isEmpty { throw ValidationError("name at least one labeled folder, .jsonl or .csv file") }
    }

    func run() throws {
        try runReportingErrors {
            let report = try ClassifyEval.run(storePath: store, sources: sources, strict: strict)
            print(report.render())
            print(String(format: "speed: %.0f texts/s wall clock, %.0f texts per CPU second", Double(report.total) / max(report.seconds, 1e-9),
                         Double(report.total) / max(report.cpuSeconds, 1e-9)))
        }
    }
}
