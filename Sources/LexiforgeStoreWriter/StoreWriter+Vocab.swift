import GRDB
import LexiforgeReader

extension StoreWriter {
    /// Writes a vocabulary store (``StoreSchema/Vocab``) atomically.
    ///
    /// In: the levels and entries (any order; entries must be distinct) and provenance. Out: the
    /// store at `file.path`: entries sorted into buckets (``VocabRecord/storeOrder(_:_:)``), ids
    /// from 1 in that order, one `vocab_bucket` row per id range, the index built after the rows,
    /// `meta.vocab_schema` stamped. Identical inputs give byte-identical files.
    /// - Complexity: O(n log n) for the sort.
    public static func writeVocabulary(_ contents: VocabStoreContents, meta: [String: String], to file: AtomicStoreFile) throws(StoreWriteError) {
        let records = contents.records.sorted(by: VocabRecord.storeOrder)
        var buckets: [(key: VocabRecord.BucketKey, first: Int, count: Int)] = []
        for (i, record) in records.enumerated() {
            let key = record.bucketKey
            if let last = buckets.last, last.key == key {
                buckets[buckets.count - 1].count += 1
            } else {
                buckets.append((key, i + 1, 1))
            }
        }
        var meta = meta
        meta[StoreSchema.Vocab.MetaKey.schema] = String(StoreSchema.Vocab.version)
        meta[StoreSchema.Vocab.MetaKey.entries] = String(records.count)
        meta[StoreSchema.MetaKey.schemaVersion] = String(StoreSchema.version)
        try build(file, pageSize: records.count < 100_000 ? 1024 : 4096) { db in
            for sql in StoreSchema.Vocab.creationStatements() { try db.execute(sql: sql) }
            let metaInsert = try db.makeStatement(sql: "INSERT INTO meta(key, value) VALUES (?, ?)")
            for key in meta.keys.sorted() { try metaInsert.execute(arguments: [key, meta[key]!]) }
            let level = try db.makeStatement(sql: "INSERT INTO vocab_level(id, name) VALUES (?, ?)")
            for (id, name) in contents.levels.enumerated() { try level.execute(arguments: [id, name]) }
            let category = try db.makeStatement(sql: "INSERT INTO vocab_category(id, name) VALUES (?, ?)")
            for c in VocabCategory.allCases { try category.execute(arguments: [c.rawValue, c.name]) }
            let bucket = try db.makeStatement(sql: """
                INSERT INTO vocab_bucket(id, levels, category, has_reading, has_meaning, first_entry, entries) VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
            for (i, b) in buckets.enumerated() {
                try bucket.execute(arguments: [i + 1, b.key.levels, b.key.category, b.key.hasReading, b.key.hasMeaning, b.first, b.count])
            }
            let entry = try db.makeStatement(sql: "INSERT INTO vocab_entry(id, bucket, expression, reading, meaning, tags) VALUES (?, ?, ?, ?, ?, ?)")
            var b = 0
            for (i, r) in records.enumerated() {
                while buckets[b].first + buckets[b].count <= i + 1 { b += 1 }
                try entry.execute(arguments: [i + 1, b + 1, r.expression, r.reading, r.meaning, r.tags])
            }
            for sql in StoreSchema.Vocab.indexStatements { try db.execute(sql: sql) }
        }
    }
}
