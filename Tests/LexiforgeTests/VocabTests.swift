import Foundation
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeVocab
import LexiforgeTestSupport
import Testing

/// Vocabulary lists: parsing, categories, bad input, the store and its rebuilds.
@Suite("Vocabulary import")
struct VocabImportTests {
    static func fixture(_ name: String) -> String { Paths.fixture("vocab/" + name) }

    struct CategoryCase: CustomTestStringConvertible, Sendable {
        var expression: String, reading: String?, meaning: String?, expected: VocabCategory
        var testDescription: String { "\(expression) → \(expected.name)" }
    }

    @Test(arguments: [
        CategoryCase(expression: "テレビ", reading: "テレビ", meaning: "television", expected: .katakana),
        CategoryCase(expression: "コーヒー", reading: "コーヒー", meaning: "coffee", expected: .katakana),
        CategoryCase(expression: "すっと", reading: "すっと", meaning: "straight", expected: .hiragana),
        CategoryCase(expression: "現像", reading: "げんぞう", meaning: "developing (film)", expected: .kanji),
        CategoryCase(expression: "様々", reading: "さまざま", meaning: "various", expected: .kanji),
        CategoryCase(expression: "会う", reading: "あう", meaning: "to meet", expected: .kanjiHiragana),
        CategoryCase(expression: "一ヶ月", reading: "いっかげつ", meaning: "one month", expected: .kanji),
        CategoryCase(expression: "故～", reading: "こ～", meaning: "deceased", expected: .prefix),
        CategoryCase(expression: "～区", reading: "～く", meaning: "ward", expected: .suffix),
        CategoryCase(expression: "〜 (まる) ごと", reading: "〜 (まる) ごと", meaning: "whole ~", expected: .suffix),
        CategoryCase(expression: "不", reading: "ふ", meaning: "un(~), non(~), negative prefix", expected: .prefix),
        CategoryCase(expression: "～ちゃん", reading: "～ちゃん", meaning: "suffix for familiar person", expected: .suffix),
        CategoryCase(expression: "こす (みずを～)", reading: "こす (みずを～)", meaning: "to strain", expected: .hiragana),
        CategoryCase(expression: "(花を〜) 生ける, 活ける", reading: "(はなを～) いける", meaning: "to arrange", expected: .kanjiHiragana),
        CategoryCase(expression: "Tシャツ", reading: "ティーシャツ", meaning: "T-shirt", expected: .miscellaneous),
        CategoryCase(expression: "お金", reading: "おかね", meaning: "money", expected: .kanjiHiragana),
        CategoryCase(expression: "ごらんになる", reading: nil, meaning: "to see (honorific)", expected: .untestable),
        CategoryCase(expression: "かまう", reading: "かまう", meaning: nil, expected: .untestable),
    ])
    func category(_ c: CategoryCase) {
        #expect(VocabCategorizer.category(expression: c.expression, reading: c.reading, meaning: c.meaning) == c.expected)
    }

    @Test("CSV: quoted fields, doubled quotes, a field across lines, CRLF, no final newline; levels from tags")
    func csv() {
        let read = VocabListReader.read(path: Self.fixture("tiny.csv"), options: VocabListOptions())
        #expect(read.diagnostics.isEmpty)
        #expect(read.rows.count == 12)
        #expect(read.file?.rows == 12)
        let see = read.rows.first { $0.expression == "見る" }
        #expect(see?.meaning == "to see,\r\nto watch")
        #expect(see?.levels == ["N5", "N4"])
        #expect(see?.line == 11)
        let last = read.rows.last
        #expect(last?.expression == "say \"hi\"" && last?.reading == nil && last?.line == 14 && last?.levels == ["N3"])
        let ah = read.rows.first { $0.expression == "ああ" }
        #expect(ah?.levels == ["N4", "N5"] && ah?.tags == ["Genki"])
    }

    @Test("A word in two lists keeps both levels; levels in byte order")
    func merge() {
        let r = VocabImporter.read(paths: [Self.fixture("tiny.csv"), Self.fixture("tiny.tsv")], options: VocabListOptions())
        #expect(r.diagnostics.isEmpty)
        #expect(r.rows == 14 && r.merged == 1 && r.contents.records.count == 13)
        #expect(r.contents.levels == ["N1", "N2", "N3", "N4", "N5"])
        let meet = r.contents.records.first { $0.expression == "会う" }
        #expect(meet?.levelMask == (1 << 2) | (1 << 4))
        #expect(meet?.tags == "JLPT")
        let counts = Dictionary(grouping: r.contents.records, by: \.category).mapValues(\.count)
        #expect(counts == [.kanjiHiragana: 2, .katakana: 2, .hiragana: 2, .kanji: 1, .suffix: 1, .prefix: 2, .miscellaneous: 1, .untestable: 2])
    }

    @Test("Bad rows: FILE:LINE warnings, the other rows imported")
    func badRows() {
        let path = Self.fixture("bad.csv")
        let r = VocabImporter.read(paths: [path], options: VocabListOptions())
        #expect(r.errors.isEmpty)
        #expect(r.warnings.map(\.line).sorted() == [3, 4, 5, 6, 7, 8])
        let byLine = Dictionary(uniqueKeysWithValues: r.warnings.map { ($0.line, $0.description) })
        #expect(byLine[3] == "\(path):3: warning: 2 field(s), but the columns need 4 (the header has 4); the row is skipped")
        #expect(byLine[4] == "\(path):4: warning: empty expression; the row is skipped")
        #expect(byLine[5]?.contains("unknown level tag \"JLPT_N7\"") == true)
        #expect(byLine[6] == "\(path):6: warning: invalid UTF-8 at byte offset 112; the row is skipped (fix the file's encoding, it must be UTF-8)")
        #expect(byLine[7]?.contains("duplicate entry \"猫\" (ねこ, cat), first at line 2, at no new level") == true)
        #expect(byLine[8]?.contains("no level") == true)
        #expect(r.contents.records.map(\.expression).sorted() == ["牛", "猫"])
        #expect(r.contents.levels == ["N5"])
    }

    @Test("--level gives rows without one a level")
    func defaultLevel() {
        var options = VocabListOptions()
        options.defaultLevel = "N3"
        let r = VocabImporter.read(paths: [Self.fixture("bad.csv")], options: options)
        #expect(r.contents.records.map(\.expression).sorted() == ["牛", "猫", "馬"])
    }

    @Test("Missing columns: one error naming the header and the fix; no rows")
    func missingColumns() {
        let path = Self.fixture("nocolumns.csv")
        let r = VocabImporter.read(paths: [path], options: VocabListOptions())
        #expect(r.errors.map(\.description) == ["\(path):1: error: no column for meaning; the header has \"word\", \"kana\"; map them with --columns, e.g. --columns expression=word,reading=kana,meaning=english"])
        #expect(r.contents.records.isEmpty)
    }

    @Test("Column mapping by name and number, free levels")
    func mapping() {
        var options = VocabListOptions()
        #expect(options.parseColumns("expression=term_x,reading=pron,meaning=4,level=lvl") == nil)
        options.levelScheme = .free
        let r = VocabImporter.read(paths: [Self.fixture("custom.tsv")], options: options)
        #expect(r.diagnostics.isEmpty)
        #expect(r.contents.levels == ["A1", "B2"])
        #expect(r.contents.records.map(\.category) == [.untestable, .miscellaneous])
        #expect(options.parseColumns("spelling=2") != nil)
    }

    @Test("Import: strict refuses warnings; rebuilds are byte-identical; the store reads back")
    func store() throws {
        let folder = try TemporaryFolder()
        var config = VocabImportConfig(inputs: [Self.fixture("tiny.csv"), Self.fixture("tiny.tsv"), Self.fixture("bad.csv")], output: folder.path + "/a.sqlite")
        let quiet = StageProgress(quiet: true)
        config.strict = true
        #expect(throws: PipelineError.self) { try VocabImport.run(config, progress: quiet) }
        #expect(!FileManager.default.fileExists(atPath: config.output))
        config.strict = false
        let report = try VocabImport.run(config, progress: quiet)
        #expect(report.entries == 15 && report.warnings.count == 6)
        config.output = folder.path + "/b.sqlite"
        _ = try VocabImport.run(config, progress: quiet)
        #expect(FileManager.default.contents(atPath: folder.path + "/a.sqlite") == FileManager.default.contents(atPath: config.output))
        let store = try VocabularyStore(path: config.output)
        #expect(store.entryCount == 15)
        #expect(store.levels == ["N1", "N2", "N3", "N4", "N5"])
        #expect(store.facts.neverNull == [.expression, .meaning])
        let all = try store.allEntries()
        #expect(all.count == 15)
        #expect(try store.count(matching: .levels(["N5"])) == all.filter { $0.levels.contains("N5") }.count)
        #expect(all.map(\.id) == (1...15).map { Int64($0) })
        // 会う テレビ ああ 見る (tiny.csv), 猫 牛 (bad.csv)
        #expect(try store.count(matching: .levels(["N5"])) == 6)
        #expect(try store.count(matching: .categories([.untestable])) == 2)
        #expect(try store.count(matching: .prefix("会")) == 1)
        #expect(store.meta[StoreSchema.Vocab.MetaKey.schema] == "1")
    }

    @Test("A store of another kind is refused with the way to build one")
    func notVocabulary() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/n.sqlite"
        var config = NgramBuildConfig(inputs: [Paths.fixture("tiny.txt")], output: path)
        config.order = 2
        _ = try NgramBuild.run(config, progress: StageProgress(quiet: true))
        #expect(throws: StoreError.self) { try VocabularyStore(path: path) }
        do { _ = try VocabularyStore(path: path) } catch { #expect("\(error)".contains("lexiforge vocab import")) }
    }
}

/// The real JLPT lists in ../shared/data/vocab.
@Suite("Vocabulary on ../shared/data", .enabled(if: Paths.sharedDataAvailable, "../shared/data absent"))
struct VocabSharedDataTests {
    static let folder = Paths.sharedData.appendingPathComponent("vocab")
    static var lists: [String] { ["n5", "n4", "n3", "n2", "n1"].map { folder.appendingPathComponent("jlpt/\($0).csv").path } }

    @Test("The five JLPT lists: 8,131 rows, one duplicate, categories, levels from tags; the seven tests need two statements")
    func jlpt() throws {
        let temporary = try TemporaryFolder()
        let progress = StageProgress(quiet: true)
        let report = try VocabImport.run(VocabImportConfig(inputs: Self.lists, output: temporary.path + "/jlpt.sqlite"), progress: progress)
        #expect(report.rows == 8131)
        #expect(report.warnings.map(\.line) == [1795])   // n2.csv: やかん twice at N2
        #expect(report.entries == 8101)
        #expect(report.storeBytes <= 1_048_576)
        let store = try VocabularyStore(path: temporary.path + "/jlpt.sqlite")
        #expect(store.levels == ["N1", "N2", "N3", "N4", "N5"])
        #expect(try store.count(matching: .categories([.untestable])) == 2)   // ごらんになる, かまう: no reading
        #expect(try store.count(matching: .not(.has(.reading))) == 2)
        #expect(try store.count(matching: .levels(["N5"])) == 718)
        // 〜 and ～ markers: every entry starting with one is a suffix unless it also ends with one.
        let all = try store.allEntries()
        #expect(all.filter { $0.expression.hasPrefix("～") && !$0.expression.hasSuffix("～") && $0.category != .untestable }.allSatisfy { $0.category == .suffix })
        let settings = VocabTest.settings(levels: ["N3", "N2"], categories: VocabCategory.allCases)
        #expect(Set(VocabTest.allCases.map { store.compiled($0.predicate(settings: settings)).sql }).count == 2)
        var g = SplitMix64(seed: 1)
        for test in VocabTest.allCases {
            let q = try #require(try store.question(test, settings: settings, using: &g))
            #expect(!Set(q.entry.levels).isDisjoint(with: ["N2", "N3"]))
            if test.style == .choice { #expect(Set(q.choices).count == 4) }
        }
    }

    @Test("The combined TSV: the level column, the same 8,101 entries")
    func tsv() throws {
        let r = VocabImporter.read(paths: [Self.folder.appendingPathComponent("jlpt-vocab.tsv").path], options: VocabListOptions())
        #expect(r.errors.isEmpty && r.rows == 8131 && r.contents.records.count == 8101)
        #expect(r.warnings.count == 1)   // やかん twice at N2; words at two levels merge silently
    }
}

/// `lexiforge vocab`: exit statuses and output.
@Suite("Vocabulary command line")
struct VocabCLITests {
    static func fixture(_ name: String) -> String { Paths.fixture("vocab/" + name) }

    @Test("import: bad rows are warnings (exit 0); --strict makes them errors (exit 1, no store); missing columns exit 1")
    func importStatuses() throws {
        let dir = try TemporaryFolder()
        let store = dir.file("v.sqlite")
        let lenient = try CLI.run(["vocab", "import", Self.fixture("bad.csv"), "-o", store, "--quiet"])
        #expect(lenient.status == 0)
        #expect(lenient.stderrLines.count == 6 && lenient.stderrLines.allSatisfy { $0.contains(": warning: ") })
        let strict = try CLI.run(["vocab", "import", Self.fixture("bad.csv"), "-o", dir.file("s.sqlite"), "--quiet", "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stderrLines.count == 6 && strict.stderrLines.allSatisfy { $0.hasPrefix("error: ") && $0.contains("bad.csv:") })
        #expect(!FileManager.default.fileExists(atPath: dir.file("s.sqlite")))
        let columns = try CLI.run(["vocab", "import", Self.fixture("nocolumns.csv"), "-o", dir.file("c.sqlite"), "--quiet"])
        #expect(columns.status == 1 && columns.stderrLines.count == 1 && columns.stderr.contains("nocolumns.csv:1: no column for meaning"))
        let usage = try CLI.run(["vocab", "import", Self.fixture("bad.csv"), "-o", store, "--columns", "spelling=1"])
        #expect(usage.status == 64)
    }

    @Test("quiz: the same seed, the same questions; unknown levels exit 1; count --explain")
    func quiz() throws {
        let dir = try TemporaryFolder()
        let store = dir.file("v.sqlite")
        #expect(try CLI.run(["vocab", "import", Self.fixture("tiny.csv"), Self.fixture("tiny.tsv"), "-o", store, "--quiet"]).status == 0)
        let arguments = ["vocab", "quiz", store, "--test", "choose-meaning", "--count", "3", "--seed", "7", "--choices", "2"]
        let a = try CLI.run(arguments), b = try CLI.run(arguments)
        #expect(a.status == 0 && a.stdout == b.stdout)
        #expect(a.stdout.split(separator: "\n").filter { $0.contains("[choose-meaning]") }.count == 3)
        let unknown = try CLI.run(["vocab", "quiz", store, "--test", "reading-input", "--levels", "N9"])
        #expect(unknown.status == 1 && unknown.stderr.contains("has no level \"N9\"; its levels are N1, N2, N3, N4, N5"))
        let count = try CLI.run(["vocab", "count", store, "--levels", "N5", "--explain"])
        #expect(count.status == 0 && count.stdout.hasPrefix("4\n") && count.stdout.contains("canonical: level IN {N5}"))
        #expect(try CLI.run(["vocab", "quiz", store, "--test", "choose-word", "--choices", "1"]).status == 64)
    }

    @Test("inspect and verify describe a vocabulary store; inspect still refuses a file that is no store")
    func inspect() throws {
        let dir = try TemporaryFolder()
        let store = dir.file("v.sqlite")
        #expect(try CLI.run(["vocab", "import", Self.fixture("tiny.csv"), Self.fixture("tiny.tsv"), "-o", store, "--quiet"]).status == 0)
        let report = try CLI.run(["inspect", store])
        #expect(report.status == 0)
        #expect(report.stdout.contains("vocab_entry") && report.stdout.contains("vocabulary: ") && report.stdout.contains("entries (view vocab_view)"))
        #expect(report.stdout.contains("  N5\t4\n"), "\(report.stdout)")
        #expect(report.stdout.contains("vocab_import: {"))
        let verify = try CLI.run(["verify", store])
        #expect(verify.status == 0 && verify.stdout.contains("a vocabulary store"))
        let other = try CLI.run(["inspect", Self.fixture("tiny.csv")])
        #expect(other.status == 1 && other.stderr.contains("not a Lexiforge store"))
    }
}
