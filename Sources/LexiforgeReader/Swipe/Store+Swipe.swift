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
            guard try db.tableExists("swipeLayout") else { return [] }
            return try Row.fetchAll(db, sql: "SELECT name FROM swipeLayout ORDER BY id").map { try $0.text(0, "swipeLayout", "name") }
        }
    }

    /// Loads the swipe dictionary of one layout into memory (the thesis keeps it in memory too):
    /// every word's features, text and lexicon frequency, grouped by first key.
    ///
    /// - Throws: ``SwipeStoreError/noFeatures(_:_:)`` when the store has none for `layout`.
    /// - Complexity: O(n) rows, one read; about 0.1 s for 160,000 words.
    public func swipeDictionary(layout: String) throws -> SwipeDictionary {
        let vocabulary = try vocabulary()
        return try checked { db in
            guard try db.tableExists("swipeLayout"),
                  let row = try Row.fetchOne(db, sql: "SELECT id, rowHeightRatio, definition FROM swipeLayout WHERE name = ?", arguments: [layout])
            else { throw SwipeStoreError.noFeatures(path, layout) }
            let id = try row.integer(0, "swipeLayout", "id")
            let definition = try row.text(2, "swipeLayout", "definition")
            let base = try SwipeLayout.fromJSON(Data(definition.utf8), source: "\(path) swipeLayout \(layout)")
            // Lexicon frequencies are stored as runs over word ids (``StoreSchema/lexiconCreationStatements()``);
            // details (such as not-a-word) only for uncommon entries.
            let hasLexicon = try db.tableExists("lexiconFrequency")
            let runs = hasLexicon ? try LexiconFrequencyRuns(db) : nil
            let attributesByID: [Int64: Int] = hasLexicon
                ? Dictionary(try Row.fetchAll(db, sql: "SELECT wordId, attributes FROM lexiconDetail").map {
                    (try $0.integer(0, "lexiconDetail", "wordId"), try $0.int(1, "lexiconDetail", "attributes"))
                }, uniquingKeysWith: { first, _ in first })
                : [:]
            func lexiconFrequency(of id: Int64) -> Int? { runs.map { $0.frequency(of: id) } ?? 128 }
            let sql = """
                SELECT f.wordId, NULL, f.firstKey, f.lastKey, f.length, f.startAngle, f.secondDistance, f.path
                FROM swipeFeature AS f WHERE f.layoutId = ?
                """
            var builder = SwipeDictionary.Builder(layout: base)
            let rows = try Row.fetchCursor(db, sql: sql, arguments: [id])
            while let row = try rows.next() {
                let first = try row.int(2, "swipeFeature", "firstKey"), last = try row.int(3, "swipeFeature", "lastKey")
                let length = try row.int(4, "swipeFeature", "length", in: 0...Int64(Int32.max))
                var keys = [UInt8(truncatingIfNeeded: first)]
                if let inner = try row.optionalBlob(7, "swipeFeature", "path") { keys.append(contentsOf: SwipeFeatures.unpack(Array(inner), keyCount: base.keys.count)) }
                if first != last || length > 0 { keys.append(UInt8(truncatingIfNeeded: last)) }
                let wordID = try row.integer(0, "swipeFeature", "wordId")
                // A damaged store must give an error, never a decoder indexing past the layout.
                guard first >= 0, last >= 0, first < base.keys.count, last < base.keys.count, keys.allSatisfy({ Int($0) < base.keys.count }), wordID >= 0, wordID < Int64(vocabulary.texts.count)
                else {
                    throw StoreError.notAStore(path, "swipeFeature row of word \(wordID) on layout `\(layout)` names a key or word the store does not have; rebuild it with `lexiforge swipe features`")
                }
                if (attributesByID[wordID] ?? 0) & Int(LexiconAttributes.notAWord.rawValue) != 0 { continue }
                guard let frequency = lexiconFrequency(of: wordID) else { continue }
                builder.add(word: vocabulary.texts[Int(wordID)], id: wordID, keys: keys, length: Double(length) / SwipeFeatures.lengthScale,
                            startAngle: SwipeFeatures.startAngle(stored: try row.int(5, "swipeFeature", "startAngle", in: -128...127)),
                            secondDistance: Double(try row.int(6, "swipeFeature", "secondDistance", in: 0...127)) / SwipeFeatures.distanceScale, frequency: frequency)
            }
            return builder.build()
        }
    }
}
