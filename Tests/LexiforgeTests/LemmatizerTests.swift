import Foundation
import LexiforgeCorpus
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeText
import LexiforgeTestSupport
import Testing

@Suite("Treebank reader and lemmatizer")
struct LemmatizerTests {
    static let tiny = Paths.fixture("text/tiny.conllu")
    static let wordNetInstalled = FileManager.default.fileExists(atPath: WordNet.defaultDirectory + "/index.noun")

    @Test("reader: multiword tokens as written over their words")
    func reader() throws {
        var sentences: [TreebankSentence] = []
        let problems = try TreebankReader.read(path: Self.tiny) { sentences.append($0) }
        #expect(problems.isEmpty)
        #expect(sentences.count == 3)
        #expect(sentences[0].tokens.map(\.form) == ["I", "don't", "like", "the", "geese", "."])
        #expect(sentences[0].words.map(\.form) == ["I", "do", "n't", "like", "the", "geese", "."])
        #expect(sentences[2].tokens[4] == TreebankToken(form: "cats'", words: 4..<6))
    }

    @Test("reader: a malformed line is reported with file:line and only its sentence is skipped")
    func malformed() throws {
        var texts: [String] = []
        let problems = try TreebankReader.read(path: Paths.fixture("text/malformed.conllu")) { texts.append($0.text ?? "") }
        #expect(texts == ["Fine."])
        #expect(problems.count == 1 && problems[0].hasSuffix("malformed.conllu:2: 3 tab-separated columns, CoNLL-U needs 10"))
    }

    @Test("eval tokenize on the fixture: every token and word matches")
    func tokenizationEval() throws {
        let report = try TokenizationEval.run(gold: Self.tiny)
        #expect(report.tokens.f1 == 1.0)
        #expect(report.words.f1 == 1.0)
        #expect(report.tokens.gold == 19 && report.words.gold == 21)
    }

    struct RuleCase: Sendable, CustomTestStringConvertible {
        var form: String, lemma: String, rule: String
        var testDescription: String { "\(form) → \(lemma)" }
    }

    @Test("edit rules", arguments: [
        RuleCase(form: "running", lemma: "run", rule: "-ning+"),
        RuleCase(form: "geese", lemma: "goose", rule: "-eese+oose"),
        RuleCase(form: "The", lemma: "the", rule: "lower,-+"),
        RuleCase(form: "studies", lemma: "study", rule: "-ies+y"),
    ])
    func rules(_ c: RuleCase) {
        let rule = LemmaRule(form: c.form, lemma: c.lemma)
        #expect(rule.description == c.rule)
        #expect(rule.apply(to: c.form) == c.lemma)
    }

    @Test("lexicon and learned rules without WordNet")
    func trainedOnFixture() throws {
        let lemmatizer = try LemmatizerBuild.make(LemmatizerSource(training: [Self.tiny], wordNet: nil))
        #expect(lemmatizer.lemmatize(["I", "do", "n't", "like", "the", "geese"], tags: nil) == ["I", "do", "not", "like", "the", "goose"])
        #expect(lemmatizer.lemma(of: "The", tag: "DET", position: 0) == "the")
        // Unseen: learned from walked → walk and dogs → dog.
        #expect(lemmatizer.lemma(of: "jumped", tag: "VERB") == "jump")
        #expect(lemmatizer.lemma(of: "cats", tag: "NOUN") == "cat")
        #expect(lemmatizer.lemma(of: "Mary", tag: "PROPN") == "Mary")
    }

    @Test("WordNet exceptions and Morphy", .enabled(if: wordNetInstalled, "wordnet-base is not installed (make deps)"))
    func wordNet() throws {
        let wordNet = try WordNet(directory: WordNet.defaultDirectory)
        #expect(wordNet.baseForms(of: "geese", pos: .noun) == ["goose"])
        #expect(wordNet.baseForms(of: "boxes", pos: .noun) == ["box"])
        #expect(wordNet.baseForms(of: "ran", pos: .verb) == ["run"])
        let lemmatizer = try LemmatizerBuild.make(LemmatizerSource(training: [Self.tiny]))
        #expect(lemmatizer.lemma(of: "mice", tag: "NOUN") == "mouse")
        #expect(lemmatizer.lemma(of: "swam", tag: "VERB") == "swim")
        #expect(lemmatizer.lemma(of: "mice", tag: nil) == "mouse")
    }

    @Test("a missing WordNet folder says what to install")
    func missingWordNet() {
        #expect(throws: TextError.wordNetMissing("/nonexistent/index.noun")) { try WordNet(directory: "/nonexistent") }
    }

    static let ud = Paths.sharedData.appendingPathComponent("ud").path

    @Test("EWT dev: tokenization F1 ≥ 0.98 (treebank mode)",
          .enabled(if: Paths.sharedDataAvailable, "../shared/data is absent"))
    func ewtTokenization() throws {
        let report = try TokenizationEval.run(gold: Self.ud + "/en_ewt-ud-dev.conllu.gz")
        #expect(report.tokens.f1 >= 0.98)
    }

    @Test("a UPOS tagger store feeds the lemmatizer; an XPOS one is refused with how to build one")
    func taggerStore() throws {
        let folder = try TemporaryFolder()
        let fixture = Paths.fixture("hmm/good.conllu")
        let upos = folder.file("upos.sqlite"), xpos = folder.file("xpos.sqlite")
        _ = try HMMBuild.run(HMMBuildConfig(mode: .supervised(.init()), inputs: [fixture], output: upos), progress: StageProgress(quiet: true))
        var config = HMMBuildConfig(mode: .supervised(.init()), inputs: [fixture], output: xpos)
        config.tagColumn = .xpos
        _ = try HMMBuild.run(config, progress: StageProgress(quiet: true))
        var words: [String] = [], gold: [String] = []
        _ = try TreebankReader.read(path: fixture) { sentence in
            if words.isEmpty { words = sentence.words.map(\.form); gold = sentence.words.map(\.upos) }
        }
        let tags = try TaggerLoader.open(upos).tags(for: words)
        #expect(tags == gold)
        #expect(throws: PipelineError.self) { try TaggerLoader.open(xpos) }
        do { _ = try TaggerLoader.open(xpos) } catch {
            #expect("\(error)".contains("lexiforge hmm --tagged"))
        }
    }

    @Test("EWT dev: lemma accuracy ≥ 96% without tags, ≥ 97% with gold tags",
          .enabled(if: Paths.sharedDataAvailable && wordNetInstalled, "../shared/data or wordnet-base is absent"))
    func ewtLemmas() throws {
        let source = LemmatizerSource(training: [Self.ud + "/en_ewt-ud-train.conllu.gz"])
        let free = try LemmaEval.run(gold: Self.ud + "/en_ewt-ud-dev.conllu.gz", source: source, tagging: .none)
        #expect(free.accuracy >= 0.96)
        let gold = try LemmaEval.run(gold: Self.ud + "/en_ewt-ud-dev.conllu.gz", source: source, tagging: .gold)
        #expect(gold.accuracy >= 0.97)
        // With predicted tags (lemmas voted over the tagger's posteriors): the 97% target is not reached
        // yet (96.83%); guard the gain over no tags.
        let folder = try TemporaryFolder()
        let store = folder.file("upos.sqlite")
        _ = try HMMBuild.run(HMMBuildConfig(mode: .supervised(.init()), inputs: [Self.ud + "/en_ewt-ud-train.conllu.gz"], output: store),
                             progress: StageProgress(quiet: true))
        let tagged = try LemmaEval.run(gold: Self.ud + "/en_ewt-ud-dev.conllu.gz", source: source, tagging: .tagger(.store(store)))
        #expect(tagged.accuracy >= free.accuracy + 0.003)
    }
}
