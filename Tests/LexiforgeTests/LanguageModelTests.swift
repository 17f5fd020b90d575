import Foundation
import LexiforgeNgrams
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeText
import LexiforgeTestSupport
import Testing

/// Fixtures of the language-model tests (see Fixtures/lm/README.md).
private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/lm")

private func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lexiforge-lm-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Builds a store from fixture files with the pipeline, quietly.
private func buildStore(_ files: [String], order: Int, in dir: URL, name: String, lowercase: Bool = false) throws -> String {
    let output = dir.appendingPathComponent(name).path
    var config = NgramBuildConfig(inputs: files.map { fixtures.appendingPathComponent($0).path }, output: output)
    config.order = order
    config.text.lowercase = lowercase
    config.languageModel = true
    _ = try NgramBuild.run(config, progress: StageProgress(quiet: true))
    return output
}

private func which(_ tool: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
        let path = "\(dir)/\(tool)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

/// Tools some tests need, checked once when the tests are listed (a test that cannot run is
/// reported as skipped with its reason).
enum ExternalTools {
    static let kenlm: Bool = {
        guard let python = which("python3") else { return false }
        return (try? run(python, ["-c", "import kenlm"]))?.status == 0
    }()
    static let presage: Bool = which("presage_simulator") != nil && FileManager.default.fileExists(atPath: "/etc/presage.xml")
}

@discardableResult
private func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

@Suite("Language model")
struct LanguageModelTests {
    /// Sentences `a b`, `a c`, `b a b`, order 2. Worked out by hand:
    /// - unigram adjusted counts (distinct left neighbours): a 2 (<s>, b), b 2 (a, <s>), c 1, </s> 2;
    ///   t1 = 1, t2 = 3, t3 = 0, so the fallback discounts 0.5 / 1 / 1.5 apply; Σa = 7;
    ///   γ(ε) = (0.5·1 + 1·3) / 7 = 0.5; |V| without <s> = 5 (<unk> </s> a b c), uniform 0.2.
    ///   p(a) = (2 − 1)/7 + 0.5·0.2 = 0.242857; p(c) = 0.5/7 + 0.1 = 0.171429; p(<unk>) = 0.1.
    /// - bigrams (raw counts): after a: b 2, c 1; γ(a) = (1·1 + 0.5·1)/3 = 0.5;
    ///   p(b|a) = 1/3 + 0.5·0.242857 = 0.454762; p(c|a) = 0.5/3 + 0.5·0.171429 = 0.252381;
    ///   after <s>: a 2, b 1, so p(a|<s>) = 0.454762 and γ(<s>) = 0.5.
    @Test func handComputedKneserNey() throws {
        let counter = NgramCounter(order: 2)
        for sentence in [["a", "b"], ["a", "c"], ["b", "a", "b"]] { counter.add(sentence: sentence) }
        let model = KneserNey.estimate(counter.finish())
        #expect(model.fallbackOrders == [1, 2])
        let words = model.counts.words
        func p1(_ w: String) -> Double { pow(10, model.unigramLogProb[words.firstIndex(of: w)!]) }
        func p2(_ h: String, _ w: String) -> Double? {
            let t = model.counts.table(order: 2)
            let ids = [UInt32(words.firstIndex(of: h)!), UInt32(words.firstIndex(of: w)!)]
            guard let e = (0..<t.entryCount).first(where: { Array(t.ids(of: $0)) == ids }) else { return nil }
            return pow(10, model.logProbs[0][e])
        }
        func bo1(_ h: String) -> Double { pow(10, model.unigramLogBackoff[words.firstIndex(of: h)!]) }
        #expect(abs(p1("a") - (1.0 / 7 + 0.1)) < 1e-9)
        #expect(abs(p1("b") - (1.0 / 7 + 0.1)) < 1e-9)
        #expect(abs(p1("c") - (0.5 / 7 + 0.1)) < 1e-9)
        #expect(abs(p1("</s>") - (1.0 / 7 + 0.1)) < 1e-9)
        #expect(abs(p1("<unk>") - 0.1) < 1e-9)
        #expect(model.unigramLogProb[1] == -99)
        #expect(abs(p2("a", "b")! - (1.0 / 3 + 0.5 * (1.0 / 7 + 0.1))) < 1e-9)
        #expect(abs(p2("a", "c")! - (0.5 / 3 + 0.5 * (0.5 / 7 + 0.1))) < 1e-9)
        #expect(abs(p2("<s>", "a")! - (1.0 / 3 + 0.5 * (1.0 / 7 + 0.1))) < 1e-9)
        #expect(abs(bo1("a") - 0.5) < 1e-9)
        #expect(abs(bo1("<s>") - 0.5) < 1e-9)
        #expect(p2("a", "a") == nil)
    }

    @Test func chenGoodmanDiscountsFromCountsOfCounts() {
        // t1 = 10, t2 = 5, t3 = 3, t4 = 2: Y = 10/20 = 0.5; D1 = 1 − 2·0.5·5/10 = 0.5;
        // D2 = 2 − 3·0.5·3/5 = 1.1; D3+ = 3 − 4·0.5·2/3 = 1.6667.
        let d = KneserNey.chenGoodmanDiscounts([0, 10, 5, 3, 2])!
        #expect(abs(d[0] - 0.5) < 1e-12 && abs(d[1] - 1.1) < 1e-12 && abs(d[2] - 5.0 / 3) < 1e-12)
        #expect(KneserNey.chenGoodmanDiscounts([0, 10, 0, 3, 2]) == nil)
    }

    @Test(arguments: [[String](), ["I"], ["I", "think"], ["the", "cat"], ["zebra", "unknown"]])
    func probabilitiesSumToOne(context: [String]) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try buildStore(["sample.txt"], order: 3, in: dir, name: "s.sqlite")
        let predictor = try NgramPredictor(store: TrainedStore(path: path))
        let ids = [Int32(StoreSchema.ReservedID.sentenceStart)] + context.map { predictor.id(of: $0) ?? 0 }
        var sum = 0.0
        var id: Int32 = 0
        let vocabulary = Int(predictor.store.meta[StoreSchema.MetaKey.vocabulary]!)!
        while Int(id) < vocabulary {
            if id != Int32(StoreSchema.ReservedID.sentenceStart) {
                sum += pow(10, Double(try predictor.logProb(of: id, context: ids).value) / StoreSchema.logScale)
            }
            id += 1
        }
        // Stored values are rounded to 1/1000 of a log10 unit (±0.12 % each).
        #expect(abs(sum - 1) < 0.003, "Σ p(w | \(context)) = \(sum)")
    }

    @Test func mergeEqualsWholeCorpusCounting() throws {
        let sentences = SentenceSplitter.sentences(in: try String(contentsOf: fixtures.appendingPathComponent("sample.txt"), encoding: .utf8))
        let whole = NgramCounter(order: 3), first = NgramCounter(order: 3), second = NgramCounter(order: 3)
        for (i, s) in sentences.enumerated() {
            whole.add(sentence: s)
            (i < sentences.count / 2 ? first : second).add(sentence: s)
        }
        #expect(first.finish().merged(with: second.finish()) == whole.finish())
    }

    @Test func mergedStoreHasNoDifferenceApartFromProvenance() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try buildStore(["sample.txt", "tiny.txt"], order: 3, in: dir, name: "whole.sqlite")
        let a = try buildStore(["sample.txt"], order: 3, in: dir, name: "a.sqlite")
        let b = try buildStore(["tiny.txt"], order: 3, in: dir, name: "b.sqlite")
        let merged = dir.appendingPathComponent("m.sqlite").path
        _ = try Merge.run(a, b, output: merged, progress: StageProgress(quiet: true))
        #expect(try StoreDiff.run(whole, merged).data.isEmpty)
        // Learning the second shard into the first gives the same store.
        _ = try Learn.run(store: a, files: [fixtures.appendingPathComponent("tiny.txt").path], sentences: [], progress: StageProgress(quiet: true))
        #expect(try StoreDiff.run(whole, a).data.isEmpty)
    }

    @Test func completionsRankByProbabilityAndUnknownContextGivesStartingWords() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try buildStore(["sample.txt"], order: 3, in: dir, name: "s.sqlite")
        let predictor = try NgramPredictor(store: TrainedStore(path: path))
        let completions = try predictor.completions(of: "th", after: ["I", "think"], limit: 3)
        #expect(completions.first?.word == "that")
        #expect(completions.allSatisfy { $0.word.hasPrefix("th") })
        #expect(zip(completions, completions.dropFirst()).allSatisfy { $0.log10Probability >= $1.log10Probability })
        #expect(try predictor.nextWords(after: ["qwerty"], limit: 2) == predictor.startingWords(limit: 2))
        // An unknown word after known ones: the unigram distribution (ARPA's back-off for <unk>),
        // not the sentence openers.
        let afterUnknown = try predictor.nextWords(after: ["I", "qwerty"], limit: 3)
        // Spelled out with types: as one chain this took the type checker 7 s.
        typealias Scored = (word: String, p: Double)
        var scored: [Scored] = []
        for id in Int(StoreSchema.ReservedID.firstWord)..<predictor.words.count {
            let word: String = predictor.words[id]
            guard TrainedStore.isSuggestible(word) else { continue }
            let p: Double = try predictor.probability(of: word, after: [])
            scored.append((word: word, p: p))
        }
        func precedes(_ a: Scored, _ b: Scored) -> Bool {
            if a.p != b.p { return a.p > b.p }
            return predictor.id(of: a.word)! < predictor.id(of: b.word)!
        }
        let unigramBest: ArraySlice<Scored> = scored.sorted(by: precedes).prefix(3)
        #expect(afterUnknown.map(\.word) == unigramBest.map(\.word))
        #expect(zip(afterUnknown, unigramBest).allSatisfy { abs($0.probability - $1.p) < 1e-9 && $0.order == 1 })
        #expect(afterUnknown != (try predictor.startingWords(limit: 3)))
        #expect(try predictor.completions(of: "", after: ["I"], limit: 2) == predictor.nextWords(after: ["I"], limit: 2))
        #expect(try predictor.completions(of: "zzz", after: ["I"]).isEmpty)
        let p = try predictor.probability(of: "think", after: ["I"])
        #expect(abs(p - pow(10, try predictor.nextWords(after: ["I"], limit: 1)[0].log10Probability)) < 1e-9)
    }

    @Test(.enabled(if: ExternalTools.kenlm, "python3 with the kenlm module is not installed (`make test` installs it; pip install kenlm)"))
    func arpaRoundTripThroughKenLM() throws {
        let python = try #require(which("python3"))
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try buildStore(["sample.txt"], order: 3, in: dir, name: "s.sqlite")
        let arpa = dir.appendingPathComponent("s.arpa").path
        try Export.arpa(store: path, output: arpa)
        let tokens = dir.appendingPathComponent("held-out.tok").path
        let ours = try Evaluation.perplexity(store: path, files: [fixtures.appendingPathComponent("tiny.txt").path], tokensOutput: tokens)
        let script = """
            import kenlm, sys
            m = kenlm.Model(sys.argv[1]); total = 0.0; n = 0
            for line in open(sys.argv[2]):
                line = line.strip()
                if line: total += m.score(line, bos=True, eos=True); n += len(line.split()) + 1
            print(10 ** (-total / n))
            """
        let result = try run(python, ["-c", script, arpa, tokens])
        let kenlm = Double(result.output.split(separator: "\n").last.map(String.init) ?? "")
        #expect(kenlm != nil, "kenlm failed: \(result.output)")
        if let kenlm { #expect(abs(kenlm - ours.perplexity) / ours.perplexity < 0.001, "kenlm \(kenlm), ours \(ours.perplexity)") }
        #expect(ours.oov == 7)   // a, b and c never occur in sample.txt
    }

    @Test(.enabled(if: ExternalTools.presage, "presage_simulator is not installed (Debian package presage; `make deps`)"))
    func presageSimulatorRunsOnExport() throws {
        let simulator = try #require(which("presage_simulator"))
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try buildStore(["sample.txt"], order: 3, in: dir, name: "s.sqlite", lowercase: true)
        let database = dir.appendingPathComponent("presage.db").path
        let rows = try Export.presage(store: path, output: database)
        #expect(rows.count == 3 && rows.allSatisfy { $0 > 0 })
        var config = try String(contentsOfFile: "/etc/presage.xml", encoding: .utf8)
        config = config.replacingOccurrences(of: #"<PREDICTORS>[^<]*</PREDICTORS>"#, with: "<PREDICTORS>DefaultSmoothedNgramPredictor</PREDICTORS>", options: .regularExpression)
        config = config.replacingOccurrences(of: "/usr/share/presage/database_en.db", with: database)
        let configPath = dir.appendingPathComponent("presage.xml").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        let text = dir.appendingPathComponent("typed.txt").path
        try "I think that the cat sat on the mat.\n".write(toFile: text, atomically: true, encoding: .utf8)
        let result = try run(simulator, ["-q", "-c", configPath, text])
        #expect(result.status == 0)
        let ksr = result.output.split(separator: "\n").first { $0.hasPrefix("KSR:") }
        #expect(ksr != nil, "presage_simulator printed no KSR: \(result.output)")
        // Our own simulated user on the same text, for the record.
        let ours = try Evaluation.ksr(store: path, files: [text], suggestions: 6)
        #expect(ours.ksr > 0.3)
        // The presage protocol counts exactly presage_simulator's keystrokes without prediction.
        let text2 = dir.appendingPathComponent("typed2.txt").path
        try "\u{FEFF}“Don't,” she said—twice. Well-known cats sat!\n".write(toFile: text2, atomically: true, encoding: .utf8)
        for insensitive in [false, true] {
            let presage = try run(simulator, ["-q"] + (insensitive ? ["-i"] : []) + ["-c", configPath, text2])
            let kn = presage.output.split(separator: "\n").first { $0.hasPrefix("kn : ") }.flatMap { Int($0.dropFirst(5)) }
            let strict = try Evaluation.ksr(store: path, files: [text2], suggestions: 6, protocol: .presage(caseInsensitive: insensitive))
            #expect(kn == strict.characters, "presage_simulator kn \(String(describing: kn)), ours \(strict.characters)")
        }
    }

    @Test func presageTokensAreThoseOfPresageSimulator() {
        let text = Array("“Don't,” she said—twice. Well-known\tcats? 3.5\n".utf8)
        let tokens = Evaluation.presageTokens(text, lowercase: false)
        #expect(tokens.map(\.text) == ["“Don", "t", "”", "she", "said—twice", "Well", "known", "cats", "3", "5", ""])
        #expect(tokens.map(\.sentenceStart) == [true, false, false, false, false, true, false, false, true, true, false])
        #expect(tokens.map(\.afterPunctuation) == [false, false, true, false, false, false, false, false, false, true, false])
        #expect(tokens[0].bytes.count == 6 && tokens[2].bytes.count == 3)   // keystrokes are UTF-8 bytes
        #expect(Evaluation.presageTokens(text, lowercase: true).map(\.text).prefix(2) == ["“don", "t"])
    }

    @Test func presageProtocolKeystrokes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try buildStore(["sample.txt"], order: 3, in: dir, name: "s.sqlite", lowercase: true)
        let text = dir.appendingPathComponent("typed.txt").path
        try "I think.\n".write(toFile: text, atomically: true, encoding: .utf8)
        // "I" at the start of a sentence is shown capitalized and taken at once; "think" follows "i".
        var keys: [String: Int] = [:]
        let report = try Evaluation.ksr(store: path, files: [text], suggestions: 6, protocol: .presage(caseInsensitive: false)) { keys[$0] = $1 }
        #expect(keys == ["I": 1, "think": 1, "": 1])
        #expect(report.characters == 2 + 6 + 1 && report.typed == 1)   // and the empty token after "."
        #expect(report.selections == 3)   // presage_simulator's selection counter starts at 1
        // After an opening quote (3 bytes typed), the suggestion keeps the quote and the capital.
        try "“I think,” you know.\n".write(toFile: text, atomically: true, encoding: .utf8)
        keys = [:]
        _ = try Evaluation.ksr(store: path, files: [text], suggestions: 6, protocol: .presage(caseInsensitive: false)) { keys[$0] = $1 }
        #expect(keys["“I"] == 4 && keys["think"] == 1)
        // A lone closing quote after "," inside the quotation is offered first and taken at once.
        #expect(keys["”"] == 1)
        try "“I think” you know.\n".write(toFile: text, atomically: true, encoding: .utf8)
        keys = [:]
        _ = try Evaluation.ksr(store: path, files: [text], suggestions: 6, protocol: .presage(caseInsensitive: false)) { keys[$0] = $1 }
        #expect(keys["think”"] == 9, "no punctuation before it: the quote is typed")
    }

    @Test("presage protocol: after \"don'\" the keyboard completes the contraction and offers what is left (\"t\")")
    func contractionsAreCompleted() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let corpus = dir.appendingPathComponent("c.txt").path
        try "I don't know. You don't know. We didn't go. It's late. It's cold. I do know.\n"
            .write(toFile: corpus, atomically: true, encoding: .utf8)
        let path = dir.appendingPathComponent("c.sqlite").path
        var config = NgramBuildConfig(inputs: [corpus], output: path)
        config.text.lowercase = true
        config.languageModel = true
        _ = try NgramBuild.run(config, progress: StageProgress(quiet: true))
        #expect(Evaluation.presageTokens(Array("I don't, it's".utf8), lowercase: false).map(\.afterApostrophe) == [false, false, true, false, true])
        let text = dir.appendingPathComponent("typed.txt").path
        try "They don't know.\n".write(toFile: text, atomically: true, encoding: .utf8)
        var keys: [String: Int] = [:]
        _ = try Evaluation.ksr(store: path, files: [text], suggestions: 3, protocol: .presage(caseInsensitive: false)) { keys[$0] = $1 }
        // "t" is the rest of "don't": offered before anything is typed; "know" then follows "don't".
        #expect(keys["t"] == 1 && keys["know"] == 1, "\(keys)")
    }

    @Test func badInputHasClearMessages() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try buildStore(["tiny.txt"], order: 2, in: dir, name: "t.sqlite")
        // Each message names the path and says what is wrong.
        let noFolder = #expect(throws: (any Error).self) { try Export.arpa(store: path, output: "/nonexistent-folder/x.arpa") }
        #expect("\(noFolder.map { "\($0)" } ?? "")".contains("/nonexistent-folder"), "\(String(describing: noFolder))")
        let missing = dir.appendingPathComponent("missing.sqlite").path
        let noStore = #expect(throws: (any Error).self) { try Export.arpa(store: missing, output: dir.appendingPathComponent("x.arpa").path) }
        #expect("\(noStore.map { "\($0)" } ?? "")".contains(missing), "\(String(describing: noStore))")
        let store = try TrainedStore(path: path)
        let noOrder = #expect(throws: StoreError.self) { try store.forEachNgram(order: 3) { _ in } }
        #expect("\(noOrder.map { "\($0)" } ?? "")".contains("3"), "\(String(describing: noOrder))")
        let predictor = try NgramPredictor(store: store)
        #expect(try predictor.nextWords(after: ["a"], limit: 0).isEmpty)
    }
}

/// Ranked queries against brute force (p(w | context) of every word), on seeded random corpora
/// with busy contexts, with and without the `_top` lists, so both query paths are checked.
@Suite("Ranked queries")
struct RankedQueryTests {
    /// A Zipf-ish random corpus over `vocabulary` made-up words; "the" and "of the" get well over
    /// ``StoreSchema/busyContext`` distinct continuations.
    static func corpus(seed: UInt64, sentences: Int = 1500, vocabulary: Int = 400) -> [[String]] {
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var words: [String] = []
        for i in 0..<vocabulary {
            var word = ""
            for j in 0..<(2 + i % 5) { word.append(letters[(i * 7 + j * 13 + j * i) % 26]) }
            words.append(word + String(i))
        }
        func word() -> String { words[Int(Double(words.count) * pow(Double(next() % 10_000) / 10_000, 2.5))] }
        return (0..<sentences).map { _ in
            (0..<(2 + Int(next() % 8))).map { _ in next() % 4 == 0 ? "the" : (next() % 9 == 0 ? "of" : word()) }
        }
    }

    @Test("top-k equals brute force", arguments: [(UInt64(1), true), (2, true), (3, false)])
    func rankedEqualsBruteForce(seed: UInt64, topLists: Bool) throws {
        let counter = NgramCounter(order: 3)
        for sentence in Self.corpus(seed: seed) { counter.add(sentence: sentence) }
        let model = KneserNey.estimate(counter.finish())
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("r.sqlite").path
        try StoreWriter.write(model: model, meta: [StoreSchema.MetaKey.order: "3", StoreSchema.MetaKey.languageModel: "{}"],
                              to: AtomicStoreFile.prepare(path: path), topLists: topLists)
        let predictor = try NgramPredictor(store: TrainedStore(path: path))
        let tables = try predictor.store.tableStatistics()
        for n in [2, 3] {
            let rows = tables.first { $0.name == StoreSchema.topTable(order: n) }?.rows ?? 0
            #expect(topLists ? rows > 0 : rows == 0, "\(StoreSchema.topTable(order: n)): \(rows) busy contexts")
        }
        let words = model.counts.words.filter { TrainedStore.isSuggestible($0) }
        for context in [["of", "the"], ["the"], ["of"], [model.counts.words[5], "the"], []] {
            let h = context.isEmpty ? [] : context
            func exact(_ w: String) throws -> Double {
                try predictor.probability(of: w, after: h, sentenceStart: context.isEmpty)
            }
            for prefix in ["", "a", "b", "t", "th", "q", "zz"] {
                let candidates = words.filter { $0.hasPrefix(prefix) }
                let scored = try candidates.map { (word: $0, p: try exact($0)) }
                let got = prefix.isEmpty ? try predictor.nextWords(after: h, limit: 3)
                                         : try predictor.completions(of: prefix, after: h, limit: 3)
                #expect(got.count == min(3, candidates.count), "\(context) \(prefix)")
                // Each answer has its exact probability, and nothing left out beats the last one.
                for p in got {
                    #expect(abs(p.probability - (try exact(p.word))) < 1e-9, "\(context) '\(prefix)': \(p)")
                }
                if let last = got.last {
                    let missing = scored.filter { s in !got.contains { $0.word == s.word } && s.p > last.probability * (1 + 1e-9) }
                    #expect(missing.isEmpty, "\(context) '\(prefix)': \(missing.prefix(3)) beat \(got)")
                }
            }
        }
    }
}

@Suite("Suggestion style")
struct SuggestionStyleTests {
    @Test func lowercasedStoreQueriesLowercaseAndShowsTheTypedCase() {
        let style = SuggestionStyle(lowercasedStore: true)
        #expect(style.query("Th") == "th" && style.query("“Th") == "th" && style.query("(") == "")
        #expect(style.display("the", typed: "Th", atSentenceStart: false) == "The")
        #expect(style.display("the", typed: "th", atSentenceStart: true) == "the")
        #expect(style.display("cat", typed: "", atSentenceStart: true) == "Cat")
        #expect(style.display("cat", typed: "", atSentenceStart: false) == "cat")
        // The pronoun "I" is shown with its capital anywhere, unless typed in lowercase.
        #expect(style.display("i", typed: "", atSentenceStart: false) == "I" && style.display("i'm", typed: "", atSentenceStart: false) == "I'm")
        #expect(style.display("i", typed: "i", atSentenceStart: false) == "i")
        var plain = style
        plain.capitalized = []
        #expect(plain.display("i", typed: "", atSentenceStart: false) == "i")
        #expect(style.display("i", typed: "“", atSentenceStart: false) == "“I")
        #expect(style.display("dog", typed: "(d", atSentenceStart: true) == "(dog")
        // A spelling the session learned ("I") is shown unless the typed letters say otherwise.
        #expect(style.display("i", typed: "", atSentenceStart: false, written: "I") == "I")
        #expect(style.display("victor", typed: "v", atSentenceStart: false, written: "Victor") == "victor")
        #expect(style.display("victor", typed: "“", atSentenceStart: false, written: "Victor") == "“Victor")
        let kept = SuggestionStyle(lowercasedStore: false)
        #expect(kept.query("Th") == "Th" && kept.display("the", typed: "“", atSentenceStart: true) == "“the")
    }

    @Test func followsTheUsersApostropheAndQuotations() {
        var style = SuggestionStyle(lowercasedStore: true)
        #expect(style.display("don't", typed: "d", atSentenceStart: false) == "don't")   // nothing typed yet: as stored
        style.observe("o’clock")
        #expect(style.apostrophe == "’" && style.display("don't", typed: "D", atSentenceStart: false) == "Don’t")
        style.observe("rock'n'roll")
        #expect(style.display("don’t", typed: "", atSentenceStart: false) == "don't")
        style.observe("'tis")   // a quote, not an apostrophe between letters
        #expect(style.apostrophe == "'")
        #expect(style.closingQuote(afterPunctuation: true) == nil)
        style.observe("“Well")
        #expect(style.closingQuote(afterPunctuation: true) == "”" && style.closingQuote(afterPunctuation: false) == nil)
        style.observe("”")
        #expect(style.closingQuote(afterPunctuation: true) == nil)
        style.observe("“Yes”")   // opened and closed in one word
        #expect(style.openQuotation == nil)
    }
}

@Suite("Session predictor")
struct SessionPredictorTests {
    @Test("typed words come up, mixed exactly with the model; nothing typed changes nothing")
    func sessionCache() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try buildStore(["sample.txt"], order: 3, in: dir, name: "s.sqlite")
        let model = try NgramPredictor(store: TrainedStore(path: path))
        let session = SessionPredictor(model: model, weight: 0.1)
        let before = try model.nextWords(after: ["I"], limit: 3).map(\.word)
        #expect(try session.nextWords(after: ["I"], limit: 3).map(\.word) == before)
        session.learn("zebra")   // unknown to the store
        let completions = try session.completions(of: "ze", after: ["I"], limit: 3)
        #expect(completions.first?.word == "zebra")
        // Only the cache speaks for an unknown word: λ · c(w) / N = 0.1 · 1 / 1.
        #expect(abs(completions[0].probability - 0.1) < 1e-9)
        // A known word: (1 − λ) p_model + λ · cache, the model part looked up exactly.
        session.learn("think", after: "zebra")
        let think = try #require(try session.completions(of: "thi", after: ["I"], limit: 3).first { $0.word == "think" })
        let pModel = try model.probability(of: "think", after: ["I"])
        #expect(abs(think.probability - (0.9 * pModel + 0.1 * 0.5)) < 1e-6)
    }

    @Test("the session's ranking is exact: the best of the model and the typed words, by brute force")
    func sessionRankingAgainstBruteForce() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try buildStore(["sample.txt"], order: 3, in: dir, name: "s.sqlite", lowercase: true)
        let model = try NgramPredictor(store: TrainedStore(path: path))
        let session = SessionPredictor(model: model, weight: 0.3)
        let typed = "the zebra sat on the mat the zebra thinks that the tiger sat on the zebra".split(separator: " ").map(String.init)
        var previous: String?
        for word in typed {
            session.learn(word, after: previous)
            previous = word
        }
        let sample = try String(contentsOf: fixtures.appendingPathComponent("sample.txt"), encoding: .utf8).lowercased()
        let vocabulary = Set(sample.split { !$0.isLetter }.map(String.init) + typed)
        for context in [["the"], ["sat", "on"], ["thinks", "that"], []] {
            for prefix in ["", "t", "th", "z", "s"] {
                func exact(_ word: String) throws -> Double {
                    let count = Double(typed.filter { $0 == word }.count)
                    let pairs = context.last.map { v in zip(typed, typed.dropFirst()).filter { $0.0 == v } } ?? []
                    let unigram = count / Double(typed.count)
                    let cache = pairs.isEmpty ? unigram : 0.5 * Double(pairs.filter { $0.1 == word }.count) / Double(pairs.count) + 0.5 * unigram
                    let pModel = model.id(of: word) == nil ? 0 : try model.probability(of: word, after: context, sentenceStart: context.isEmpty)
                    return 0.7 * pModel + 0.3 * cache
                }
                let scored = try vocabulary.filter { $0.hasPrefix(prefix) }.map { (word: $0, p: try exact($0)) }
                let got = try session.completions(of: prefix, after: context, limit: 3)
                #expect(got.count == min(3, scored.count))
                for p in got { #expect(abs(p.probability - (try exact(p.word))) < 1e-6, "\(context) '\(prefix)': \(p)") }
                if let last = got.last {
                    let missing = scored.filter { s in !got.contains { $0.word == s.word } && s.p > last.probability * (1 + 1e-6) }
                    #expect(missing.isEmpty, "\(context) '\(prefix)': \(missing) beat \(got)")
                }
            }
        }
    }

    @Test("the session remembers how the user writes a word inside a sentence")
    func spellings() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try buildStore(["sample.txt"], order: 3, in: dir, name: "s.sqlite", lowercase: true)
        let session = SessionPredictor(model: try NgramPredictor(store: TrainedStore(path: path)))
        #expect(session.spelling(of: "i") == nil)
        session.learn("i", after: "think", written: "I")
        session.learn("cat", after: "the", written: "cat")
        #expect(session.spelling(of: "i") == "I" && session.spelling(of: "cat") == nil)
        session.learn("i")   // case unknown (a sentence start): the spelling stays
        #expect(session.spelling(of: "i") == "I")
        session.learn("i", written: "i")
        #expect(session.spelling(of: "i") == nil)
    }

    @Test("presage protocol: a learned spelling is shown in the middle of a sentence")
    func learnedSpellingInPresageProtocol() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try buildStore(["sample.txt"], order: 3, in: dir, name: "s.sqlite", lowercase: true)
        let text = dir.appendingPathComponent("typed.txt").path
        try "and the Dog sat and the Dog sat".write(toFile: text, atomically: true, encoding: .utf8)
        var keys: [Int] = []
        _ = try Evaluation.ksr(store: path, files: [text], suggestions: 6, adapt: true, protocol: .presage(caseInsensitive: false)) { keys.append($1) }
        // The first "Dog" inside the sentence is typed (2 keys: "dog" is shown, not "Dog"); the second is taken at once.
        #expect(keys[2] == 2 && keys[6] == 1, "\(keys)")
        keys = []
        _ = try Evaluation.ksr(store: path, files: [text], suggestions: 6, protocol: .presage(caseInsensitive: false)) { keys.append($1) }
        #expect(keys[6] == 2, "without a session nothing is learned: \(keys)")
        // "I" is shown capitalized anywhere, session or not.
        try "so I think so I think".write(toFile: text, atomically: true, encoding: .utf8)
        keys = []
        _ = try Evaluation.ksr(store: path, files: [text], suggestions: 6, protocol: .presage(caseInsensitive: false)) { keys.append($1) }
        #expect(keys[1] == 1 && keys[4] == 1, "\(keys)")
    }
}
