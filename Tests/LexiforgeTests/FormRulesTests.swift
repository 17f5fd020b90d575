import Foundation
import LexiforgeNgrams
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeTestSupport
import Testing

/// Suffix rules learnt from the vocabulary, and the unseen forms completions derive with them.
@Suite("Form rules")
struct FormRulesTests {
    /// Seven words, worked by hand (stems of at least 3 letters, endings of at most 6):
    /// - stems with two endings or more: walk {"", ed, ing}, wal {k, ked, king}, talk {"", ed},
    ///   tal {k, ked}, play {"", s}, pla {y, ys}; so "" ↔ ed and k ↔ ked have 2 stems each, the
    ///   others 1 (dropped);
    /// - stems with the ending "": walk, talk, play, walked, walking, talked, plays = 7; with ed,
    ///   k, ked: 2 each. Productivity: "" → ed 2/7, the other three 2/2;
    /// - derivations of forms the vocabulary lacks: walked → walkeded, walking → walkinged,
    ///   talked → talkeded, play → played, plays → playsed, all by "" → ed: 5 × 2/7 = 10/7.
    ///   Weights: "" → ed (2/7)/(10/7) = 0.2, the others 1/(10/7) = 0.7.
    static let words = ["<unk>", "<s>", "</s>", "walk", "walked", "walking", "talk", "talked", "play", "plays", "a1", "on"]

    @Test("rules, their evidence and their share of the unseen-word mass, worked by hand")
    func learnsByHand() {
        let forms = FormRules.learn(words: Self.words, limit: 100)
        #expect(forms.rules.map { [$0.strip, $0.append] } == [["", "ed"], ["ed", ""], ["k", "ked"], ["ked", "k"]])
        #expect(forms.rules.map(\.stems) == [2, 2, 2, 2])
        #expect(abs(forms.rules[0].log10Weight - log10(0.2)) < 1e-12)
        for rule in forms.rules.dropFirst() { #expect(abs(rule.log10Weight - log10(0.7)) < 1e-12) }
        #expect(forms.derivations == 5)
        // The limit keeps the rules with the most stems, ties in key order.
        #expect(FormRules.learn(words: Self.words, limit: 1).rules.map { [$0.strip, $0.append] } == [["", "ed"]])
        #expect(FormRules.learn(words: Self.words, limit: 0).rules.isEmpty)
        #expect(FormRules.learn(words: Self.words.reversed(), limit: 100) == forms)
    }

    /// A store of a small hand-written text with suffix rules, its model and the vocabulary.
    static func store(_ dir: URL, rules: Int) throws -> (path: String, model: LanguageModel) {
        let text = """
            she walked on. he walks home. they talked. we talk on. she played on. he plays. they play.
            we jumped. she jumps. he jumped on. they were walking home. we were talking. she was playing.
            he kicked. she kicks on. they kick. we looked. he looks on. they look home. she turned.
            he turns on. we turn home. she was turning. he was looking. they were kicking.
            """.split(separator: ".").map { $0.split(whereSeparator: \.isWhitespace).map(String.init) }.filter { !$0.isEmpty }
        let counter = NgramCounter(order: 3)
        for sentence in text { counter.add(sentence: sentence) }
        var options = EstimationOptions()
        options.formRules = rules
        let model = KneserNey.estimate(counter.finish(), options: options)
        let path = dir.appendingPathComponent("forms\(rules).sqlite").path
        let meta = [StoreSchema.MetaKey.order: "3",
                    StoreSchema.MetaKey.languageModel: LanguageModelStage.describe(model, options: options, vocabularySize: nil)]
        try StoreWriter.write(model: model, meta: meta, to: AtomicStoreFile.prepare(path: path))
        return (path, model)
    }

    /// Every derivation of an unseen form starting with `prefix`, by brute force over the vocabulary.
    static func bruteForce(_ model: LanguageModel, prefix: String) -> [String: Double] {
        let vocabulary = Set(model.counts.words)
        var forms: [String: Double] = [:]
        for word in model.counts.words where StoreSchema.isFormable(word) {
            let letters = Array(word)
            for k in 0...min(StoreSchema.formMaxSuffix, letters.count - StoreSchema.formMinStem) {
                let stem = String(letters[..<(letters.count - k)]), ending = String(letters[(letters.count - k)...])
                for rule in model.formRules!.rules where rule.strip == ending {
                    let form = stem + rule.append
                    if !vocabulary.contains(form) && form.hasPrefix(prefix) { forms[form, default: 0] += pow(10, rule.log10Weight) }
                }
            }
        }
        return forms
    }

    @Test("derived forms are exactly those a brute-force pass over the vocabulary finds", arguments: [
        "w", "wal", "walk", "walki", "play", "playe", "kicki", "jumpin", "turns", "x", "looke",
    ])
    func derivedFormsAreExact(prefix: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lexiforge-forms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, model) = try Self.store(dir, rules: 1000)
        #expect(model.formRules?.rules.isEmpty == false)
        let predictor = try NgramPredictor(store: TrainedStore(path: path))
        #expect(predictor.hasFormRules)
        let derived = predictor.derivedForms(of: prefix, limit: 10_000)
        let expected = Self.bruteForce(model, prefix: prefix)
        #expect(Set(derived.map(\.word)) == Set(expected.keys))
        for (word, weight) in derived {
            // Stored weights are rounded to 1/1000 of a log10 unit.
            #expect(abs(log10(weight) - log10(expected[word]!)) < 0.002 * 3, "\(word)")
            #expect(predictor.id(of: word) == nil)
        }
        #expect(zip(derived, derived.dropFirst()).allSatisfy { $0.weight >= $1.weight })
    }

    @Test("completions take derived forms only once the known words run out, at p(<unk> | h) × their share")
    func completionsTopUp() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lexiforge-forms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, _) = try Self.store(dir, rules: 1000)
        let predictor = try NgramPredictor(store: TrainedStore(path: path))
        // "jumping" is unseen; "jumped" and "jumps" are known and come first.
        let list = try predictor.completions(of: "jump", after: ["she"], limit: 3)
        #expect(Array(list.prefix(2)).map(\.word).sorted() == ["jumped", "jumps"])
        #expect(list.prefix(2).allSatisfy { $0.order > 0 })
        #expect(list.count == 3 && list[2].order == 0 && predictor.id(of: list[2].word) == nil)
        let derived = try #require(predictor.derivedForms(of: "jump", limit: 1).first)
        #expect(list[2].word == derived.word)
        let h = predictor.suggestionContext(["she"])
        let unknown = try predictor.interpolatedLogProb(of: Int32(StoreSchema.ReservedID.unknown), context: h).value
        #expect(abs(list[2].log10Probability - (unknown + log10(derived.weight))) < 1e-9)
        // Past the known words: "jumpi" has none, so the forms fill the list ("jumping" from jumped/jumps).
        let deeper = try predictor.completions(of: "jumpi", after: ["she"], limit: 3)
        #expect(deeper.first?.word == "jumping")
        #expect(try predictor.completions(of: "jumpi", after: ["she"], limit: 3, excluding: ["jumping"]).contains { $0.word == "jumping" } == false)
        // A store asked not to, or one built without rules, offers none.
        #expect(try NgramPredictor(store: TrainedStore(path: path), derivedForms: false).completions(of: "jumpi", after: ["she"]).isEmpty)
        let (plain, _) = try Self.store(dir, rules: 0)
        let without = try NgramPredictor(store: TrainedStore(path: plain))
        #expect(!without.hasFormRules)
        #expect(try without.completions(of: "jumpi", after: ["she"]).isEmpty)
        #expect(try TrainedStore(path: plain).formRuleCount() == nil)
        #expect(try TrainedStore(path: path).formRuleCount() ?? 0 > 0)
        // Next-word predictions never invent words.
        #expect(try predictor.nextWords(after: ["she"], limit: 50).allSatisfy { predictor.id(of: $0.word) != nil })
    }

    @Test("learning and merging rebuild the rules as counting the whole text; another limit is a difference")
    func learnAndMergeKeepTheRules() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lexiforge-forms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("first.txt").path, second = dir.appendingPathComponent("second.txt").path
        try "She walked home. He walks on. They talked and played.\n".write(toFile: first, atomically: true, encoding: .utf8)
        try "We were talking. She jumps. He jumped and kicked. They kick on.\n".write(toFile: second, atomically: true, encoding: .utf8)
        func build(_ files: [String], _ name: String, rules: Int = 100) throws -> String {
            let output = dir.appendingPathComponent(name).path
            var config = NgramBuildConfig(inputs: files, output: output)
            config.languageModel = true
            config.estimation.formRules = rules
            _ = try NgramBuild.run(config, progress: StageProgress(quiet: true))
            return output
        }
        let whole = try build([first, second], "whole.sqlite")
        #expect(try TrainedStore(path: whole).optionalModelRows().contains { $0.hasPrefix("form_rule ") })
        let a = try build([first], "a.sqlite"), b = try build([second], "b.sqlite")
        let merged = dir.appendingPathComponent("m.sqlite").path
        _ = try Merge.run(a, b, output: merged, progress: StageProgress(quiet: true))
        #expect(try StoreDiff.run(whole, merged).data.isEmpty)
        _ = try Learn.run(store: a, files: [second], sentences: [], progress: StageProgress(quiet: true))
        #expect(try StoreDiff.run(whole, a).data.isEmpty)
        let fewer = try build([first, second], "fewer.sqlite", rules: 1)
        #expect(try StoreDiff.run(whole, fewer).data.contains { $0.hasPrefix("form_rule ") })
    }
}
