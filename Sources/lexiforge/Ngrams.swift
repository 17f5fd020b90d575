import ArgumentParser
import Foundation
import LexiforgeNgrams
import LexiforgePipeline
import LexiforgeReader

struct Ngrams: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Count the n-grams of corpora and write a store.",
        discussion: """
            Reads plain or gzipped UTF-8 text (BOM and CRLF are fine; Project Gutenberg headers and \
            license footers are dropped), splits sentences, tokenizes, counts orders 1 to N and \
            writes the store atomically: an existing store at -o is replaced only by a complete one.
            Example:
              lexiforge ngrams --order 2 -o ch1.sqlite Corpora/data/corpora/dorian-gray-ch1.txt
            """)

    @Argument(help: "Corpus files (plain or .gz).")
    var corpora: [String] = []

    @Option(name: .shortAndLong, help: "The store to write.")
    var output: String

    @Option(help: "Highest n-gram order, 1 to 5.")
    var order = 3

    @Flag(help: "Lowercase every token.")
    var lowercase = false

    @Flag(help: "Count punctuation and symbols as tokens (default: words and numbers only, as a keyboard types them).")
    var keepPunctuation = false

    @OptionGroup var text: TextFlags

    @Flag(help: "Write each word's lemma and script class (indexed columns; larger store).")
    var wordClasses = false

    @Option(help: "With --word-classes: CoNLL-U file the lemmatizer learns from (with WordNet); repeat for several.")
    var lemmaTrain: [String] = []

    @Flag(help: "Replace invalid UTF-8 with U+FFFD (a warning) instead of failing.")
    var replaceInvalid = false

    @Flag(help: "Keep Project Gutenberg headers and footers.")
    var keepGutenbergBoilerplate = false

    @Flag(help: "Also estimate interpolated modified Kneser-Ney probabilities and store them next to the counts (needed by predict, eval and export arpa; about a third larger).")
    var languageModel = false

    @Option(help: ArgumentHelp("Smallest count an n-gram keeps, per order from 2 (e.g. 1,1,2: prune trigram singletons); pruned mass goes to the backoff weights.", valueName: "N,N,..."))
    var minCount: String?

    @Option(help: ArgumentHelp("Entropy pruning (Stolcke): drop n-grams whose removal changes the model's relative entropy by less than THRESHOLD (e.g. 1e-7); 0 = off.", valueName: "THRESHOLD"))
    var prune: Double = 0

    @Option(help: "Keep only the N most frequent words; the others become <unk>.")
    var vocabSize: Int?

    @Option(help: ArgumentHelp("Also learn K word classes (exchange algorithm) and a class n-gram model that predictions interpolate with the word model (e.g. 128; 0 = none).", valueName: "K"))
    var classes: Int = 0

    @Option(help: ArgumentHelp("Weight of the class model in the interpolation (with --classes).", valueName: "LAMBDA"))
    var classWeight: Double = EstimationOptions.defaultClusterWeight

    @Option(help: ArgumentHelp("Also learn up to N suffix rules from the vocabulary, so completions can offer forms the corpus never showed once the known words run out (e.g. 200; 0 = none).", valueName: "N"))
    var formRules: Int = 0

    @OptionGroup var build: BuildOptions

    /// `--min-count` as counts for orders 1...5 (unigrams are never pruned).
    func minCounts() throws -> [Int] {
        guard let minCount else { return [] }
        let values = minCount.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ $0 != nil && $0! >= 1 }) else {
            throw ValidationError("--min-count '\(minCount)' must be counts of at least 1 separated by commas, one per order from 2")
        }
        let counts = values.map { $0! }
        guard zip(counts, counts.dropFirst()).allSatisfy({ $0 <= $1 }) else {
            throw ValidationError("--min-count '\(minCount)' must not decrease with the order (a kept n-gram needs its shorter parts)")
        }
        return [1] + counts
    }

    func validate() throws {
        guard !corpora.isEmpty else { throw ValidationError("name at least one corpus file") }
        guard (1...5).contains(order) else { throw ValidationError("--order \(order) is out of range; use 1 to 5") }
        _ = try minCounts()
        guard prune >= 0 else { throw ValidationError("--prune \(prune) must be 0 (off) or a positive threshold") }
        if !languageModel && (minCount != nil || prune > 0) {
            throw ValidationError("--min-count and --prune prune the language model; add --language-model")
        }
        if let vocabSize, vocabSize < 1 { throw ValidationError("--vocab-size \(vocabSize) must be at least 1") }
        guard (0...StoreSchema.maxClusters).contains(classes) else {
            throw ValidationError("--classes \(classes) is out of range; use 0 (none) to \(StoreSchema.maxClusters)")
        }
        guard classWeight > 0 && classWeight < 1 else { throw ValidationError("--class-weight \(classWeight) must be between 0 and 1 (exclusive)") }
        if classes > 0 && (!languageModel || order < 2) {
            throw ValidationError("--classes builds a class model beside the language model; add --language-model and use --order 2 or more")
        }
        guard formRules >= 0 else { throw ValidationError("--form-rules \(formRules) must be 0 (none) or more") }
        if formRules > 0 && !languageModel {
            throw ValidationError("--form-rules gives unseen forms a share of the language model's <unk> probability; add --language-model")
        }
    }

    func run() throws {
        try runReportingErrors {
            var config = NgramBuildConfig(inputs: corpora, output: output)
            config.order = order
            config.text.lowercase = lowercase
            config.text.keepPunctuation = keepPunctuation
            text.apply(to: &config.text)
            config.wordClasses = wordClasses
            if !lemmaTrain.isEmpty { config.lemmatizer = LemmatizerSource(training: lemmaTrain) }
            config.corpus.replaceInvalidUTF8 = replaceInvalid
            config.corpus.stripGutenberg = !keepGutenbergBoilerplate
            config.strict = build.strict
            config.languageModel = languageModel
            config.estimation.minCounts = try minCounts()
            config.estimation.entropyThreshold = prune
            config.estimation.clusters = classes
            config.estimation.clusterWeight = classWeight
            config.estimation.formRules = formRules
            config.vocabularySize = vocabSize
            let progress = StageProgress(quiet: build.quiet)
            let report = try NgramBuild.run(config, progress: progress)
            printStatistics(report, output: output, progress: progress)
            printMeasure(progress, build.measure)
        }
    }
}
