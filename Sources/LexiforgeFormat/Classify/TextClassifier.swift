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

/// Runs a text classifier from its store alone: the model is read once into flat arrays and a
/// hash table, so classifying is tokenizing plus one table lookup per n-gram, no SQL.
///
/// ```swift
/// let classifier = try TextClassifier(store: TrainedStore(path: "sentiment.sqlite"))
/// let review = "a dull , boring mess . the script is bad and the acting is worse ."
/// let best = classifier.predictedLabel(for: review)    // "neg"
/// let all = classifier.probabilities(for: review)      // [neg 0.9757, pos 0.0243]
/// ```
/// - Complexity: O(tokens · max order) per text.
public struct TextClassifier: Sendable {
    public let model: TextClassifierModel
    private let index: HashIndex
    private let lemmas: ClassifierFeatures.LemmaHashes?

    public init(model: TextClassifierModel) {
        self.model = model
        self.index = HashIndex(model.features.map { ClassifierFeatures.hash(ofFeatureText: $0) })
        self.lemmas = model.lemmas.isEmpty ? nil : ClassifierFeatures.LemmaHashes(model.lemmas)
    }

    public var labels: [String] { model.labels }

    /// The linear scores of every label (before the softmax).
    public func scores(for text: String) -> [Double] {
        let m = model
        let labelCount = m.labels.count
        var scores = m.bias
        let (hashes, endingStart) = ClassifierFeatures.tokenHashes(of: text, lowercase: m.lowercase, negation: m.negation, ending: m.ending, lemmas: lemmas)
        // The known features of the text, distinct (a small open-addressing set on the stack,
        // ids + 1 so 0 is empty), with their counts.
        var found: [Int] = [], counts: [Double] = []
        found.reserveCapacity(hashes.count * 2)
        counts.reserveCapacity(hashes.count * 2)
        var capacity = 64
        while capacity < hashes.count * (m.maxOrder + 1) * 4 { capacity <<= 1 }
        withUnsafeTemporaryAllocation(of: (id: Int32, slot: Int32).self, capacity: capacity) { set in
            for k in 0..<capacity { set[k] = (0, 0) }
            let mask = capacity - 1
            // Every feature hash first, then the lookups in one tight loop (independent cache misses overlap).
            var keys: [UInt64] = []
            keys.reserveCapacity(hashes.count * (m.maxOrder + 1) * 2)
            ClassifierFeatures.forEachFeature(count: hashes.count, endingStart: endingStart, maxOrder: m.maxOrder) { range, ending in
                keys.append(ClassifierFeatures.featureHash(hashes[range], ending: ending))
            }
            for key in keys {
                guard let f = index.id(of: key) else { continue }
                var slot = (f &* 0x9E37_79B9) & mask
                while set[slot].id != 0 && set[slot].id != Int32(f + 1) { slot = (slot + 1) & mask }
                if set[slot].id == 0 {
                    set[slot] = (Int32(f + 1), Int32(found.count))
                    found.append(f)
                    counts.append(1)
                } else if !m.binary {
                    counts[Int(set[slot].slot)] += 1
                }
            }
        }
        var factor = 1.0
        if m.normalize {
            let norm = counts.reduce(0) { $0 + $1 * $1 }.squareRoot()
            if norm > 0 { factor = 1 / norm }
        }
        m.weights.withUnsafeBufferPointer { w in
            for (f, c) in zip(found, counts) {
                let v = c * factor
                for l in 0..<labelCount { scores[l] += v * w[f * labelCount + l] }
            }
        }
        return scores
    }

    /// Every label with its probability, most probable first (ties by label id).
    public func probabilities(for text: String) -> [LabelProbability] {
        let p = Self.softmax(scores(for: text), scale: model.probabilityScale)
        return p.indices.sorted { p[$0] > p[$1] || (p[$0] == p[$1] && $0 < $1) }
            .map { LabelProbability(label: model.labels[$0], probability: p[$0]) }
    }

    /// The most probable label.
    public func predictedLabel(for text: String) -> String {
        let s = scores(for: text)
        var best = 0
        for l in s.indices where s[l] > s[best] { best = l }
        return model.labels[best]
    }

    /// softmax(scale · x), computed stably.
    public static func softmax(_ x: [Double], scale: Double = 1) -> [Double] {
        guard let top = x.max() else { return [] }
        let e = x.map { Foundation.exp(scale * ($0 - top)) }
        let sum = e.reduce(0, +)
        return e.map { $0 / sum }
    }
}
