import Foundation
import LexiforgeCorpus
import LexiforgeHMM
import LexiforgeNgrams
import LexiforgeReader
import LexiforgeText

/// Everything that decides what a model build makes: the model-file schema
/// (`Corpora/NAME.model.json`), and what `lexiforge ngrams` fills from its flags. One struct, one
/// ``validate()``, one build entry (``ModelBuild``).
///
/// Keys and flags share names: the key `keep_punctuation` is the flag `--keep-punctuation`.
/// ```json
/// {
///   "name": "dorian-gray-ch1",
///   "description": "Tally's Trained store: orders 1-3 from chapter 1",
///   "corpora": ["dorian-gray-ch1"],
///   "order": 3,
///   "lowercase": false
/// }
/// ```
/// Three different things are easy to confuse, so each has its own name: `classes` (K word
/// classes of the class n-gram model the predictions interpolate with), `word_columns` (each
/// word's lemma and script class in the `word` table; it was `word_classes`) and `hmm_states`
/// (the K hidden states of a Baum-Welch model). Unknown keys are errors naming the key, so a typo
/// never silently changes a model; old spellings are read with a deprecation warning.
public struct ModelSpec: Sendable, Equatable {
    // Identity
    public var name = ""
    public var description = ""
    /// In a model file: manifest names; from `ngrams`: the corpus paths.
    public var corpora: [String] = []
    // Reading and tokens
    public var order = 3
    public var lowercase = false
    public var keepPunctuation = false
    public var replaceInvalidUTF8 = false
    public var keepGutenbergBoilerplate = false
    public var tokenizer: TokenizerMode = .keyboard
    public var normalization: UnicodeNormalization = .none
    public var straightQuotes = false
    public var numberClass = false
    /// The `word` table's lemma and script columns.
    public var wordColumns = false
    /// CoNLL-U files the lemmatizer learns from (with `word_columns`).
    public var lemmaTraining: [String] = []
    // Language model
    public var languageModel = false
    /// Smallest kept count per order from 2.
    public var minCount: [Int] = []
    /// Entropy-pruning threshold (0: off).
    public var prune: Double = 0
    public var vocabSize: Int?
    /// K word classes of the interpolated class model (0: none).
    public var classes = 0
    public var classWeight = EstimationOptions.defaultClusterWeight
    /// Suffix rules for unseen forms (0: none).
    public var formRules = 0
    /// The memory budget in bytes (``MemoryBudget``); nil: half the machine's memory. Not part of
    /// what is built: the store is the same for any budget.
    public var memory: Int?
    // Wordlists
    public var wordlists: [String] = []
    public var merge = LexiconMergeOptions()
    // Swipe
    public var swipeLayouts: [String] = []
    // Hidden Markov tables
    public var hmmTagged: [String] = []
    public var hmmTagset: TagColumn = .upos
    public var hmmStates: Int?
    public var hmmSeed: UInt64 = 1
    public var hmmIterations = 20
    // Other kinds of store: a model naming one of these builds that store instead of n-grams.
    /// Vocabulary lists (CSV/TSV): a vocabulary store for study apps (``VocabTrain``).
    public var vocabulary: [String] = []
    /// `LANG<TAB>sentence` files: a language identifier (``LangidModelTrain``).
    public var langidTraining: [String] = []

    public init() {}

    /// What a spec builds: n-grams (with everything beside them) or another kind of store.
    public enum StoreKind: String, Sendable { case ngrams, vocabulary, languageID }

    public var kind: StoreKind { !vocabulary.isEmpty ? .vocabulary : !langidTraining.isEmpty ? .languageID : .ngrams }

    /// The keys another kind of store takes (besides its own): a typo in an n-gram key of such a
    /// model is named, never silently ignored.
    static let identityKeys: Set<Key> = [.name, .description]

    /// Every key of the model-file schema, in the order of the documentation.
    public enum Key: String, CaseIterable, CodingKey, Sendable {
        case name, description, corpora, order, lowercase
        case keepPunctuation = "keep_punctuation"
        case replaceInvalidUTF8 = "replace_invalid_utf8"
        case keepGutenbergBoilerplate = "keep_gutenberg_boilerplate"
        case tokenizer, normalization
        case straightQuotes = "straight_quotes"
        case numberClass = "number_class"
        case wordColumns = "word_columns"
        case lemmaTraining = "lemma_training"
        case languageModel = "language_model"
        case minCount = "min_count"
        case prune
        case vocabSize = "vocab_size"
        case classes
        case classWeight = "class_weight"
        case formRules = "form_rules"
        case memory
        case wordlists
        case frequencySource = "frequency_source"
        case listWeight = "list_weight"
        case minCorpusCount = "min_corpus_count"
        case swipeLayouts = "swipe_layouts"
        case hmmTagged = "hmm_tagged"
        case hmmTagset = "hmm_tagset"
        case hmmStates = "hmm_states"
        case hmmSeed = "hmm_seed"
        case hmmIterations = "hmm_iterations"
        case vocabulary
        case langidTraining = "langid_training"

        /// The command-line spelling of the same option.
        public var flag: String { "--" + rawValue.replacingOccurrences(of: "_", with: "-") }
    }

    /// Old spellings still read for one release, with a warning naming the new one.
    public static let deprecatedKeys: [String: Key] = ["word_classes": .wordColumns]
}

// MARK: - Diagnostics

/// One problem with a spec: the key it is about and what to do. Rendered for a model file
/// (`FILE: "key" …`) or for the command line (`--key …`); `{other_key}` in a message names another
/// key in the same style.
public struct SpecDiagnostic: Sendable, Equatable {
    public enum Severity: Sendable { case error, warning }
    public var severity: Severity
    public var key: ModelSpec.Key?
    public var message: String

    public init(_ severity: Severity = .error, _ key: ModelSpec.Key?, _ message: String) {
        self.severity = severity
        self.key = key
        self.message = message
    }

    public enum Style: Sendable { case modelFile(String), commandLine }

    public func rendered(_ style: Style) -> String {
        var text = ""
        var rest = message[...]
        while let open = rest.range(of: "{"), let close = rest.range(of: "}", range: open.upperBound..<rest.endIndex) {
            text += rest[..<open.lowerBound] + Self.name(String(rest[open.upperBound..<close.lowerBound]), style)
            rest = rest[close.upperBound...]
        }
        text += rest
        let subject = key.map { Self.name($0.rawValue, style) + " " } ?? ""
        switch style {
        case .modelFile(let path): return "\(path): \(subject)\(text)"
        case .commandLine: return subject + text
        }
    }

    /// `key`, `key=true` or `key=false` as a model file or the command line writes it.
    static func name(_ key: String, _ style: Style) -> String {
        let parts = key.split(separator: "=", maxSplits: 1).map(String.init)
        // Braces that name nothing (a value quoted from the file, such as "{}") stay as they are.
        guard !parts.isEmpty else { return "{}" }
        let flag = ModelSpec.Key(rawValue: parts[0])?.flag ?? parts[0]
        switch (style, parts.count > 1 ? parts[1] : nil) {
        case (.modelFile, let value?): return "\"\(parts[0])\": \(value)"
        case (.modelFile, nil): return "\"\(parts[0])\""
        case (.commandLine, "false"): return "no " + flag
        case (.commandLine, _): return flag
        }
    }
}

extension ModelSpec {
    /// Every rule that involves values or more than one option, in one place: the model-file
    /// reader, `ngrams`' argument check and ``ModelBuild`` all call it.
    public func validate() -> [SpecDiagnostic] {
        var out: [SpecDiagnostic] = []
        func error(_ key: Key, _ message: String) { out.append(.init(.error, key, message)) }
        if kind == .ngrams && corpora.isEmpty { error(.corpora, "must name at least one corpus") }
        if !(1...StoreSchema.maxOrder).contains(order) { error(.order, "\(order) is out of range; use 1 to \(StoreSchema.maxOrder)") }
        if minCount.contains(where: { $0 < 1 }) || zip(minCount, minCount.dropFirst()).contains(where: { $0 > $1 }) {
            error(.minCount, "must be counts ≥ 1 per order from 2, not decreasing (e.g. 1,2): a kept n-gram needs its shorter parts")
        }
        if prune < 0 || !prune.isFinite { error(.prune, "must be 0 (off) or a positive entropy threshold such as 1e-7") }
        if !languageModel && (minCount.contains { $0 > 1 } || prune > 0) {
            error(minCount.contains { $0 > 1 } ? .minCount : .prune, "prunes the language model; add {language_model=true}")
        }
        if let vocabSize, vocabSize < 1 { error(.vocabSize, "\(vocabSize) must be at least 1") }
        if !(0...StoreSchema.maxClusters).contains(classes) {
            error(.classes, "\(classes) is out of range; use a number of word classes from 0 (none) to \(StoreSchema.maxClusters)")
        }
        if !(classWeight > 0 && classWeight < 1) { error(.classWeight, "\(classWeight) must be between 0 and 1 (exclusive), such as 0.3") }
        if classes > 0 && (!languageModel || order < 2) {
            error(.classes, "builds a class model beside the language model; add {language_model=true} and use {order} 2 or more")
        }
        if let memory, memory < MemoryBudget.minimumBytes {
            error(.memory, "\(memory / 1_048_576)M is too small; use at least \(MemoryBudget.minimumBytes >> 20)M")
        }
        if formRules < 0 { error(.formRules, "\(formRules) must be 0 (none) or more suffix rules, such as 200") }
        if formRules > 0 && !languageModel {
            error(.formRules, "gives unseen forms a share of the language model's <unk> probability; add {language_model=true}")
        }
        if !lemmaTraining.isEmpty && !wordColumns {
            error(.lemmaTraining, "needs {word_columns=true} (the lemmas go in the word table's lemma column)")
        }
        if !wordlists.isEmpty {
            if !(0...1).contains(merge.listWeight) { error(.listWeight, "must be a number from 0 to 1") }
            if merge.minCorpusCount < 1 { error(.minCorpusCount, "must be an integer of at least 1") }
        }
        if !hmmTagged.isEmpty && lowercase {
            error(.hmmTagged, "needs {lowercase=false} (a tagger reads words as written; a front end lowercases its own queries)")
        }
        if let states = hmmStates {
            if states < 1 || states > BaumWelchConfig.maxStates {
                error(.hmmStates, "\(states) is out of range; use 1 to \(BaumWelchConfig.maxStates) (the transition tables take states² numbers)")
            }
            if !hmmTagged.isEmpty { error(.hmmStates, "and {hmm_tagged} exclude each other (a store holds one hidden Markov model); choose one") }
        }
        if hmmIterations < 1 { error(.hmmIterations, "must be a positive integer") }
        return out
    }

    /// The errors of ``validate()`` as one ``PipelineError`` in `style`, or nothing.
    public func check(_ style: SpecDiagnostic.Style) throws {
        let errors = validate().filter { $0.severity == .error }
        if !errors.isEmpty { throw PipelineError(errors.map { $0.rendered(style) }) }
    }
}

// MARK: - Reading a model file

extension ModelSpec: Decodable {
    /// Reads a model file: unknown keys, wrong types and every ``validate()`` rule are reported
    /// together, each naming the file and the key; deprecated spellings become ``warnings``.
    public static func load(path: String) throws -> (spec: ModelSpec, warnings: [String]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PipelineError("\(path): cannot read the model file; check the path")
        }
        let decoder = JSONDecoder()
        decoder.userInfo[ModelSpec.problemsKey] = ProblemSink()
        let sink = decoder.userInfo[ModelSpec.problemsKey] as! ProblemSink
        let spec: ModelSpec
        do {
            spec = try decoder.decode(ModelSpec.self, from: data)
        } catch let error as DecodingError {
            throw PipelineError("\(path): \(Self.describe(error)); see Corpora/*.model.json for the format")
        }
        var diagnostics = sink.diagnostics
        // Rule checks on keys whose value could not be read would only repeat the problem.
        let unreadable = Set(diagnostics.compactMap(\.key))
        diagnostics += spec.validate().filter { $0.key.map { !unreadable.contains($0) } ?? true }
        let style = SpecDiagnostic.Style.modelFile(path)
        let errors = diagnostics.filter { $0.severity == .error }.map { $0.rendered(style) }
        if !errors.isEmpty { throw PipelineError(errors) }
        return (spec, diagnostics.filter { $0.severity == .warning }.map { "warning: " + $0.rendered(style) })
    }

    static let problemsKey = CodingUserInfoKey(rawValue: "lexiforge.spec.problems")!
    final class ProblemSink: @unchecked Sendable { var diagnostics: [SpecDiagnostic] = [] }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: Decoder) throws {
        let sink = decoder.userInfo[Self.problemsKey] as? ProblemSink ?? ProblemSink()
        func problem(_ key: Key?, _ message: String) { sink.diagnostics.append(.init(.error, key, message)) }
        let raw = try decoder.container(keyedBy: AnyKey.self)
        let known = Set(Key.allCases.map(\.rawValue))
        var deprecated: [Key: String] = [:]
        for key in raw.allKeys.map(\.stringValue).sorted() where !known.contains(key) {
            if let new = Self.deprecatedKeys[key] {
                deprecated[new] = key
                sink.diagnostics.append(.init(.warning, nil, "\"\(key)\" is deprecated; write \"\(new.rawValue)\" (read as it for this release)"))
            } else {
                problem(nil, "unknown key \"\(key)\"; known keys are \(Key.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        /// The value at `key` (or its deprecated spelling) as `T`, nil when absent or of the wrong type (reported).
        func read<T: Decodable>(_ key: Key, _ type: T.Type, _ expected: String) -> T? {
            let name = raw.contains(AnyKey(stringValue: key.rawValue)) ? key.rawValue : deprecated[key]
            guard let name else { return nil }
            do { return try raw.decode(T.self, forKey: AnyKey(stringValue: name)) } catch {
                problem(key, "must be \(expected)")
                return nil
            }
        }
        func choice<T: RawRepresentable & CaseIterable>(_ key: Key, _ type: T.Type) -> T? where T.RawValue == String {
            guard let text = read(key, String.self, "a string") else { return nil }
            if let value = T(rawValue: text) { return value }
            problem(key, "must be one of \(T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), not \"\(text)\"")
            return nil
        }
        self.init()
        let names = "an array of manifest names"
        name = read(.name, String.self, "a non-empty string") ?? ""
        if name.isEmpty { problem(.name, "must be a non-empty string") }
        description = read(.description, String.self, "a string") ?? ""
        corpora = read(.corpora, [String].self, names) ?? []
        order = read(.order, Int.self, "an integer from 1 to \(StoreSchema.maxOrder)") ?? order
        lowercase = read(.lowercase, Bool.self, "true or false") ?? false
        keepPunctuation = read(.keepPunctuation, Bool.self, "true or false") ?? false
        replaceInvalidUTF8 = read(.replaceInvalidUTF8, Bool.self, "true or false") ?? false
        keepGutenbergBoilerplate = read(.keepGutenbergBoilerplate, Bool.self, "true or false") ?? false
        tokenizer = choice(.tokenizer, TokenizerMode.self) ?? .keyboard
        normalization = choice(.normalization, UnicodeNormalization.self) ?? .none
        straightQuotes = read(.straightQuotes, Bool.self, "true or false") ?? false
        numberClass = read(.numberClass, Bool.self, "true or false") ?? false
        wordColumns = read(.wordColumns, Bool.self, "true or false") ?? false
        lemmaTraining = read(.lemmaTraining, [String].self, "an array of manifest names of CoNLL-U files") ?? []
        languageModel = read(.languageModel, Bool.self, "true or false") ?? false
        minCount = read(.minCount, [Int].self, "an array of counts ≥ 1 per order from 2 (e.g. [1, 2])") ?? []
        prune = read(.prune, Double.self, "0 (off) or a positive entropy threshold such as 1e-7") ?? 0
        vocabSize = read(.vocabSize, Int.self, "a positive integer")
        classes = read(.classes, Int.self, "a number of word classes from 0 (none) to \(StoreSchema.maxClusters)") ?? 0
        classWeight = read(.classWeight, Double.self, "a weight between 0 and 1 (exclusive), such as 0.3") ?? classWeight
        formRules = read(.formRules, Int.self, "a number of suffix rules, 0 (none) or more") ?? 0
        if let text = read(.memory, String.self, MemoryBudget.expectation) {
            if let bytes = MemoryBudget.parse(text) { memory = bytes } else { problem(.memory, "\"\(text)\" is not \(MemoryBudget.expectation)") }
        }
        wordlists = read(.wordlists, [String].self, names) ?? []
        if let source = choice(.frequencySource, FrequencySource.self) { merge.source = source }
        if let weight = read(.listWeight, Double.self, "a number from 0 to 1") { merge.listWeight = weight }
        if let count = read(.minCorpusCount, Int.self, "an integer of at least 1") { merge.minCorpusCount = count }
        if wordlists.isEmpty, let key = [Key.frequencySource, .listWeight, .minCorpusCount].first(where: { raw.contains(AnyKey(stringValue: $0.rawValue)) }) {
            problem(key, "needs {wordlists}")
        }
        swipeLayouts = read(.swipeLayouts, [String].self, "an array of layout names (qwerty, qwertz, azerty) or layout JSON files") ?? []
        hmmTagged = read(.hmmTagged, [String].self, "a non-empty array of manifest names of tagged corpora (CoNLL-U or word/TAG text)") ?? []
        if raw.contains(AnyKey(stringValue: Key.hmmTagged.rawValue)) && hmmTagged.isEmpty {
            problem(.hmmTagged, "must be a non-empty array of manifest names of tagged corpora (CoNLL-U or word/TAG text)")
        }
        hmmTagset = choice(.hmmTagset, TagColumn.self) ?? .upos
        if raw.contains(AnyKey(stringValue: Key.hmmTagset.rawValue)) && hmmTagged.isEmpty { problem(.hmmTagset, "needs {hmm_tagged}") }
        hmmStates = read(.hmmStates, Int.self, "a positive integer")
        if let seed = read(.hmmSeed, Int.self, "a positive integer") {
            if seed >= 1 { hmmSeed = UInt64(seed) } else { problem(.hmmSeed, "must be a positive integer") }
        }
        hmmIterations = read(.hmmIterations, Int.self, "a positive integer") ?? hmmIterations
        vocabulary = read(.vocabulary, [String].self, "a non-empty array of manifest names of vocabulary lists (CSV or TSV)") ?? []
        langidTraining = read(.langidTraining, [String].self, "a non-empty array of manifest names of LANG<TAB>sentence files") ?? []
        // A model builds one kind of store; another kind than n-grams takes no n-gram keys.
        for (key, what) in [(Key.vocabulary, "a vocabulary store (lists in CSV or TSV)"), (.langidTraining, "a language identifier (LANG<TAB>sentence files)")]
        where raw.contains(AnyKey(stringValue: key.rawValue)) {
            if (key == .vocabulary ? vocabulary : langidTraining).isEmpty { problem(key, "must be a non-empty array of manifest names: it builds \(what)") }
            let others = raw.allKeys.compactMap { Key(rawValue: $0.stringValue) }.filter { $0 != key && !Self.identityKeys.contains($0) }
            if !others.isEmpty {
                problem(key, "builds \(what) and takes only \"name\" and \"description\" besides; remove \(others.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
            }
        }
        if hmmStates == nil, let key = [Key.hmmSeed, .hmmIterations].first(where: { raw.contains(AnyKey(stringValue: $0.rawValue)) }) {
            problem(key, "is a Baum-Welch option; add {hmm_states}: K")
        }
    }

    /// A decoding failure (not JSON, not an object) for a person.
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context):
            let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "not valid JSON (\(detail ?? context.debugDescription))"
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            return "a model file is a JSON object"
        default:
            return "not a model file (\(error))"
        }
    }
}

extension ModelSpec: Encodable {
    /// The spec as a model file (every key, defaults included), e.g. to turn `ngrams` flags into one.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(name, forKey: .name)
        try c.encode(description, forKey: .description)
        switch kind {
        case .vocabulary: try c.encode(vocabulary, forKey: .vocabulary); return
        case .languageID: try c.encode(langidTraining, forKey: .langidTraining); return
        case .ngrams: break
        }
        try c.encode(corpora, forKey: .corpora)
        try c.encode(order, forKey: .order)
        try c.encode(lowercase, forKey: .lowercase)
        try c.encode(keepPunctuation, forKey: .keepPunctuation)
        try c.encode(replaceInvalidUTF8, forKey: .replaceInvalidUTF8)
        try c.encode(keepGutenbergBoilerplate, forKey: .keepGutenbergBoilerplate)
        try c.encode(tokenizer.rawValue, forKey: .tokenizer)
        try c.encode(normalization.rawValue, forKey: .normalization)
        try c.encode(straightQuotes, forKey: .straightQuotes)
        try c.encode(numberClass, forKey: .numberClass)
        try c.encode(wordColumns, forKey: .wordColumns)
        if !lemmaTraining.isEmpty { try c.encode(lemmaTraining, forKey: .lemmaTraining) }
        try c.encode(languageModel, forKey: .languageModel)
        if !minCount.isEmpty { try c.encode(minCount, forKey: .minCount) }
        try c.encode(prune, forKey: .prune)
        try c.encodeIfPresent(vocabSize, forKey: .vocabSize)
        try c.encode(classes, forKey: .classes)
        try c.encode(classWeight, forKey: .classWeight)
        try c.encode(formRules, forKey: .formRules)
        if !wordlists.isEmpty {
            try c.encode(wordlists, forKey: .wordlists)
            try c.encode(merge.source.rawValue, forKey: .frequencySource)
            try c.encode(merge.listWeight, forKey: .listWeight)
            try c.encode(merge.minCorpusCount, forKey: .minCorpusCount)
        }
        if !swipeLayouts.isEmpty { try c.encode(swipeLayouts, forKey: .swipeLayouts) }
        if !hmmTagged.isEmpty {
            try c.encode(hmmTagged, forKey: .hmmTagged)
            try c.encode(hmmTagset.rawValue, forKey: .hmmTagset)
        }
        if !vocabulary.isEmpty { try c.encode(vocabulary, forKey: .vocabulary) }
        if let hmmStates {
            try c.encode(hmmStates, forKey: .hmmStates)
            try c.encode(Int(hmmSeed), forKey: .hmmSeed)
            try c.encode(hmmIterations, forKey: .hmmIterations)
        }
    }
}
