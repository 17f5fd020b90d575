import LexiforgeFormat

/// One labeled training or test text.
public struct LabeledDocument: Sendable, Equatable {
    public var text: String
    public var label: String
    /// Where it came from (a file, or file:line), for messages.
    public var source: String

    public init(text: String, label: String, source: String) {
        self.text = text
        self.label = label
        self.source = source
    }
}

/// Documents turned into feature ids once, so training and every cross-validation fold reuse them.
///
/// In: documents and the feature options. Out: labels in name (byte) order, features in text
/// byte order (ids dense from 0), and per document its sorted distinct feature ids with their
/// counts. - Complexity: O(tokens · max order) hashing, then one sort of the distinct features.
public struct FeaturizedCorpus: Sendable {
    public var labels: [String]
    public var documentLabels: [Int]
    public var features: [String]
    /// Training documents holding each feature.
    public var featureDocuments: [Int]
    /// Per document: distinct feature ids, ascending.
    public var documentFeatures: [[Int32]]
    /// Per document: the count of each of `documentFeatures`.
    public var documentCounts: [[Float]]
    public var maxOrder: Int
    public var lowercase: Bool
    public var negation: Bool
    public var ending: Int
    /// Token → lemma replacing it (``ClassifierFeatures/tokens(of:lowercase:negation:ending:lemmas:)``); empty: word forms.
    public var lemmas: [String: String]

    public init(_ documents: [LabeledDocument], maxOrder: Int, lowercase: Bool, negation: Bool = false, ending: Int = 0,
                lemmas: [String: String] = [:]) {
        self.ending = ending
        self.lemmas = lemmas
        self.maxOrder = maxOrder
        self.lowercase = lowercase
        self.negation = negation
        labels = Array(Set(documents.map(\.label))).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let labelID = Dictionary(uniqueKeysWithValues: labels.enumerated().map { ($1, $0) })
        documentLabels = documents.map { labelID[$0.label]! }
        var idOfHash: [UInt64: Int32] = [:]
        var texts: [String] = []
        var perDocument: [[Int32: Float]] = []
        perDocument.reserveCapacity(documents.count)
        for document in documents {
            let (tokens, endingStart) = ClassifierFeatures.tokens(of: document.text, lowercase: lowercase, negation: negation, ending: ending, lemmas: lemmas)
            let hashes = tokens.map { ClassifierFeatures.hash(token: $0) }
            var counts: [Int32: Float] = [:]
            ClassifierFeatures.forEachFeature(count: hashes.count, endingStart: endingStart, maxOrder: maxOrder) { range, ending in
                let h = ClassifierFeatures.featureHash(hashes[range], ending: ending)
                let id: Int32
                if let known = idOfHash[h] { id = known } else {
                    id = Int32(texts.count)
                    idOfHash[h] = id
                    texts.append((ending ? ClassifierFeatures.endingMark + " " : "") + tokens[range].joined(separator: " "))
                }
                counts[id, default: 0] += 1
            }
            perDocument.append(counts)
        }
        // Ids in text byte order, so stores are independent of document order.
        let order = texts.indices.sorted { texts[$0].utf8.lexicographicallyPrecedes(texts[$1].utf8) }
        var newID = [Int32](repeating: 0, count: texts.count)
        for (rank, old) in order.enumerated() { newID[old] = Int32(rank) }
        features = order.map { texts[$0] }
        featureDocuments = Array(repeating: 0, count: texts.count)
        documentFeatures = []
        documentCounts = []
        for counts in perDocument {
            let pairs = counts.map { (newID[Int($0.key)], $0.value) }.sorted { $0.0 < $1.0 }
            documentFeatures.append(pairs.map(\.0))
            documentCounts.append(pairs.map(\.1))
            for (f, _) in pairs { featureDocuments[Int(f)] += 1 }
        }
    }

    public var documentCount: Int { documentLabels.count }

    /// Stratified k folds: each label's documents, in input order, cut into k contiguous runs
    /// (for the polarity set, whose files sort by cross-validation index, the standard folds).
    public func folds(_ k: Int) -> [Int] {
        var fold = [Int](repeating: 0, count: documentCount)
        for l in labels.indices {
            let members = documentLabels.indices.filter { documentLabels[$0] == l }
            for (rank, d) in members.enumerated() { fold[d] = rank * k / members.count }
        }
        return fold
    }
}
