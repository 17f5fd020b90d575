import Foundation
import GRDB
import LexiforgeFormat

extension TextClassifier {
    /// Reads the classifier of a store.
    /// - Throws: ``ClassifyStoreError/noClassifier(_:)`` when it has none; ``StoreError`` when damaged.
    public init(store: TrainedStore) throws {
        self.init(model: try store.textClassifierModel())
    }
}

extension TrainedStore {
    /// Whether the store holds a text classifier.
    public var hasTextClassifier: Bool { meta[StoreSchema.ClassifyMetaKey.classifier] != nil }

    /// Reads the text classifier's tables.
    public func textClassifierModel() throws -> TextClassifierModel {
        guard let metaText = meta[StoreSchema.ClassifyMetaKey.classifier] else { throw ClassifyStoreError.noClassifier(path) }
        let options = try jsonObject(metaText, key: StoreSchema.ClassifyMetaKey.classifier)
        guard let maxOrder = options["max_order"] as? Int, (1...8).contains(maxOrder),
              let binary = options["binary"] as? Bool, let normalize = (options["normalize"] as? Bool) ?? false as Bool?, let lowercase = options["lowercase"] as? Bool,
              let scale = (options["probability_scale"] as? NSNumber)?.doubleValue, scale.isFinite, scale > 0 else {
            throw StoreError.badMeta(path, key: StoreSchema.ClassifyMetaKey.classifier, value: metaText,
                                     expected: "a JSON object with max_order (1-8), binary, lowercase and a positive probability_scale")
        }
        let algorithm = options["algorithm"] as? String ?? "?"
        let unit = StoreSchema.classifierWeightScale
        return try checked { db in
            var labels: [String] = [], labelDocuments: [Int] = [], bias: [Double] = []
            for row in try Row.fetchAll(db, sql: "SELECT id, name, bias, documents FROM classifier_label ORDER BY id") {
                guard try row.int(0, "classifier_label", "id") == labels.count else { throw StoreDamage("`classifier_label.id` is not dense from 0") }
                labels.append(try row.text(1, "classifier_label", "name"))
                bias.append(Double(try row.integer(2, "classifier_label", "bias")) / unit)
                labelDocuments.append(try row.int(3, "classifier_label", "documents", in: 0...StoreSchema.maxCount))
            }
            guard labels.count >= 2 else { throw StoreDamage("`classifier_label` has \(labels.count) labels; a classifier has at least 2") }
            var features: [String] = [], featureDocuments: [Int] = []
            for row in try Row.fetchAll(db, sql: "SELECT id, text, documents FROM classifier_feature ORDER BY id") {
                guard try row.int(0, "classifier_feature", "id") == features.count else { throw StoreDamage("`classifier_feature.id` is not dense from 0") }
                features.append(try row.text(1, "classifier_feature", "text"))
                featureDocuments.append(try row.int(2, "classifier_feature", "documents", in: 0...StoreSchema.maxCount))
            }
            let L = labels.count
            var weights = [Double](repeating: 0, count: features.count * L)
            let rows = try Row.fetchCursor(db, sql: "SELECT feature, label, weight FROM classifier_weight")
            while let row = try rows.next() {
                let f = try row.int(0, "classifier_weight", "feature", in: 0...Int64(features.count - 1))
                let l = try row.int(1, "classifier_weight", "label", in: 0...Int64(L - 1))
                weights[f * L + l] = Double(try row.integer(2, "classifier_weight", "weight")) / unit
            }
            // Lemma features: the meta row says how many forms; stores from before them have neither.
            var lemmas: [String: String] = [:]
            if let expected = options["lemmas"] as? Int {
                for row in try Row.fetchAll(db, sql: "SELECT form, lemma FROM classifier_lemma") {
                    lemmas[try row.text(0, "classifier_lemma", "form")] = try row.text(1, "classifier_lemma", "lemma")
                }
                guard lemmas.count == expected else {
                    throw StoreDamage("`classifier_lemma` has \(lemmas.count) rows; the `classifier` meta row says \(expected)")
                }
            }
            return TextClassifierModel(labels: labels, labelDocuments: labelDocuments, bias: bias, features: features,
                                       featureDocuments: featureDocuments, weights: weights, maxOrder: maxOrder,
                                       binary: binary, normalize: normalize, lowercase: lowercase,
                                       negation: options["negation"] as? Bool ?? false, ending: options["ending"] as? Int ?? 0, lemmas: lemmas, probabilityScale: scale, algorithm: algorithm)
        }
    }

    /// A meta value that must be a JSON object.
    func jsonObject(_ text: String, key: String) throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw StoreError.badMeta(path, key: key, value: text, expected: "a JSON object")
        }
        return object
    }
}
