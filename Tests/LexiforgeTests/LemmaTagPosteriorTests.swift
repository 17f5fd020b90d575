import Foundation
import LexiforgeText
import LexiforgeTestSupport
import Testing

/// Hand-made training words for the tag-aware lemmatizer (inline: a few sentences each).
private func lemmatizer(_ sentences: [[(String, String, String)]]) -> Lemmatizer {
    var trainer = LemmatizerTrainer()
    for sentence in sentences { trainer.add(sentence: sentence.map { LemmaExample(form: $0.0, upos: $0.1, lemma: $0.2) }) }
    return trainer.finish(wordNet: WordNet())
}

@Suite("Lemmatizer: tag posteriors and contexts")
struct LemmaTagPosteriorTests {
    // "saw" is "see" as a VERB, "saw" as a NOUN or a PROPN (a made-up band name, lowercase here).
    static let saw = lemmatizer([
        [("I", "PRON", "I"), ("saw", "VERB", "see"), ("it", "PRON", "it")],
        [("a", "DET", "a"), ("saw", "NOUN", "saw")],
        [("saw", "PROPN", "saw"), ("played", "VERB", "play")],
    ])

    @Test("the lemma with the most tag probability wins, even against the most probable tag")
    func expectedCorrectness() {
        let tags = [WeightedTag("VERB", 0.4), WeightedTag("NOUN", 0.35), WeightedTag("PROPN", 0.25)]
        #expect(Self.saw.lemma(of: "saw", tags: tags) == "saw")   // 0.6 against 0.4
        #expect(Self.saw.lemma(of: "saw", tags: [WeightedTag("VERB", 0.7), WeightedTag("NOUN", 0.3)]) == "see")
        // A tie keeps the lemma of the more probable tag; one sure tag is that tag's lemma.
        #expect(Self.saw.lemma(of: "saw", tags: [WeightedTag("NOUN", 0.5), WeightedTag("VERB", 0.5)]) == "saw")
        #expect(Self.saw.lemma(of: "saw", tags: [WeightedTag("VERB", 1)]) == "see")
        // No tags at all: the tag-free lemma (most frequent over all tags; ties in byte order).
        #expect(Self.saw.lemma(of: "saw", tags: []) == Self.saw.lemma(of: "saw", tag: nil))
    }

    @Test("a tagger with one tag per word gives it probability 1; the cache agrees with the lemmatizer")
    func defaultPosteriorsAndCache() {
        let tagger = GoldTags(["PRON", "VERB", "PRON"])
        let words = ["I", "saw", "it"]
        let posteriors = tagger.tagPosteriors(for: words)
        #expect(posteriors == [[WeightedTag("PRON", 1)], [WeightedTag("VERB", 1)], [WeightedTag("PRON", 1)]])
        #expect(Self.saw.lemmatize(words, tagPosteriors: posteriors) == ["I", "see", "it"])
        var cache = LemmaCache()
        let spread = [[WeightedTag("PRON", 1)], [WeightedTag("VERB", 0.4), WeightedTag("NOUN", 0.35), WeightedTag("PROPN", 0.25)]]
        #expect(cache.lemmatize(["I", "saw"], tagPosteriors: spread, Self.saw) == Self.saw.lemmatize(["I", "saw"], tagPosteriors: spread))
        #expect(cache.lemmatize(["I", "saw"], tagPosteriors: spread, Self.saw) == ["I", "saw"])
    }

    // EWT's "her": possessive (before a noun) keeps "her", the object pronoun is "she".
    static let her = lemmatizer([
        [("I", "PRON", "I"), ("saw", "VERB", "see"), ("her", "PRON", "she")],
        [("we", "PRON", "we"), ("met", "VERB", "meet"), ("her", "PRON", "she"), (".", "PUNCT", ".")],
        [("they", "PRON", "they"), ("like", "VERB", "like"), ("her", "PRON", "she")],
        [("her", "PRON", "her"), ("dog", "NOUN", "dog"), ("ran", "VERB", "run")],
        [("I", "PRON", "I"), ("took", "VERB", "take"), ("her", "PRON", "her"), ("car", "NOUN", "car")],
    ])

    @Test("the next word's tag picks the lemma of a form whose lemma depends on it")
    func nextTag() {
        #expect(Self.her.lemmatize(["I", "saw", "her"], tags: ["PRON", "VERB", "PRON"]) == ["I", "see", "she"])
        #expect(Self.her.lemmatize(["her", "cat"], tags: ["PRON", "NOUN"]) == ["her", "cat"])
        #expect(Self.her.lemma(of: "her", tag: "PRON") == "she")   // no context: the usual lemma
        #expect(Self.her.dependsOnNextTag("her") && !Self.her.dependsOnNextTag("dog"))
        // The cache keys "her" by the next tag: a cached "she" is not reused before a noun.
        var cache = LemmaCache()
        #expect(cache.lemmatize(["I", "saw", "her"], tags: ["PRON", "VERB", "PRON"], Self.her) == ["I", "see", "she"])
        #expect(cache.lemmatize(["her", "cat"], tags: ["PRON", "NOUN"], Self.her) == ["her", "cat"])
        // With posteriors the next word's most probable tag is the context.
        let posteriors = [[WeightedTag("PRON", 0.9), WeightedTag("DET", 0.1)], [WeightedTag("NOUN", 0.8), WeightedTag("VERB", 0.2)]]
        #expect(Self.her.lemmatize(["her", "cat"], tagPosteriors: posteriors) == ["her", "cat"])
    }

    @Test("gold tags look a form up in its other cases; predicted tags only for all-caps forms")
    func caseVariants() {
        let lemmatizer = lemmatizer([[("5", "NUM", "5"), ("M", "NUM", "million"), ("dollars", "NOUN", "dollar")],
                                     [("in", "ADP", "in"), ("Chernobyl", "PROPN", "Chernobyl"), ("magazine", "NOUN", "magazine")],
                                     [("Magazine", "PROPN", "Magazine")]])
        #expect(lemmatizer.lemma(of: "m", tag: "NUM") == "million")
        #expect(lemmatizer.lemma(of: "m", tag: "NUM", predicted: true) == "m")
        #expect(lemmatizer.lemma(of: "CHERNOBYL", tag: "PROPN", position: 3, predicted: true) == "Chernobyl")
        #expect(lemmatizer.lemma(of: "magazine", tag: "PROPN", position: 3) == "Magazine")
        #expect(lemmatizer.lemma(of: "magazine", tag: "PROPN", position: 3, predicted: true) == "magazine")
    }

    @Test("an e-mail address lemma teaches no edit rule")
    func noAddressRules() {
        let lemmatizer = lemmatizer([
            [("Daniel", "PROPN", "DanielRCastagnola@ENRON"), ("wrote", "VERB", "write")],
            [("Mary", "PROPN", "Mary"), ("wrote", "VERB", "write")],
        ])
        #expect(lemmatizer.lemma(of: "Daniel", tag: "PROPN") == "DanielRCastagnola@ENRON")   // the lexicon still has it
        #expect(lemmatizer.lemma(of: "Ariel", tag: "PROPN") == "Ariel")
    }
}

@Suite("CLI: lemmas with a tagger")
struct LemmaTaggerCLITests {
    @Test("tokenize --lemmas --tagger lemmatizes every token; --tagger without --lemmas and --single-tag without --tagger are refused")
    func tokenizeWithTagger() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("upos.sqlite")
        #expect(try CLI.run(["hmm", "--quiet", "--tagged", Paths.fixture("hmm/good.conllu"), "-o", store]).status == 0)
        let run = try CLI.run(["tokenize", "--tokenizer", "treebank", "--sentences", "--lemmas", "--lemma-training", Paths.fixture("text/tiny.conllu"),
                               "--tagger", store, Paths.fixture("tiny.txt")])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { $0.split(separator: " ").allSatisfy { $0.contains("/") } })
        #expect(lines[1].hasSuffix("dog/dog ran/run ./."))
        let noLemmas = try CLI.run(["tokenize", "--tagger", store, Paths.fixture("tiny.txt")])
        #expect(noLemmas.status != 0 && noLemmas.stderr.contains("--tagger picks lemmas: add --lemmas"))
        let noTagger = try CLI.run(["eval", "lemma", Paths.fixture("text/tiny.conllu"), "--single-tag"])
        #expect(noTagger.status != 0 && noTagger.stderr.contains("--single-tag needs --tagger STORE"))
    }
}
