import ArgumentParser
import Foundation
import LexiforgeEntities
import LexiforgeReader
import LexiforgeBuild
import LexiforgeEvaluation

/// `lexiforge ner`: train a named-entity tagger into a store, or print the entities of text.
struct Ner: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Named entities: train a tagger into a store (ner train), or list the entities of text (ner STORE FILE).",
        subcommands: [NerTag.self, NerTrain.self],
        defaultSubcommand: NerTag.self)
}

/// `FILE` or `FILE=WEIGHT` (the weight of the file's sentences in training).
func weightedFile(_ argument: String) throws -> WeightedFile {
    if !FileManager.default.fileExists(atPath: argument), let eq = argument.lastIndex(of: "="),
       let weight = Float(argument[argument.index(after: eq)...]) {
        guard weight > 0, weight.isFinite else { throw ValidationError("\(argument): the weight after = must be a positive number") }
        return WeightedFile(path: String(argument[..<eq]), weight: weight)
    }
    return WeightedFile(path: argument)
}

struct NerTag: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Print the named entities of text files (standard input when none).",
        discussion: """
            One entity per line: start, end (Unicode scalar offsets into the text as read: a BOM \
            and CR before LF are dropped), type and text, tab-separated. Names of several words are \
            one entity, as NLTagger's .joinNames gives them; --word-by-word lists each word.
            Examples:
              lexiforge ner Artifacts/ner.sqlite review.txt
              echo "Tim Cook visited Paris." | lexiforge ner Artifacts/ner.sqlite
            """)

    @Argument(help: "The store holding the entity tagger (built by `lexiforge ner train`).")
    var store: String

    @Argument(help: "Text files (plain or .gz); standard input when none.")
    var files: [String] = []

    @Flag(help: "One entity per word instead of one per name.")
    var wordByWord = false

    func run() throws {
        try runReportingErrors {
            try NerBuild.tag(store: store, files: files, joinNames: !wordByWord) { print($0) }
        }
    }
}

struct NerTrain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a named-entity tagger (structured averaged perceptron, BIO Viterbi) into a store.",
        discussion: """
            Input: UNER .iob2 files or CoNLL two-column files (word<TAB>tag, IOB2 tags), plain or \
            .gz. FILE=WEIGHT scales the updates of that file's sentences (e.g. btc.train=0.5). An \
            I- tag that continues no entity is read as B- with a warning; a line without a tag is \
            an error naming file and line.
            Example:
              lexiforge ner train ner/en_ewt-ud-dev.iob2 ner/btc.train --upos-train en_ewt-ud-train.conllu -o Artifacts/ner.sqlite
            """)

    @Argument(help: "Training files, each FILE or FILE=WEIGHT.")
    var files: [String]

    @Option(name: .shortAndLong, help: "The store to write.")
    var output: String

    @Option(help: "Passes over the training sentences.")
    var epochs = EntityTrainerConfig().epochs

    @Option(help: "Seed of the shuffles (the same seed and data give the same store).")
    var seed: UInt64 = 1

    @Flag(help: "No gazetteer of the training names.")
    var noGazetteer = false

    @Option(help: "Train a UPOS tagger on this CoNLL-U file (repeatable) and use its tags as features; the store carries it.")
    var uposTrain: [String] = []

    @OptionGroup var resources: NerResourceOptions

    @OptionGroup var build: BuildOptions

    func validate() throws {
        if epochs < 1 { throw ValidationError("--epochs must be at least 1") }
    }

    func run() throws {
        try runReportingErrors {
            let progress = StageProgress(quiet: build.quiet)
            let config = EntityTrainerConfig(epochs: epochs, seed: seed, gazetteer: !noGazetteer)
            let (lexicon, classes) = try resources.load(progress: progress)
            let report = try NerBuild.train(try files.map(weightedFile), uposTraining: uposTrain, lexicon: lexicon, clusters: classes,
                                            output: output, config: config, strict: build.strict, progress: progress)
            progress.say("\(output): \(report.storeBytes) bytes; \(report.sentences) sentences, \(report.tokens) tokens, \(report.features) features")
        }
    }
}

/// The outside resources whose matches are entity features (`ner train`, `eval ner --folds`):
/// WordNet's names and word classes learnt from unlabelled text.
struct NerResourceOptions: ParsableArguments {
    @Option(help: "WordNet directory (its data.noun) whose proper nouns are typed name lists for features; a store carries them (default: /usr/share/wordnet, skipped with a warning when absent).")
    var wordnet: String?

    @Flag(help: "No WordNet name lists.")
    var noWordnet = false

    @Option(help: "Unlabelled text (plain, .gz, or a CoNLL-U treebank's text; repeatable) to learn word classes from for features; a store carries them.")
    var clusterText: [String] = []

    @Option(help: "Word classes learnt from --cluster-text.")
    var clusters = 128

    @Option(help: "The most frequent words of --cluster-text given a class.")
    var clusterWords = NerBuild.clusterVocabulary

    /// No option given.
    var isDefault: Bool { wordnet == nil && !noWordnet && clusterText.isEmpty }

    func validate() throws {
        if !(1...4096).contains(clusters) { throw ValidationError("--clusters must be 1...4096") }
        if clusterWords < 1 { throw ValidationError("--cluster-words must be at least 1") }
    }

    func load(progress: StageProgress) throws -> (EntityLexicon, EntityClusters) {
        (try NerBuild.lexicon(use: !noWordnet, directory: wordnet, progress: progress),
         try NerBuild.clusters(clusterText, classes: clusters, words: clusterWords, progress: progress))
    }
}

/// `lexiforge eval ner`: exact-span precision, recall and F1 per type and overall.
struct EvalNer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ner",
        abstract: "Named-entity scores: exact-span precision, recall and F1 per type and overall.",
        discussion: """
            Tags the words of gold IOB2/CoNLL files as given and compares the entity spans (first \
            word, last word and type must all match). With --folds K, no store: K-fold \
            cross-validation on the gold files (contiguous whole documents), each fold tagged by a \
            model trained now on the other folds plus the --train files.
            Examples:
              lexiforge eval ner Artifacts/ner.sqlite ner/en_ewt-ud-dev.iob2
              lexiforge eval ner --folds 5 --train ner/btc.train --train ner/btc.dev --upos-train en_ewt-ud-train.conllu ner/en_ewt-ud-dev.iob2
            """)

    @Argument(help: "The entity tagger store, then gold files (with --folds: gold files only).")
    var arguments: [String]

    @Option(help: "Cross-validate with this many folds instead of reading a store.")
    var folds: Int?

    @Option(help: "With --folds: extra training file (FILE or FILE=WEIGHT); repeat for several.")
    var train: [String] = []

    @Option(help: "With --folds: the weight of the gold folds' sentences in training.")
    var goldWeight: Float = 1

    @Option(help: "With --folds: passes over the training sentences.")
    var epochs = EntityTrainerConfig().epochs

    @Flag(help: "With --folds: no gazetteer of the training names.")
    var noGazetteer = false

    @Option(help: "With --folds: train a UPOS tagger on this CoNLL-U file (repeatable) for tag features.")
    var uposTrain: [String] = []

    @OptionGroup var resources: NerResourceOptions

    @Flag(help: "Turn warnings (repaired I- tags, empty words) into errors.")
    var strict = false

    @Option(help: "Without --folds: tag the gold sentences this many times for the speed figure (the mean per pass; every pass must give the first's tags).")
    var timingPasses = 1

    func validate() throws {
        if let folds, folds < 2 { throw ValidationError("--folds must be at least 2") }
        if timingPasses < 1 { throw ValidationError("--timing-passes must be at least 1") }
        if folds == nil && arguments.count < 2 { throw ValidationError("give the store and at least one gold file") }
        if folds == nil && !(train.isEmpty && uposTrain.isEmpty && resources.isDefault) {
            throw ValidationError("--train, --upos-train, --wordnet, --no-wordnet and --cluster-text need --folds (a store was trained already)")
        }
    }

    func run() throws {
        try runReportingErrors {
            let progress = StageProgress(quiet: false)
            if let folds {
                let config = EntityTrainerConfig(epochs: epochs, gazetteer: !noGazetteer)
                let (lexicon, classes) = try resources.load(progress: progress)
                let result = try NerBuild.crossValidate(gold: arguments, extra: try train.map(weightedFile), uposTraining: uposTrain,
                                                        lexicon: lexicon, clusters: classes, folds: folds,
                                                        goldWeight: goldWeight, config: config, strict: strict, progress: progress)
                print("\(folds)-fold cross-validation")
                print(result.pooled.render())
            } else {
                print(try NerBuild.evaluate(store: arguments[0], gold: Array(arguments.dropFirst()), strict: strict,
                                            timingPasses: timingPasses, progress: progress).render())
            }
        }
    }
}
