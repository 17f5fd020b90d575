import ArgumentParser
import Foundation
import LexiforgeClassify
import LexiforgeCorpus
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader

/// `lexiforge langid`: identify the language of a text, or train an identifier (`langid train`).
struct Langid: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Identify the language of a text or file with a language-ID store, or train one (`langid train`).",
        discussion: """
            Prints the most probable languages with their probabilities, one per line.
            Examples:
              lexiforge langid Artifacts/langid.sqlite "Där bor en katt."
              lexiforge langid Artifacts/langid.sqlite --constraints es,pt --maximum 2 letter.txt
            """,
        subcommands: [LangidTrainCommand.self, LangidIdentify.self],
        defaultSubcommand: LangidIdentify.self)
}

struct LangidIdentify: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "identify", abstract: "Print the language hypotheses of a text or file (the default subcommand).")

    @Argument(help: "The language-ID store.")
    var store: String

    @Argument(help: "The text, or a file holding it (UTF-8); without it, standard input.")
    var text: String?

    @Option(help: "Languages to choose from, comma-separated (default: all the store knows).")
    var constraints: String?

    @Option(help: "Prior probabilities, e.g. es=0.8,pt=0.2.")
    var hints: String?

    @Option(help: "How many hypotheses to print.")
    var maximum = 3

    func run() throws {
        try runReportingErrors {
            var recognizer = try LanguageRecognizer(store: TrainedStore(path: store))
            if let constraints { try recognizer.setLanguageConstraints(constraints.split(separator: ",").map(String.init)) }
            if let hints {
                var parsed: [String: Double] = [:]
                for item in hints.split(separator: ",") {
                    let parts = item.split(separator: "=")
                    guard parts.count == 2, let p = Double(parts[1]) else {
                        throw PipelineError("--hints \(hints): \"\(item)\" is not CODE=PROBABILITY (es=0.8)")
                    }
                    parsed[String(parts[0])] = p
                }
                try recognizer.setLanguageHints(parsed)
            }
            let input: String
            if let text, FileManager.default.fileExists(atPath: text) {
                guard let data = FileManager.default.contents(atPath: text) else { throw PipelineError("\(text): cannot be read; check its permissions") }
                guard let decoded = String(validating: Array(data), as: UTF8.self) else {
                    throw PipelineError("\(text): not UTF-8; convert it (e.g. `iconv -f latin1 -t utf-8`)")
                }
                input = decoded
            } else if let text {
                input = text
            } else {
                input = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            }
            let hypotheses = recognizer.hypotheses(for: input, maximum: maximum)
            if hypotheses.isEmpty { print("und\t1.0000") }
            for h in hypotheses { print(h.language + "\t" + String(format: "%.4f", h.probability)) }
        }
    }
}

struct LangidTrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a language identifier from LANG<TAB>sentence files into a store.",
        discussion: """
            Character n-grams of 1 to --order characters, hashed into 2^--bucket-bits buckets; \
            the store holds 2^bits × languages Int16 weights (2^16 × 16 languages: 2 MiB).
            Example:
              lexiforge langid train ../shared/data/langid/langid-train.tsv.gz -o Artifacts/langid.sqlite
            """)

    @Argument(help: "LANG<TAB>sentence files (optionally gzipped).")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "The store to write.")
    var output: String

    @Option(help: "logistic (logistic regression) or nb (naive Bayes).")
    var algorithm = "logistic"

    @Option(help: "Longest character n-gram.")
    var order = 5

    @Option(help: "log2 of the number of hashed buckets (12-22).")
    var bucketBits = 16

    @Option(help: "Passes over the data (logistic).")
    var epochs = 12

    @Flag(help: "Only character n-grams (default: whole words too).")
    var noWords = false

    @Option(help: "Initial SGD step (logistic).")
    var learningRate = 0.2

    @Flag(help: "Do not also train on short pieces (prefixes and substrings of 8-30 characters) of the sentences.")
    var noPrefixes = false

    @Flag(help: "Do not weight languages equally.")
    var noBalance = false

    @Flag(help: "No script evidence (which writing systems each language's sentences use).")
    var noScripts = false

    @Option(help: "Weight of the character trigram models' log-likelihood beside the logistic scores (0: no such models).")
    var charWeight = 0.2

    @Option(help: "Weight of the alphabet evidence (which letters each language writes, from Unicode CLDR and the training text) beside the other scores (0: none).")
    var alphabetWeight = 1.0

    @Option(help: "Report k-fold cross-validation accuracy before training (0: none).")
    var crossValidate = 0

    @OptionGroup var build: BuildOptions

    func validate() throws {
        if LanguageIDOptions.Algorithm(rawValue: algorithm) == nil { throw ValidationError("--algorithm \(algorithm) is unknown; use logistic or nb") }
        if !(1...8).contains(order) { throw ValidationError("--order must be 1 to 8") }
        if !(12...22).contains(bucketBits) { throw ValidationError("--bucket-bits must be 12 to 22") }
        if epochs < 1 { throw ValidationError("--epochs must be at least 1") }
        if !(0...10).contains(charWeight) { throw ValidationError("--char-weight must be 0 to 10") }
        if !(0...10).contains(alphabetWeight) { throw ValidationError("--alphabet-weight must be 0 to 10") }
        if crossValidate == 1 || crossValidate < 0 { throw ValidationError("--cross-validate takes 0 (none) or at least 2 folds") }
        if inputs.isEmpty { throw ValidationError("name at least one LANG<TAB>sentence file") }
    }

    func run() throws {
        try runReportingErrors {
            let progress = StageProgress(quiet: build.quiet)
            var config = LangidTrainConfig(inputs: inputs, output: output)
            config.options.algorithm = LanguageIDOptions.Algorithm(rawValue: algorithm)!
            config.options.maxOrder = order
            config.options.bucketBits = bucketBits
            config.options.epochs = epochs
            config.options.prefixes = !noPrefixes
            config.options.words = !noWords
            config.options.learningRate = learningRate
            config.options.balance = !noBalance
            config.options.scripts = !noScripts
            config.options.charWeight = charWeight
            config.options.alphabetWeight = alphabetWeight
            config.folds = crossValidate
            print(try LangidTrain.run(config, progress: progress).render())
            printMeasure(progress, build.measure)
        }
    }
}

/// `lexiforge eval langid`.
struct EvalLangid: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "langid",
        abstract: "Accuracy of a language-ID store overall, per language and on the first 20 characters, with the confusion matrix.",
        discussion: """
            Example:
              lexiforge eval langid Artifacts/langid.sqlite ../shared/data/langid/langid-dev.tsv.gz
            """)

    @Argument(help: "The language-ID store.")
    var store: String

    @Argument(help: "A LANG<TAB>sentence file (optionally gzipped).")
    var tsv: String

    @Option(help: "Languages to choose from, comma-separated (default: all the store knows).")
    var constraints: String?

    @Option(help: "How many misclassified sentences to list (line number, language, what was read, text).")
    var misses = 0

    @Option(help: .hidden)
    var timingPasses = 1

    func run() throws {
        try runReportingErrors {
            let result = try LangidEvaluation.run(storePath: store, tsv: tsv,
                                                  constraints: constraints.map { $0.split(separator: ",").map(String.init) } ?? [],
                                                  timingPasses: timingPasses, misses: misses)
            print(result.render())
        }
    }
}
