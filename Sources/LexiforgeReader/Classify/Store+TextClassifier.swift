import Foundation
import GRDB
import LexiforgeFormat

extension TextClassifier {
    /// Reads the classifier of a store straight into its hash table (feature keys with their
    /// weights side by side), never holding the feature texts or a weight array: a third of the
    /// memory of going through ``TrainedStore/textClassifierModel()``.
    /// - Throws: ``ClassifyStoreError/noClassifier(_:)`` when it has none; ``StoreError`` when damaged.
    public init(store: TrainedStore) throws {
        let settings = try store.classifierSettings()
        let L = settings.labels.count
        let table = try store.checked { db in
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM classifier_feature") ?? 0
            var table = ClassifierFeatureTable(labels: L, capacity: count)
            var slotOf = [Int32](repeating: -1, count: count)
            try TrainedStore.forEachClassifierFeature(db) { f, text, _ in
                guard f < count else { throw StoreDamage("`classifier_feature` has more rows than it counts") }
                slotOf[f] = table.insert(text).map(Int32.init) ?? -1
            }
            try TrainedStore.forEachClassifierWeight(db, features: count, labels: L) { f, l, w in
                if slotOf[f] >= 0 { table.setWeight(w, slot: Int(slotOf[f]), label: l) }
            }
            return table
        }
        self.init(settings: settings, table: table)
    }
}

extension TrainedStore {
    /// Whether the store holds a text classifier.
    public var hasTextClassifier: Bool { meta[StoreSchema.ClassifyMetaKey.classifier] != nil }

    /// The classifier without features and weights: meta options, labels, biases, lemma table.
    func classifierSettings() throws -> TextClassifierModel {
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
            return TextClassifierModel(labels: labels, labelDocuments: labelDocuments, bias: bias, features: [],
                                       featureDocuments: [], weights: [], maxOrder: maxOrder,
                                       binary: binary, normalize: normalize, lowercase: lowercase,
                                       negation: options["negation"] as? Bool ?? false, ending: options["ending"] as? Int ?? 0, lemmas: lemmas,
                                       probabilityScale: scale, algorithm: algorithm)
        }
    }

    /// Calls `body(id, text, documents)` for every `classifier_feature` row in id order, checking
    /// the ids are dense from 0.
    static func forEachClassifierFeature(_ db: Database, _ body: (Int, String, Int) throws -> Void) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT id, text, documents FROM classifier_feature ORDER BY id")
        var next = 0
        while let row = try rows.next() {
            guard try row.int(0, "classifier_feature", "id") == next else { throw StoreDamage("`classifier_feature.id` is not dense from 0") }
            try body(next, try row.text(1, "classifier_feature", "text"), try row.int(2, "classifier_feature", "documents", in: 0...StoreSchema.maxCount))
            next += 1
        }
    }

    /// Calls `body(feature, label, weight)` for every `classifier_weight` row, checked.
    static func forEachClassifierWeight(_ db: Database, features: Int, labels L: Int, _ body: (Int, Int, Double) throws -> Void) throws {
        guard features > 0 else {
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM classifier_weight LIMIT 1") ?? false {
                throw StoreDamage("`classifier_weight` has rows, and `classifier_feature` none")
            }
            return
        }
        let rows = try Row.fetchCursor(db, sql: "SELECT feature, label, weight FROM classifier_weight")
        while let row = try rows.next() {
            let f = try row.int(0, "classifier_weight", "feature", in: 0...Int64(features - 1))
            let l = try row.int(1, "classifier_weight", "label", in: 0...Int64(L - 1))
            try body(f, l, Double(try row.integer(2, "classifier_weight", "weight")) / StoreSchema.classifierWeightScale)
        }
    }

    /// Reads the text classifier's tables as a model (feature texts, weight array): for
    /// inspection and tests; a front end wants `TextClassifier(store:)`.
    public func textClassifierModel() throws -> TextClassifierModel {
        var model = try classifierSettings()
        let L = model.labels.count
        try checked { db in
            try Self.forEachClassifierFeature(db) { _, text, documents in
                model.features.append(text)
                model.featureDocuments.append(documents)
            }
            model.weights = [Double](repeating: 0, count: model.features.count * L)
            try Self.forEachClassifierWeight(db, features: model.features.count, labels: L) { f, l, w in model.weights[f * L + l] = w }
        }
        return model
    }

    /// A meta value that must be a JSON object.
    func jsonObject(_ text: String, key: String) throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw StoreError.badMeta(path, key: key, value: text, expected: "a JSON object")
        }
        return object
    }
}
