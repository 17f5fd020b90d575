import ArgumentParser
import Foundation
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeVocab

struct Vocab: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Vocabulary stores for study apps: import lists, count entries, print quiz questions.",
        discussion: """
            Example:
              lexiforge vocab import Corpora/data/vocab/jlpt/n*.csv -o Artifacts/jlpt.sqlite
              lexiforge vocab count Artifacts/jlpt.sqlite --levels N3 --categories kanji --explain
              lexiforge vocab quiz Artifacts/jlpt.sqlite --test reading-input --levels N3,N2 --count 10 --seed 1
            """,
        subcommands: [VocabImportCommand.self, VocabCountCommand.self, VocabQuizCommand.self, VocabBenchCommand.self])
}

extension VocabListOptions.Format: ExpressibleByArgument {}
extension VocabLevelScheme: ExpressibleByArgument {}
extension VocabTest: ExpressibleByArgument {}

struct VocabImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read vocabulary lists (CSV or TSV) into a vocabulary store.",
        discussion: """
            Each row needs an expression, a reading and a meaning (empty reading or meaning: the \
            entry is "untestable"); levels come from a level column or level tags (JLPT_N3, JLPT_3), \
            and a word tagged at several levels keeps them all. Columns are found by their header \
            names (expression/word, reading/kana, meaning/english, tags, level) or mapped with \
            --columns. Bad rows (too few fields, invalid UTF-8, empty expression, unknown level or \
            level tag, no level, duplicates) are reported as FILE:LINE and skipped; --strict makes \
            them errors (exit 1, no store). A list without the needed columns is an error.
            Example:
              lexiforge vocab import n5.csv n4.csv n3.csv n2.csv n1.csv -o jlpt.sqlite
              lexiforge vocab import words.tsv --columns expression=word,reading=kana,meaning=english --level-scheme free -o words.sqlite
            """)

    @Argument(help: "Vocabulary lists (CSV or TSV, plain or .gz), read in order.")
    var lists: [String] = []

    @Option(name: .shortAndLong, help: "The store to write.")
    var output: String

    @Option(help: "auto (from the extension: .tsv/.tab/.txt are TSV), csv or tsv.")
    var format: VocabListOptions.Format = .auto

    @Flag(help: "The lists have no header line (map columns by number with --columns).")
    var noHeader = false

    @Option(help: "Column mapping: COLUMN=NAME-or-NUMBER pairs, e.g. expression=word,reading=2 (columns: expression, reading, meaning, tags, level).")
    var columns: String?

    @Option(help: "jlpt (levels N1-N5, tags JLPT_N5/JLPT_5) or free (any level column text; tags are not levels).")
    var levelScheme: VocabLevelScheme = .jlpt

    @Option(help: "The level of rows that name none (otherwise such a row is reported and skipped).")
    var level: String?

    @OptionGroup var build: BuildOptions

    func validate() throws {
        guard !lists.isEmpty else { throw ValidationError("name at least one vocabulary list (CSV or TSV)") }
        var options = VocabListOptions()
        if let columns, let problem = options.parseColumns(columns) { throw ValidationError(problem) }
        if let level, levelScheme.level(column: level) == nil { throw ValidationError("--level \(level): not a level of the \(levelScheme.rawValue) scheme (N1 to N5)") }
    }

    func run() throws {
        try runReportingErrors {
            var config = VocabImportConfig(inputs: lists, output: output)
            config.options.format = format
            config.options.header = !noHeader
            if let columns { _ = config.options.parseColumns(columns) }
            config.options.levelScheme = levelScheme
            config.options.defaultLevel = level.flatMap(levelScheme.level(column:))
            config.strict = build.strict
            let progress = StageProgress(quiet: build.quiet)
            let report = try VocabImport.run(config, progress: progress)
            progress.say("\(output): \(report.storeBytes) bytes; \(report.summary)")
            printMeasure(progress, build.measure)
        }
    }
}

/// The predicate options `count` and `quiz` share.
struct VocabFilterOptions: ParsableArguments {
    @Option(help: "Levels, comma-separated (default: every level).")
    var levels: String?

    @Option(help: "Categories, comma-separated: katakana, hiragana, kanji, kanji+hiragana, prefix, suffix, miscellaneous, untestable (default: all).")
    var categories: String?

    @Option(help: "Only expressions starting with this text.")
    var prefix: String?

    func validate() throws {
        _ = try parsedCategories()
    }

    func parsedCategories() throws -> [VocabCategory] {
        guard let categories else { return VocabCategory.allCases }
        return try categories.split(separator: ",").map {
            guard let c = VocabCategory(name: $0.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("--categories: unknown category \"\($0)\"; categories are \(VocabCategory.allCases.map(\.name).joined(separator: ", "))")
            }
            return c
        }
    }

    /// The levels named, checked against the store's.
    func parsedLevels(in store: VocabularyStore) throws -> [String] {
        guard let levels else { return store.levels }
        let names = levels.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if let unknown = names.first(where: { !store.levels.contains($0) }) {
            throw PipelineError("--levels: \(store.path) has no level \"\(unknown)\"; its levels are \(store.levels.joined(separator: ", "))")
        }
        return names
    }

    /// The user's settings, spelled out as the seed's app did (one test per level and category).
    func settings(in store: VocabularyStore) throws -> VocabPredicate {
        let base = VocabTest.settings(levels: try parsedLevels(in: store), categories: try parsedCategories())
        return prefix.map { .and([base, .prefix($0)]) } ?? base
    }
}

struct VocabCountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count",
        abstract: "Count the entries of a vocabulary store that match levels, categories and a prefix.",
        discussion: """
            Prints the count; --explain also prints the predicate as given, its canonical form and \
            the one SQL statement that answers it.
            Example:
              lexiforge vocab count jlpt.sqlite --levels N3,N2 --categories kanji,kanji+hiragana --explain
            """)

    @Argument(help: "The vocabulary store.")
    var store: String

    @OptionGroup var filter: VocabFilterOptions

    @Option(help: "Only entries of this test (one of the seven; see `vocab quiz --help`).")
    var test: VocabTest?

    @Flag(help: "Print the predicate, its canonical form and the SQL statement.")
    var explain = false

    func run() throws {
        try runReportingErrors {
            let vocabulary = try VocabularyStore(path: store)
            var predicate = try filter.settings(in: vocabulary)
            if let test { predicate = test.predicate(settings: predicate) }
            print(try vocabulary.count(matching: predicate))
            if explain {
                let compiled = vocabulary.compiled(predicate)
                print("predicate: \(predicate)")
                print("canonical: \(vocabulary.canonical(predicate))")
                print("sql: \(compiled.sql)")
            }
        }
    }
}

struct VocabQuizCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quiz",
        abstract: "Print questions of one of the seven tests, with choices and answers.",
        discussion: """
            Tests: reading-input (type the reading of a word with kanji), choose-meaning, \
            choose-reading, choose-word (pick among --choices), flash-card-meaning, \
            flash-card-reading, flash-card-word (the answer hidden). Each question's entry is \
            picked uniformly among those the test and the filters allow; the same --seed gives \
            the same questions.
            Example:
              lexiforge vocab quiz jlpt.sqlite --test reading-input --levels N3,N2 --count 10 --seed 1
            """)

    @Argument(help: "The vocabulary store.")
    var store: String

    @Option(help: "The test.")
    var test: VocabTest

    @OptionGroup var filter: VocabFilterOptions

    @Option(help: "Questions to print.")
    var count = 10

    @Option(help: "Answers to choose from in choice tests.")
    var choices = 4

    @Option(help: "Seed of the random picks.")
    var seed: UInt64 = 1

    func validate() throws {
        guard count >= 1 else { throw ValidationError("--count must be at least 1") }
        guard (2...26).contains(choices) else { throw ValidationError("--choices must be from 2 to 26") }
    }

    func run() throws {
        try runReportingErrors {
            let vocabulary = try VocabularyStore(path: store)
            let settings = try filter.settings(in: vocabulary)
            var generator = SplitMix64(seed: seed)
            for number in 1...count {
                guard let q = try vocabulary.question(test, settings: settings, choices: choices, using: &generator) else {
                    throw PipelineError("\(store): no entry matches \(test.rawValue) with these filters (\(vocabulary.canonical(test.predicate(settings: settings))))")
                }
                let hint = test == .readingInput ? " — \(q.entry.meaning ?? "")" : ""
                print("\(number). [\(test.rawValue)] \(q.prompt)\(hint)  (\(q.entry.levels.joined(separator: " ")), \(q.entry.category.name))")
                switch test.style {
                case .typed:
                    print("   answer: \(q.answer)")
                case .hidden:
                    print("   hidden: \(q.answer)\(test == .flashCardWord ? " (\(q.entry.reading ?? ""))" : "")")
                case .choice:
                    let letters = Array("abcdefghijklmnopqrstuvwxyz")
                    for (i, choice) in q.choices.enumerated() { print("   \(letters[i])) \(choice)") }
                    print("   answer: \(q.answerIndex.map { String(letters[$0]) } ?? "?")")
                }
            }
        }
    }
}

/// Hidden: the vocabulary query benchmark of `make bench` (Tests/Bench/bench-vocab.sh).
struct VocabBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time count and random queries over random predicates (benchmark).",
        shouldDisplay: false)

    @Argument(help: "The vocabulary store.") var store: String
    @Option(help: "Random predicates.") var predicates = 500
    @Option(help: "Queries of each kind per predicate (the first uncached).") var perPredicate = 20
    @Option(help: "Seed.") var seed: UInt64 = 18

    func run() throws {
        try runReportingErrors {
            let r = try VocabBenchmark.run(store: store, predicates: predicates, perPredicate: perPredicate, seed: seed)
            func line(_ kind: String, _ l: VocabBenchmark.Latency) -> String {
                String(format: "%@: %d queries, p50 %.1f µs, p99 %.1f µs, max %.1f µs; first (uncached) queries: p50 %.1f µs, p99 %.1f µs, max %.1f µs",
                       kind, l.queries, l.p50, l.p99, l.max, l.firstP50, l.firstP99, l.firstMax)
            }
            print("entries: \(r.entries); \(r.predicates) random predicates, median \(r.medianMatches) matches, \(r.emptyPredicates) match none")
            print(line("random (wall)", r.random))
            print(line("random (thread CPU)", r.randomCPU))
            print(line("count (wall)", r.count))
            print(line("count (thread CPU)", r.countCPU))
            print(String(format: "rewriting (canonical form and SQL text, thread CPU, no SQLite): p50 %.1f µs, p99 %.1f µs, max %.1f µs", r.rewriting.p50, r.rewriting.p99, r.rewriting.max))
            print("slowest first count: \(r.slowestFirstCount)")
            print("seven tests (\(r.sevenTestSettings)): \(r.sevenTestForms) canonical predicates, \(r.sevenTestStatements) distinct SQL statements")
        }
    }
}
