import Foundation
import GRDB

/// The vocabulary of a store: one id per word, shared by every stage (n-grams, lexicon, HMM,
/// swipe), packed so that a 160,000-word keyboard list costs about 2.2 MB instead of 5.8 MB.
///
/// Layout (schema version 5):
/// - `wordBlock(block, words)`: the spellings of ids `block·64 ..< block·64 + 64`, in id order,
///   separated by line feeds (a token or a wordlist entry never holds one: the writer checks).
///   One row per 64 words instead of one row and one index entry per word: the per-row and
///   per-index-entry overhead (about 19 bytes a word) is what made the one-row-per-word table and
///   its text index 5.8 MB for en_US.
/// - `wordOrder(firstText, ids)`: every id in byte order of its spelling, 64 to a row, as
///   unsigned LEB128 varints, keyed by the row's first spelling: the index that makes text lookups
///   and prefix lookups a range scan (seek the row whose first spelling is at most the key, read
///   on). About 3 bytes a word.
/// - `wordCount(id, count, logprob, backoff)`: the unigram count (for `<s>`: the sentence count)
///   and, in language-model stores, the unigram log10 probability and backoff (units of
///   1/``logScale``), for every id whose count is not 0 or that has model values; any other id
///   has count 0 (a wordlist word no corpus showed).
/// - View `word(id, text, count[, logprob, backoff])`: the vocabulary as one row per word, for
///   humans and `sqlite3` (`SELECT * FROM word WHERE text = 'the'`); every other view joins it.
///   It unpacks the blocks with a recursive query (a priority queue on block and position, so
///   rows come out in id order): fine for inspection (a few hundred milliseconds for 160,000
///   words), not for front ends, which read the packed tables through
///   ``TrainedStore/vocabulary()``.
///
/// Columns that hold word ids (n-gram `w1`…, `word_class.word`, `hmm_emission.word`,
/// `lexicon*.wordId`, `swipeFeature.wordId`) are not declared as foreign keys: a view cannot be a
/// foreign-key parent. The writer is the only one that fills them, from the same id list.
///
/// Ids are dense: 0 `<unk>`, 1 `<s>`, 2 `</s>`, then every word by descending count (n-gram
/// stores) or by the list's frequency order (lexicon stores), so frequent words get the shortest
/// varints in the n-gram tables.
extension StoreSchema {
    /// Words per `wordBlock` and `wordOrder` row.
    public static let wordBlockSize = 64

    /// The statements that create the vocabulary tables and the `word` view.
    static func wordCreationStatements(languageModel lm: Bool) -> [String] {
        [
            """
            CREATE TABLE wordBlock (
                block INTEGER PRIMARY KEY,
                words TEXT NOT NULL
            )
            """,
            """
            CREATE TABLE wordOrder (
                firstText TEXT PRIMARY KEY NOT NULL,
                ids BLOB NOT NULL
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE wordCount (
                id INTEGER PRIMARY KEY,
                count INTEGER NOT NULL CHECK (count >= 0)\(lm ? ",\n    logprob INTEGER NOT NULL,\n    backoff INTEGER NOT NULL DEFAULT 0" : "")
            )
            """,
            """
            CREATE VIEW word(id, text, count\(lm ? ", logprob, backoff" : "")) AS
                WITH RECURSIVE split(block, n, rest, text) AS (
                    SELECT block, -1, words || char(10), NULL FROM wordBlock
                    UNION ALL
                    SELECT block, n + 1, substr(rest, instr(rest, char(10)) + 1), substr(rest, 1, instr(rest, char(10)) - 1)
                    FROM split WHERE rest <> '' ORDER BY 1, 2
                )
                SELECT id, text, coalesce((SELECT count FROM wordCount AS c WHERE c.id = w.id), 0)\(lm ? """
                ,
                       coalesce((SELECT logprob FROM wordCount AS c WHERE c.id = w.id), 0),
                       coalesce((SELECT backoff FROM wordCount AS c WHERE c.id = w.id), 0)
                """ : "")
                FROM (SELECT block * \(wordBlockSize) + n AS id, text FROM split WHERE n >= 0) AS w
            """,
        ]
    }
}

/// The vocabulary of a store read whole: spelling and count per id, and the ids in byte order of
/// their spellings (from `wordOrder`), so prefix and text lookups are binary searches.
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
    let index: [String: Int32]
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
        let block = try db.makeStatement(sql: "INSERT INTO wordBlock(block, words) VALUES (?, ?)")
        for start in stride(from: 0, to: texts.count, by: size) {
            try block.execute(arguments: [start / size, texts[start..<min(start + size, texts.count)].joined(separator: "\n")])
        }
        let bytes = texts.map { Array($0.utf8) }
        let order = texts.indices.sorted { bytes[$0].lexicographicallyPrecedes(bytes[$1]) || (bytes[$0] == bytes[$1] && $0 < $1) }
        let row = try db.makeStatement(sql: "INSERT INTO wordOrder(firstText, ids) VALUES (?, ?)")
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
            let insert = try db.makeStatement(sql: "INSERT INTO wordCount(id, count, logprob, backoff) VALUES (?, ?, ?, ?)")
            for id in texts.indices { try insert.execute(arguments: [id, counts[id], logprobs[id], backoffs[id]]) }
        } else {
            let insert = try db.makeStatement(sql: "INSERT INTO wordCount(id, count) VALUES (?, ?)")
            for id in texts.indices where counts[id] != 0 { try insert.execute(arguments: [id, counts[id]]) }
        }
    }

    /// Reads the whole vocabulary, checking it: blocks in sequence, counts and log values in
    /// range and of their declared types, every id once in `wordOrder`.
    /// - Throws: ``StoreDamage`` (``TrainedStore`` names the file) or a SQLite error.
    public static func read(_ db: Database) throws -> StoreVocabulary {
        var texts: [String] = []
        let blocks = try Row.fetchCursor(db, sql: "SELECT block, words FROM wordBlock ORDER BY block")
        while let row = try blocks.next() {
            let block = try row.integer(0, "wordBlock", "block")
            guard block == Int64(texts.count / StoreSchema.wordBlockSize), texts.count % StoreSchema.wordBlockSize == 0 else {
                throw StoreDamage("`wordBlock` \(block) is out of sequence (\(texts.count) words before it)")
            }
            let words = try row.text(1, "wordBlock", "words")
            let split = words.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
            guard split.count <= StoreSchema.wordBlockSize else {
                throw StoreDamage("`wordBlock` \(block) holds \(split.count) words, more than \(StoreSchema.wordBlockSize)")
            }
            texts += split.map { String(decoding: $0, as: UTF8.self) }
        }
        guard texts.count >= Int(StoreSchema.ReservedID.firstWord) else {
            throw StoreDamage("the vocabulary (`wordBlock`) holds \(texts.count) words, not even the reserved ones")
        }
        var counts = [Int64](repeating: 0, count: texts.count)
        var logprobs = [Int32](repeating: 0, count: texts.count), backoffs = [Int32](repeating: 0, count: texts.count)
        let lm = try db.columns(in: "wordCount").contains { $0.name == "logprob" }
        let rows = try Row.fetchCursor(db, sql: "SELECT id, count\(lm ? ", logprob, backoff" : "") FROM wordCount")
        while let row = try rows.next() {
            let id = try row.wordID(0, "wordCount", "id", words: texts.count)
            counts[id] = try row.count(1, "wordCount")
            if lm {
                logprobs[id] = Int32(truncatingIfNeeded: try row.logValue(2, "wordCount", "logprob"))
                backoffs[id] = Int32(truncatingIfNeeded: try row.logValue(3, "wordCount", "backoff"))
            }
        }
        var alphabetical: [Int32] = []
        alphabetical.reserveCapacity(texts.count)
        var listed = [Bool](repeating: false, count: texts.count)
        let orders = try Row.fetchCursor(db, sql: "SELECT ids FROM wordOrder ORDER BY firstText")
        while let row = try orders.next() {
            guard let blob = try row.optionalBlob(0, "wordOrder", "ids") else {
                throw StoreDamage("`wordOrder.ids` holds NULL where a blob belongs")
            }
            for id in WordTextCache.decode(blob) {
                guard id >= 0, id < Int64(texts.count), !listed[Int(id)] else {
                    throw StoreDamage("`wordOrder` lists id \(id) \(id >= 0 && id < Int64(texts.count) ? "twice" : "outside the \(texts.count) words")")
                }
                listed[Int(id)] = true
                alphabetical.append(Int32(id))
            }
        }
        guard alphabetical.count == texts.count else {
            throw StoreDamage("wordOrder lists \(alphabetical.count) ids for \(texts.count) words")
        }
        var total: Int64 = 0
        for count in counts.dropFirst(Int(StoreSchema.ReservedID.firstWord)) {
            let (sum, overflow) = total.addingReportingOverflow(count)
            guard !overflow else { throw StoreDamage("`wordCount.count` values add up past \(Int64.max)") }
            total = sum
        }
        var index: [String: Int32] = [:]
        index.reserveCapacity(texts.count)
        for (id, text) in texts.enumerated() where index[text] == nil { index[text] = Int32(id) }
        return StoreVocabulary(texts: texts, counts: counts, logprobs: logprobs, backoffs: backoffs, alphabetical: alphabetical,
                               index: index, wordTotal: total)
    }
}

/// Spellings read a block at a time from `wordBlock`, without loading the whole vocabulary: what
/// lexicon completion uses, so a keyboard that only completes from the list keeps its memory to
/// the blocks it touched. Blocks are kept as bytes (at most ``capacity`` of them: 4,096 blocks,
/// 262,144 words, about 2.5 MB; then it starts over; en_US is 2,512 blocks, 1.6 MB) and a
/// spelling is cut out of its block when asked for.
final class WordTextCache: @unchecked Sendable {
    let capacity: Int
    private var blocks: [Int64: [UInt8]] = [:]
    private let lock = NSLock()

    init(capacity: Int = 4_096) { self.capacity = capacity }

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
            let statement = try db.cachedStatement(sql: "SELECT words FROM wordBlock WHERE block = ?")
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
    func text(of id: Int64, _ db: Database) throws -> String? {
        try bytes(of: id, db).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The ids of the words starting with `prefix` (byte order), by range scan of `wordOrder`:
    /// the row whose first spelling is at most `prefix` (searched by bisection), then on through
    /// the following rows while their words still start with it.
    func ids(withPrefix prefix: String, _ db: Database) throws -> [Int64] {
        let key = Array(prefix.utf8)
        var result: [Int64] = []
        let first = try Data.fetchOne(db.cachedStatement(sql: "SELECT ids FROM wordOrder WHERE firstText <= ? ORDER BY firstText DESC LIMIT 1"), arguments: [prefix])
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
        let rest = try Row.fetchCursor(db.cachedStatement(sql: "SELECT firstText, ids FROM wordOrder WHERE firstText > ? ORDER BY firstText"), arguments: [prefix])
        while let row = try rest.next() {
            let firstText = try row.text(0, "wordOrder", "firstText")
            guard let ids = try row.optionalBlob(1, "wordOrder", "ids") else { throw StoreDamage("`wordOrder.ids` holds NULL where a blob belongs") }
            guard firstText.utf8.starts(with: key), try collect(Self.decode(ids), from: 0) else { break }
        }
        return result
    }

    /// The ids of a `wordOrder` row (unsigned LEB128).
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
