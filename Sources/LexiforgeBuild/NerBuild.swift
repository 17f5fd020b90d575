import Foundation
import LexiforgeCorpus
import LexiforgeEntities
import LexiforgeNgrams
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeText

/// One named-entity training file and the weight of its sentences' updates.
public struct WeightedFile: Sendable, Equatable {
    public var path: String
    public var weight: Float
    public init(path: String, weight: Float = 1) {
        self.path = path
        self.weight = weight
    }
}

/// `lexiforge ner train`, `ner`, `eval ner`: the named-entity stage wired to files and stores.
public enum NerBuild {
    /// Reads IOB2/CoNLL files; errors (every bad line of every file) are thrown together, and
    /// warnings (repaired `I-` tags) too under `strict`, else reported through `progress`.
    public static func read(_ paths: [String], strict: Bool, progress: StageProgress) throws -> IOB2ReadResult {
        let problems = paths.compactMap(NgramBuild.checkInput)
        if !problems.isEmpty { throw PipelineError(problems) }
        let result = IOB2Reader.read(paths)
        if !result.errors.isEmpty || (strict && !result.warnings.isEmpty) {
            throw PipelineError(result.errors + (strict ? result.warnings.map { $0 + " (an error under --strict)" } : []))
        }
        if !result.warnings.isEmpty {
            for warning in result.warnings.prefix(10) { progress.say("warning: \(warning)") }
            progress.say("warning: \(result.warnings.count) line(s) repaired (I- read as B-, empty words skipped) in \(paths.joined(separator: ", "))")
        }
        return result
    }

    /// The UPOS hidden Markov tagger whose tags are entity features, trained on CoNLL-U files
    /// (`--upos-train`); nil for none.
    public static func uposTagger(_ training: [String], progress: StageProgress) throws -> HMMTraining? {
        guard !training.isEmpty else { return nil }
        progress.say("training the UPOS tagger on \(training.joined(separator: ", "))")
        return try HMMBuild.train(HMMBuildConfig(mode: .supervised(.init()), inputs: training, output: ""),
                                  progress: StageProgress(quiet: true))
    }

    /// The WordNet name lists whose matches are entity features: from `directory`, or from
    /// WordNet's default directory when nil (skipped with a warning when WordNet is not installed
    /// there); none when `use` is false.
    public static func lexicon(use: Bool, directory: String?, progress: StageProgress) throws -> EntityLexicon {
        guard use else { return EntityLexicon() }
        let path = directory ?? WordNet.defaultDirectory
        if directory == nil && !FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("data.noun")) {
            progress.say("warning: no WordNet at \(path) (install wordnet-base): training without its name lists")
            return EntityLexicon()
        }
        do { return try EntityLexicon.wordNet(directory: path) } catch { throw PipelineError("\(error)") }
    }

    /// Words kept for the word classes by default (the most frequent of the unlabelled text).
    public static let clusterVocabulary = 20_000

    /// Word classes learnt from unlabelled text (`--cluster-text`): every line of the files
    /// (a CoNLL-U treebank: its `# text =` lines) tokenized with the treebank tokenizer and
    /// lowercased, bigrams counted, the `words` most frequent words clustered into `classes`
    /// classes by the exchange algorithm (`WordClusters`, 10 passes). Empty for no files.
    public static func clusters(_ paths: [String], classes: Int, words: Int = clusterVocabulary,
                                progress: StageProgress) throws -> EntityClusters {
        guard !paths.isEmpty, classes > 0 else { return EntityClusters() }
        let problems = paths.compactMap(NgramBuild.checkInput)
        if !problems.isEmpty { throw PipelineError(problems) }
        let counter = NgramCounter(order: 2)
        let tokenizer = Tokenizer(mode: .treebank)
        var tokens: [Token] = []
        for path in paths {
            _ = try CorpusReader.readLines(of: path, options: CorpusReadOptions(replaceInvalidUTF8: true, treebankText: true)) { line in
                tokens.removeAll(keepingCapacity: true)
                tokenizer.tokenize(line, into: &tokens)
                guard !tokens.isEmpty else { return }
                counter.add(sentence: tokens.map { String(decoding: UnsafeBufferPointer(rebasing: line[$0.start..<$0.end]), as: UTF8.self).lowercased() })
            }
        }
        let counts = counter.finish().limitingVocabulary(to: words)
        progress.say("clustering \(counts.words.count - 3) words of \(counter.tokens) tokens into \(classes) classes")
        let clustering = WordClusters.exchange(counts, classes: classes, iterations: 10)
        var out: [String: UInt16] = [:]
        // The real classes are 3...K+2; they become 1...K.
        for id in 3..<counts.words.count { out[counts.words[id]] = UInt16(Int(clustering.classOf[id]) - 2) }
        return EntityClusters(classes: out)
    }

    /// Trains on `files` (with UPOS features from a tagger trained on `uposTraining`, if any)
    /// and writes the store at `output` atomically.
    public static func train(_ files: [WeightedFile], uposTraining: [String] = [], lexicon: EntityLexicon = EntityLexicon(),
                             clusters: EntityClusters = EntityClusters(), output: String, config: EntityTrainerConfig, strict: Bool, progress: StageProgress) throws -> (sentences: Int, tokens: Int, features: Int, storeBytes: Int) {
        let file = try AtomicStoreFile.prepare(path: output)
        let upos = try uposTagger(uposTraining, progress: progress)
        let trainer = EntityTrainer(config: config, tagging: upos.map { EntityTagging(tables: $0.tables) }, lexicon: lexicon,
                                    clusters: clusters)
        var summaries: [CorpusFileSummary] = []
        var repaired = 0
        for input in files {
            let result = try read([input.path], strict: strict, progress: progress)
            summaries += result.files
            repaired += result.warnings.count
            for sentence in result.sentences { trainer.add(sentence, weight: input.weight) }
        }
        guard trainer.tokens > 0 else {
            throw PipelineError("\(files.map(\.path).joined(separator: ", ")): no labelled words to train on")
        }
        progress.say("training on \(trainer.sentenceCount) sentences, \(trainer.tokens) tokens, \(config.epochs) epochs")
        let model = trainer.finish()
        struct Description: Encodable {
            var model = "structured-averaged-perceptron"
            var featureVersion: Int, epochs: Int, seed: UInt64, gazetteer: Bool, lexicon: Int, clusters: Int, types: [String], features: Int
            var repairedLines: Int, weights: [Double]
            enum CodingKeys: String, CodingKey {
                case model, epochs, seed, gazetteer, lexicon, clusters, types, features, weights
                case featureVersion = "feature_version", repairedLines = "repaired_lines"
            }
        }
        var provenance = StoreProvenance(toolchain: toolchainVersion, model: "entity-tagger", order: 1, inputs: summaries.map(\.record),
                                         tokens: trainer.tokens, sentences: trainer.sentenceCount, vocabulary: 0)
        provenance.extra[StoreSchema.MetaKey.entities] = MetaJSON.encode(Description(
            featureVersion: Int(StoreSchema.Entities.featureVersion), epochs: config.epochs, seed: UInt64(config.seed), gazetteer: config.gazetteer,
            lexicon: lexicon.count, clusters: clusters.count, types: model.labels.types, features: model.table.count, repairedLines: repaired, weights: files.map { Double($0.weight) }))
        if let upos { provenance.extra[StoreSchema.MetaKey.hmm] = upos.description }
        var meta = provenance.rows
        meta[StoreSchema.MetaKey.vocabulary] = nil
        try StoreWriter.writeEntities(model, hmm: upos?.tables, meta: meta, to: file)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        return (trainer.sentenceCount, trainer.tokens, model.table.count, bytes)
    }

    /// `eval ner STORE FILE...`: exact-span scores of the store's tagger on gold files.
    /// `timingPasses` > 1 tags the sentences again for a steadier speed figure.
    public static func evaluate(store: String, gold: [String], strict: Bool, timingPasses: Int = 1, progress: StageProgress) throws -> EntityScore {
        let tagger = try EntityTagger(path: store)
        let sentences = try read(gold, strict: strict, progress: progress).sentences
        let score = EntityEvaluation.score(tagger.model, on: sentences, timingPasses: timingPasses)
        if score.nondeterministic { throw PipelineError("internal error: entity tagging is not deterministic (a timing pass tagged otherwise)") }
        return score
    }

    /// `eval ner --folds K --train FILE... GOLD`: K-fold cross-validation on the gold files,
    /// each fold's model trained on the other folds plus `extra`.
    public static func crossValidate(gold: [String], extra: [WeightedFile], uposTraining: [String] = [],
                                     lexicon: EntityLexicon = EntityLexicon(), clusters: EntityClusters = EntityClusters(), folds: Int,
                                     goldWeight: Float, config: EntityTrainerConfig, strict: Bool,
                                     progress: StageProgress) throws -> (pooled: EntityScore, folds: [EntityScore]) {
        let sentences = try read(gold, strict: strict, progress: progress).sentences
        var extraSentences: [(LabeledSentence, Float)] = []
        for input in extra {
            extraSentences += try read([input.path], strict: strict, progress: progress).sentences.map { ($0, input.weight) }
        }
        let tagging = try uposTagger(uposTraining, progress: progress).map { EntityTagging(tables: $0.tables) }
        return EntityEvaluation.crossValidate(sentences, folds: folds, extra: extraSentences, goldWeight: goldWeight,
                                              config: config, tagging: tagging, lexicon: lexicon,
                                              clusters: clusters) { progress.say($0) }
    }

    /// `ner STORE FILE...`: the entities of each text file (standard input when none), one per
    /// line: `start<TAB>end<TAB>TYPE<TAB>text` (Unicode scalar offsets into the file), after a
    /// `# FILE` line when there are several files.
    public static func tag(store: String, files: [String], joinNames: Bool, output: (String) -> Void) throws {
        let tagger = try EntityTagger(path: store)
        let problems = files.compactMap(NgramBuild.checkInput)
        if !problems.isEmpty { throw PipelineError(problems) }
        if files.isEmpty {
            var text = ""
            while let line = readLine(strippingNewline: false) { text += line }
            for entity in tagger.entities(in: text, joinNames: joinNames) { output(entity.description) }
            return
        }
        var errors: [String] = []
        for path in files {
            let text: String
            do { text = try SearchBuild.text(of: path) } catch {
                errors.append("\(error)")
                continue
            }
            if files.count > 1 { output("# \(path)") }
            if text.allSatisfy(\.isWhitespace) {
                errors.append("\(path): empty document (no text to tag)")
                continue
            }
            for entity in tagger.entities(in: text, joinNames: joinNames) { output(entity.description) }
        }
        if !errors.isEmpty { throw PipelineError(errors) }
    }
}
