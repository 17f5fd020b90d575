import Foundation
import GRDB

/// The vocabulary of a store read whole: spelling and count per id, and the ids in byte order of
/// their spellings (from `word_order`), so prefix and text lookups are binary searches.
public struct StoreVocabulary: Sendable {
    /// Spelling per id.
    public let texts: [String]
    /// Unigram count per id.
    public let counts: [Int64]
    /// Unigram logprob and backoff per id (store units), all 0 in a counts-only store.
    public let logprobs: [Int32]
    public let backoffs: [Int32]
    /// Ids in byte order of their spellings.
    public let alphabetical: [Int32]
    /// Id by spelling (the first id of a repeated one).
    let index: WordIndex
    /// The sum of the counts of the real words (ids from ``StoreSchema/ReservedID/firstWord`` on).
    let wordTotal: Int64

    /// The id of `text`, nil when the store does not hold it.
    public func id(of text: String) -> Int64? { index[text].map(Int64.init) }

    /// The positions in ``alphabetical`` of the spellings starting with `prefix` (byte order).
    public func prefixRange(_ prefix: String) -> Range<Int> {
        let key = Array(prefix.utf8)
        func bound(_ inclusive: Bool) -> Int {
            var lo = 0, hi = alphabetical.count
            while lo < hi {
                let mid = (lo + hi) / 2
                let word = texts[Int(alphabetical[mid])].utf8
                let before = inclusive ? word.lexicographicallyPrecedes(key) : !key.lexicographicallyPrecedes(word.prefix(key.count))
                if before { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        return bound(true)..<bound(false)
    }
}

/// Writes and reads the packed vocabulary tables (see ``StoreSchema/wordCreationStatements(languageModel:)``).
public enum WordRows {
    /// A spelling the vocabulary tables cannot hold.
    public struct InvalidWord: Error, CustomStringConvertible {
        public let id: Int
        public let text: String
        public var description: String { "word \(id) (\(text.debugDescription)) holds a line break; tokens and wordlist entries never do" }
    }

    /// Inserts the vocabulary: `texts` by id, their counts, and (language-model stores) unigram
    /// logprobs and backoffs in store units. Rows go in key order, so pages fill completely.
    public static func insert(_ db: Database, texts: [String], counts: [Int64], logprobs: [Int64]? = nil, backoffs: [Int64]? = nil) throws {
        if let bad = texts.firstIndex(where: { $0.utf8.contains(0x0A) }) { throw InvalidWord(id: bad, text: texts[bad]) }
        let size = StoreSchema.wordBlockSize
        let block = try db.makeStatement(sql: "INSERT INTO word_block(block, words) VALUES (?, ?)")
        for start in stride(from: 0, to: texts.count, by: size) {
            try block.execute(arguments: [start / size, texts[start..<min(start + size, texts.count)].joined(separator: "\n")])
        }
        let bytes = texts.map { Array($0.utf8) }
        let order = texts.indices.sorted { bytes[$0].lexicographicallyPrecedes(bytes[$1]) || (bytes[$0] == bytes[$1] && $0 < $1) }
        let row = try db.makeStatement(sql: "INSERT INTO word_order(first_text, ids) VALUES (?, ?)")
        for start in stride(from: 0, to: order.count, by: size) {
            var blob: [UInt8] = []
            for id in order[start..<min(start + size, order.count)] {
                var v = UInt64(id)
                while v >= 0x80 { blob.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
                blob.append(UInt8(v))
            }
            try row.execute(arguments: [texts[order[start]], Data(blob)])
        }
        if let logprobs, let backoffs {
            let insert = try db.makeStatement(sql: "INSERT INTO word_count(id, count, logprob, backoff) VALUES (?, ?, ?, ?)")
            for id in texts.indices { try insert.execute(arguments: [id, counts[id], logprobs[id], backoffs[id]]) }
        } else {
            let insert = try db.makeStatement(sql: "INSERT INTO word_count(id, count) VALUES (?, ?)")
            for id in texts.indices where counts[id] != 0 { try insert.execute(arguments: [id, counts[id]]) }
        }
    }

    /// Reads the whole vocabulary, checking it: blocks in sequence, counts and log values in
    /// range and of their declared types, every id once in `word_order`.
    /// - Throws: ``StoreDamage`` (``TrainedStore`` names the file) or a SQLite error.
    public static func read(_ db: Database) throws -> StoreVocabulary {
        var texts: [String] = []
        // Allocated once (grown by appending, the array would hold up to twice what it needs).
        if let blockCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM word_block") {
            texts.reserveCapacity(min(blockCount, Int(Int32.max) / StoreSchema.wordBlockSize) * StoreSchema.wordBlockSize)
        }
        // Each block's words are cut out of SQLite's bytes (raw column calls, no String per block).
        try RawColumn.forEachRow(db, sql: "SELECT block, words FROM word_block ORDER BY block") { row in
            let block = try RawColumn.integer(row, 0, "`word_block.block`")
            guard block == Int64(texts.count / StoreSchema.wordBlockSize), texts.count % StoreSchema.wordBlockSize == 0 else {
                throw StoreDamage("`word_block` \(block) is out of sequence (\(texts.count) words before it)")
            }
            let words = try RawColumn.text(row, 1, "`word_block.words`")
            let before = texts.count
            var start = 0
            for (i, byte) in words.enumerated() where byte == 0x0A {
                texts.append(String(decoding: UnsafeBufferPointer(rebasing: words[start ..< i]), as: UTF8.self))
                start = i + 1
            }
            texts.append(String(decoding: UnsafeBufferPointer(rebasing: words[start...]), as: UTF8.self))
            guard texts.count - before <= StoreSchema.wordBlockSize else {
                throw StoreDamage("`word_block` \(block) holds \(texts.count - before) words, more than \(StoreSchema.wordBlockSize)")
            }
        }
        guard texts.count >= Int(StoreSchema.ReservedID.firstWord) else {
            throw StoreDamage("the vocabulary (`word_block`) holds \(texts.count) words, not even the reserved ones")
        }
        var counts = [Int64](repeating: 0, count: texts.count)
        var logprobs = [Int32](repeating: 0, count: texts.count), backoffs = [Int32](repeating: 0, count: texts.count)
        let lm = try db.columns(in: "word_count").contains { $0.name == "logprob" }
        // A row a word: read with raw column calls (a `Row` would make a value per column).
        try RawColumn.forEachRow(db, sql: "SELECT id, count\(lm ? ", logprob, backoff" : "") FROM word_count") { row in
            let id = try RawColumn.wordID(row, 0, "`word_count.id`", words: texts.count)
            counts[id] = try RawColumn.integer(row, 1, "`word_count.count`", in: 0...StoreSchema.maxCount)
            if lm {
                logprobs[id] = Int32(truncatingIfNeeded: try RawColumn.logValue(row, 2, "`word_count.logprob`"))
                backoffs[id] = Int32(truncatingIfNeeded: try RawColumn.logValue(row, 3, "`word_count.backoff`"))
            }
        }
        var alphabetical: [Int32] = []
        alphabetical.reserveCapacity(texts.count)
        var listed = [Bool](repeating: false, count: texts.count)
        let orders = try Row.fetchCursor(db, sql: "SELECT ids FROM word_order ORDER BY first_text")
        while let row = try orders.next() {
            guard let blob = try row.optionalBlob(0, "word_order", "ids") else {
                throw StoreDamage("`word_order.ids` holds NULL where a blob belongs")
            }
            for id in WordTextCache.decode(blob) {
                guard id >= 0, id < Int64(texts.count), !listed[Int(id)] else {
                    throw StoreDamage("`word_order` lists id \(id) \(id >= 0 && id < Int64(texts.count) ? "twice" : "outside the \(texts.count) words")")
                }
                listed[Int(id)] = true
                alphabetical.append(Int32(id))
            }
        }
        guard alphabetical.count == texts.count else {
            throw StoreDamage("word_order lists \(alphabetical.count) ids for \(texts.count) words")
        }
        var total: Int64 = 0
        for count in counts.dropFirst(Int(StoreSchema.ReservedID.firstWord)) {
            let (sum, overflow) = total.addingReportingOverflow(count)
            guard !overflow else { throw StoreDamage("`word_count.count` values add up past \(Int64.max)") }
            total = sum
        }
        return StoreVocabulary(texts: texts, counts: counts, logprobs: logprobs, backoffs: backoffs, alphabetical: alphabetical,
                               index: WordIndex(texts: texts), wordTotal: total)
    }
}

/// Spellings read a block at a time from `word_block`, without loading the whole vocabulary: what
/// lexicon completion uses, so a keyboard that only completes from the list keeps its memory to
/// the blocks it touched. Blocks are kept as bytes (at most ``capacity`` of them: 4,096 blocks,
/// 262,144 words, about 2.5 MB; then it starts over; en_US is 2,512 blocks, 1.6 MB) and a
/// spelling is cut out of its block when asked for.
package final class WordTextCache: @unchecked Sendable {
    let capacity: Int
    private var blocks: [Int64: [UInt8]] = [:]
    private let lock = NSLock()

    package init(capacity: Int = 4_096) { self.capacity = capacity }

    /// The UTF-8 bytes of the spelling of `id` (nil: no such id).
    func bytes(of id: Int64, _ db: Database) throws -> ArraySlice<UInt8>? {
        let size = Int64(StoreSchema.wordBlockSize)
        let block = id / size
        var index = Int(id % size)
        lock.lock()
        let cached = blocks[block]
        lock.unlock()
        let bytes: [UInt8]
        if let cached {
            bytes = cached
        } else {
            let statement = try db.cachedStatement(sql: "SELECT words FROM word_block WHERE block = ?")
            guard let text = try String.fetchOne(statement, arguments: [block]) else { return nil }
            bytes = Array(text.utf8)
            lock.lock()
            if blocks.count >= capacity { blocks.removeAll(keepingCapacity: true) }
            blocks[block] = bytes
            lock.unlock()
        }
        var start = 0
        while index > 0 {
            guard let newline = bytes[start...].firstIndex(of: 0x0A) else { return nil }
            start = newline + 1
            index -= 1
        }
        let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
        return bytes[start..<end]
    }

    /// The spelling of `id` (nil: no such id).
    package func text(of id: Int64, _ db: Database) throws -> String? {
        try bytes(of: id, db).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The ids of the words starting with `prefix` (byte order), by range scan of `word_order`:
    /// the row whose first spelling is at most `prefix` (searched by bisection), then on through
    /// the following rows while their words still start with it.
    package func ids(withPrefix prefix: String, _ db: Database) throws -> [Int64] {
        let key = Array(prefix.utf8)
        var result: [Int64] = []
        let first = try Data.fetchOne(db.cachedStatement(sql: "SELECT ids FROM word_order WHERE first_text <= ? ORDER BY first_text DESC LIMIT 1"), arguments: [prefix])
        /// Appends the row's ids from `from` on while they start with the prefix; false once past it.
        func collect(_ ids: [Int64], from: Int) throws -> Bool {
            for id in ids[from...] {
                guard let bytes = try bytes(of: id, db) else { continue }
                guard bytes.starts(with: key) else { return false }
                result.append(id)
            }
            return true
        }
        if let first {
            let ids = Self.decode(first)
            var lo = 0, hi = ids.count   // first position whose spelling is not below the prefix
            while lo < hi {
                let mid = (lo + hi) / 2
                if let bytes = try bytes(of: ids[mid], db), bytes.lexicographicallyPrecedes(key) { lo = mid + 1 } else { hi = mid }
            }
            guard try collect(ids, from: lo) else { return result }
        }
        let rest = try Row.fetchCursor(db.cachedStatement(sql: "SELECT first_text, ids FROM word_order WHERE first_text > ? ORDER BY first_text"), arguments: [prefix])
        while let row = try rest.next() {
            let firstText = try row.text(0, "word_order", "first_text")
            guard let ids = try row.optionalBlob(1, "word_order", "ids") else { throw StoreDamage("`word_order.ids` holds NULL where a blob belongs") }
            guard firstText.utf8.starts(with: key), try collect(Self.decode(ids), from: 0) else { break }
        }
        return result
    }

    /// The ids of a `word_order` row (unsigned LEB128).
    static func decode(_ blob: Data) -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(StoreSchema.wordBlockSize)
        var value: UInt64 = 0, shift: UInt64 = 0
        for byte in blob {
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                ids.append(Int64(value))
                value = 0; shift = 0
            } else {
                shift += 7
            }
        }
        return ids
    }
}
