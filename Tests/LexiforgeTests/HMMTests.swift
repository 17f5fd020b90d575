import Foundation
import LexiforgeTestSupport
import Testing
import LexiforgeCorpus
import LexiforgeHMM
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeStoreWriter

/// Fixtures of this suite: Tests/LexiforgeTests/Fixtures/hmm (see the README there).
private let hmmFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/hmm").path

private func fixture(_ name: String) -> String { hmmFixtures + "/" + name }

/// Reads a tagged fixture into a trainer.
private func train(_ paths: [String], config: SupervisedHMMConfig = .init()) -> HMMTables {
    let trainer = SupervisedHMMTrainer(config: config)
    for path in paths {
        let summary = TaggedCorpusReader.read(path: path, format: TaggedFormat.guess(path: path)) { trainer.add(words: $0, tags: $1) }
        precondition(summary.errors.isEmpty, "\(summary.errors)")
    }
    return trainer.finish()
}

private func temporaryDirectory() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lexiforge-hmm-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}

private func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

@Suite("HMM: supervised estimates")
struct HMMSupervisedTests {
    // tiny.txt:  the/DET dog/NOUN runs/VERB | the/DET cat/NOUN sleeps/VERB | a/DET dog/NOUN sleeps/VERB | dogs_NOUN run_VERB
    // Tags by first appearance: DET 1, NOUN 2, VERB 3; <s> is 0.
    let tables = train([fixture("tiny.txt")], config: { var c = SupervisedHMMConfig(); c.lexicalMinCount = 0; c.emission2MinCount = 0; return c }())

    func transition(_ s1: Int32, _ s2: Int32) -> Double? { tables.transitions.first { $0.s1 == s1 && $0.s2 == s2 }.map { exp($0.logprob) } }
    func transition2(_ a: Int32, _ b: Int32, _ c: Int32) -> Double? {
        tables.transitions2.first { $0.s1 == a && $0.s2 == b && $0.s3 == c }.map { exp($0.logprob) }
    }
    func emission(_ word: String, _ state: Int32) -> Double? {
        guard let id = tables.words.firstIndex(of: word) else { return nil }
        return tables.emissions.first { $0.word == Int32(id) && $0.state == state }.map { exp($0.logprob) }
    }

    @Test func statesAndUnigrams() {
        #expect(tables.states == ["<s>", "DET", "NOUN", "VERB"])
        // Counts: DET 3, NOUN 4, VERB 4, and 4 sentence ends: N = 15.
        #expect(tables.stateCounts == [4, 3, 4, 4])
        #expect(near(exp(tables.stateLogprobs[3]), 4.0 / 15))
        #expect(near(exp(tables.stateLogprobs[1]), 3.0 / 15))
    }

    @Test func transitionsAreMaximumLikelihood() {
        #expect(near(transition(0, 1)!, 3.0 / 4))       // <s> → DET in 3 of 4 sentences
        #expect(near(transition(0, 2)!, 1.0 / 4))       // <s> → NOUN ("dogs run")
        #expect(near(transition(1, 2)!, 1))             // DET → NOUN always
        #expect(near(transition(3, 0)!, 1))             // VERB ends every sentence
        #expect(transition(2, 1) == nil)
        #expect(near(transition2(0, 0, 2)!, 1.0 / 4))
        #expect(near(transition2(0, 2, 3)!, 1))
        #expect(near(exp(tables.initial[1]), 3.0 / 4))
    }

    @Test func deletedInterpolationByHand() {
        // Trigrams and the estimate that wins for each (ties go to the longer context):
        //  <s> <s> DET   f=3: (3-1)/(4-1) = .667 vs (3-1)/(4-1) = .667 vs 2/14  → λ3 += 3
        //  <s> <s> NOUN  f=1: 0/3 vs 0/3 vs (4-1)/14                            → λ1 += 1
        //  <s> DET NOUN  f=3: 2/2 vs 2/2                                          → λ3 += 3
        //  DET NOUN VERB f=3: 2/2 vs 3/3                                          → λ3 += 3
        //  NOUN VERB <s> f=4: 3/3 vs 3/3                                          → λ3 += 4
        //  <s> NOUN VERB f=1: (context of 1: 0) vs 3/3                            → λ2 += 1
        #expect(near(tables.parameters["lambda1"]!, 1.0 / 15))
        #expect(near(tables.parameters["lambda2"]!, 1.0 / 15))
        #expect(near(tables.parameters["lambda3"]!, 13.0 / 15))
    }

    @Test func emissions() {
        #expect(near(emission("dog", 2)!, 2.0 / 4))
        #expect(near(emission("dogs", 2)!, 1.0 / 4))
        #expect(near(emission("the", 1)!, 2.0 / 3))
        #expect(near(emission("sleeps", 3)!, 2.0 / 4))
        #expect(emission("dog", 3) == nil)
        // Word ids: reserved, then by descending count (dog, sleeps, the: 2 each, by bytes).
        #expect(Array(tables.words.prefix(6)) == ["<unk>", "<s>", "</s>", "dog", "sleeps", "the"])
    }

    @Test func probabilitiesSumToOne() {
        for s1 in 0..<Int32(tables.stateCount) {
            let total = tables.transitions.filter { $0.s1 == s1 }.reduce(0) { $0 + exp($1.logprob) }
            #expect(near(total, 1), "transitions out of state \(s1) sum to \(total)")
        }
        for s in 1..<Int32(tables.stateCount) {
            let total = tables.emissions.filter { $0.state == s }.reduce(0) { $0 + exp($1.logprob) }
            #expect(near(total, 1), "emissions of state \(s) sum to \(total)")
        }
        let l = ["lambda1", "lambda2", "lambda3"].reduce(0) { $0 + tables.parameters[$1]! }
        #expect(near(l, 1))
    }

    @Test func suffixCountsOfRareWords() {
        // Every word is rare here; "sleeps" (twice, VERB) and "runs" (VERB) end in "s", as does "dogs" (NOUN).
        let s = tables.suffixes.filter { $0.shape == .lower && $0.suffix == "s" }
        #expect(s.first { $0.state == 3 }?.count == 3)
        #expect(s.first { $0.state == 2 }?.count == 1)
        let all = tables.suffixes.filter { $0.suffix.isEmpty }.reduce(0) { $0 + Int($1.count) }
        #expect(all == 15 - 4)   // every token is a rare-word token
    }

    @Test func taggerOnTrainingSentences() {
        let tagger = HMMTagger(tables: tables)
        #expect(tagger.tag(["the", "dog", "sleeps"]).map(\.tag) == ["DET", "NOUN", "VERB"])
        // An unknown word ending in -s after a noun: the suffix model and the trigram agree on VERB.
        #expect(tagger.tag(["a", "cat", "jumps"]).map(\.tag) == ["DET", "NOUN", "VERB"])
        #expect(tagger.tag([]) == [])
    }
}

@Suite("HMM: Viterbi")
struct HMMViterbiTests {
    /// A first-order model worked by hand (λ = 0, 1, 0):
    /// I/PRON saw/VERB her/? duck/? — greedy would take her/PRON (0.0192 > 0.0128), but
    /// the best path is her/DET duck/NOUN: 0.0128 · 1.0 · 0.2 · 0.6 = 0.001536, against
    /// her/PRON duck/VERB 0.0192 · 0.8 · 0.1 · 0.2 = 0.000307.
    static let tables: HMMTables = {
        let names = ["<s>", "PRON", "VERB", "NOUN", "DET"]
        let t: [(Int32, Int32, Double)] = [
            (0, 1, 0.8), (0, 3, 0.2),
            (1, 2, 0.8), (1, 3, 0.1), (1, 0, 0.1),
            (2, 1, 0.4), (2, 4, 0.4), (2, 0, 0.2),
            (3, 0, 0.6), (3, 2, 0.4),
            (4, 3, 1.0),
        ]
        let words = ["<unk>", "<s>", "</s>", "I", "saw", "her", "duck"]
        let e: [(Int32, Int32, Double)] = [(3, 1, 0.5), (5, 1, 0.3), (5, 4, 0.2), (4, 2, 0.5), (4, 3, 0.1), (6, 3, 0.2), (6, 2, 0.1)]
        return HMMTables(
            states: names, stateCounts: [1, 1, 1, 1, 1], stateLogprobs: Array(repeating: log(0.2), count: 5),
            initial: [-.infinity, log(0.8), -.infinity, log(0.2), -.infinity],
            transitions: t.map { .init($0.0, $0.1, log($0.2)) }, words: words, wordCounts: [0, 1, 1, 1, 1, 1, 1],
            emissions: e.map { .init(word: $0.0, state: $0.1, logprob: log($0.2)) },
            parameters: ["lambda1": 0, "lambda2": 1, "lambda3": 0])
    }()

    @Test func bestPathIsNotTheGreedyOne() {
        let tagger = HMMTagger(tables: Self.tables)
        #expect(tagger.tag(["I", "saw", "her", "duck"]).map(\.description) == ["I/PRON", "saw/VERB", "her/DET", "duck/NOUN"])
    }

    @Test func beamKeepsTheBestPathWhenWide() {
        // The best path trails her/PRON by log(0.0192 / 0.0128) ≈ 0.41 after "her":
        // a beam of 1 keeps it, a beam of 0.3 prunes it and greedy-like her/PRON wins.
        let sentence = ["I", "saw", "her", "duck"]
        #expect(HMMTagger(tables: Self.tables, beam: 1).tag(sentence).map(\.tag) == ["PRON", "VERB", "DET", "NOUN"])
        #expect(HMMTagger(tables: Self.tables, beam: 0.3).tag(sentence).map(\.tag) == ["PRON", "VERB", "PRON", "VERB"])
    }

    @Test func shortSentences() {
        let tagger = HMMTagger(tables: Self.tables)
        // "saw" alone: <s>→VERB is impossible, <s>→NOUN 0.2 · 0.1 · 0.6.
        #expect(tagger.tag(["saw"]).map(\.tag) == ["NOUN"])
        #expect(tagger.tag(["I", "saw"]).map(\.tag) == ["PRON", "VERB"])
    }

    @Test(arguments: [
        ("hello", 1, WordShape.lower), ("Hello", 0, .sentenceInitialCapitalized), ("Hello", 3, .capitalized),
        ("NASA", 2, .upper), ("3.14", 1, .digit), ("10th", 1, .digit), ("well-known", 1, .hyphenated),
        ("...", 1, .symbol), ("john@example.com", 1, .web), ("http://x.org", 1, .web), ("@jack", 1, .web),
        ("Élan", 2, .capitalized), ("über", 2, .lower),
    ])
    func wordShapes(word: String, position: Int, shape: WordShape) {
        #expect(WordShape.of(word, position: position) == shape)
    }

    @Test func capitalizedRun() {
        #expect(WordShape.of("York", position: 3, previous: "New") == .capitalizedRun)
        #expect(WordShape.of("York", position: 3, previous: "in") == .capitalized)
    }

    @Test func capitalizedWithAKnownLowercaseForm() {
        let known: (String) -> Bool = { $0 == "deputy" }
        #expect(WordShape.capitalized.refined(for: "Deputy", isKnown: known) == .capitalizedCommon)
        #expect(WordShape.capitalizedRun.refined(for: "Deputy", isKnown: known) == .capitalizedRunCommon)
        #expect(WordShape.capitalized.refined(for: "Zaman", isKnown: known) == .capitalized)
        #expect(WordShape.sentenceInitialCapitalized.refined(for: "Deputy", isKnown: known) == .sentenceInitialCapitalized)
        // The trainer files a rare "Deputy" beside a known "deputy" under the refined shape.
        let trainer = SupervisedHMMTrainer()
        trainer.add(words: ["the", "deputy", "runs"], tags: ["DET", "NOUN", "VERB"])
        trainer.add(words: ["a", "Deputy", "runs"], tags: ["DET", "NOUN", "VERB"])
        trainer.add(words: ["so", "Zaman", "runs"], tags: ["ADV", "PROPN", "VERB"])
        let shapes = Set(trainer.finish().suffixes.filter { $0.suffix == "y" || $0.suffix == "n" }.map { "\($0.suffix) \($0.shape)" })
        #expect(shapes.contains("y capitalizedCommon") && shapes.contains("n capitalized"))
        #expect(!shapes.contains("y capitalized"))
    }

    @Test func titleCase() {
        #expect(WordShape.isTitleCase(["Man", "Arrested", "in", "Deputy", "Shooting"]))
        #expect(!WordShape.isTitleCase(["The", "man", "was", "arrested", "in", "Ohio"]))
        #expect(!WordShape.isTitleCase(["Hello", "World"]))   // one word after the first: too little to tell
        #expect(WordShape.isTitleCase(["Hello", "Big", "World", "!"]))
    }

    /// Forward-backward on the hand-worked model: the three complete paths of "I saw her duck"
    /// (saw/NOUN leads nowhere) have joint probabilities 0.0002304 (her/PRON duck/NOUN),
    /// 0.0003072 (her/PRON duck/VERB) and 0.001536 (her/DET duck/NOUN), Z = 0.0020736, so
    /// P(her = DET) = 0.001536 / Z = 20/27 and P(duck = NOUN) = 0.0017664 / Z = 23/27.
    @Test func posteriorsByHand() {
        let posteriors = HMMTagger(tables: Self.tables).tagPosteriors(["I", "saw", "her", "duck"])
        func p(_ i: Int, _ tag: String) -> Double { posteriors[i].first { $0.tag == tag }?.probability ?? 0 }
        #expect(near(p(0, "PRON"), 1, 1e-6) && near(p(1, "VERB"), 1, 1e-6) && near(p(1, "NOUN"), 0, 1e-6))
        #expect(near(p(2, "DET"), 20.0 / 27, 1e-6) && near(p(2, "PRON"), 7.0 / 27, 1e-6))
        #expect(near(p(3, "NOUN"), 23.0 / 27, 1e-6) && near(p(3, "VERB"), 4.0 / 27, 1e-6))
        #expect(posteriors[2].map(\.tag) == ["DET", "PRON"])   // most probable first
        #expect(HMMTagger(tables: Self.tables).tagPosteriors([]).isEmpty)
    }

    @Test func posteriorsAreDistributionsOnATrainedTagger() {
        let tagger = HMMTagger(tables: train([fixture("tiny.txt")]))
        for sentence in [["the", "dog", "sleeps"], ["a", "Cat", "jumps", "and", "runs"], ["dogs"]] {
            let posteriors = tagger.tagPosteriors(sentence)
            #expect(posteriors.count == sentence.count)
            for list in posteriors { #expect(near(list.reduce(0) { $0 + $1.probability }, 1, 1e-9)) }
            // The per-word best tags agree with Viterbi on these unambiguous sentences.
            #expect(posteriors.map { $0[0].tag } == tagger.tag(sentence).map(\.tag))
        }
    }
}

@Suite("HMM: Baum-Welch")
struct HMMBaumWelchTests {
    static func randomCorpus(seed: UInt64, sentences: Int, vocabulary: Int) -> BaumWelchCorpus {
        var rng = SplitMix64(seed: seed)
        var tokens: [Int32] = [], ends: [Int] = []
        for _ in 0..<sentences {
            let length = 1 + Int(rng.next() % 12)
            // A little structure: words come in runs of even or odd ids.
            var parity = rng.next() % 2
            for _ in 0..<length {
                if rng.nextUnit() < 0.3 { parity ^= 1 }
                let pair: Int = Int(rng.next() % UInt64(vocabulary / 2))
                tokens.append(Int32(3 + 2 * pair + Int(parity)))
            }
            ends.append(tokens.count)
        }
        return BaumWelchCorpus(tokens: tokens, sentenceEnds: ends, vocabularySize: vocabulary + 4)
    }

    @Test(arguments: [1, 2, 3, 42] as [UInt64])
    func logLikelihoodNeverDecreases(seed: UInt64) {
        let corpus = Self.randomCorpus(seed: seed, sentences: 120, vocabulary: 20)
        var config = BaumWelchConfig(states: 4)
        config.seed = seed
        let bw = BaumWelch(corpus: corpus, config: config)
        for _ in 0..<15 { bw.iterate() }
        let ll = bw.logLikelihoods
        for i in 1..<ll.count {
            #expect(ll[i] >= ll[i - 1] - 1e-9 * abs(ll[i - 1]), "seed \(seed): iteration \(i + 1) log-likelihood \(ll[i]) < \(ll[i - 1])")
        }
        #expect(ll.last! > ll.first!)
    }

    @Test func deterministicForASeedWhateverTheThreads() {
        let corpus = Self.randomCorpus(seed: 9, sentences: 80, vocabulary: 16)
        func run(threads: Int, seed: UInt64) -> HMMTables {
            var config = BaumWelchConfig(states: 3)
            config.seed = seed
            config.threads = threads
            let bw = BaumWelch(corpus: corpus, config: config)
            for _ in 0..<4 { bw.iterate() }
            let words = (0..<corpus.vocabularySize).map { "w\($0)" }
            return bw.tables(words: words, wordCounts: words.map { _ in 1 }, lowercase: true)
        }
        #expect(run(threads: 1, seed: 5) == run(threads: 2, seed: 5))
        #expect(run(threads: 2, seed: 5) != run(threads: 2, seed: 6))
    }

    @Test func tablesAreDistributions() {
        let corpus = Self.randomCorpus(seed: 4, sentences: 60, vocabulary: 10)
        var config = BaumWelchConfig(states: 3)
        config.emissionPruning = 0
        let bw = BaumWelch(corpus: corpus, config: config)
        for _ in 0..<3 { bw.iterate() }
        let tables = bw.tables(words: (0..<corpus.vocabularySize).map { "w\($0)" }, wordCounts: Array(repeating: 1, count: corpus.vocabularySize), lowercase: true)
        #expect(tables.states == ["<s>", "C1", "C2", "C3"])
        for s in 0..<Int32(4) {
            let t = tables.transitions.filter { $0.s1 == s }.reduce(0) { $0 + exp($1.logprob) }
            #expect(near(t, 1, 1e-9))
        }
        for s in 1..<Int32(4) {
            let e = tables.emissions.filter { $0.state == s }.reduce(0) { $0 + exp($1.logprob) }
            #expect(near(e, 1, 1e-9))
        }
    }
}

@Suite("HMM: tagged corpus readers")
struct HMMReaderTests {
    func read(_ name: String, column: TagColumn = .upos) -> (sentences: [[TaggedToken]], summary: TaggedFileSummary) {
        var sentences: [[TaggedToken]] = []
        let path = fixture(name)
        let summary = TaggedCorpusReader.read(path: path, format: TaggedFormat.guess(path: path), tagColumn: column) {
            sentences.append(zip($0, $1).map { TaggedToken(form: $0, tag: $1) })
        }
        return (sentences, summary)
    }

    @Test func conlluSkipsRangesAndEmptyNodes() {
        let (sentences, summary) = read("good.conllu")
        #expect(summary.errors.isEmpty)
        #expect(sentences.map { $0.map(\.description) } == [["I/PRON", "do/AUX", "n't/PART", "swim/VERB", "./PUNCT"], ["Swim/VERB", "!/PUNCT"]])
        let xpos = read("good.conllu", column: .xpos).sentences
        #expect(xpos[0].map(\.tag) == ["PRP", "VBP", "RB", "VB", "."])
    }

    @Test func slashAndUnderscore() {
        let (sentences, summary) = read("tiny.txt")
        #expect(summary.errors.isEmpty)
        #expect(sentences.count == 4)
        #expect(sentences[3].map(\.description) == ["dogs/NOUN", "run/VERB"])
    }

    @Test func seedJSON() {
        let (sentences, summary) = read("apple-products.json")
        #expect(summary.errors.isEmpty)
        #expect(sentences.map(\.count) == [21, 11])
        #expect(sentences[1][5] == TaggedToken(form: "iTunes", tag: "AppleProduct"))
    }

    @Test(arguments: [
        ("bad-columns.conllu", ["bad-columns.conllu:2: 8 tab-separated columns", "bad-columns.conllu:6: 9 tab-separated columns"]),
        ("bad-id.conllu", ["bad-id.conllu:2: id 'one' is not an integer", "bad-id.conllu:5: id '1-x' is not an integer"]),
        ("missing-tag.conllu", ["missing-tag.conllu:2: word 2 ('swim') has no UPOS tag"]),
        ("mismatch.json", ["mismatch.json:3: sentence 2 has 4 tokens but 3 tags", "mismatch.json:5: sentence 3 has 1 tokens but 2 tags"]),
        ("missing-slash.txt", ["missing-slash.txt:2: token 'the' is not word/TAG"]),
        ("empty.txt", ["empty.txt:1: empty file"]),
    ])
    func badInputIsReportedWithFileAndLine(name: String, expected: [String]) {
        let summary = read(name).summary
        let lines = summary.errors.map { $0.description.replacingOccurrences(of: hmmFixtures + "/", with: "") }
        #expect(lines.count == expected.count, "\(lines)")
        for (line, prefix) in zip(lines, expected) { #expect(line.hasPrefix(prefix), "\(line)") }
    }

    @Test func badFilesFailTheBuildTogetherAndWriteNothing() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let output = dir + "/tagger.sqlite"
        let config = HMMBuildConfig(mode: .supervised(.init()), inputs: [fixture("bad-id.conllu"), fixture("tiny.txt"), fixture("mismatch.json")], output: output)
        do {
            _ = try HMMBuild.run(config, progress: StageProgress(quiet: true))
            Issue.record("a bad corpus built a store")
        } catch let error as PipelineError {
            #expect(error.problems.count == 4)
            #expect(error.problems.allSatisfy { $0.contains(".conllu:") || $0.contains(".json:") })
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}

@Suite("HMM: store")
struct HMMStoreTests {
    @Test func roundTripThroughAStore() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/tiny.sqlite"
        let report = try HMMBuild.run(HMMBuildConfig(mode: .supervised(.init()), inputs: [fixture("tiny.txt")], output: path),
                                      progress: StageProgress(quiet: true))
        #expect(report.states == 3)
        let store = try TrainedStore(path: path)
        #expect(store.hasHMM)
        let loaded = try store.hmmTables()
        var expected = train([fixture("tiny.txt")])
        // The store keeps rows in key order; compare as sets.
        #expect(loaded.states == expected.states)
        #expect(loaded.words == expected.words)
        #expect(loaded.parameters == expected.parameters)
        for keyPath in [\HMMTables.emissions.count, \HMMTables.transitions.count, \HMMTables.transitions2.count, \HMMTables.suffixes.count] {
            #expect(loaded[keyPath: keyPath] == expected[keyPath: keyPath])
        }
        expected.emissions.sort { ($0.word, $0.state) < ($1.word, $1.state) }
        #expect(loaded.emissions == expected.emissions)
        #expect(try store.hmmTagger().tag(["the", "cat", "runs"]).map(\.tag) == ["DET", "NOUN", "VERB"])
        // Views show names.
        let inspect = try InspectReport.render(path: path)
        #expect(inspect.contains("hidden Markov model: 3 states"))
        #expect(inspect.contains("DET"))
    }

    @Test func evaluationCountsKnownAndUnknownWords() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/xpos.sqlite"
        var config = HMMBuildConfig(mode: .supervised(.init()), inputs: [fixture("good.conllu")], output: path)
        config.tagColumn = .xpos
        _ = try HMMBuild.run(config, progress: StageProgress(quiet: true))
        // The store remembers its tag set: no --tagset needed, and the wrong one is refused.
        let result = try TagEval.run(storePath: path, gold: [fixture("good.conllu")], format: nil, tagColumn: nil, progress: StageProgress(quiet: true))
        #expect(result.tokens == 7)
        #expect(result.knownTokens == 7)
        #expect(result.correct == 7)
        #expect(throws: PipelineError.self) {
            try TagEval.run(storePath: path, gold: [fixture("good.conllu")], format: nil, tagColumn: .upos, progress: StageProgress(quiet: true))
        }
        // word/TAG gold: "dogs" and "cat" are unknown to this store.
        let tiny = try TagEval.run(storePath: path, gold: [fixture("tiny.txt")], format: nil, tagColumn: nil, progress: StageProgress(quiet: true))
        #expect(tiny.tokens == 11)
        #expect(tiny.unknownTokens == 11)
        #expect(tiny.correct == 0)
        #expect(tiny.render().contains("unknown words: 0.00% (0/11"))
    }

    @Test func customTagSetFromSeedJSON() throws {
        let tagger = HMMTagger(tables: train([fixture("apple-products.json")]))
        let tags = tagger.tag(["I", "love", "the", "iPod", "."]).map(\.tag)
        #expect(tags[3] == "AppleProduct")
        #expect(tags[0] == "_")
    }

    @Test func storeWithoutHMMSaysHowToBuildOne() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let corpus = dir + "/c.txt"
        try "A small corpus. It has two sentences.\n".write(toFile: corpus, atomically: true, encoding: .utf8)
        _ = try NgramBuild.run(NgramBuildConfig(inputs: [corpus], output: dir + "/n.sqlite"), progress: StageProgress(quiet: true))
        let store = try TrainedStore(path: dir + "/n.sqlite")
        #expect(!store.hasHMM)
        #expect(throws: StoreError.self) { try store.hmmTagger() }
        #expect(!(try InspectReport.render(path: dir + "/n.sqlite")).contains("hidden Markov"))
    }

    @Test func baumWelchStoreTagsText() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let corpus = dir + "/c.txt"
        try String(repeating: "The cat sat on the mat. A dog sat on a log. The dog saw the cat.\n", count: 20)
            .write(toFile: corpus, atomically: true, encoding: .utf8)
        var bw = BaumWelchConfig(states: 4)
        bw.iterations = 5
        bw.tolerance = 0
        let report = try HMMBuild.run(HMMBuildConfig(mode: .unsupervised(bw), inputs: [corpus], output: dir + "/bw.sqlite"),
                                      progress: StageProgress(quiet: true))
        #expect(report.logLikelihoods.count == 5)
        for i in 1..<report.logLikelihoods.count { #expect(report.logLikelihoods[i] >= report.logLikelihoods[i - 1] - 1e-6) }
        var lines: [String] = []
        let tagger = try TextTagger(storePath: dir + "/bw.sqlite") { lines.append($0) }
        tagger.feed(line: "The cat saw a zebra.")
        tagger.finish()
        #expect(lines.count == 1)
        #expect(lines[0].split(separator: " ").count == 6)
        #expect(lines[0].hasPrefix("The/C"))
    }
}

private let udTrain = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/data/ud/en_ewt-ud-train.conllu.gz").standardizedFileURL.path
private let udDev = udTrain.replacingOccurrences(of: "-train.", with: "-dev.")

@Suite("HMM: English EWT (integration)")
struct HMMIntegrationTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: udTrain) && FileManager.default.fileExists(atPath: udDev),
                   "needs ../shared/data/ud/en_ewt-ud-{train,dev}.conllu.gz beside the checkout"))
    func uposOnDev() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = dir + "/upos.sqlite"
        let report = try HMMBuild.run(HMMBuildConfig(mode: .supervised(.init()), inputs: [udTrain], output: store),
                                      progress: StageProgress(quiet: true))
        #expect(report.sentences == 12544)
        #expect(report.states == 17)
        let result = try TagEval.run(storePath: store, gold: [udDev], format: nil, tagColumn: .upos, progress: StageProgress(quiet: true))
        #expect(result.tokens == 25147)
        #expect(result.accuracy >= 0.935, "UPOS accuracy \(result.accuracy)")
        #expect(result.unknownAccuracy >= 0.75, "unknown-word accuracy \(result.unknownAccuracy)")
    }
}
