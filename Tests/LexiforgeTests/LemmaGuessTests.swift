import Foundation
import LexiforgeText
import LexiforgeTestSupport
import Testing

/// The unseen-form path of the lemmatizer (edit rules) and what makes it fast: flat rule tests,
/// sorted rule-score lists, and a memo of a form's tag-free scores shared by its candidate tags.
/// Hand-made training words, inline.
@Suite("Lemmatizer: unseen forms, fast path")
struct LemmaGuessTests {
    static let lemmatizer: Lemmatizer = {
        var trainer = LemmatizerTrainer()
        let sentences: [[(String, String, String)]] = [
            [("the", "DET", "the"), ("dogs", "NOUN", "dog"), ("barked", "VERB", "bark")],
            [("cats", "NOUN", "cat"), ("were", "AUX", "be"), ("running", "VERB", "run")],
            [("Boxes", "NOUN", "box"), ("walked", "VERB", "walk"), ("Ships", "PROPN", "Ships")],
            [("she", "PRON", "she"), ("jumps", "VERB", "jump"), ("quickly", "ADV", "quickly")],
            [("bigger", "ADJ", "big"), ("houses", "NOUN", "house"), ("Acme", "PROPN", "Acme")],
        ]
        for sentence in sentences { trainer.add(sentence: sentence.map { LemmaExample(form: $0.0, upos: $0.1, lemma: $0.2) }) }
        return trainer.finish(wordNet: WordNet())
    }()

    @Test("sorted rule-score lists merge by rule index, the added list weighted")
    func ruleScoresMerge() {
        var a = Lemmatizer.RuleScores(rules: [1, 4, 7], scores: [1, 2, 3])
        a.merge(Lemmatizer.RuleScores(rules: [0, 4, 9], scores: [10, 20, 30]), weight: 0.5)
        #expect(a == Lemmatizer.RuleScores(rules: [0, 1, 4, 7, 9], scores: [5, 1, 12, 3, 15]))
        var empty = Lemmatizer.RuleScores()
        empty.merge(Lemmatizer.RuleScores(rules: [2], scores: [4]), weight: 0.5)
        #expect(empty == Lemmatizer.RuleScores(rules: [2], scores: [2]))
        empty.merge(Lemmatizer.RuleScores())
        #expect(empty.rules == [2])
    }

    @Test("a rule applied with the lowercase made beforehand gives what it gives alone",
          arguments: ["Boxes", "walked", "JUMPS", "s", "Ärzte"])
    func applyWithLower(form: String) {
        for rule in Self.lemmatizer.rules {
            #expect(rule.apply(to: form, lower: form.lowercased()) == rule.apply(to: form))
        }
    }

    @Test("the flat suffix test agrees with hasSuffix")
    func endsWith() {
        func check(_ base: String, _ remove: String) -> Bool {
            Array(base.utf8).withUnsafeBufferPointer { b in Array(remove.utf8).withUnsafeBufferPointer { Lemmatizer.endsWith(b, $0) } }
        }
        #expect(check("walked", "ed") && check("walked", "") && check("é", ""))
        #expect(!check("walked", "walked") && !check("ed", "ed") && !check("walked", "es"))
    }

    @Test("unseen forms: the cache (tag-free scores memoized per form) agrees with the lemmatizer, tag after tag")
    func memoAgrees() {
        let forms = ["foxes", "Foxes", "jogged", "talking", "Zorblax", "quicker", "Foxes", "foxes"]
        let tags = ["NOUN", "VERB", "PROPN", "ADJ", "NOUN"]
        var cache = LemmaCache()
        for form in forms {
            for position in [0, 1, 3] {
                for tag in tags {
                    let direct = Self.lemmatizer.lemma(of: form, tag: tag, position: position, predicted: true)
                    #expect(cache.lemma(of: form, tag: tag, position: position, predicted: true, Self.lemmatizer) == direct,
                            "\(form) \(tag) at \(position)")
                }
            }
        }
        // A memo holding another form, or the same form in another shape, is not reused.
        var memo = Lemmatizer.GuessMemo()
        let first = Self.lemmatizer.guess("Foxes", tag: "NOUN", position: 0, predicted: true, memo: &memo)
        #expect(memo.form == "Foxes" && memo.shape == Lemmatizer.shape("Foxes", position: 0))
        #expect(Self.lemmatizer.guess("Foxes", tag: "VERB", position: 2, predicted: true, memo: &memo)
            == Self.lemmatizer.guess("Foxes", tag: "VERB", position: 2, predicted: true))
        #expect(memo.shape == Lemmatizer.shape("Foxes", position: 2))
        #expect(first == Self.lemmatizer.guess("Foxes", tag: "NOUN", position: 0, predicted: true))
        // The per-rule scratch sums are left at zero for the next form.
        #expect(memo.scratch.count == Self.lemmatizer.ruleCount && memo.scratch.allSatisfy { $0 == 0 })
    }
}
