import Foundation

/// A trained text classifier as plain values: what the trainer produces, the writer stores and
/// ``TextClassifier`` runs (see ``StoreSchema/classifierCreationStatements``).
public struct TextClassifierModel: Sendable, Equatable {
    /// Label names, by id.
    public var labels: [String]
    /// Training documents per label.
    public var labelDocuments: [Int]
    /// Bias per label.
    public var bias: [Double]
    /// Feature texts (tokens joined by one space), by id.
    public var features: [String]
    /// Training documents holding each feature.
    public var featureDocuments: [Int]
    /// Weights, feature-major: `weights[f * labels.count + l]`.
    public var weights: [Double]
    /// Longest n-gram.
    public var maxOrder: Int
    /// Feature values are presence (1) instead of counts.
    public var binary: Bool
    /// Feature values are scaled to unit (L2) length over the features the model knows.
    public var normalize: Bool
    public var lowercase: Bool
    /// Tokens in a negation's scope are marked (``ClassifierFeatures/tokens(of:lowercase:negation:ending:lemmas:)``).
    public var negation: Bool
    /// Lemma features (`classify train --lemmas`): a token found here is replaced by its lemma
    /// ("sang" → "sing") before n-grams are formed; empty for word-form features. Keys are tokens
    /// as featurized (lowercased with ``lowercase``); only tokens whose lemma differs are listed.
    public var lemmas: [String: String]
    /// n-grams of the last this many lines are features of their own too (0: none).
    public var ending: Int
    /// Softmax temperature: probabilities are softmax(scale · scores).
    public var probabilityScale: Double
    /// The algorithm that trained it (`nb`, `logistic`, `nbsvm`), for provenance.
    public var algorithm: String

    public init(labels: [String], labelDocuments: [Int], bias: [Double], features: [String], featureDocuments: [Int],
                weights: [Double], maxOrder: Int, binary: Bool, normalize: Bool = false, lowercase: Bool, negation: Bool = false, ending: Int = 0, lemmas: [String: String] = [:], probabilityScale: Double, algorithm: String) {
        self.labels = labels
        self.labelDocuments = labelDocuments
        self.bias = bias
        self.features = features
        self.featureDocuments = featureDocuments
        self.weights = weights
        self.maxOrder = maxOrder
        self.binary = binary
        self.normalize = normalize
        self.lowercase = lowercase
        self.negation = negation
        self.ending = ending
        self.lemmas = lemmas
        self.probabilityScale = probabilityScale
        self.algorithm = algorithm
    }

    /// The `classifier` meta value (JSON, keys sorted) for these options, plus `extra` entries.
    public func metaJSON(extra: [String: Any] = [:]) -> String {
        var object: [String: Any] = [
            "algorithm": algorithm, "max_order": maxOrder, "binary": binary, "normalize": normalize, "lowercase": lowercase, "negation": negation, "ending": ending,
            "probability_scale": probabilityScale, "labels": labels.count, "features": features.count,
        ]
        if !lemmas.isEmpty { object["lemmas"] = lemmas.count }
        for (k, v) in extra { object[k] = v }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// One label with its probability.
public struct LabelProbability: Sendable, Equatable {
    public var label: String
    public var probability: Double
    public init(label: String, probability: Double) {
        self.label = label
        self.probability = probability
    }
}

/// Why a classifier or language identifier cannot be read from a store.
public enum ClassifyStoreError: Error, CustomStringConvertible, Sendable {
    case noClassifier(String)
    case noLanguageIdentifier(String)
    case unknownLanguage(String, known: [String])

    public var description: String {
        switch self {
        case .noClassifier(let path):
            return "\(path): holds no text classifier; build one with `lexiforge classify train DIR -o \(path)`"
        case .noLanguageIdentifier(let path):
            return "\(path): holds no language identifier; build one with `lexiforge langid train TSV -o \(path)` or `make train`"
        case .unknownLanguage(let code, let known):
            return "language \"\(code)\" is not one the identifier knows; use one of \(known.joined(separator: " "))"
        }
    }
}

/// Runs a text classifier from its store alone: the model is read once into one hash table
/// (``ClassifierFeatureTable``: each slot a feature's key and weights), so classifying is
/// tokenizing plus one table lookup per n-gram, no SQL.
///
/// ```swift
/// let classifier = try TextClassifier(store: TrainedStore(path: "sentiment.sqlite"))
/// let review = "a dull , boring mess . the script is bad and the acting is worse ."
/// let best = classifier.predictedLabel(for: review)    // "neg"
/// let all = classifier.probabilities(for: review)      // [neg 0.9757, pos 0.0243]
/// ```
/// - Complexity: O(tokens · max order) per text.
public struct TextClassifier: Sendable {
    /// The classifier without its features and weights (labels, biases, feature options,
    /// probability scale, lemma table): those live in a hash table alone.
    public let settings: TextClassifierModel
    private let table: ClassifierFeatureTable
    private let lemmas: ClassifierFeatures.LemmaHashes?

    /// A classifier of a model in memory.
    public init(model: TextClassifierModel) {
        let L = model.labels.count
        var table = ClassifierFeatureTable(labels: L, capacity: model.features.count)
        for (f, text) in model.features.enumerated() {
            guard let slot = table.insert(text) else { continue }
            for l in 0..<L { table.setWeight(model.weights[f * L + l], slot: slot, label: l) }
        }
        self.init(settings: model, table: table)
    }

    /// A classifier of parts read from a store without the model's feature texts and weight
    /// arrays in between (what `TextClassifier(store:)` does): `settings` gives everything but
    /// its `features`, `featureDocuments` and `weights`, which are ignored; `table` holds those.
    public init(settings: TextClassifierModel, table: ClassifierFeatureTable) {
        precondition(table.labels == settings.labels.count, "the table has a weight per label")
        var settings = settings
        settings.features = []
        settings.featureDocuments = []
        settings.weights = []
        self.settings = settings
        self.table = table
        self.lemmas = settings.lemmas.isEmpty ? nil : ClassifierFeatures.LemmaHashes(settings.lemmas)
    }

    public var labels: [String] { settings.labels }

    /// The linear scores of every label (before the softmax).
    public func scores(for text: String) -> [Double] {
        let m = settings
        let labelCount = m.labels.count, stride = table.stride, mask = table.mask
        var scores = m.bias
        let (hashes, endingStart) = ClassifierFeatures.tokenHashes(of: text, lowercase: m.lowercase, negation: m.negation, ending: m.ending, lemmas: lemmas)
        // Every feature hash first, then the lookups in one tight loop (independent cache misses overlap).
        var keys: [UInt64] = []
        keys.reserveCapacity(hashes.count * (m.maxOrder + 1) * 2)
        ClassifierFeatures.forEachFeature(count: hashes.count, endingStart: endingStart, maxOrder: m.maxOrder) { range, ending in
            keys.append(ClassifierFeatureTable.slotKey(ClassifierFeatures.featureHash(hashes[range], ending: ending)))
        }
        // The slots of the text's known features, distinct (a small open-addressing set, slot + 1
        // so 0 is empty), with their counts.
        var found: [Int] = [], counts: [Double] = []
        found.reserveCapacity(keys.count)
        counts.reserveCapacity(keys.count)
        var capacity = 64
        while capacity < keys.count * 2 { capacity <<= 1 }
        table.slots.withUnsafeBufferPointer { table in
            withUnsafeTemporaryAllocation(of: (slot: Int32, index: Int32).self, capacity: capacity) { set in
                for k in 0..<capacity { set[k] = (0, 0) }
                let setMask = capacity - 1
                // The probes first, in a loop of their own: no iteration waits for another's miss.
                var hits = [Int](repeating: -1, count: keys.count)
                for (k, key) in keys.enumerated() {
                    let slot = ClassifierFeatureTable.probe(table, key, stride: stride, mask: mask)
                    if table[slot * stride] == key { hits[k] = slot }
                }
                for slot in hits where slot >= 0 {
                    var s = (slot &* 0x9E37_79B9) & setMask
                    while set[s].slot != 0 && set[s].slot != Int32(slot + 1) { s = (s + 1) & setMask }
                    if set[s].slot == 0 {
                        set[s] = (Int32(slot + 1), Int32(found.count))
                        found.append(slot)
                        counts.append(1)
                    } else if !m.binary {
                        counts[Int(set[s].index)] += 1
                    }
                }
            }
            var factor = 1.0
            if m.normalize {
                let norm = counts.reduce(0) { $0 + $1 * $1 }.squareRoot()
                if norm > 0 { factor = 1 / norm }
            }
            for (slot, c) in zip(found, counts) {
                let v = c * factor, base = slot * stride + 1
                for l in 0..<labelCount { scores[l] += v * Double(bitPattern: table[base + l]) }
            }
        }
        return scores
    }

    /// Every label with its probability, most probable first (ties by label id).
    public func probabilities(for text: String) -> [LabelProbability] {
        let p = Self.softmax(scores(for: text), scale: settings.probabilityScale)
        return p.indices.sorted { p[$0] > p[$1] || (p[$0] == p[$1] && $0 < $1) }
            .map { LabelProbability(label: settings.labels[$0], probability: p[$0]) }
    }

    /// The most probable label.
    public func predictedLabel(for text: String) -> String {
        let s = scores(for: text)
        var best = 0
        for l in s.indices where s[l] > s[best] { best = l }
        return settings.labels[best]
    }

    /// softmax(scale · x), computed stably.
    public static func softmax(_ x: [Double], scale: Double = 1) -> [Double] {
        guard let top = x.max() else { return [] }
        let e = x.map { Foundation.exp(scale * ($0 - top)) }
        let sum = e.reduce(0, +)
        return e.map { $0 / sum }
    }
}

/// A text classifier's features as an open-addressing hash table whose slots hold the feature's
/// key and its weights side by side (`stride` words: the key, then one Double bit pattern per
/// label), so a feature a text has costs one cache miss, not two, and the feature texts need not
/// stay in memory. Key 0 marks an empty slot (a feature whose hash is 0 is stored as 1, and
/// looked up so). Filled by ``TextClassifier/init(model:)`` or row by row from a store.
public struct ClassifierFeatureTable: Sendable {
    public let labels: Int
    let stride: Int
    let mask: Int
    private(set) var slots: [UInt64]
    /// Features inserted: at most half the slots, so a probe always meets an empty one.
    public private(set) var count = 0

    /// An empty table for `capacity` features (at most half full).
    public init(labels: Int, capacity: Int) {
        self.labels = labels
        stride = 1 + labels
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        mask = size - 1
        slots = [UInt64](repeating: 0, count: size * stride)
    }

    @inline(__always)
    static func slotKey(_ hash: UInt64) -> UInt64 { hash == 0 ? 1 : hash }

    /// The slot holding `key`, or the empty slot where it would go (linear probing from the
    /// key's bits above the 20 lowest): the one probe rule of inserting and of looking up.
    @inline(__always)
    static func probe(_ slots: UnsafeBufferPointer<UInt64>, _ key: UInt64, stride: Int, mask: Int) -> Int {
        var slot = Int(truncatingIfNeeded: key >> 20) & mask
        while slots[slot * stride] != 0 && slots[slot * stride] != key { slot = (slot + 1) & mask }
        return slot
    }

    /// Inserts a feature by its stored text (``ClassifierFeatures/hash(ofFeatureText:)``); its
    /// slot, or nil when a feature of the same hash is in already (whose weights stay).
    /// - Precondition: no more features than the capacity the table was made for.
    public mutating func insert(_ featureText: String) -> Int? {
        precondition((count + 1) * 2 <= mask + 1, "ClassifierFeatureTable: more features than its capacity")
        let key = Self.slotKey(ClassifierFeatures.hash(ofFeatureText: featureText))
        let slot = slots.withUnsafeBufferPointer { Self.probe($0, key, stride: stride, mask: mask) }
        guard slots[slot * stride] == 0 else { return nil }
        slots[slot * stride] = key
        count += 1
        return slot
    }

    /// Sets a feature's weight for one label (0 until set).
    public mutating func setWeight(_ weight: Double, slot: Int, label: Int) {
        slots[slot * stride + 1 + label] = weight.bitPattern
    }
}
