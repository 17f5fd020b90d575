import ArgumentParser
import LexiforgeBuild
import LexiforgeEvaluation

struct Wordlist: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import and export Android \"combined\" keyboard wordlists.",
        discussion: """
            Example:
              lexiforge wordlist import Corpora/data/wordlists/en_US_wordlist.combined.gz -o Artifacts/en_US.sqlite
              lexiforge wordlist export Artifacts/en_US.sqlite -o en_US.combined.gz
            """,
        subcommands: [WordlistImportCommand.self, WordlistExportCommand.self])
}

struct WordlistImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read combined wordlists (plain or .gz) into a store's lexicon.",
        discussion: """
            Streams each list through zlib and keeps every field: the header attributes, word=, f=, \
            flags=, originalFreq=, not_a_word=, possibly_offensive=, whitelist=, unknown keys, and \
            the shortcut=/bigram= child lines. Every problem is reported as FILE:LINE with what was \
            expected; errors (or warnings under --strict) exit 1 and write no store.
            Example:
              lexiforge wordlist import en_US_wordlist.combined.gz -o en_US.sqlite
            """)

    @Argument(help: "Combined wordlists, read in order into one lexicon.")
    var lists: [String] = []

    @Option(name: .shortAndLong, help: "The store to write.")
    var output: String

    @OptionGroup var words: WordColumnFlags

    @OptionGroup var build: BuildOptions

    func validate() throws {
        guard !lists.isEmpty else { throw ValidationError("name at least one wordlist (.combined or .combined.gz)") }
    }

    func run() throws {
        try runReportingErrors {
            var config = WordlistImportConfig(inputs: lists, output: output)
            config.strict = build.strict
            config.wordClasses = words.enabled
            let lemmaFiles = words.lemmas.files
            if !lemmaFiles.isEmpty { config.lemmatizer = LemmatizerSource(training: lemmaFiles) }
            let progress = StageProgress(quiet: build.quiet)
            let report = try WordlistImport.run(config, progress: progress)
            progress.say("\(output): \(report.storeBytes) bytes; \(report.entries) entries from \(report.files.count) list(s), \(report.warnings.count) warning(s)")
            printMeasure(progress, build.measure)
        }
    }
}

struct WordlistExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a store's lexicon as a combined wordlist (gzip when -o ends in .gz).",
        discussion: """
            Entries in id order with every field the import kept: exporting a store imported from \
            one list reproduces that list (decompressed) byte for byte.
            Example:
              lexiforge wordlist export en_US.sqlite -o en_US.combined.gz
            """)

    @Argument(help: "The store to read.")
    var store: String

    @Option(name: .shortAndLong, help: "The wordlist to write (.combined or .combined.gz).")
    var output: String

    @Flag(help: "No progress on stderr (errors are still reported).")
    var quiet = false

    @Flag(help: .hidden)
    var measure = false

    func run() throws {
        try runReportingErrors {
            let progress = StageProgress(quiet: quiet)
            let entries = try WordlistExport.run(store: store, output: output, progress: progress)
            progress.say("\(output): \(entries) entries")
            printMeasure(progress, measure)
        }
    }
}
