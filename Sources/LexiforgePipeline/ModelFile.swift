import Foundation
import LexiforgeCorpus
import LexiforgeHMM
import LexiforgeNgrams
import LexiforgeText
import LexiforgeReader

/// One corpus or wordlist of `Corpora/manifest.tsv`.
public struct ManifestEntry: Sendable, Equatable {
    public var name: String
    public var file: String
    public var sha256: String
    public var license: String
    public var source: String
    public var url: String
}

/// `Corpora/manifest.tsv`: tab-separated, a header line, `#` comments; columns
/// `name file sha256 license source url`. The Makefile's provisioning step reads the same file.
public struct CorpusManifest: Sendable {
    public var entries: [ManifestEntry]
    /// Where provisioned files live: `data/` beside the manifest.
    public var dataDirectory: String

    public static let columns = ["name", "file", "sha256", "license", "source", "url"]

    public init(path: String) throws {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw PipelineError("\(path): cannot read the corpus manifest; it belongs beside the model files in Corpora/")
        }
        dataDirectory = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("data").path
        var entries: [ManifestEntry] = []
        var problems: [String] = []
        var sawHeader = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if !sawHeader {
                sawHeader = true
                if fields != Self.columns {
                    problems.append("\(path):\(index + 1): header must be \(Self.columns.joined(separator: "<TAB>"))")
                }
                continue
            }
            guard fields.count == Self.columns.count else {
                problems.append("\(path):\(index + 1): \(fields.count) columns, expected \(Self.columns.count) (\(Self.columns.joined(separator: ", ")))")
                continue
            }
            guard fields[2].count == 64, fields[2].allSatisfy(\.isHexDigit) else {
                problems.append("\(path):\(index + 1): sha256 '\(fields[2])' is not 64 hex digits")
                continue
            }
            if let problem = Self.confinementProblem(fields[1]) {
                problems.append("\(path):\(index + 1): file '\(fields[1])' \(problem); a manifest file is a relative path inside data/ such as corpora/NAME.txt")
                continue
            }
            entries.append(.init(name: fields[0], file: fields[1], sha256: fields[2], license: fields[3], source: fields[4], url: fields[5]))
        }
        if !problems.isEmpty { throw PipelineError(problems) }
        self.entries = entries
    }

    /// Why `file` would leave the data folder (absolute, a `..` component, empty), or nil.
    static func confinementProblem(_ file: String) -> String? {
        if file.isEmpty { return "is empty" }
        if file.hasPrefix("/") { return "is an absolute path" }
        if file.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." }) { return "leaves the data folder ('..')" }
        if file.utf8.contains(0) { return "holds a NUL byte" }
        return nil
    }

    /// Whether `path` (a ``localPath(of:)``), once symbolic links are resolved, is inside the data folder.
    public func isInsideDataDirectory(_ path: String) -> Bool {
        let root = URL(fileURLWithPath: dataDirectory).resolvingSymlinksInPath().path
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return resolved.hasPrefix(root + "/")
    }

    public func entry(named name: String) -> ManifestEntry? { entries.first { $0.name == name } }

    public func localPath(of entry: ManifestEntry) -> String { dataDirectory + "/" + entry.file }
}

/// A shipped model described declaratively: `Corpora/NAME.model.json`.
///
/// ```json
/// {
///   "name": "dorian-gray-ch1",
///   "description": "Tally's Trained store: orders 1-3 from chapter 1",
///   "corpora": ["dorian-gray-ch1"],
///   "order": 3,
///   "lowercase": false
/// }
/// ```
/// `corpora` names entries of the manifest beside the model file; `order` (1-5, default 3),
/// `lowercase` (default false), `keep_punctuation` (default false) and `replace_invalid_utf8` (default false) are the options of
/// `lexiforge ngrams`; so are the language-model keys `language_model` (default false),
/// `min_count` (array of counts per order from 2, like `--min-count 1,2`; needs `language_model`),
/// `prune` (entropy threshold, default 0; needs `language_model`), `vocab_size` (default: all) and
/// `classes` (K word classes for a class model the predictions interpolate with, like `--classes`,
/// default 0 = none; needs `language_model`) with `class_weight` (its λ, default 0.3), and
/// `form_rules` (suffix rules for unseen forms, like `--form-rules`, default 0 = none; needs
/// `language_model`).
/// `wordlists` (manifest names of combined wordlists) merges their lexicon with the counts, as
/// `frequency_source` ("mix", "list" or "corpus"), `list_weight` (0-1) and `min_corpus_count`
/// say (see ``LexiconMerge``). `swipe_layouts` (layout names or JSON files, e.g. `["qwerty"]`)
/// adds each layout's swipe features after the store is built (see ``SwipeFeatureBuild``).
/// The text options are the text options `tokenizer` ("keyboard" or "treebank", default
/// "keyboard"), `normalization` ("none", "nfc" or "nfkc", default "none"), `straight_quotes` and
/// `number_class` (default false), and `word_classes` (default false: the indexed lemma and
/// script columns) with `lemma_training` (manifest names of CoNLL-U files the lemmatizer learns
/// from, beside WordNet; only with `word_classes`). Hidden Markov tables go beside the n-grams
/// with `hmm_tagged` (manifest names of tagged corpora, CoNLL-U or `word/TAG` text: a supervised
/// tagger, as `lexiforge hmm --tagged`; `hmm_tagset` "upos" or "xpos", default "upos"; needs
/// `"lowercase": false`, since a tagger reads words as written) or `hmm_states` (K word classes
/// learned by Baum-Welch over the model's own corpora and tokens; `hmm_seed`, default 1, and
/// `hmm_iterations`, default 20). `langid_training` (manifest names of `LANG<TAB>sentence`
/// files) makes the model a language identifier instead (``LangidTrain``; `corpora` then not
/// needed). Unknown keys are an error, so a typo never silently changes a model.
public struct ModelFile: Sendable, Equatable {
    public var name: String
    public var description: String
    public var corpora: [String]
    public var order: Int
    public var lowercase: Bool
    public var keepPunctuation: Bool
    public var replaceInvalidUTF8: Bool
    public var wordlists: [String] = []
    public var merge = LexiconMergeOptions()
    public var swipeLayouts: [String] = []
    public var languageModel: Bool = false
    /// Per order from 2, as `--min-count`.
    public var minCount: [Int] = []
    public var prune: Double = 0
    public var vocabSize: Int?
    /// Word classes of the interpolated class model (0: none), and its weight.
    public var classes = 0
    public var classWeight = EstimationOptions.defaultClusterWeight
    /// Suffix rules for unseen forms (0: none).
    public var formRules = 0
    public var tokenizer: TokenizerMode = .keyboard
    public var normalization: UnicodeNormalization = .none
    public var straightQuotes = false
    public var numberClass = false
    public var wordClasses = false
    /// Manifest names of the lemmatizer's CoNLL-U training files.
    public var lemmaTraining: [String] = []
    /// Manifest names of tagged corpora for a supervised tagger beside the n-grams.
    public var hmmTagged: [String] = []
    public var hmmTagset: TagColumn = .upos
    /// K word classes by Baum-Welch over the corpora (nil: none).
    public var hmmStates: Int?
    public var hmmSeed: UInt64 = 1
    public var hmmIterations = 20
    /// Manifest names of `LANG<TAB>sentence` files: the model is a language identifier trained
    /// on them (``Train/trainLanguageID(_:modelPath:output:progress:)``) instead of n-grams.
    public var langidTraining: [String] = []

    public static let knownKeys: Set<String> = [
        "name", "description", "corpora", "order", "lowercase", "keep_punctuation", "replace_invalid_utf8",
        "wordlists", "frequency_source", "list_weight", "min_corpus_count",
        "language_model", "min_count", "prune", "vocab_size", "classes", "class_weight", "form_rules",
        "tokenizer", "normalization", "straight_quotes", "number_class", "word_classes", "lemma_training",
        "swipe_layouts", "hmm_tagged", "hmm_tagset", "hmm_states", "hmm_seed", "hmm_iterations",
        "langid_training",
    ]

    public init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PipelineError("\(path): cannot read the model file; check the path")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw PipelineError("\(path): not valid JSON (\((error as NSError).userInfo[NSDebugDescriptionErrorKey] ?? error)); see Corpora/*.model.json for the format")
        }
        guard let dict = object as? [String: Any] else {
            throw PipelineError("\(path): a model file is a JSON object; see Corpora/*.model.json")
        }
        var problems: [String] = []
        for key in dict.keys.sorted() where !Self.knownKeys.contains(key) {
            problems.append("\(path): unknown key \"\(key)\"; known keys are \(Self.knownKeys.sorted().joined(separator: ", "))")
        }
        let name = dict["name"] as? String
        if name == nil || name!.isEmpty { problems.append("\(path): \"name\" must be a non-empty string") }
        if let raw = dict["langid_training"] {
            if let names = raw as? [String], !names.isEmpty { langidTraining = names } else {
                problems.append("\(path): \"langid_training\" must be a non-empty array of manifest names of LANG<TAB>sentence files")
            }
        }
        let corpora = dict["corpora"] == nil && !langidTraining.isEmpty ? [] : dict["corpora"] as? [String]
        if corpora == nil || (corpora!.isEmpty && langidTraining.isEmpty) { problems.append("\(path): \"corpora\" must be a non-empty array of manifest names") }
        let order = dict["order"] == nil ? 3 : (dict["order"] as? Int)
        if order == nil || !(1...5).contains(order!) { problems.append("\(path): \"order\" must be an integer from 1 to 5") }
        func flag(_ key: String) -> Bool {
            guard let value = dict[key] else { return false }
            if let value = value as? Bool { return value }
            problems.append("\(path): \"\(key)\" must be true or false")
            return false
        }
        func choice<T: RawRepresentable & CaseIterable>(_ key: String, default value: T) -> T where T.RawValue == String {
            guard let raw = dict[key] else { return value }
            if let text = raw as? String, let parsed = T(rawValue: text) { return parsed }
            problems.append("\(path): \"\(key)\" must be one of \(T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), not \(raw)")
            return value
        }
        let lowercase = flag("lowercase")
        let keepPunctuation = flag("keep_punctuation")
        let replace = flag("replace_invalid_utf8")
        tokenizer = choice("tokenizer", default: TokenizerMode.keyboard)
        normalization = choice("normalization", default: UnicodeNormalization.none)
        straightQuotes = flag("straight_quotes")
        numberClass = flag("number_class")
        wordClasses = flag("word_classes")
        if let raw = dict["lemma_training"] {
            if let names = raw as? [String] { lemmaTraining = names } else {
                problems.append("\(path): \"lemma_training\" must be an array of manifest names of CoNLL-U files")
            }
            if !wordClasses { problems.append("\(path): \"lemma_training\" needs \"word_classes\": true (the lemmas go in the word_class table)") }
        }
        if let raw = dict["hmm_tagged"] {
            if let names = raw as? [String], !names.isEmpty { hmmTagged = names } else {
                problems.append("\(path): \"hmm_tagged\" must be a non-empty array of manifest names of tagged corpora (CoNLL-U or word/TAG text)")
            }
            if lowercase { problems.append("\(path): \"hmm_tagged\" needs \"lowercase\": false (a tagger reads words as written; a front end lowercases its own queries)") }
        }
        hmmTagset = choice("hmm_tagset", default: TagColumn.upos)
        func positive(_ key: String) -> Int? {
            guard let raw = dict[key] else { return nil }
            if let value = raw as? Int, value >= 1 { return value }
            problems.append("\(path): \"\(key)\" must be a positive integer, not \(raw)")
            return nil
        }
        hmmStates = positive("hmm_states")
        if let states = hmmStates, states > BaumWelchConfig.maxStates {
            problems.append("\(path): \"hmm_states\" is \(states), more than \(BaumWelchConfig.maxStates) (the transition tables take states² numbers); use 1 to \(BaumWelchConfig.maxStates)")
            hmmStates = nil
        }
        if let seed = positive("hmm_seed") { hmmSeed = UInt64(seed) }
        if let iterations = positive("hmm_iterations") { hmmIterations = iterations }
        if hmmStates != nil && !hmmTagged.isEmpty {
            problems.append("\(path): \"hmm_tagged\" and \"hmm_states\" exclude each other (a store holds one hidden Markov model); choose one")
        }
        if hmmStates == nil && (dict["hmm_seed"] != nil || dict["hmm_iterations"] != nil) {
            problems.append("\(path): \"hmm_seed\" and \"hmm_iterations\" are Baum-Welch options; add \"hmm_states\": K")
        }
        if dict["hmm_tagset"] != nil && hmmTagged.isEmpty { problems.append("\(path): \"hmm_tagset\" needs \"hmm_tagged\"") }
        let wordlistKeys = Self.parseWordlistKeys(dict, path: path)
        problems += wordlistKeys.problems
        let languageModel = dict["language_model"] == nil ? false : dict["language_model"] as? Bool
        if languageModel == nil { problems.append("\(path): \"language_model\" must be true or false") }
        let minCount = dict["min_count"] == nil ? [] : (dict["min_count"] as? [Int])
        if minCount == nil || minCount!.contains(where: { $0 < 1 }) || zip(minCount!, minCount!.dropFirst()).contains(where: { $0 > $1 }) {
            problems.append("\(path): \"min_count\" must be an array of counts ≥ 1 per order from 2, not decreasing (e.g. [1, 2])")
        }
        let prune = dict["prune"] == nil ? 0 : (dict["prune"] as? NSNumber)?.doubleValue
        if prune == nil || prune! < 0 { problems.append("\(path): \"prune\" must be 0 (off) or a positive entropy threshold such as 1e-7") }
        let vocabSize = dict["vocab_size"] as? Int
        if dict["vocab_size"] != nil && (vocabSize == nil || vocabSize! < 1) { problems.append("\(path): \"vocab_size\" must be a positive integer") }
        if languageModel == false && ((minCount ?? []).contains { $0 > 1 } || (prune ?? 0) > 0) {
            problems.append("\(path): \"min_count\" and \"prune\" prune the language model; add \"language_model\": true")
        }
        let classes = dict["classes"] == nil ? 0 : dict["classes"] as? Int
        if classes == nil || !(0...StoreSchema.maxClusters).contains(classes!) {
            problems.append("\(path): \"classes\" must be a number of word classes from 0 (none) to \(StoreSchema.maxClusters)")
        }
        let classWeight = dict["class_weight"] == nil ? EstimationOptions.defaultClusterWeight : (dict["class_weight"] as? NSNumber)?.doubleValue
        if classWeight == nil || !(classWeight! > 0 && classWeight! < 1) {
            problems.append("\(path): \"class_weight\" must be a weight between 0 and 1 (exclusive), such as 0.3")
        }
        if (classes ?? 0) > 0 && languageModel != true {
            problems.append("\(path): \"classes\" builds a class model beside the language model; add \"language_model\": true")
        }
        let formRules = dict["form_rules"] == nil ? 0 : dict["form_rules"] as? Int
        if formRules == nil || formRules! < 0 {
            problems.append("\(path): \"form_rules\" must be a number of suffix rules, 0 (none) or more, such as 200")
        } else if formRules! > 0 && languageModel != true {
            problems.append("\(path): \"form_rules\" gives unseen forms a share of the language model's <unk> probability; add \"language_model\": true")
        }
        let swipeLayouts = dict["swipe_layouts"] == nil ? [] : dict["swipe_layouts"] as? [String]
        if swipeLayouts == nil { problems.append("\(path): \"swipe_layouts\" must be an array of layout names (qwerty, qwertz, azerty) or layout JSON files") }
        if !problems.isEmpty { throw PipelineError(problems) }
        self.languageModel = languageModel!
        self.minCount = minCount!
        self.prune = prune!
        self.vocabSize = vocabSize
        self.classes = classes!
        self.classWeight = classWeight!
        self.formRules = formRules!
        self.name = name!
        self.description = dict["description"] as? String ?? ""
        self.corpora = corpora!
        self.order = order!
        self.lowercase = lowercase
        self.keepPunctuation = keepPunctuation
        self.replaceInvalidUTF8 = replace
        self.wordlists = wordlistKeys.wordlists
        self.merge = wordlistKeys.merge
        self.swipeLayouts = swipeLayouts!
    }
}

/// `lexiforge train MODEL -o STORE`: every stage of one shipped model.
///
/// In: a model file and the manifest beside it (corpora provisioned into `data/` by
/// `make corpora`). Out: the store: the wordlists' lexicon, the hidden Markov tables, the n-gram
/// counts and language model, then the swipe features, all over one vocabulary (`word`).
public enum Train {
    public static func run(modelPath: String, output: String, strict: Bool, progress: StageProgress) throws -> NgramBuildReport {
        let model = try ModelFile(path: modelPath)
        if !model.langidTraining.isEmpty { return try trainLanguageID(model, modelPath: modelPath, output: output, progress: progress) }
        let lexiconMerge = try readWordlists(of: model, modelPath: modelPath, strict: strict, progress: progress)
        let manifestPath = URL(fileURLWithPath: modelPath).deletingLastPathComponent().appendingPathComponent("manifest.tsv").path
        let manifest = try CorpusManifest(path: manifestPath)
        var inputs: [String] = []
        var lemmaInputs: [String] = []
        var taggedInputs: [String] = []
        var expected: [String: String] = [:]
        var problems: [String] = []
        enum Use { case corpus, lemmaTraining, tagged }
        for (name, use) in model.corpora.map({ ($0, Use.corpus) }) + model.lemmaTraining.map({ ($0, Use.lemmaTraining) })
            + model.hmmTagged.map({ ($0, Use.tagged) }) {
            guard let entry = manifest.entry(named: name) else {
                problems.append("\(modelPath): corpus \"\(name)\" is not in \(manifestPath); add it there or fix the name")
                continue
            }
            let path = manifest.localPath(of: entry)
            if !FileManager.default.fileExists(atPath: path) {
                problems.append("\(path): corpus \"\(name)\" is not provisioned; run `make corpora` (it copies or downloads and checks sha256)")
            } else if !manifest.isInsideDataDirectory(path) {
                // A link to a file elsewhere: never read (nor its digest printed).
                problems.append("\(path): corpus \"\(name)\" is a link to a file outside \(manifest.dataDirectory); provisioned files must be inside it (run `make corpora`)")
                continue
            }
            switch use {
            case .corpus: inputs.append(path)
            case .lemmaTraining: lemmaInputs.append(path)
            case .tagged: taggedInputs.append(path)
            }
            expected[path] = entry.sha256
        }
        if !problems.isEmpty { throw PipelineError(problems) }
        var config = NgramBuildConfig(inputs: inputs, output: output)
        config.order = model.order
        config.text.lowercase = model.lowercase
        config.text.keepPunctuation = model.keepPunctuation
        config.corpus.replaceInvalidUTF8 = model.replaceInvalidUTF8
        config.text.mode = model.tokenizer
        config.text.normalization = model.normalization
        config.text.straightQuotes = model.straightQuotes
        config.text.numberClass = model.numberClass
        config.wordClasses = model.wordClasses
        if !lemmaInputs.isEmpty { config.lemmatizer = LemmatizerSource(training: lemmaInputs) }
        config.strict = strict
        config.modelName = model.name
        config.expectedSHA256 = expected
        config.lexiconMerge = lexiconMerge
        config.languageModel = model.languageModel
        config.estimation.minCounts = model.minCount.isEmpty ? [] : [1] + model.minCount
        config.estimation.entropyThreshold = model.prune
        config.estimation.clusters = model.classes
        config.estimation.clusterWeight = model.classWeight
        config.estimation.formRules = model.formRules
        config.vocabularySize = model.vocabSize
        progress.say("model \(model.name): \(model.description)")
        let layouts: [SwipeLayout]
        do {
            layouts = try model.swipeLayouts.map { try SwipeLayout.named($0) }
        } catch {
            throw PipelineError("\(modelPath): \"swipe_layouts\": \(error)")
        }
        config.hmm = try trainHMM(model, tagged: taggedInputs, corpora: config, expected: expected, progress: progress)
        // With swipe layouts every stage writes into one private staging file, renamed onto the
        // output once complete: a crash between stages never leaves a store without its layouts.
        let staged: AtomicOutput?
        do { staged = layouts.isEmpty ? nil : try AtomicOutput.prepare(path: output, kind: "store") } catch { throw PipelineError(error.description) }
        if let staged { config.output = staged.temporaryPath }
        var report = try NgramBuild.run(config, progress: progress)
        for layout in layouts {
            let swipe = try SwipeFeatureBuild.run(storePath: config.output, layout: layout)
            progress.say(SwipeFeatureBuild.render(swipe))
            report.storeBytes = swipe.bytesAfter
        }
        do { try staged?.commit() } catch { throw PipelineError(error.description) }
        return report
    }

    /// The hidden Markov tables the model asks for, trained before the n-grams so their words
    /// join the one vocabulary; nil when it asks for none.
    static func trainHMM(_ model: ModelFile, tagged: [String], corpora: NgramBuildConfig, expected: [String: String],
                         progress: StageProgress) throws -> HMMTraining? {
        let mode: HMMBuildConfig.Mode
        let inputs: [String]
        if !tagged.isEmpty {
            mode = .supervised(SupervisedHMMConfig())
            inputs = tagged
            progress.say("hidden Markov tables: a \(model.hmmTagset.rawValue) tagger from \(tagged.count) tagged file(s)")
        } else if let states = model.hmmStates {
            var bw = BaumWelchConfig(states: states)
            bw.seed = model.hmmSeed
            bw.iterations = model.hmmIterations
            mode = .unsupervised(bw)
            inputs = corpora.inputs
            progress.say("hidden Markov tables: \(states) word classes by Baum-Welch over the corpora")
        } else {
            return nil
        }
        var config = HMMBuildConfig(mode: mode, inputs: inputs, output: corpora.output)
        config.tagColumn = model.hmmTagset
        config.text = corpora.text
        config.corpus = corpora.corpus
        config.strict = corpora.strict
        let training = try HMMBuild.train(config, progress: progress)
        var problems: [String] = []
        for file in training.report.files where expected[file.path].map({ $0 != file.sha256 }) ?? false {
            problems.append("\(file.path): sha256 is \(file.sha256) but the manifest says \(expected[file.path]!); provision it again with `make corpora`")
        }
        if !problems.isEmpty { throw PipelineError(problems) }
        return training
    }
}
