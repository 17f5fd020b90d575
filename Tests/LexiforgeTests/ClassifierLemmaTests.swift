import Foundation
import GRDB
import LexiforgeBuild
import LexiforgeClassify
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeTestSupport
import LexiforgeText
import Testing

/// Lemma features of the text classifier (`classify train --lemmas`): hand-made lemma tables
/// and four-document corpora, inline.
@Suite("Text classifiers: lemma features")
struct ClassifierLemmaTests {
    static let table = ["loved": "love", "loves": "love", "loving": "love", "hated": "hate", "hates": "hate", "films": "film", "détestés": "détester"]

    @Test("tokens are replaced by their lemmas, negated ones marked after, and the reader's hashes are the trainer's")
    func tokensAndHashes() {
        let text = "I LOVED these films. Not loved, films détestés!"
        let tokens = ClassifierFeatures.tokens(of: text, lowercase: true, negation: true, lemmas: Self.table).tokens
        #expect(tokens == ["i", "love", "these", "film", ".", "not", "¬love", ",", "film", "détester", "!"])
        let hashes = ClassifierFeatures.tokenHashes(of: text, lowercase: true, negation: true, lemmas: .init(Self.table)).hashes
        #expect(hashes == tokens.map { ClassifierFeatures.hash(token: $0) })
        // Without the table, the forms as before.
        #expect(ClassifierFeatures.tokens(of: text, lowercase: true, negation: true).tokens[1] == "loved")
    }

    static let documents = [
        LabeledDocument(text: "loved it", label: "pos", source: "d1"),
        LabeledDocument(text: "loves it", label: "pos", source: "d2"),
        LabeledDocument(text: "hated it", label: "neg", source: "d3"),
        LabeledDocument(text: "hates it", label: "neg", source: "d4"),
    ]

    static func model(lemmas: [String: String]) -> TextClassifierModel {
        var options = ClassifierOptions()
        options.algorithm = .nb
        options.maxOrder = 1
        options.alpha = 1
        options.keepMinDocuments = 1
        options.lemmas = !lemmas.isEmpty
        let corpus = FeaturizedCorpus(documents, maxOrder: 1, lowercase: true, lemmas: lemmas)
        return ClassifierTrainer.model(corpus, options: options, calibration: nil)
    }

    @Test("one weight for every form of a lemma, and a form training never saw is read by its lemma")
    func unseenForm() {
        let model = Self.model(lemmas: Self.table)
        #expect(model.features == ["hate", "it", "love"])
        // Only the lemmas of stored features are kept: "film" and "détester" are not features.
        #expect(model.lemmas == ["loved": "love", "loves": "love", "loving": "love", "hated": "hate", "hates": "hate"])
        let classifier = TextClassifier(model: model)
        // Naive Bayes, add-one: P(love | pos) = (2 + 1) / (4 + 3), P(love | neg) = 1 / 7, equal priors → 3 / 4.
        let p = classifier.probabilities(for: "loving it")
        #expect(p[0].label == "pos" && abs(p[0].probability - 0.75) < 1e-12)
        // With word forms "loving" is unknown: nothing but "it", which both labels share.
        let forms = TextClassifier(model: Self.model(lemmas: [:])).probabilities(for: "loving it")
        #expect(abs(forms[0].probability - 0.5) < 1e-12)
    }

    @Test("store round trip keeps the lemma table; a table shorter than the meta row says is damage")
    func roundTripAndDamage() throws {
        let folder = try TemporaryFolder()
        let model = Self.model(lemmas: Self.table)
        let path = folder.file("lemmas.sqlite")
        try StoreWriter.write(classifier: model, meta: ["classifier": model.metaJSON()], to: AtomicStoreFile.prepare(path: path))
        let read = try TrainedStore(path: path).textClassifierModel()
        #expect(read.lemmas == model.lemmas)
        let p = try TextClassifier(store: TrainedStore(path: path)).probabilities(for: "loving it")
        #expect(p[0].label == "pos" && abs(p[0].probability - 0.75) < 1e-3)
        // Forms-only stores have an empty table and no meta count.
        let plain = Self.model(lemmas: [:])
        let plainPath = folder.file("forms.sqlite")
        try StoreWriter.write(classifier: plain, meta: ["classifier": plain.metaJSON()], to: AtomicStoreFile.prepare(path: plainPath))
        #expect(try TrainedStore(path: plainPath).textClassifierModel().lemmas.isEmpty)

        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "DELETE FROM classifier_lemma WHERE form = 'loving'") }
        try queue.close()
        let error = #expect(throws: (any Error).self) { try TrainedStore(path: path).textClassifierModel() }
        #expect("\(error.map { "\($0)" } ?? "")".contains("`classifier_lemma` has 4 rows; the `classifier` meta row says 5"))
    }

    @Test("the build's lemma table: the texts' forms and the lemmatizer's, tag-free, only where the lemma differs")
    func lemmaTable() {
        var trainer = LemmatizerTrainer()
        trainer.add(sentence: [LemmaExample(form: "Loved", upos: "VERB", lemma: "love"), LemmaExample(form: "films", upos: "NOUN", lemma: "film"),
                               LemmaExample(form: "was", upos: "AUX", lemma: "be"), LemmaExample(form: "the", upos: "DET", lemma: "the")])
        let lemmatizer = trainer.finish(wordNet: WordNet())
        let table = ClassifyTrain.lemmaTable([LabeledDocument(text: "LOVED the films", label: "pos", source: "d")], lowercase: true, lemmatizer: lemmatizer)
        #expect(table["loved"] == "love" && table["films"] == "film")
        #expect(table["was"] == "be")       // a form of the lemmatizer's, not of the texts
        #expect(table["the"] == nil)        // its own lemma
    }

    @Test("the build's lemma table: an irregular form the treebanks lacked takes WordNet's exception when its parts of speech agree",
          .enabled(if: FileManager.default.fileExists(atPath: WordNet.defaultDirectory + "/verb.exc"), "WordNet (wordnet-base) is not installed"))
    func irregularForms() throws {
        var trainer = LemmatizerTrainer()
        trainer.add(sentence: [LemmaExample(form: "they", upos: "PRON", lemma: "they")])
        let lemmatizer = trainer.finish(wordNet: try WordNet(directory: WordNet.defaultDirectory))
        let table = ClassifyTrain.lemmaTable([LabeledDocument(text: "they sang and flew", label: "pos", source: "d")], lowercase: true, lemmatizer: lemmatizer)
        #expect(table["sang"] == "sing" && table["flew"] == "fly")
    }
}
