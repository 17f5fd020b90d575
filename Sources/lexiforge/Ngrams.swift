import ArgumentParser
import LexiforgePipeline

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

    @OptionGroup var build: BuildOptions

    func validate() throws {
        guard !corpora.isEmpty else { throw ValidationError("name at least one corpus file") }
        guard (1...5).contains(order) else { throw ValidationError("--order \(order) is out of range; use 1 to 5") }
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
            let progress = StageProgress(quiet: build.quiet)
            let report = try NgramBuild.run(config, progress: progress)
            printStatistics(report, output: output, progress: progress)
            printMeasure(progress, build.measure)
        }
    }
}
