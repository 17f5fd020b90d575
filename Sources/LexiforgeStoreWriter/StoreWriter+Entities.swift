import Foundation
import GRDB
import LexiforgeReader

extension StoreWriter {
    /// Writes a store of its own kind (an entity tagger, a search index) through ``build``: the
    /// `meta` table, a vocabulary of the reserved three then `words` (ids from 3; `vocabulary`
    /// instead gives the whole vocabulary, reserved tokens first) with their `word_class` rows
    /// when `columns` is given (indexed like `words`), the `extra` statements, then `fill`, then
    /// the indexes.
    static func writeAuxiliary(_ file: AtomicStoreFile, meta: [String: String], words: [String] = [],
                               counts: [Int64] = [], vocabulary: (texts: [String], counts: [Int64])? = nil,
                               columns: WordColumns? = nil, extra: [String],
                               fill: (Database) throws -> Void) throws(StoreWriteError) {
        let statements = StoreSchema.creationStatements(order: 1, wordClasses: columns != nil) + extra
        let texts = vocabulary?.texts ?? [StoreSchema.unknownToken, StoreSchema.sentenceStartToken, StoreSchema.sentenceEndToken] + words
        try build(file, pageSize: 4096) { db in
            for sql in statements where !sql.hasPrefix("CREATE UNIQUE INDEX") && !sql.hasPrefix("CREATE INDEX") {
                try db.execute(sql: sql)
            }
            let metaInsert = try db.makeStatement(sql: "INSERT INTO meta(key, value) VALUES (?, ?)")
            for key in meta.keys.sorted() { try metaInsert.execute(arguments: [key, meta[key]!]) }
            try WordRows.insert(db, texts: texts, counts: vocabulary?.counts ?? [0, 0, 0] + counts)
            if let columns {
                let insert = try db.makeStatement(sql: "INSERT INTO word_class(word, lemma, script) VALUES (?, ?, ?)")
                for k in words.indices {
                    let lemma = columns.lemmas[k]
                    try insert.execute(arguments: [k + 3, lemma == words[k] ? nil : lemma, Int64(columns.scripts[k])])
                }
            }
            try fill(db)
            for sql in statements where sql.hasPrefix("CREATE UNIQUE INDEX") || sql.hasPrefix("CREATE INDEX") {
                try db.execute(sql: sql)
            }
        }
    }

    /// Writes an entity tagger store (``StoreSchema/Entities``): labels, feature weights in key
    /// order, transitions, the gazetteer, lexicon and word classes in byte order; with `hmm`, the UPOS tagger's tables
    /// over its vocabulary. Identical models give identical files.
    public static func writeEntities(_ model: EntityModel, hmm: HMMTables? = nil, meta: [String: String],
                                     to file: AtomicStoreFile) throws(StoreWriteError) {
        try writeAuxiliary(file, meta: meta, vocabulary: hmm.map { ($0.words, $0.wordCounts) },
                           extra: StoreSchema.Entities.creationStatements) { db in
            if let hmm { try insertHMM(hmm, db: db) }
            let L = model.labels.count
            let label = try db.makeStatement(sql: "INSERT INTO entity_label(id, name) VALUES (?, ?)")
            for (id, name) in model.labels.names.enumerated() { try label.execute(arguments: [id, name]) }
            let transition = try db.makeStatement(sql: "INSERT INTO entity_transition(prev, label, weight) VALUES (?, ?, ?)")
            for prev in -1..<L {
                for y in 0..<L where model.transitions[(prev + 1) * L + y] != 0 {
                    try transition.execute(arguments: [prev, y, Double(model.transitions[(prev + 1) * L + y])])
                }
            }
            let feature = try db.makeStatement(sql: "INSERT INTO entity_feature(key, weights) VALUES (?, ?)")
            var blob = Data(count: 4 * L)
            for entry in model.table.entries {
                blob.withUnsafeMutableBytes { raw in
                    for y in 0..<L {
                        raw.storeBytes(of: entry.weights[y].bitPattern.littleEndian, toByteOffset: 4 * y, as: UInt32.self)
                    }
                }
                try feature.execute(arguments: [Int64(bitPattern: entry.key), blob])
            }
            let gazetteer = try db.makeStatement(sql: "INSERT INTO entity_gazetteer(phrase, type, count) VALUES (?, ?, ?)")
            for phrase in model.gazetteer.counts.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                for (t, count) in model.gazetteer.counts[phrase]!.enumerated() where count > 0 {
                    try gazetteer.execute(arguments: [phrase, model.labels.types[t], Int64(count)])
                }
            }
            let lexicon = try db.makeStatement(sql: "INSERT INTO entity_lexicon(phrase, mask) VALUES (?, ?)")
            for phrase in model.lexicon.entries.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                try lexicon.execute(arguments: [phrase, Int64(model.lexicon.entries[phrase]!)])
            }
            let cluster = try db.makeStatement(sql: "INSERT INTO entity_cluster(word, cluster) VALUES (?, ?)")
            for word in model.clusters.classes.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                try cluster.execute(arguments: [word, Int64(model.clusters.classes[word]!)])
            }
        }
    }
}
