import Foundation
import GRDB
import LexiforgeText

/// A named entity found in text: its type (`PER`, `LOC`, `ORG` for the shipped training data),
/// its text and its place, in Unicode scalars (code points) from the start of the text, half open.
public struct Entity: Sendable, Equatable, CustomStringConvertible {
    public var type: String
    public var text: String
    public var start: Int
    public var end: Int
    public init(type: String, text: String, start: Int, end: Int) {
        self.type = type
        self.text = text
        self.start = start
        self.end = end
    }
    public var description: String { "\(start)\t\(end)\t\(type)\t\(text)" }
}

/// The named-entity tagger of a store built by `lexiforge ner train`.
///
/// ```swift
/// let tagger = try EntityTagger(path: "Artifacts/ner.sqlite")
/// for name in tagger.entities(in: review) where name.type == "PER" { print(name.text) }  // "Tim Cook"
/// tagger.entities(in: review, joinNames: false)   // "Tim", "Cook": one entity per word
/// ```
/// Text is split into lines, each line into tokens with the treebank tokenizer (the Universal
/// Dependencies conventions the training data follows) and at sentence-ending punctuation into
/// sentences, which are tagged with ``EntityModel/decode(_:)``. With `joinNames` (the default,
/// as NLTagger's `.joinNames`) a multi-word name is one entity; without, each of its words is.
/// - Complexity: O(words · (features + labels²)) per sentence.
public final class EntityTagger: Sendable {
    public let model: EntityModel
    /// The store's `meta` table (provenance), empty for a model made in memory.
    public let meta: [String: String]
    private let tokenizer = Tokenizer(mode: .treebank)

    public init(model: EntityModel, meta: [String: String] = [:]) {
        self.model = model
        self.meta = meta
    }

    /// Opens the tagger of a store.
    /// - Throws: ``StoreError`` when the file is no store, holds no entity tagger, was trained
    ///   with other feature templates, or is damaged.
    public convenience init(path: String) throws {
        let store = try TrainedStore(path: path)
        let (model, meta) = try store.entityModel()
        self.init(model: model, meta: meta)
    }

    /// The BIO label of every word (`O`, `B-PER`, `I-PER`, ...).
    public func labels(_ words: [String]) -> [String] {
        let names = model.labels.names
        return model.decode(words).map { names[$0] }
    }

    /// The entities of `text` (see the type's documentation). The text is one document: its
    /// sentences are decoded with ``EntityModel/decode(document:)``, so a name tagged in one
    /// sentence tags its other mentions.
    public func entities(in text: String, joinNames: Bool = true) -> [Entity] {
        // Every line's bytes and the scalar offset of each of its bytes (continuation bytes share
        // the last), then the sentences as (line, tokens).
        var lines: [(bytes: [UInt8], scalarAt: [Int], start: Int)] = []
        var sentences: [(line: Int, tokens: [Token])] = []
        var lineStart = 0   // in scalars
        var tokens: [Token] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var bytes = Array(line.utf8)
            var scalarAt = [Int](repeating: 0, count: bytes.count + 1)
            var scalars = 0
            for (k, b) in bytes.enumerated() {
                scalarAt[k] = scalars
                if b & 0xC0 != 0x80 { scalars += 1 }
            }
            scalarAt[bytes.count] = scalars
            tokens.removeAll(keepingCapacity: true)
            bytes.withUnsafeMutableBufferPointer { tokenizer.tokenize(UnsafeBufferPointer($0), into: &tokens) }
            var sentence: [Token] = []
            for token in tokens {
                sentence.append(token)
                if token.kind == .terminal { sentences.append((lines.count, sentence)); sentence.removeAll() }
            }
            if !sentence.isEmpty { sentences.append((lines.count, sentence)) }
            lines.append((bytes, scalarAt, lineStart))
            lineStart += scalars + 1
        }
        let words = sentences.map { sentence in
            sentence.tokens.map { String(decoding: lines[sentence.line].bytes[$0.start..<$0.end], as: UTF8.self) }
        }
        let names = model.labels.names
        var out: [Entity] = []
        for (sentence, labels) in zip(sentences, model.decode(document: words)) {
            let line = lines[sentence.line]
            for span in EntitySpan.spans(labels.map { names[$0] }) {
                let pieces = joinNames ? [span.start..<span.end] : (span.start..<span.end).map { $0..<($0 + 1) }
                for piece in pieces {
                    let first = sentence.tokens[piece.lowerBound], last = sentence.tokens[piece.upperBound - 1]
                    out.append(Entity(type: span.type, text: String(decoding: line.bytes[first.start..<last.end], as: UTF8.self),
                                      start: line.start + line.scalarAt[first.start], end: line.start + line.scalarAt[last.end]))
                }
            }
        }
        return out
    }
}

extension TrainedStore {
    /// Whether the store holds an entity tagger (`lexiforge ner train`).
    public var hasEntityTagger: Bool { meta[StoreSchema.MetaKey.entities] != nil }

    /// Reads the entity tagger's tables.
    func entityModel() throws -> (EntityModel, [String: String]) {
        guard let provenance = meta[StoreSchema.MetaKey.entities] else {
            throw StoreError.notAStore(path, "it holds no entity tagger (no `entities` meta row); build one with `lexiforge ner train FILE.iob2 -o \(path)`")
        }
        let version = "\"feature_version\":\(StoreSchema.Entities.featureVersion)"
        guard provenance.contains(version) else {
            throw StoreError.badMeta(path, key: StoreSchema.MetaKey.entities, value: provenance,
                                     expected: "a tagger trained with feature version \(StoreSchema.Entities.featureVersion) (rebuild it with this toolchain's `lexiforge ner train`)")
        }
        let parts = try checked { db in
            let names = try Row.fetchAll(db, sql: "SELECT id, name FROM entity_label ORDER BY id").enumerated().map { k, row in
                guard try row.int(0, "entity_label", "id") == k else { throw StoreDamage("entity_label ids are not 0, 1, 2, ...") }
                return try row.text(1, "entity_label", "name")
            }
            guard names.first == "O", names.count % 2 == 1 else { throw StoreDamage("entity_label must start with O and hold B- and I- labels in pairs") }
            let types = stride(from: 1, to: names.count, by: 2).map { String(names[$0].dropFirst(2)) }
            let labels = EntityLabels(types: types)
            guard labels.names == names else { throw StoreDamage("entity_label does not list B-T, I-T for each type T") }
            let L = labels.count
            var transitions = [Float](repeating: 0, count: (L + 1) * L)
            for row in try Row.fetchAll(db, sql: "SELECT prev, label, weight FROM entity_transition") {
                let prev = try row.int(0, "entity_transition", "prev", in: -1...Int64(L - 1))
                let label = try row.int(1, "entity_transition", "label", in: 0...Int64(L - 1))
                transitions[(prev + 1) * L + label] = Float(try row.real(2, "entity_transition", "weight", finite: true))
            }
            let rowCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM entity_feature") ?? 0
            var table = EntityWeightTable(labels: L, capacity: rowCount)
            var weights = [Float](repeating: 0, count: L)
            let cursor = try Row.fetchCursor(db, sql: "SELECT key, weights FROM entity_feature")
            while let row = try cursor.next() {
                let key = UInt64(bitPattern: try row.integer(0, "entity_feature", "key"))
                guard key != 0, let blob = try row.optionalBlob(1, "entity_feature", "weights"), blob.count == 4 * L else {
                    throw StoreDamage("entity_feature: a key of 0 or weights that are not \(L) Float32 values")
                }
                // count(*) sized the table: a damaged store could hold more rows than that.
                guard table.count < rowCount else { throw StoreDamage("entity_feature: more rows than count(*) reports") }
                blob.withUnsafeBytes { raw in
                    for y in 0..<L {
                        weights[y] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * y, as: UInt32.self)))
                    }
                }
                guard table.insert(key, weights: weights) else { throw StoreDamage("entity_feature: duplicate keys") }
            }
            guard table.count == rowCount else { throw StoreDamage("entity_feature: fewer rows than count(*) reports") }
            var gazetteer = EntityGazetteer(typeCount: types.count)
            let gazetteerRows = try Row.fetchCursor(db, sql: "SELECT phrase, type, count FROM entity_gazetteer ORDER BY phrase, type")
            while let row = try gazetteerRows.next() {
                let phrase = try row.text(0, "entity_gazetteer", "phrase")
                let type = try row.text(1, "entity_gazetteer", "type")
                guard let t = types.firstIndex(of: type) else { throw StoreDamage("entity_gazetteer: unknown type \(type)") }
                gazetteer.add(phrase.split(separator: " ").map(String.init), type: t,
                              count: Int32(try row.int(2, "entity_gazetteer", "count", in: 1...Int64(Int32.max))))
            }
            var lexicon = EntityLexicon()
            let lexiconRows = try Row.fetchCursor(db, sql: "SELECT phrase, mask FROM entity_lexicon ORDER BY phrase")
            while let row = try lexiconRows.next() {
                lexicon.add(try row.text(0, "entity_lexicon", "phrase"), mask: UInt8(try row.int(1, "entity_lexicon", "mask", in: 1...255)))
            }
            var classes: [String: UInt16] = [:]
            classes.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM entity_cluster") ?? 0)
            let clusterRows = try Row.fetchCursor(db, sql: "SELECT word, cluster FROM entity_cluster")
            while let row = try clusterRows.next() {
                classes[try row.text(0, "entity_cluster", "word")] = UInt16(try row.int(1, "entity_cluster", "cluster", in: 1...65535))
            }
            return (labels, table, transitions, gazetteer, lexicon, EntityClusters(classes: classes))
        }
        let (labels, table, transitions, gazetteer, lexicon, clusters) = parts
        let tagging = hasHMM ? EntityTagging(tables: try hmmTables()) : nil
        return (EntityModel(labels: labels, table: table, transitions: transitions, gazetteer: gazetteer,
                            tagging: tagging, lexicon: lexicon, clusters: clusters), meta)
    }
}
