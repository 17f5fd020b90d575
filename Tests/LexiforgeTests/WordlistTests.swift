import Foundation
import GRDB
import LexiforgeCorpus
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeWordlist
import LexiforgeTestSupport
import Testing

/// Fixtures of Fixtures/wordlist/ (see the README there).
enum WordlistFixture {
    static func path(_ name: String) -> String { Paths.fixture("wordlist/" + name) }
    static var tinyText: String { (try? String(contentsOfFile: path("tiny.combined"), encoding: .utf8)) ?? "" }
    static func sharedList(_ name: String) -> String {
        Paths.sharedData.appendingPathComponent("wordlists").appendingPathComponent(name).path
    }
    static func sharedListAvailable(_ name: String) -> Bool { FileManager.default.fileExists(atPath: sharedList(name)) }

    /// Imports `lists` into a store in `folder`.
    static func importStore(_ lists: [String], in folder: TemporaryFolder, name: String = "lexicon.sqlite") throws -> String {
        let output = folder.file(name)
        _ = try WordlistImport.run(WordlistImportConfig(inputs: lists, output: output), progress: StageProgress(quiet: true))
        return output
    }

    /// Decompressed bytes of a plain or gzipped file (through the importer's own zlib reader).
    static func text(of path: String) throws -> [UInt8] {
        let source = try ByteSource(path: path)
        let capacity = 1 << 20
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var bytes: [UInt8] = []
        while true {
            let n = try source.read(into: buffer, capacity: capacity)
            if n == 0 { return bytes }
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: n))
        }
    }
}

@Suite("wordlist parser")
struct WordlistParserTests {
    @Test("the tiny fixture: every field is read")
    func tinyFields() throws {
        let result = WordlistReader.read(paths: [WordlistFixture.path("tiny.combined.gz")])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let lexicon = result.lexicon
        #expect(lexicon.headers.count == 1)
        #expect(lexicon.headers[0].map(\.key) == ["dictionary", "locale", "description", "date", "version", "REQUIRES_GERMAN_UMLAUT_PROCESSING"])
        #expect(lexicon.headers[0][2].value == "Tiny test list")
        let byWord = Dictionary(uniqueKeysWithValues: lexicon.entries.map { ($0.word, $0) })
        #expect(lexicon.entries.count == 11)
        #expect(byWord["the"]?.children == [.bigram(next: "cat", frequency: 1, extra: nil)])
        #expect(byWord["that"]?.originalFrequency == 190)
        #expect(byWord["ill"]?.whitelist == "I'll")
        #expect(byWord["ill"]?.children == [.shortcut(target: "I'll", frequency: nil, extra: nil)])
        #expect(byWord["thug"]?.attributes == [.possiblyOffensive])
        #expect(byWord["thug"]?.flags == "offensive")
        #expect(byWord["cat"]?.extraKeys == [.init(position: 4, key: "custom_key", value: "kept")])
        #expect(byWord["cat"]?.children.last == .other(line: "  future_child=x,f=1"))
        #expect(byWord["one,two"]?.flags == "abbreviation", "\\, is an escaped comma")
        #expect(byWord["thx"]?.attributes == [.notAWord, .noOriginalFrequency])
        #expect(byWord["thx"]?.originalFrequency == nil)
        #expect(byWord["thx"]?.flags == nil)
        #expect(result.files.first?.gzip == true)
        #expect(result.files.first?.entries == 11)
    }

    @Test("written back, the tiny list is byte-identical")
    func tinyRoundTripText() throws {
        let lexicon = try WordlistReader.read(paths: [WordlistFixture.path("tiny.combined")]).lexicon(strict: true)
        #expect(WordlistWriter.text(of: lexicon) == WordlistFixture.tinyText)
    }

    @Test("p = 1.15^(f - 255)", arguments: [(255, 1.0), (222, 0.009_895), (0, 3.327e-16)])
    func probability(f: Int, p: Double) {
        let got = LexiconEntry.probability(ofFrequency: f)
        #expect(abs(got - p) / p < 0.01, "f=\(f): \(got)")
    }

    /// A bad list and what its diagnostics must say.
    struct BadInput: Sendable, CustomTestStringConvertible {
        var id: String
        var text: String
        var fragments: [String]
        var severity: WordlistDiagnostic.Severity = .error
        var testDescription: String { id }
    }

    static let header = "dictionary=main:xx,locale=xx,version=1\n"

    static let badInputs: [BadInput] = [
        BadInput(id: "missing header", text: " word=a,f=1\n", fragments: [":1:", "missing header", "dictionary="]),
        BadInput(id: "entry without word=", text: header + " f=5,flags=\n", fragments: [":2:", "entry without word=", "expected ` word=WORD,f=N"]),
        BadInput(id: "f out of range", text: header + " word=a,f=300\n", fragments: [":2:", "f=300 is out of range", "0 to 255"]),
        BadInput(id: "f negative", text: header + " word=a,f=-1\n", fragments: [":2:", "f=-1 is not a number"]),
        BadInput(id: "f not a number", text: header + " word=a,f=abc\n", fragments: [":2:", "f=abc is not a number", "0 to 255"]),
        BadInput(id: "no f at all", text: header + " word=a,flags=\n", fragments: [":2:", "no f="]),
        BadInput(id: "originalFreq not a number", text: header + " word=a,f=1,originalFreq=x\n", fragments: [":2:", "originalFreq=x is not a number"]),
        BadInput(id: "child line before any word", text: header + "  shortcut=x,f=1\n", fragments: [":2:", "child line before any word"]),
        BadInput(id: "empty word", text: header + " word=,f=1\n", fragments: [":2:", "empty word="]),
        BadInput(id: "field without =", text: header + " word=a,f=1,junk\n", fragments: [":2:", "`junk` is not key=value"]),
        BadInput(id: "key twice", text: header + " word=a,f=1,f=2\n", fragments: [":2:", "key `f` appears twice"]),
        BadInput(id: "not_a_word not a boolean", text: header + " word=a,f=1,not_a_word=yes\n", fragments: [":2:", "expected not_a_word=true or not_a_word=false"]),
        BadInput(id: "bad escape", text: header + " word=a\\b,f=1\n", fragments: [":2:", "bad escape", "\\,"]),
        BadInput(id: "shortcut without f", text: header + " word=a,f=1\n  shortcut=b\n", fragments: [":3:", "shortcut line without f="]),
        BadInput(id: "bigram f out of range", text: header + " word=a,f=1\n  bigram=b,f=999\n", fragments: [":3:", "f=999 is out of range"]),
        BadInput(id: "entry without leading space", text: header + "word=a,f=1\n", fragments: [":2:", "without its leading space"]),
        BadInput(id: "garbage line", text: header + "hello\n", fragments: [":2:", "`hello` is not a wordlist line"]),
        BadInput(id: "invalid UTF-8", text: header + " word=caf\u{FFFD},f=1\n", fragments: [":2:", "invalid UTF-8"]),
        BadInput(id: "empty file", text: "", fragments: ["empty file"]),
        BadInput(id: "duplicate word", text: header + " word=a,f=2\n word=b,f=1\n word=a,f=1\n", fragments: [":4:", "duplicate word `a`", ":2)"], severity: .warning),
        BadInput(id: "CRLF line ends", text: header.replacingOccurrences(of: "\n", with: "\r\n") + " word=a,f=1\r\n", fragments: [":1:", "CRLF line end (and on 1 more line(s))", "expected LF"], severity: .warning),
        BadInput(id: "comment line", text: header + "# note\n word=a,f=1\n", fragments: [":2:", "comment line dropped"], severity: .warning),
        BadInput(id: "keys out of order", text: header + " word=a,flags=,f=1\n", fragments: [":2:", "unusual order", "f,flags"], severity: .warning),
        BadInput(id: "no final line feed", text: header + " word=a,f=1", fragments: [":2:", "no line feed after the last line"], severity: .warning),
    ]

    @Test("bad input is reported with file:line and what was expected", arguments: badInputs)
    func badInput(_ case: BadInput) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("bad.combined")
        var bytes = Array(`case`.text.utf8)
        if `case`.id == "invalid UTF-8" {
            bytes = Array(`case`.text.replacingOccurrences(of: "\u{FFFD}", with: "#").utf8)
            bytes[bytes.lastIndex(of: UInt8(ascii: "#"))!] = 0xE9   // a Latin-1 é
        }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let result = WordlistReader.read(paths: [path])
        let matching = result.diagnostics.filter { $0.severity == `case`.severity }
        let found = matching.contains { d in `case`.fragments.allSatisfy { d.description.contains($0) } }
        #expect(found, "\(`case`.id): \(result.diagnostics.map(\.description))")
        #expect(matching.allSatisfy { $0.description.hasPrefix(path) })
        if `case`.severity == .warning {
            #expect(result.errors.isEmpty, "\(result.errors)")
            #expect(throws: WordlistError.self) { try result.lexicon(strict: true) }
            _ = try result.lexicon(strict: false)
        } else {
            #expect(throws: WordlistError.self) { try result.lexicon(strict: false) }
        }
    }

    @Test("every problem of a file is reported, not just the first")
    func collectsAll() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("many.combined")
        try (Self.header + " word=a,f=300\n word=b,f=x\n  shortcut=c\n word=,f=1\n").write(toFile: path, atomically: true, encoding: .utf8)
        let lines = WordlistReader.read(paths: [path]).errors.compactMap(\.line)
        #expect(lines == [2, 3, 4, 5], "child lines under a bad entry are checked too")
    }

    @Test("gzip fixtures: truncated is an error, plain text named .gz a warning")
    func gzipFixtures() throws {
        let truncated = WordlistReader.read(paths: [WordlistFixture.path("truncated.combined.gz")])
        #expect(truncated.errors.contains { $0.message.contains("corrupt gzip data") && $0.line != nil })
        let plain = WordlistReader.read(paths: [WordlistFixture.path("plain-named.combined.gz")])
        #expect(plain.errors.isEmpty)
        #expect(plain.warnings.contains { $0.message.contains("not gzip-compressed") })
        #expect(plain.lexicon.entries.count == 11)
    }

    @Test("seeded random lexicons survive write → read unchanged", arguments: [1, 2, 3] as [UInt64])
    func randomRoundTrip(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let alphabet = Array("abcxyzÄéß,\\'-. ")
        var lexicon = Lexicon(headers: [[.init(key: "dictionary", value: "main:r"), .init(key: "odd", value: "a,b\\c")]])
        var seen = Set<String>()
        for _ in 0..<300 {
            let length = Int.random(in: 1...8, using: &rng)
            let word = String((0..<length).map { _ in alphabet.randomElement(using: &rng)! })
            guard seen.insert(word).inserted, word.first != " " else { continue }
            var entry = LexiconEntry(word: word, frequency: Int.random(in: 0...255, using: &rng))
            if Bool.random(using: &rng) { entry.flags = Bool.random(using: &rng) ? "" : "abbreviation" }
            if Bool.random(using: &rng) { entry.originalFrequency = Int.random(in: 0...255, using: &rng) }
            if Int.random(in: 0..<5, using: &rng) == 0 { entry.attributes.insert(.possiblyOffensive) }
            if Int.random(in: 0..<7, using: &rng) == 0 { entry.attributes.insert(.notAWord) }
            if Int.random(in: 0..<6, using: &rng) == 0 {
                entry.extraKeys = [.init(position: 1, key: "zz", value: "v,\\w")]
            }
            if Int.random(in: 0..<4, using: &rng) == 0 {
                entry.children = [.shortcut(target: "s,t", frequency: Bool.random(using: &rng) ? nil : 3, extra: nil)]
            }
            lexicon.entries.append(entry)
        }
        let folder = try TemporaryFolder()
        let path = folder.file("random.combined.gz")
        try WordlistWriter.write(lexicon, to: path)
        let back = try WordlistReader.read(paths: [path]).lexicon(strict: true)
        var expected = lexicon
        for i in expected.entries.indices where expected.entries[i].originalFrequency == nil {
            expected.entries[i].attributes.insert(.noOriginalFrequency)
        }
        #expect(back == expected)
    }
}

@Suite("wordlist store and completion")
struct WordlistStoreTests {
    @Test("import → export of the tiny list reproduces it byte for byte")
    func tinyThroughStore() throws {
        let folder = try TemporaryFolder()
        let store = try WordlistFixture.importStore([WordlistFixture.path("tiny.combined.gz")], in: folder)
        let out = folder.file("out.combined.gz")
        _ = try WordlistExport.run(store: store, output: out, progress: StageProgress(quiet: true))
        #expect(try WordlistFixture.text(of: out) == Array(WordlistFixture.tinyText.utf8))
    }

    @Test("one id per word; lexicon rows, view and side tables")
    func storeLayout() throws {
        let folder = try TemporaryFolder()
        let store = try TrainedStore(path: WordlistFixture.importStore([WordlistFixture.path("tiny.combined")], in: folder))
        #expect(store.hasLexicon)
        #expect(try store.id(of: "the") == 3, "ids follow list order after the reserved tokens")
        #expect(try store.id(of: "thx") == 13)
        let lexicon = try store.lexicon()
        #expect(lexicon.entries.map(\.word).prefix(3) == ["the", "this", "that"])
        #expect(lexicon.entries.first { $0.word == "that" }?.originalFrequency == 190)
    }

    @Test("--word-classes: lemma and script class of every entry in word_class, shown by lexicon_view")
    func wordClasses() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("classes.sqlite")
        var config = WordlistImportConfig(inputs: [WordlistFixture.path("tiny.combined")], output: path)
        config.wordClasses = true
        config.lemmatizer = nil   // tag-free, no WordNet: every word its own lemma, so the test needs no install
        _ = try WordlistImport.run(config, progress: StageProgress(quiet: true))
        let rows = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT word, lemma, script FROM lexicon_view WHERE word IN ('über', 'one,two', 'the') ORDER BY id")
                .map { "\($0[0] as String)|\($0[1] as String)|\($0[2] as String)" }
        }
        #expect(rows == ["the|the|latin", "über|über|latin", "one,two|one,two|latin"])
        // Without the option the view keeps its columns, NULL.
        let plain = try WordlistFixture.importStore([WordlistFixture.path("tiny.combined")], in: folder)
        let lemma = try DatabaseQueue(path: plain).read { db in try Row.fetchOne(db, sql: "SELECT lemma, script FROM lexicon_view WHERE word = 'the'") }
        #expect(lemma?[0] as String? == nil && lemma?[1] as String? == nil)
        // The round trip does not depend on it.
        let out = folder.file("out.combined")
        _ = try WordlistExport.run(store: path, output: out, progress: StageProgress(quiet: true))
        #expect(try WordlistFixture.text(of: out) == Array(try String(contentsOfFile: WordlistFixture.path("tiny.combined"), encoding: .utf8).utf8))
    }

    struct CompletionCase: Sendable, CustomTestStringConvertible {
        var prefix: String
        var expected: [String]
        var allowOffensive = false
        var limit = 3
        var testDescription: String { "\"\(prefix)\" → \(expected)" }
    }

    static let completionCases: [CompletionCase] = [
        .init(prefix: "th", expected: ["the", "this", "that"]),
        .init(prefix: "TH", expected: ["the", "this", "that"]),
        .init(prefix: "th", expected: ["the", "this", "that", "Thomas"], limit: 10),
        .init(prefix: "th", expected: ["the", "this", "that", "Thomas", "thug"], allowOffensive: true, limit: 10),
        .init(prefix: "uber", expected: ["über"]),
        .init(prefix: "Üb", expected: ["über"]),
        .init(prefix: "mcd", expected: ["McDonald"]),
        .init(prefix: "one,", expected: ["one,two"]),
        .init(prefix: "thx", expected: [], limit: 5),
        .init(prefix: "zzz", expected: []),
    ]

    @Test("completion ranks by frequency, ignores case and accents", arguments: completionCases)
    func completion(_ c: CompletionCase) throws {
        let folder = try TemporaryFolder()
        let store = try TrainedStore(path: WordlistFixture.importStore([WordlistFixture.path("tiny.combined")], in: folder))
        let got = try store.completions(of: c.prefix, limit: c.limit, allowOffensive: c.allowOffensive).map(\.word)
        #expect(got == c.expected)
    }

    @Test("seeded random lexicon: completion equals a brute-force sort", arguments: [7, 8] as [UInt64])
    func completionMatchesBruteForce(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let letters = Array("aabbcÄäéE")
        var lexicon = Lexicon(headers: [[.init(key: "dictionary", value: "main:r")]])
        var seen = Set<String>()
        while lexicon.entries.count < 1500 {
            let word = String((0..<Int.random(in: 1...6, using: &rng)).map { _ in letters.randomElement(using: &rng)! })
            guard seen.insert(word).inserted else { continue }
            var entry = LexiconEntry(word: word, frequency: Int.random(in: 0...255, using: &rng), flags: "")
            if Int.random(in: 0..<10, using: &rng) == 0 { entry.attributes.insert(.notAWord) }
            if Int.random(in: 0..<10, using: &rng) == 0 { entry.attributes.insert(.possiblyOffensive) }
            lexicon.entries.append(entry)
        }
        lexicon.entries.sort { $0.frequency > $1.frequency }
        let folder = try TemporaryFolder()
        let path = folder.file("random.combined")
        try WordlistWriter.write(lexicon, to: path)
        let store = try TrainedStore(path: WordlistFixture.importStore([path], in: folder))
        let ids = Dictionary(uniqueKeysWithValues: lexicon.entries.enumerated().map { ($1.word, $0) })
        for prefix in ["", "a", "ä", "A", "ab", "aé", "b", "ca", "E", "e", "abab", "q"] {
            for allow in [false, true] {
                for limit in [1, 5, 16, 30] {
                    let key = LexiconKey.fold(prefix)
                    let expected = lexicon.entries
                        .filter { LexiconKey.fold($0.word).hasPrefix(key) && $0.frequency > 0 && !$0.attributes.contains(.notAWord) && (allow || !$0.attributes.contains(.possiblyOffensive)) }
                        .sorted { $0.frequency != $1.frequency ? $0.frequency > $1.frequency : ids[$0.word]! < ids[$1.word]! }
                        .prefix(limit).map(\.word)
                    let got = try store.completions(of: prefix, limit: limit, allowOffensive: allow).map(\.word)
                    #expect(got == Array(expected), "prefix \"\(prefix)\" limit \(limit) offensive \(allow)")
                }
            }
        }
    }

    @Test("a store without a lexicon says how to build one")
    func noLexicon() throws {
        let folder = try TemporaryFolder()
        let output = folder.file("ngrams.sqlite")
        _ = try NgramBuild.run(NgramBuildConfig(inputs: [Paths.fixture("tiny.txt")], output: output), progress: StageProgress(quiet: true))
        let store = try TrainedStore(path: output)
        #expect(!store.hasLexicon)
        #expect(throws: LexiconError.self) { try store.completions(of: "th") }
    }
}

@Suite("wordlist command line")
struct WordlistCLITests {
    @Test("errors exit 1 and write no store; every problem on stderr with file:line")
    func errorsWriteNothing() throws {
        let folder = try TemporaryFolder()
        let bad = folder.file("bad.combined")
        try "dictionary=main:x\n word=a,f=300\n  shortcut=b\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let output = folder.file("out.sqlite")
        let result = try CLI.run(["wordlist", "import", bad, "-o", output, "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(bad):2: f=300 is out of range"))
        #expect(result.stderr.contains("\(bad):3: shortcut line without f="))
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try folder.contents() == ["bad.combined"], "no temporary file left behind")
    }

    @Test("warnings pass unless --strict")
    func warningsAndStrict() throws {
        let folder = try TemporaryFolder()
        let list = folder.file("dup.combined")
        try "dictionary=main:x\n word=a,f=3\n word=a,f=2\n".write(toFile: list, atomically: true, encoding: .utf8)
        let output = folder.file("out.sqlite")
        let lenient = try CLI.run(["wordlist", "import", list, "-o", output, "--quiet"])
        #expect(lenient.status == 0)
        #expect(FileManager.default.fileExists(atPath: output))
        try FileManager.default.removeItem(atPath: output)
        let strict = try CLI.run(["wordlist", "import", list, "-o", output, "--quiet", "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("\(list):3: duplicate word `a`"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("import, complete, export")
    func endToEnd() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("tiny.sqlite")
        #expect(try CLI.run(["wordlist", "import", WordlistFixture.path("tiny.combined.gz"), "-o", store, "--quiet"]).status == 0)
        let complete = try CLI.run(["complete", store, "Th"])
        #expect(complete.stdoutLines == ["the\t222", "this\t200", "that\t192"])
        let out = folder.file("tiny.combined")
        #expect(try CLI.run(["wordlist", "export", store, "-o", out, "--quiet"]).status == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == WordlistFixture.tinyText)
    }
}

@Suite("wordlists of ../shared/data")
struct WordlistSharedDataTests {
    @Test("en_US and en_GB: import → export is byte-identical", .enabled(if: WordlistFixture.sharedListAvailable("en_US_wordlist.combined.gz"), "../shared/data/wordlists is absent"),
          arguments: ["en_US_wordlist.combined.gz", "en_GB_wordlist.combined.gz"])
    func realListsRoundTrip(name: String) throws {
        let folder = try TemporaryFolder()
        let list = WordlistFixture.sharedList(name)
        let store = try WordlistFixture.importStore([list], in: folder)
        let out = folder.file("out.combined.gz")
        _ = try WordlistExport.run(store: store, output: out, progress: StageProgress(quiet: true))
        #expect(try WordlistFixture.text(of: out) == WordlistFixture.text(of: list))
        let completions = try TrainedStore(path: store).completions(of: "th", limit: 3).map(\.word)
        #expect(completions == ["the", "this", "that"])
        // Issue 6's size budget for en_US: the lexicon part (words, frequencies, flags, prefix
        // index) at most 3 MB; the same tables `Tests/Bench/bench-wordlist.sh` counts.
        let bytes = try DatabaseQueue(path: store).read { db in
            try Int.fetchOne(db, sql: """
                SELECT sum(pgsize) FROM dbstat WHERE name IN ('word_block', 'word_order', 'word_count', 'lexicon_frequency',
                    'lexicon_detail', 'lexicon_folded', 'lexicon_prefix', 'lexicon_scale')
                """) ?? .max
        }
        #expect(bytes <= 3_000_000, "\(name): lexicon part \(bytes) bytes")
    }

    @Test("the with-bigrams test list: import → export is byte-identical",
          .enabled(if: WordlistFixture.sharedListAvailable("main_en_US.with-bigrams.combined.gz"), "../shared/data/wordlists is absent"))
    func bigramListRoundTrip() throws {
        let folder = try TemporaryFolder()
        let list = WordlistFixture.sharedList("main_en_US.with-bigrams.combined.gz")
        let store = try WordlistFixture.importStore([list], in: folder)
        let out = folder.file("out.combined")
        _ = try WordlistExport.run(store: store, output: out, progress: StageProgress(quiet: true))
        #expect(try WordlistFixture.text(of: out) == WordlistFixture.text(of: list))
    }
}
