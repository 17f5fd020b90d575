import ArgumentParser
import Foundation
import LexiforgeNgrams
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeText

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

    @OptionGroup var counting: CountingFlags

    @OptionGroup var words: WordColumnFlags

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

    @OptionGroup var threading: ThreadOptions

    /// `--min-count` as counts per order from 2; nil when it is not a list of integers.
    func minCounts() throws -> [Int] {
        guard let minCount else { return [] }
        let values = minCount.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ $0 != nil }) else {
            throw ValidationError("--min-count '\(minCount)' must be counts of at least 1 separated by commas, one per order from 2")
        }
        return values.map { $0! }
    }

    /// The flags as the one model spec `train` reads from a model file.
    func spec() throws -> ModelSpec {
        var spec = counting.spec(corpora: corpora)
        spec.wordColumns = words.enabled
        spec.lemmaTraining = words.lemmas.files
        spec.languageModel = languageModel
        spec.minCount = try minCounts()
        spec.prune = prune
        spec.vocabSize = vocabSize
        spec.classes = classes
        spec.classWeight = classWeight
        spec.formRules = formRules
        return spec
    }

    func validate() throws {
        guard !corpora.isEmpty else { throw ValidationError("name at least one corpus file") }
        let errors = try spec().validate().filter { $0.severity == .error }
        if let first = errors.first { throw ValidationError(first.rendered(.commandLine)) }
    }

    func run() throws {
        try runReportingErrors {
            let spec = try spec()
            let progress = StageProgress(quiet: build.quiet)
            let report = try ModelBuild.run(spec, inputs: ModelInputs(corpora: corpora, lemmaTraining: spec.lemmaTraining),
                                            output: output, strict: build.strict, progress: progress,
                                            threads: threading.threads, memory: threading.memoryBytes,
                                            temporaryFolder: threading.temp)
            printStatistics(report, output: output, progress: progress)
            printMeasure(progress, build.measure)
        }
    }
}

/// How corpora become counted tokens: the flags `ngrams` and `count` share, as a model spec.
struct CountingFlags: ParsableArguments {
    @Option(help: "Highest n-gram order, 1 to 5.")
    var order = 3

    @Flag(help: "Lowercase every token.")
    var lowercase = false

    @Flag(help: "Count punctuation and symbols as tokens (default: words and numbers only, as a keyboard types them).")
    var keepPunctuation = false

    @OptionGroup var text: TextFlags

    @OptionGroup var reading: ReadFlags

    @Flag(help: "Keep Project Gutenberg headers and footers.")
    var keepGutenbergBoilerplate = false

    /// The spec these flags describe for `corpora`.
    func spec(corpora: [String]) -> ModelSpec {
        var spec = ModelSpec()
        spec.corpora = corpora
        spec.order = order
        spec.lowercase = lowercase
        spec.keepPunctuation = keepPunctuation
        spec.tokenizer = text.mode
        var options = TextOptions()
        text.apply(to: &options)
        spec.normalization = options.normalization
        spec.straightQuotes = options.straightQuotes
        spec.numberClass = options.numberClass
        spec.replaceInvalidUTF8 = reading.replaceInvalidUTF8
        spec.keepGutenbergBoilerplate = keepGutenbergBoilerplate
        return spec
    }
}
