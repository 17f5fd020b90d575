import Foundation
import GRDB
import LexiforgeBuild
import LexiforgeClassify
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeTestSupport
import Testing

/// The language identifier's alphabet evidence (``LanguageAlphabets``). Every text here is typed
/// by hand; the expected counts and log rates are worked out in the comments.
@Suite("Language ID: alphabet evidence")
struct LanguageAlphabetTests {
    /// Two languages: "tr" (in the CLDR table) with ASCII-folded training text as UD BOUN has it,
    /// and "xx" (not in it), whose alphabet comes from its text.
    static func trained(weight: Float = 1) -> LanguageAlphabets {
        LanguageAlphabets.train(codes: ["tr", "xx"], texts: [
            ["Çok şıktı!", "Hazrlan: 2 kez"],
            ["ab ßa é", "ßb c", "d"],
        ], weight: weight)
    }

    @Test("alphabets: CLDR letters, a-z and letters of 1% of the sentences (at least 2); runs and foreign runs counted by hand")
    func training() {
        let model = Self.trained()
        let tr = model.alphabets[0], xx = model.alphabets[1]
        // Turkish: a-z and ç ğ ı ö ş ü â î û, whatever its training text lacks.
        #expect(LanguageAlphabets.text(of: tr.letters) == "abcdefghijklmnopqrstuvwxyzâçîöûüğış")
        // Runs "Çok" "şıktı" | "Hazrlan" "kez": four, all in the alphabet (the digit splits nothing off).
        #expect(tr.runs == 4 && tr.foreignRuns == 0)
        // xx: ß is in two sentences (joins), é in one (does not). Runs "ab" "ßa" "é" | "ßb" "c" | "d":
        // six, one foreign.
        #expect(LanguageAlphabets.text(of: xx.letters) == "abcdefghijklmnopqrstuvwxyzß")
        #expect(xx.runs == 6 && xx.foreignRuns == 1)
        // Add-½: q = 1.5 / 7, 1 − q = 5.5 / 7.
        #expect(abs(Double(xx.logRates.foreign) - log(1.5 / 7)) < 1e-6)
        #expect(abs(Double(xx.logRates.native) - log(5.5 / 7)) < 1e-6)
        // Scripts counted whole are pseudo-letters, written as their codes.
        let ja = LanguageAlphabets.exemplarLetters(of: "ja")!
        #expect(LanguageAlphabets.text(of: ja.sorted()) == "{Hani}{Hrkt}")
        #expect(LanguageAlphabets.letters(ofText: "ab{Hani}{Hrkt}") == [0x61, 0x62, 0x11_0000, 0x11_0001])
        #expect(LanguageAlphabets.letters(ofText: "ab{Tlhn}") == nil && LanguageAlphabets.letters(ofText: "ab{Hani") == nil)
        #expect(LanguageAlphabets.exemplarLetters(of: "ru")!.contains(0x451))   // ё
        #expect(LanguageAlphabets.exemplarLetters(of: "xx") == nil)
    }

    /// The evidence a scorer adds to zero scores.
    static func evidence(_ model: LanguageAlphabets, _ text: String) -> [Double] {
        var scores = [Float](repeating: 0, count: model.alphabets.count)
        LanguageAlphabetScorer(model).add(text, to: &scores)
        return scores.map(Double.init)
    }

    @Test("alphabet evidence: a run with a letter outside an alphabet adds log q, one inside log(1 − q), in either case")
    func evidenceByHand() {
        // tr: 9 runs, none foreign: q = 0.5 / 10, 1 − q = 9.5 / 10. id: 99 runs, none foreign:
        // q = 0.5 / 100, 1 − q = 99.5 / 100.
        let turkish = LanguageAlphabets.exemplarLetters(of: "tr")!.union(0x61...0x7A).sorted()
        let model = LanguageAlphabets(weight: 1, alphabets: [
            .init(letters: turkish, runs: 9, foreignRuns: 0),
            .init(letters: Array(0x61...0x7A), runs: 99, foreignRuns: 0),
        ])
        let tr = (foreign: log(0.05), native: log(0.95)), id = (foreign: log(0.005), native: log(0.995))
        func close(_ got: [Double], _ expected: [Double]) -> Bool { zip(got, expected).allSatisfy { abs($0 - $1) < 1e-5 } }
        // "iştah" is foreign to id, "var" to neither.
        #expect(close(Self.evidence(model, "iştah var"), [2 * tr.native, id.foreign + id.native]))
        // Capitals fold: İ → i, Ş → ş.
        #expect(close(Self.evidence(model, "İŞTAH VAR"), [2 * tr.native, id.foreign + id.native]))
        // Punctuation and digits split runs and count for nothing; a Han run is foreign to both.
        #expect(close(Self.evidence(model, "var-var 12 猫"), [2 * tr.native + tr.foreign, 2 * id.native + id.foreign]))
        // A script change splits a run: "猫the" is two runs.
        #expect(close(Self.evidence(model, "猫the"), [tr.foreign + tr.native, id.foreign + id.native]))
        // No letters, no evidence; the ordinal indicators are not letters ("15 ºC" is one run, "C").
        #expect(Self.evidence(model, " 42 !? ") == [0, 0])
        #expect(close(Self.evidence(model, "15 ºC 1ª"), [tr.native, id.native]))
        // The weight scales it.
        var half = model
        half.weight = 0.5
        #expect(close(Self.evidence(half, "iştah"), [0.5 * tr.native, 0.5 * id.foreign]))
    }

    @Test("alphabet evidence beyond 64 languages: the bit sets span several words")
    func manyLanguages() {
        // 70 languages with a-z; only the last also writes ş. 10 runs each, none foreign.
        var alphabets = [LanguageAlphabets.Alphabet](repeating: .init(letters: Array(0x61...0x7A), runs: 10, foreignRuns: 0), count: 70)
        alphabets[69].letters.append(0x15F)
        let got = Self.evidence(LanguageAlphabets(weight: 1, alphabets: alphabets), "şu")
        let native = log(10.5 / 11), foreign = log(0.5 / 11)
        #expect(abs(got[69] - native) < 1e-5)
        #expect((0..<69).allSatisfy { abs(got[$0] - foreign) < 1e-5 })
    }

    @Test("a Turkish text reads as Turkish when the training text lost its letters: the alphabet evidence decides")
    func turkishLetters() throws {
        // Turkish training text with ç ğ ı ö ş ü deleted, as UD BOUN's in langid-train; Indonesian beside it.
        let samples = [
            ("tr", "Adeta kendimden gemi bir haldeyim."), ("tr", "Rzgr yine gl esiyordu."), ("tr", "O nasl derse desin."),
            ("tr", "Ahmed Rasim birka gn kalmay tasarlamt."), ("id", "Saya makan nasi di rumah."), ("id", "Dia pergi ke pasar."),
            ("id", "Mereka tinggal di kota besar."), ("id", "Kami minum teh bersama."),
        ].map { LanguageSample(language: $0.0, text: $0.1) }
        var options = LanguageIDOptions()
        options.bucketBits = 12
        let with = LanguageRecognizer(model: LanguageIDTrainer.train(samples, options: options).quantized())
        options.alphabetWeight = 0
        let without = LanguageRecognizer(model: LanguageIDTrainer.train(samples, options: options).quantized())
        let text = "Çok şıktı, çok iştah açıcıydı manzara."
        #expect(with.dominantLanguage(for: text) == "tr")
        let p = { (r: LanguageRecognizer) in r.hypotheses(for: text, maximum: 2).first { $0.language == "tr" }!.probability }
        #expect(p(with) > p(without))
        // Both read ASCII text alike: a-z is in every alphabet, so the evidence is the runs' log(1 − q).
        #expect(with.dominantLanguage(for: "Dia pergi ke pasar.") == "id")
    }

    @Test("alphabet store round trip: the same alphabets and scores; damaged rows are errors naming the table; older stores read without")
    func storeRoundTrip() throws {
        let folder = try TemporaryFolder()
        var model = try ClassifyTests.tinyLanguageModel()
        model.alphabets = LanguageAlphabets.train(codes: model.languages, texts: [["the cat", "猫 the"], ["le chat", "où ça"]], weight: 0.5)
        let path = folder.file("langid.sqlite")
        try StoreWriter.write(languageID: model, meta: ["langid": "{\"max_order\":5,\"bucket_bits\":12,\"words\":true,\"algorithm\":\"logistic\",\"char_weight\":0.2,\"char_margin\":4,\"alphabet_weight\":0.5}"],
                              to: AtomicStoreFile.prepare(path: path))
        let read = try TrainedStore(path: path).languageIDModel(), expected = model.quantized()
        #expect(read.alphabets == expected.alphabets)
        #expect(read == expected)
        let direct = try LanguageRecognizer(store: TrainedStore(path: path)), viaModel = LanguageRecognizer(model: expected)
        for text in ["the cat", "le chat", "où ça", "Ünïcödé 42", "猫 the", "şık", ""] {
            #expect(direct.scores(for: text) == viaModel.scores(for: text), "\(text)")
        }
        // The view for people: a foreign share per language.
        let view = try DatabaseQueue(path: path).read { db in try Row.fetchAll(db, sql: "SELECT code, letters, runs FROM langid_alphabet_view ORDER BY code") }
        #expect(view.map { $0["code"] as String } == ["en", "fr"])
        // Without the meta weight (a store from before the evidence) it is not read.
        let other = try TemporaryFolder()
        #expect(try TrainedStore(path: ClassifyTests.tinyLanguageStore(in: other)).languageIDModel().alphabets == nil)
        // Damage: each is an error naming the table, never a crash.
        for damage in ["UPDATE langid_alphabet SET letters = 'ab{Tlhn}' WHERE language = 0", "DELETE FROM langid_alphabet WHERE language = 1",
                       "UPDATE langid_alphabet SET foreign_runs = runs + 1 WHERE language = 0", "UPDATE langid_alphabet SET language = 9 WHERE language = 0"] {
            let copy = try ClassifyTests.damagedCopy(of: path, in: folder, damage)
            for attempt in [{ _ = try TrainedStore(path: copy).languageIDModel() }, { _ = try LanguageRecognizer(store: TrainedStore(path: copy)) }] {
                let error = #expect(throws: (any Error).self, "\(damage)") { try attempt() }
                #expect("\(error!)".contains("langid_alphabet"), "\(damage): \(error!)")
            }
        }
    }
}
