import Foundation
import LexiforgeText

/// The JSON values of the `meta` table, read and written one way: Codable records encoded with
/// sorted keys (so identical builds write identical bytes) and decoded strictly (a member of the
/// wrong type is an unreadable row, never a silent default).
public enum MetaJSON {
    /// `value` as compact JSON with sorted keys and unescaped slashes.
    public static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain records of strings, numbers and arrays cannot fail.
        return String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self)
    }

    /// `json` decoded as `T`, nil when absent, not JSON, or of another shape.
    public static func decode<T: Decodable>(_ type: T.Type, from json: String?) -> T? {
        guard let json else { return nil }
        return try? JSONDecoder().decode(T.self, from: Data(json.utf8))
    }
}

/// One input file of a store (`meta.inputs` is a JSON array of these).
public struct InputRecord: Codable, Equatable, Sendable {
    /// The file's name (not its path: a store does not depend on where it was built).
    public var file: String
    public var sha256: String
    /// Bytes as stored (compressed for `.gz`).
    public var bytes: Int

    public init(file: String, sha256: String, bytes: Int) {
        self.file = file
        self.sha256 = sha256
        self.bytes = bytes
    }

    /// `meta.inputs` of a store, in order (empty when absent or unreadable).
    public static func list(_ meta: [String: String]) -> [InputRecord] {
        MetaJSON.decode([InputRecord].self, from: meta[StoreSchema.MetaKey.inputs]) ?? []
    }
}

/// `meta.text_options`: how the store's tokens were made, so queries are tokenized the same way.
/// Members a store does not record keep their defaults (stores built before the option).
public struct TextOptionsRecord: Codable, Equatable, Sendable {
    public var lowercase: Bool?
    public var keepPunctuation: Bool?
    public var tokenizer: TokenizerMode?
    public var normalization: UnicodeNormalization?
    public var straightQuotes: Bool?
    public var numberClass: Bool?
    public var replaceInvalidUTF8: Bool?
    public var stripGutenberg: Bool?
    /// Tagger stores: the tag set (`upos`, `xpos`) and, for Baum-Welch, the rare-word threshold.
    public var tagset: String?
    public var minCount: Int?

    enum CodingKeys: String, CodingKey {
        case lowercase
        case keepPunctuation = "keep_punctuation"
        case tokenizer, normalization
        case straightQuotes = "straight_quotes"
        case numberClass = "number_class"
        case replaceInvalidUTF8 = "replace_invalid_utf8"
        case stripGutenberg = "strip_gutenberg"
        case tagset
        case minCount = "min_count"
    }

    public init() {}

    public init(_ text: TextOptions, replaceInvalidUTF8: Bool? = nil, stripGutenberg: Bool? = nil) {
        lowercase = text.lowercase
        keepPunctuation = text.keepPunctuation
        tokenizer = text.mode
        normalization = text.normalization
        straightQuotes = text.straightQuotes
        numberClass = text.numberClass
        self.replaceInvalidUTF8 = replaceInvalidUTF8
        self.stripGutenberg = stripGutenberg
    }

    /// The tokenizer options (defaults for what the row does not say).
    public var textOptions: TextOptions {
        TextOptions(lowercase: lowercase ?? false, keepPunctuation: keepPunctuation ?? false, mode: tokenizer ?? .keyboard,
                    normalization: normalization ?? .none, straightQuotes: straightQuotes ?? false, numberClass: numberClass ?? false)
    }

    /// The row of `meta`, nil when absent or unreadable.
    public static func read(_ meta: [String: String]) -> TextOptionsRecord? {
        MetaJSON.decode(TextOptionsRecord.self, from: meta[StoreSchema.MetaKey.textOptions])
    }

    public var json: String { MetaJSON.encode(self) }
}

/// `meta.language_model`: how the language model was estimated.
public struct LanguageModelRecord: Codable, Equatable, Sendable {
    public var smoothing = "interpolated modified Kneser-Ney"
    /// Stored log10 values are integers in units of 1/`logScale`.
    public var logScale: Int
    /// D1, D2, D3+ per order.
    public var discounts: [[Double]]
    /// Smallest kept count per order from 1.
    public var minCount: [Int]
    /// Entropy-pruning threshold (0: off).
    public var prune: Double
    public var vocabSize: Int?
    /// N-grams removed by pruning, per order.
    public var pruned: [Int]
    /// Word classes of the interpolated class model, and its weight (nil: none).
    public var clusters: Int?
    public var clusterWeight: Double?
    /// Suffix rules for unseen forms (nil: none).
    public var formRules: Int?

    enum CodingKeys: String, CodingKey {
        case smoothing
        case logScale = "log_scale"
        case discounts
        case minCount = "min_count"
        case prune
        case vocabSize = "vocab_size"
        case pruned, clusters
        case clusterWeight = "cluster_weight"
        case formRules = "form_rules"
    }

    public init(logScale: Int, discounts: [[Double]], minCount: [Int], prune: Double, vocabSize: Int?, pruned: [Int],
                clusters: Int? = nil, clusterWeight: Double? = nil, formRules: Int? = nil) {
        self.logScale = logScale
        self.discounts = discounts
        self.minCount = minCount
        self.prune = prune
        self.vocabSize = vocabSize
        self.pruned = pruned
        self.clusters = clusters
        self.clusterWeight = clusterWeight
        self.formRules = formRules
    }

    /// The row of `meta`, nil when absent or unreadable.
    public static func read(_ meta: [String: String]) -> LanguageModelRecord? {
        MetaJSON.decode(LanguageModelRecord.self, from: meta[StoreSchema.MetaKey.languageModel])
    }

    public var json: String { MetaJSON.encode(self) }
}

/// `meta.hmm`: how the hidden Markov tables beside the n-grams were trained.
public struct HMMRecord: Codable, Equatable, Sendable {
    /// "supervised" or "baum-welch".
    public var training: String
    public var tagset: String?
    public var states: Int?
    public var seed: UInt64?
    public var iterations: Int?
    public var minCount: Int?
    public var inputs: [InputRecord]
    public var sentences: Int
    public var tokens: Int

    enum CodingKeys: String, CodingKey {
        case training, tagset, states, seed, iterations
        case minCount = "min_count"
        case inputs, sentences, tokens
    }

    public init(training: String, tagset: String? = nil, states: Int? = nil, seed: UInt64? = nil, iterations: Int? = nil,
                minCount: Int? = nil, inputs: [InputRecord], sentences: Int, tokens: Int) {
        self.training = training
        self.tagset = tagset
        self.states = states
        self.seed = seed
        self.iterations = iterations
        self.minCount = minCount
        self.inputs = inputs
        self.sentences = sentences
        self.tokens = tokens
    }

    public var json: String { MetaJSON.encode(self) }
}

/// Where a store came from: the `meta` rows every writer records, built one way. Nothing that
/// varies between identical builds: `created` only when `SOURCE_DATE_EPOCH` sets it.
public struct StoreProvenance: Sendable, Equatable {
    public var toolchain: String
    public var model: String?
    public var order: Int?
    public var inputs: [InputRecord]
    public var textOptions: TextOptionsRecord?
    public var tokens: Int
    public var sentences: Int
    public var vocabulary: Int
    /// Rows of a stage (`language_model`, `hmm`, lexicon rows ...), by key.
    public var extra: [String: String] = [:]

    public init(toolchain: String, model: String? = nil, order: Int? = nil, inputs: [InputRecord], textOptions: TextOptionsRecord? = nil,
                tokens: Int, sentences: Int, vocabulary: Int) {
        self.toolchain = toolchain
        self.model = model
        self.order = order
        self.inputs = inputs
        self.textOptions = textOptions
        self.tokens = tokens
        self.sentences = sentences
        self.vocabulary = vocabulary
    }

    /// The `meta` table's rows.
    public var rows: [String: String] {
        typealias Key = StoreSchema.MetaKey
        var meta = extra
        meta[Key.schemaVersion] = String(StoreSchema.version)
        meta[Key.toolchain] = toolchain
        meta[Key.inputs] = MetaJSON.encode(inputs)
        meta[Key.tokens] = String(tokens)
        meta[Key.sentences] = String(sentences)
        meta[Key.vocabulary] = String(vocabulary)
        if let model { meta[Key.model] = model }
        if let order { meta[Key.order] = String(order) }
        if let textOptions { meta[Key.textOptions] = textOptions.json }
        if let created = Self.buildTimestamp() { meta[Key.created] = created }
        return meta
    }

    /// `SOURCE_DATE_EPOCH` as an ISO 8601 time in UTC, or nil (identical builds stay byte-identical).
    public static func buildTimestamp() -> String? {
        guard let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let seconds = Double(epoch) else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
