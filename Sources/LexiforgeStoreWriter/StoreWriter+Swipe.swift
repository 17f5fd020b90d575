import Foundation
import GRDB
import GRDBSQLite
import LexiforgeReader

/// Summary of one layout's features written into a store.
public struct SwipeFeatureWriteReport: Sendable {
    public var layout: String
    public var words: Int
    /// Words without a key path on the layout (a digit, another script): no row, by design.
    public var skipped: Int
    public var skippedExamples: [String]
    /// Store size before and after.
    public var bytesBefore: Int
    public var bytesAfter: Int
    public var seconds: Double
    /// Of `seconds`: computing the features (the rest copies, writes and repacks the store).
    public var computeSeconds = 0.0
}

extension StoreWriter {
    /// Adds (or replaces) one layout's swipe features in an existing store, atomically: the store
    /// is copied beside itself, the rows are written into the copy, which is vacuumed, stamped and
    /// renamed over the original (``build(_:pageSize:copying:fill:)``), under the store's
    /// ``StoreLock`` (a concurrent update fails as busy).
    ///
    /// In: the store and `features`, called once per lexicon word (every `word` row from
    /// ``StoreSchema/ReservedID/firstWord`` on when the store has no lexicon), returning nil for a
    /// word with no key path. Out: `swipe_layout` and `swipe_feature` rows
    /// (``StoreSchema/swipeCreationStatements()``).
    public static func addSwipeFeatures(
        storePath: String, layout: SwipeLayout, features: @escaping ([String]) -> [SwipeFeatures?]
    ) throws -> SwipeFeatureWriteReport {
        let started = Date()
        guard FileManager.default.fileExists(atPath: storePath) else { throw StoreError.missing(storePath) }
        // Held for the whole copy-add-rename, so a concurrent update fails as busy instead of being lost.
        let lock: StoreLock
        do { lock = try StoreLock.acquire(for: storePath) } catch { throw StoreWriteError(error) }
        defer { lock.release() }
        _ = try TrainedStore(path: storePath)  // refuses a non-store or another version, with a message
        let file = try AtomicStoreFile.prepare(path: storePath)
        let before = (try? FileManager.default.attributesOfItem(atPath: storePath)[.size] as? Int) ?? 0
        var report = SwipeFeatureWriteReport(layout: layout.name, words: 0, skipped: 0, skippedExamples: [],
                                             bytesBefore: before, bytesAfter: 0, seconds: 0)
        // Rows go in primary-key order, so SQLite appends to the b-tree; the repack that follows
        // still saves about an eighth (4.38 MB instead of 3.86 for en_US).
        try build(file, pageSize: 0, copying: storePath) { db in
            if try !db.tableExists("swipe_layout") {
                for sql in StoreSchema.swipeCreationStatements() { try db.execute(sql: sql) }
            }
            for sql in StoreSchema.swipeIndexStatements {
                try db.execute(sql: "DROP INDEX IF EXISTS " + sql.split(separator: " ")[2])
            }
            if let old = try Int64.fetchOne(db, sql: "SELECT id FROM swipe_layout WHERE name = ?", arguments: [layout.name]) {
                try db.execute(sql: "DELETE FROM swipe_feature WHERE layout_id = ?", arguments: [old])
                try db.execute(sql: "DELETE FROM swipe_layout WHERE id = ?", arguments: [old])
            }
            let layoutID = (try Int64.fetchOne(db, sql: "SELECT coalesce(max(id) + 1, 0) FROM swipe_layout")) ?? 0
            // The lexicon's words (those with a frequency) when the store has one, else every word.
            let vocabulary = try WordRows.read(db)
            let runs = try db.tableExists("lexicon_frequency") ? try LexiconFrequencyRuns(db) : nil
            func inLexicon(_ id: Int64) -> Bool { runs.map { $0.frequency(of: id) != nil } ?? true }
            try db.execute(sql: "INSERT INTO swipe_layout(id, name, row_height_ratio, definition, words) VALUES (?, ?, ?, ?, 0)",
                           arguments: [layoutID, layout.name, layout.rowHeightRatio, layout.jsonDefinition()])
            var ids: [Int64] = [], texts: [String] = []
            for id in Int64(StoreSchema.ReservedID.firstWord)..<Int64(vocabulary.texts.count) where inLexicon(id) {
                ids.append(id); texts.append(vocabulary.texts[Int(id)])
            }
            let computeStarted = Date()
            let computed = features(texts)
            report.computeSeconds = Date().timeIntervalSince(computeStarted)
            let insert = try RawStatement(db, """
                INSERT INTO swipe_feature(layout_id, first_key, last_key, length, word_id, start_angle, second_distance, path)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            var rows: [(Int64, SwipeFeatures)] = []
            rows.reserveCapacity(computed.count)
            for (k, f) in computed.enumerated() {
                if let f { rows.append((ids[k], f)); continue }
                report.skipped += 1
                if report.skippedExamples.count < 5 { report.skippedExamples.append(texts[k]) }
            }
            rows.sort { a, b in
                (a.1.firstKey, a.1.lastKey, a.1.storedLength, a.0) < (b.1.firstKey, b.1.lastKey, b.1.storedLength, b.0)
            }
            for (id, f) in rows {
                insert.int(1, layoutID); insert.int(2, Int64(f.firstKey)); insert.int(3, Int64(f.lastKey))
                insert.int(4, Int64(f.storedLength)); insert.int(5, id)
                insert.int(6, Int64(f.storedStartAngle)); insert.int(7, Int64(f.storedSecondDistance))
                if f.keys.count > 2 { insert.blob(8, SwipeFeatures.pack(f.keys[1 ..< f.keys.count - 1], keyCount: layout.keys.count)[...]) } else { insert.null(8) }
                try insert.step()
                report.words += 1
            }
            try db.execute(sql: "UPDATE swipe_layout SET words = ? WHERE id = ?", arguments: [report.words, layoutID])
            for sql in StoreSchema.swipeIndexStatements { try db.execute(sql: sql) }
        }
        report.bytesAfter = (try? FileManager.default.attributesOfItem(atPath: storePath)[.size] as? Int) ?? 0
        report.seconds = Date().timeIntervalSince(started)
        return report
    }
}

extension RawStatement {
    @inline(__always) func blob(_ index: Int32, _ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { raw in
            _ = sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(raw.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
    }
}
