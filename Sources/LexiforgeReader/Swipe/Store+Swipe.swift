import Foundation
import GRDB

/// Why swipe features could not be read.
public enum SwipeStoreError: Error, CustomStringConvertible, Sendable {
    case noFeatures(String, String)

    public var description: String {
        switch self {
        case .noFeatures(let path, let layout):
            return "\(path): no swipe features for layout `\(layout)`; add them with `lexiforge swipe features \(path) --layout \(layout)`"
        }
    }
}

extension TrainedStore {
    /// Layout names with stored swipe features.
    public func swipeLayouts() throws -> [String] {
        try checked { db in
            guard try db.tableExists("swipe_layout") else { return [] }
            return try Row.fetchAll(db, sql: "SELECT name FROM swipe_layout ORDER BY id").map { try $0.text(0, "swipe_layout", "name") }
        }
    }

    /// Loads the swipe dictionary of one layout into memory (the thesis keeps it in memory too):
    /// every word's features, text and lexicon frequency, grouped by first key. Words marked
    /// `not_a_word` are left out; those marked `possibly_offensive` are kept and flagged
    /// (``SwipeDictionary/possiblyOffensive``), so each decoder chooses whether to propose them.
    ///
    /// - Throws: ``SwipeStoreError/noFeatures(_:_:)`` when the store has none for `layout`.
    /// - Complexity: O(n) rows, one read; about 0.25 s for en_US's 161,000 words after the
    ///   vocabulary (``TrainedStore/vocabulary()``, read once per store).
    public func swipeDictionary(layout: String) throws -> SwipeDictionary {
        let vocabulary = try vocabulary()
        return try checked { db in
            guard try db.tableExists("swipe_layout"),
                  let row = try Row.fetchOne(db, sql: "SELECT id, row_height_ratio, definition FROM swipe_layout WHERE name = ?", arguments: [layout])
            else { throw SwipeStoreError.noFeatures(path, layout) }
            let id = try row.integer(0, "swipe_layout", "id")
            let definition = try row.text(2, "swipe_layout", "definition")
            let base = try SwipeLayout.fromJSON(Data(definition.utf8), source: "\(path) swipe_layout \(layout)")
            // Lexicon frequencies are stored as runs over word ids (``StoreSchema/lexiconCreationStatements()``);
            // details (such as not-a-word) only for uncommon entries.
            let hasLexicon = try db.tableExists("lexicon_frequency")
            let runs = hasLexicon ? try LexiconFrequencyRuns(db) : nil
            // Only the words marked not-a-word (never proposed) and possibly offensive (proposed
            // when the decoder allows them) matter here (`word_id` is the table's key: one row a word).
            var notAWord = Set<Int64>(), offensive = Set<Int64>()
            if hasLexicon {
                let details = try Row.fetchCursor(db, sql: "SELECT word_id, attributes FROM lexicon_detail")
                while let row = try details.next() {
                    let id = try row.integer(0, "lexicon_detail", "word_id")
                    let attributes = LexiconAttributes(rawValue: try row.int(1, "lexicon_detail", "attributes"))
                    if attributes.contains(.notAWord) { notAWord.insert(id) }
                    if attributes.contains(.possiblyOffensive) { offensive.insert(id) }
                }
            }
            func lexiconFrequency(of id: Int64) -> Int? { runs.map { $0.frequency(of: id) } ?? 128 }
            let sql = """
                SELECT f.word_id, NULL, f.first_key, f.last_key, f.length, f.start_angle, f.second_distance, f.path
                FROM swipe_feature AS f WHERE f.layout_id = ?
                """
            var builder = SwipeDictionary.Builder(layout: base)
            // Sized once: the rows, and at most 8 keys in 5 bytes of packed inner path plus the first and last.
            if let size = try Row.fetchOne(db, sql: "SELECT count(*), coalesce(sum(length(path)), 0) FROM swipe_feature WHERE layout_id = ?", arguments: [id]) {
                let rows = try size.int(0, "swipe_feature", "count(*)", in: 0...Int64(Int32.max))
                let packed = try size.int(1, "swipe_feature", "path", in: 0...Int64(Int32.max))
                builder.reserveCapacity(entries: rows, keys: 2 * rows + packed * 8 / 5)
            }
            // A row a word, read with raw column calls (a `Row` would make a value per column)
            // into one key buffer (an array per word would be 160,000 allocations).
            let keyCount = base.keys.count, words = vocabulary.texts.count
            var keys: [UInt8] = []
            try RawColumn.forEachRow(db, sql: sql, arguments: [id]) { row in
                let first = try RawColumn.integer(row, 2, "`swipe_feature.first_key`"), last = try RawColumn.integer(row, 3, "`swipe_feature.last_key`")
                let length = try RawColumn.integer(row, 4, "`swipe_feature.length`", in: 0...Int64(Int32.max))
                keys.removeAll(keepingCapacity: true)
                keys.append(UInt8(truncatingIfNeeded: first))
                if let inner = try RawColumn.optionalBlob(row, 7, "`swipe_feature.path`") { SwipeFeatures.unpack(inner, keyCount: keyCount, into: &keys) }
                if first != last || length > 0 { keys.append(UInt8(truncatingIfNeeded: last)) }
                let wordID = try RawColumn.integer(row, 0, "`swipe_feature.word_id`")
                // A damaged store must give an error, never a decoder indexing past the layout.
                guard first >= 0, last >= 0, first < keyCount, last < keyCount, keys.allSatisfy({ Int($0) < keyCount }), wordID >= 0, wordID < words
                else {
                    throw StoreError.notAStore(path, "swipe_feature row of word \(wordID) on layout `\(layout)` names a key or word the store does not have; rebuild it with `lexiforge swipe features`")
                }
                guard !notAWord.contains(wordID), let frequency = lexiconFrequency(of: wordID) else { return }
                builder.add(word: vocabulary.texts[Int(wordID)], id: wordID, keys: keys, length: Double(length) / SwipeFeatures.lengthScale,
                            startAngle: SwipeFeatures.startAngle(stored: Int(try RawColumn.integer(row, 5, "`swipe_feature.start_angle`", in: -128...127))),
                            secondDistance: Double(try RawColumn.integer(row, 6, "`swipe_feature.second_distance`", in: 0...127)) / SwipeFeatures.distanceScale,
                            frequency: frequency, possiblyOffensive: offensive.contains(wordID))
            }
            return (consume builder).build()   // moved, so the build compacts its arrays in place instead of copying them
        }
    }
}
