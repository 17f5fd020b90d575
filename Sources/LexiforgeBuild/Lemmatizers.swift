import Foundation
import LexiforgeCorpus
import LexiforgeReader
import LexiforgeText

/// Where a lemmatizer learns from.
public struct LemmatizerSource: Sendable, Equatable {
    /// CoNLL-U training files (plain or .gz); none gives a WordNet-only lemmatizer.
    public var training: [String] = []
    /// The WordNet dictionary folder; nil to use none.
    public var wordNet: String? = WordNet.defaultDirectory
    public init(training: [String] = [], wordNet: String? = WordNet.defaultDirectory) {
        self.training = training
        self.wordNet = wordNet
    }

    /// WordNet alone when `wordnet-base` is installed, else nil.
    public static var wordNetIfInstalled: LemmatizerSource? {
        FileManager.default.fileExists(atPath: WordNet.defaultDirectory + "/index.noun") ? LemmatizerSource() : nil
    }

    /// Provenance: `{"training":[...],"wordnet":...}` (file names only).
    public var json: String {
        struct Record: Encodable {
            var training: [String]
            var wordnet: String?
            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: Key.self)
                try c.encode(training, forKey: .training)
                try c.encode(wordnet, forKey: .wordnet)   // null when WordNet was not used
            }
            enum Key: String, CodingKey { case training, wordnet }
        }
        return MetaJSON.encode(Record(training: training.map { URL(fileURLWithPath: $0).lastPathComponent }, wordnet: wordNet))
    }
}

/// Builds lemmatizers from a ``LemmatizerSource``.
public enum LemmatizerBuild {
    /// Reads the training treebanks and WordNet.
    /// - Throws: ``PipelineError`` naming each unreadable file or malformed line.
    public static func make(_ source: LemmatizerSource) throws -> Lemmatizer {
        var trainer = LemmatizerTrainer()
        var problems: [String] = []
        for path in source.training {
            if let problem = NgramBuild.checkInput(path) { problems.append(problem); continue }
            do {
                problems += try TreebankReader.read(path: path) { sentence in
                    trainer.add(sentence: sentence.words.map { LemmaExample(form: $0.form, upos: $0.upos, lemma: $0.lemma) })
                }
            } catch let error as CorpusError {
                problems.append(error.description)
            }
        }
        if !problems.isEmpty { throw PipelineError(problems) }
        var wordNet = WordNet()
        if let directory = source.wordNet {
            do { wordNet = try WordNet(directory: directory) } catch { throw PipelineError(error.description) }
        }
        return trainer.finish(wordNet: wordNet)
    }
}

/// Opens the part-of-speech tagger of a Lexiforge store (`eval lemma --tagger STORE`).
///
/// In: a store built by `lexiforge hmm --tagged` on UPOS tags (the lemmatizer's tag set).
/// Out: its Viterbi tagger (``HMMTagger``) as a ``PartOfSpeechTagger``.
/// - Throws: ``StoreError`` when the store cannot be opened or holds no tagger; ``PipelineError``
///   when it was trained on another tag set (XPOS, or unsupervised word classes), saying how to
///   build a UPOS one.
public enum TaggerLoader {
    public static func open(_ path: String, beam: Double? = nil) throws -> any PartOfSpeechTagger {
        let store = try TrainedStore(path: path)
        // Beside n-grams the `hmm` row describes the tagger; stores of `lexiforge hmm` before it
        // existed say it in `text_options`.
        let options = store.meta[StoreSchema.MetaKey.hmm] ?? store.meta[StoreSchema.MetaKey.textOptions] ?? ""
        let tagset = MetaJSON.decode(HMMRecord.self, from: store.meta[StoreSchema.MetaKey.hmm])?.tagset ?? TextOptionsRecord.read(store.meta)?.tagset
        guard tagset == "upos" else {
            throw PipelineError("\(path): the lemmatizer needs a UPOS tagger, and this store's tags are not UPOS (text_options \(options.isEmpty ? "missing" : options)); build one with `lexiforge hmm --tagged TREEBANK.conllu -o \(path)`")
        }
        return try store.hmmTagger(beam: beam)
    }
}
