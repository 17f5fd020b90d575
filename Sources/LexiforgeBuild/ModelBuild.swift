import Foundation
import LexiforgeCorpus
import LexiforgeHMM
import LexiforgeNgrams
import LexiforgeReader
import LexiforgeText
import LexiforgeWordlist

/// The files a ``ModelSpec`` is built from: paths resolved from the manifest (`train`) or given
/// on the command line (`ngrams`), with the sha256 each must have (from the manifest).
public struct ModelInputs: Sendable {
    public var corpora: [String]
    public var lemmaTraining: [String] = []
    public var tagged: [String] = []
    public var wordlists: [String] = []
    /// Vocabulary lists (a vocabulary model).
    public var vocabularies: [String] = []
    /// `LANG<TAB>sentence` files (a language-identifier model).
    public var langidTraining: [String] = []
    public var expectedSHA256: [String: String] = [:]

    public init(corpora: [String], lemmaTraining: [String] = []) {
        self.corpora = corpora
        self.lemmaTraining = lemmaTraining
    }

    /// Every file `spec` names, resolved in the manifest beside `modelPath`; all problems at once.
    public init(resolving spec: ModelSpec, modelPath: String) throws {
        let manifest = try CorpusManifest(besideModel: modelPath)
        let corpora = manifest.resolve(spec.corpora, what: "corpus", modelPath: modelPath)
        let lemmas = manifest.resolve(spec.lemmaTraining, what: "corpus", modelPath: modelPath)
        let tagged = manifest.resolve(spec.hmmTagged, what: "corpus", modelPath: modelPath)
        let wordlists = manifest.resolve(spec.wordlists, what: "wordlist", modelPath: modelPath)
        let vocabularies = manifest.resolve(spec.vocabulary, what: "vocabulary list", modelPath: modelPath)
        let langid = manifest.resolve(spec.langidTraining, what: "langid_training file", modelPath: modelPath)
        let problems = wordlists.problems + corpora.problems + lemmas.problems + tagged.problems + vocabularies.problems + langid.problems
        if !problems.isEmpty { throw PipelineError(problems) }
        self.init(corpora: corpora.paths, lemmaTraining: lemmas.paths)
        self.tagged = tagged.paths
        self.wordlists = wordlists.paths
        self.vocabularies = vocabularies.paths
        self.langidTraining = langid.paths
        for part in [corpora, lemmas, tagged, wordlists, vocabularies, langid] { expectedSHA256.merge(part.expected) { first, _ in first } }
    }
}

/// What `train` built: an n-gram store (with everything beside the n-grams) or another kind.
public enum TrainReport: Sendable {
    case ngrams(NgramBuildReport)
    case vocabulary(VocabImportReport)
    case languageID(LangidTrainReport)

    /// The n-gram report, nil for another kind of store.
    public var ngrams: NgramBuildReport? { if case .ngrams(let report) = self { report } else { nil } }
}

/// `lexiforge train MODEL -o STORE`: a model file resolved against its manifest, then the build of
/// its kind: ``ModelBuild`` for n-grams, ``VocabTrain`` for a vocabulary.
public enum Train {
    public static func run(modelPath: String, output: String, strict: Bool, progress: StageProgress,
                           threads: Int = 1, memory: Int? = nil, temporaryFolder: String? = nil) throws -> TrainReport {
        let (spec, warnings) = try ModelSpec.load(path: modelPath)
        if strict && !warnings.isEmpty { throw PipelineError(warnings.map { $0 + " (an error under --strict)" }) }
        for warning in warnings { progress.warn(warning) }
        let inputs = try ModelInputs(resolving: spec, modelPath: modelPath)
        progress.say("model \(spec.name): \(spec.description)")
        switch spec.kind {
        case .ngrams:
            return .ngrams(try ModelBuild.run(spec, inputs: inputs, output: output, strict: strict, progress: progress,
                                              source: .modelFile(modelPath), threads: threads, memory: memory,
                                              temporaryFolder: temporaryFolder))
        case .vocabulary:
            return .vocabulary(try VocabTrain.run(spec, inputs: inputs, output: output, strict: strict, progress: progress))
        case .languageID:
            return .languageID(try LangidModelTrain.run(spec, inputs: inputs, output: output, progress: progress))
        }
    }
}

/// The one build entry of `ngrams` and `train`: every stage of a spec (wordlists, hidden Markov
/// tables, n-grams and language model, swipe layouts) writes into one private staging file,
/// renamed onto `output` once complete. A crash or kill at any point leaves the old store intact.
public enum ModelBuild {
    /// Called between stages with the stage just finished (tests kill the build there).
    nonisolated(unsafe) public static var stageBoundaryHook: ((String) -> Void)?

    /// `source` says how problems with the spec are named: the model file's keys or the flags.
    /// `threads` read and count the corpora (the store does not depend on it); `precounted`, the
    /// merged counts of count shards (``CountShard``), replaces reading them.
    public static func run(_ spec: ModelSpec, inputs: ModelInputs, output: String, strict: Bool,
                           progress: StageProgress, source: SpecDiagnostic.Style = .commandLine,
                           threads: Int = 1, memory: Int? = nil, temporaryFolder: String? = nil,
                           precounted: NgramBuildConfig.Precounted? = nil) throws -> NgramBuildReport {
        try spec.check(source)
        let layouts: [SwipeLayout]
        do { layouts = try spec.swipeLayouts.map { try SwipeLayout.named($0) } } catch {
            throw PipelineError(SpecDiagnostic(.error, .swipeLayouts, "names a layout that cannot be used: \(error)").rendered(source))
        }
        let staged: AtomicOutput
        do { staged = try AtomicOutput.prepare(path: output, kind: "store") } catch { throw PipelineError(error.description) }
        var config = NgramBuildConfig(spec: spec, inputs: inputs, output: staged.temporaryPath, strict: strict)
        config.destination = output
        config.threads = threads
        config.memory = memory ?? spec.memory
        config.temporaryFolder = temporaryFolder
        config.precounted = precounted
        config.lexiconMerge = try readWordlists(spec, inputs: inputs, strict: strict, progress: progress)
        stageBoundaryHook?("wordlists")
        config.hmm = try trainHMM(spec, inputs: inputs, corpora: config, progress: progress)
        stageBoundaryHook?("hmm")
        var report = try NgramBuild.run(config, progress: progress)
        stageBoundaryHook?("ngrams")
        for layout in layouts {
            let swipe = try SwipeFeatureBuild.run(storePath: staged.temporaryPath, layout: layout)
            progress.say(SwipeFeatureBuild.render(swipe))
            report.storeBytes = swipe.bytesAfter
            stageBoundaryHook?("swipe \(layout.name)")
        }
        do { try staged.commit() } catch { throw PipelineError(error.description) }
        return report
    }

    /// The wordlists' lexicon (sha256-checked), read before any corpus; nil when there are none.
    static func readWordlists(_ spec: ModelSpec, inputs: ModelInputs, strict: Bool, progress: StageProgress) throws -> LexiconMergeInput? {
        guard !inputs.wordlists.isEmpty else { return nil }
        progress.say("reading \(inputs.wordlists.count) wordlist(s)")
        let read = WordlistReader.read(paths: inputs.wordlists)
        let failing = strict ? read.diagnostics : read.errors
        var problems = failing.map { "\($0.location): \($0.message)" }
        problems += shaMismatches(read.files.map { ($0.path, $0.sha256) }, expected: inputs.expectedSHA256)
        if !problems.isEmpty { throw PipelineError(problems) }
        for warning in read.warnings { progress.say(warning.description) }
        return LexiconMergeInput(lexicon: read.lexicon, options: spec.merge)
    }

    /// The hidden Markov tables the spec asks for, trained before the n-grams so their words
    /// join the one vocabulary; nil when it asks for none.
    static func trainHMM(_ spec: ModelSpec, inputs: ModelInputs, corpora: NgramBuildConfig,
                         progress: StageProgress) throws -> HMMTraining? {
        let mode: HMMBuildConfig.Mode
        let files: [String]
        if !inputs.tagged.isEmpty {
            mode = .supervised(SupervisedHMMConfig())
            files = inputs.tagged
            progress.say("hidden Markov tables: a \(spec.hmmTagset.rawValue) tagger from \(files.count) tagged file(s)")
        } else if let states = spec.hmmStates {
            var bw = BaumWelchConfig(states: states)
            bw.seed = spec.hmmSeed
            bw.iterations = spec.hmmIterations
            mode = .unsupervised(bw)
            files = corpora.inputs
            progress.say("hidden Markov tables: \(states) hidden states by Baum-Welch over the corpora")
        } else {
            return nil
        }
        var config = HMMBuildConfig(mode: mode, inputs: files, output: corpora.output)
        config.tagColumn = spec.hmmTagset
        config.text = corpora.text
        config.corpus = corpora.corpus
        config.strict = corpora.strict
        let training = try HMMBuild.train(config, progress: progress)
        let problems = shaMismatches(training.report.files.map { ($0.path, $0.sha256) }, expected: inputs.expectedSHA256)
        if !problems.isEmpty { throw PipelineError(problems) }
        return training
    }

    /// One line per file whose digest is not the manifest's.
    static func shaMismatches(_ files: [(path: String, sha256: String)], expected: [String: String]) -> [String] {
        files.compactMap { file in
            guard let want = expected[file.path], want != file.sha256 else { return nil }
            return "\(file.path): sha256 is \(file.sha256) but the manifest says \(want); provision it again with `make corpora`"
        }
    }
}

extension NgramBuildConfig {
    /// The n-gram stage's part of a spec: the one place options are copied.
    public init(spec: ModelSpec, inputs: ModelInputs, output: String, strict: Bool) {
        self.init(inputs: inputs.corpora, output: output)
        order = spec.order
        text.lowercase = spec.lowercase
        text.keepPunctuation = spec.keepPunctuation
        text.mode = spec.tokenizer
        text.normalization = spec.normalization
        text.straightQuotes = spec.straightQuotes
        text.numberClass = spec.numberClass
        corpus.replaceInvalidUTF8 = spec.replaceInvalidUTF8
        corpus.stripGutenberg = !spec.keepGutenbergBoilerplate
        wordClasses = spec.wordColumns
        if !inputs.lemmaTraining.isEmpty { lemmatizer = LemmatizerSource(training: inputs.lemmaTraining) }
        self.strict = strict
        modelName = spec.name.isEmpty ? nil : spec.name
        expectedSHA256 = inputs.expectedSHA256
        languageModel = spec.languageModel
        estimation.minCounts = spec.minCount.isEmpty ? [] : [1] + spec.minCount
        estimation.entropyThreshold = spec.prune
        estimation.clusters = spec.classes
        estimation.clusterWeight = spec.classWeight
        estimation.formRules = spec.formRules
        vocabularySize = spec.vocabSize
    }
}
