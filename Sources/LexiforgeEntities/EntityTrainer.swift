import Foundation
import LexiforgeFormat

/// What ``EntityTrainer`` does; defaults chosen by five-fold cross-validation on UNER EWT dev
/// (`Tests/Bench/bench-ner.sh`, docs/entities.md).
public struct EntityTrainerConfig: Sendable, Equatable {
    /// Passes over the training sentences, shuffled before each.
    public var epochs = 10
    /// Seed of the shuffles: the same seed and sentences give the same model.
    public var seed: UInt64 = 1
    /// Learn a gazetteer of the training names and use its matches as features.
    public var gazetteer = true
    public init(epochs: Int = 10, seed: UInt64 = 1, gazetteer: Bool = true) {
        self.epochs = epochs
        self.seed = seed
        self.gazetteer = gazetteer
    }
}

/// Trains an ``EntityModel``: a structured averaged perceptron (Collins 2002) over BIO labels.
///
/// Each pass decodes every training sentence with Viterbi under the current weights and, where
/// the best labels differ from the gold ones, adds the sentence's weight to the gold labels'
/// feature and transition weights and subtracts it from the predicted ones'. The returned
/// weights are averaged over all updates (lazily, by timestamps). A sentence's weight lets one
/// corpus count less than another (the Broad Twitter Corpus beside EWT).
///
/// ```swift
/// let trainer = EntityTrainer()
/// trainer.add(LabeledSentence(words: ["Tim", "Cook", "spoke"], labels: ["B-PER", "I-PER", "O"]))
/// let model = trainer.finish()
/// ```
public final class EntityTrainer {
    public let config: EntityTrainerConfig
    /// Tags training sentences (predicted tags, as at run time) for the UPOS features.
    public let tagging: EntityTagging?
    /// Typed name lists from outside the training data (WordNet) whose matches are features.
    public let lexicon: EntityLexicon
    /// Word classes learnt from unlabelled text whose classes are features.
    public let clusters: EntityClusters
    private var sentences: [(sentence: LabeledSentence, weight: Float)] = []

    public init(config: EntityTrainerConfig = .init(), tagging: EntityTagging? = nil, lexicon: EntityLexicon = EntityLexicon(),
                clusters: EntityClusters = EntityClusters()) {
        self.config = config
        self.clusters = clusters
        self.tagging = tagging
        self.lexicon = lexicon
    }

    public private(set) var tokens = 0
    /// Sentences added (lowercased copies not counted).
    public private(set) var sentenceCount = 0

    /// Adds a labelled sentence (empty ones are ignored) with its update weight.
    public func add(_ sentence: LabeledSentence, weight: Float = 1) {
        guard !sentence.words.isEmpty, weight > 0 else { return }
        sentences.append((sentence, weight))
        tokens += sentence.words.count
        sentenceCount += 1
    }

    /// The names of a sentence's spans, lowercased, as phrase → count per type.
    static func names(_ sentence: LabeledSentence, lowered: [String], types: [String]) -> [(words: [String], type: Int)] {
        EntitySpan.spans(sentence.labels).compactMap { span in
            guard let t = types.firstIndex(of: span.type) else { return nil }
            return (Array(lowered[span.start..<span.end]), t)
        }
    }

    public func finish() -> EntityModel {
        var typeSet = Set<String>()
        for (sentence, _) in sentences {
            for label in sentence.labels where label != "O" { typeSet.insert(String(label.dropFirst(2))) }
        }
        let labels = EntityLabels(types: typeSet.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        let L = labels.count
        let labelNumber = Dictionary(uniqueKeysWithValues: labels.names.enumerated().map { ($0.element, $0.offset) })
        let lowered = sentences.map { EntityFeatures.lowered($0.sentence.words) }
        var gazetteer = EntityGazetteer(typeCount: labels.types.count)
        var own: [[String: [Int32]]] = []
        if config.gazetteer {
            for (k, (sentence, _)) in sentences.enumerated() {
                var mine: [String: [Int32]] = [:]
                for name in Self.names(sentence, lowered: lowered[k], types: labels.types) where name.words.count <= EntityGazetteer.longestPhrase {
                    gazetteer.add(name.words, type: name.type)
                    mine[name.words.joined(separator: " "), default: [Int32](repeating: 0, count: labels.types.count)][name.type] += 1
                }
                own.append(mine)
            }
        }
        // Features once per sentence; the gazetteer without the sentence's own names.
        let keys: [[UInt64]] = sentences.indices.map { k in
            EntityModel.features(sentences[k].sentence.words, gazetteer: config.gazetteer ? gazetteer : nil, tagging: tagging, lexicon: lexicon,
                                 clusters: clusters, excluding: config.gazetteer ? own[k] : nil)
        }
        let gold: [[Int]] = sentences.map { $0.sentence.labels.map { labelNumber[$0]! } }

        var table = FeatureTable(capacity: 1 << 18)
        var weights: [Float] = [], totals: [Double] = [], stamps: [Int32] = []
        var transitions = [Float](repeating: 0, count: (L + 1) * L)
        var transitionTotals = [Double](repeating: 0, count: (L + 1) * L)
        var transitionStamps = [Int32](repeating: 0, count: (L + 1) * L)
        var step: Int32 = 0
        var order = Array(sentences.indices)
        var random = SplitMix64(seed: config.seed)
        let perWord = EntityFeatures.perWord
        for _ in 0..<config.epochs {
            for k in stride(from: order.count - 1, to: 0, by: -1) {
                order.swapAt(k, Int(random.next() % UInt64(k + 1)))
            }
            for s in order {
                step += 1
                let n = gold[s].count
                let predicted = weights.withUnsafeBufferPointer { w in
                    EntityModel.viterbi(keys[s], count: n, labels: labels) { key in
                        let row = table.row(key)
                        guard row >= 0 else { return nil }
                        let base = Int(row) * L
                        return UnsafeBufferPointer(rebasing: w[base..<(base + L)])
                    } transition: { transitions[($0 + 1) * L + $1] }
                }
                guard predicted != gold[s] else { continue }
                let delta = sentences[s].weight
                for i in 0..<n where predicted[i] != gold[s][i] {
                    for k in (i * perWord)..<((i + 1) * perWord) where keys[s][k] != 0 {
                        let row = Int(table.insert(keys[s][k]))
                        if row * L >= weights.count {
                            weights.append(contentsOf: repeatElement(0, count: L))
                            totals.append(contentsOf: repeatElement(0, count: L))
                            stamps.append(contentsOf: repeatElement(0, count: L))
                        }
                        for (label, change) in zip([gold[s][i], predicted[i]], [delta, -delta]) {
                            let j = row * L + label
                            totals[j] += Double(step - stamps[j]) * Double(weights[j])
                            stamps[j] = step
                            weights[j] += change
                        }
                    }
                }
                for i in 0..<n {
                    let goldPair = (i == 0 ? 0 : gold[s][i - 1] + 1) * L + gold[s][i]
                    let predictedPair = (i == 0 ? 0 : predicted[i - 1] + 1) * L + predicted[i]
                    guard goldPair != predictedPair else { continue }
                    for (j, sign) in [(goldPair, Float(1)), (predictedPair, Float(-1))] {
                        transitionTotals[j] += Double(step - transitionStamps[j]) * Double(transitions[j])
                        transitionStamps[j] = step
                        transitions[j] += sign * delta
                    }
                }
            }
        }
        let steps = Double(max(step, 1))
        func average(_ w: Float, _ total: Double, _ stamp: Int32) -> Float {
            Float((total + Double(step - stamp) * Double(w)) / steps)
        }
        // Keep the features with a weight, in key order, so equal inputs give equal models.
        var kept = EntityWeightTable(labels: L, capacity: table.count)
        for entry in table.entries.sorted(by: { $0.key < $1.key }) {
            let base = Int(entry.row) * L
            let row = (0..<L).map { average(weights[base + $0], totals[base + $0], stamps[base + $0]) }
            guard row.contains(where: { abs($0) >= 1e-6 }) else { continue }
            kept.insert(entry.key, weights: row)
        }
        let averagedTransitions = transitions.indices.map { average(transitions[$0], transitionTotals[$0], transitionStamps[$0]) }
        return EntityModel(labels: labels, table: kept, transitions: averagedTransitions,
                           gazetteer: config.gazetteer ? gazetteer : EntityGazetteer(typeCount: labels.types.count), tagging: tagging,
                           lexicon: lexicon, clusters: clusters)
    }
}
