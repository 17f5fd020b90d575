#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB
import GRDBSQLite
import LexiforgeReader

/// Writes a ``Lexicon`` into the `lexicon*` tables (layout: ``StoreSchema/lexiconCreationStatements()``).
///
/// In: the lexicon and the store's `word` list (ids = positions), inside the writer's transaction.
/// Out: the frequency runs, a `lexicon_detail` row per uncommon entry, the side tables, the folded keys of words that
/// need one, and the derived `lexicon_prefix` top lists. Raw prepared statements with integer binds:
/// 160,000 entries take a fraction of a second.
enum LexiconRows {
    static func insert(_ lexicon: Lexicon, words: [String], wordClasses: Bool, db: Database) throws {
        for sql in StoreSchema.lexiconCreationStatements(wordClasses: wordClasses) { try db.execute(sql: sql) }
        // Ids by word. Usually entry i sits at id firstWord + i (an import) and no lookup is needed;
        // the table is built only when that guess fails or a bigram needs its target's id.
        var idTable: [String: Int64]?
        func idOf(_ word: String) -> Int64? {
            if idTable == nil {
                var table: [String: Int64] = [:]
                table.reserveCapacity(words.count)
                for (id, w) in words.enumerated() { table[w] = Int64(id) }
                idTable = table
            }
            return idTable![word]
        }
        var ids: [Int64] = []
        ids.reserveCapacity(lexicon.entries.count)
        let first = Int(StoreSchema.ReservedID.firstWord)
        for (i, entry) in lexicon.entries.enumerated() {
            if first + i < words.count, words[first + i] == entry.word {
                ids.append(Int64(first + i))
            } else if let id = idOf(entry.word) {
                ids.append(id)
            } else {
                throw DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "lexicon word `\(entry.word)` has no word id")
            }
        }
        let order = ids.indices.sorted { ids[$0] < ids[$1] }

        let scale = try RawStatement(db, "INSERT INTO lexicon_scale(frequency, probability) VALUES (?, ?)")
        for f in CombinedRange.frequencies {
            scale.int(1, Int64(f)); scale.double(2, LexiconEntry.probability(ofFrequency: f))
            try scale.step()
        }
        for (list, header) in lexicon.headers.enumerated() {
            let statement = try RawStatement(db, "INSERT INTO lexicon_header(list, position, key, value) VALUES (?, ?, ?, ?)")
            for (position, attribute) in header.enumerated() {
                statement.int(1, Int64(list)); statement.int(2, Int64(position))
                statement.text(3, attribute.key); statement.text(4, attribute.value)
                try statement.step()
            }
        }

        // Frequencies as runs over ids (NULL: no entry), then the uncommon entries' details.
        var frequencyOf = [Int?](repeating: nil, count: words.count)
        for (index, id) in ids.enumerated() { frequencyOf[Int(id)] = lexicon.entries[index].frequency }
        let run = try RawStatement(db, "INSERT INTO lexicon_frequency(first_id, frequency) VALUES (?, ?)")
        for id in frequencyOf.indices where id == 0 || frequencyOf[id] != frequencyOf[id - 1] {
            run.int(1, Int64(id))
            if let f = frequencyOf[id] { run.int(2, Int64(f)) } else { run.null(2) }
            try run.step()
        }
        let main = try RawStatement(db, "INSERT INTO lexicon_detail(word_id, original_frequency, flags, attributes) VALUES (?, ?, ?, ?)")
        let key = try RawStatement(db, "INSERT INTO lexicon_key(word_id, position, key, value) VALUES (?, ?, ?, ?)")
        let shortcut = try RawStatement(db, "INSERT INTO lexicon_shortcut(word_id, position, target, frequency, extra) VALUES (?, ?, ?, ?, ?)")
        let bigram = try RawStatement(db, "INSERT INTO lexicon_bigram(word_id, position, next_word_id, frequency, extra) VALUES (?, ?, ?, ?, ?)")
        let childLine = try RawStatement(db, "INSERT INTO lexicon_child_line(word_id, position, line) VALUES (?, ?, ?)")
        for index in order {
            let entry = lexicon.entries[index]
            let id = ids[index]
            if StoreSchema.lexiconNeedsDetail(entry) {
                main.int(1, id)
                // NULL when equal to frequency: the view and the reader restore it.
                if let original = entry.originalFrequency, original != entry.frequency { main.int(2, Int64(original)) } else { main.null(2) }
                if let flags = entry.flags { main.text(3, flags) } else { main.null(3) }
                var attributes = entry.attributes
                if entry.originalFrequency == nil { attributes.insert(.noOriginalFrequency) } else { attributes.remove(.noOriginalFrequency) }
                main.int(4, Int64(attributes.rawValue))
                try main.step()
            }
            for extra in entry.extraKeys {
                key.int(1, id); key.int(2, Int64(extra.position)); key.text(3, extra.key); key.text(4, extra.value)
                try key.step()
            }
            for (position, child) in entry.children.enumerated() {
                switch child {
                case .shortcut(let target, let frequency, let extra):
                    shortcut.int(1, id); shortcut.int(2, Int64(position)); shortcut.text(3, target)
                    if let frequency { shortcut.int(4, Int64(frequency)) } else { shortcut.null(4) }
                    if let extra { shortcut.text(5, extra) } else { shortcut.null(5) }
                    try shortcut.step()
                case .bigram(let next, let frequency, let extra):
                    guard let nextID = idOf(next) else {
                        throw DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "bigram target `\(next)` has no word id")
                    }
                    bigram.int(1, id); bigram.int(2, Int64(position)); bigram.int(3, nextID); bigram.int(4, Int64(frequency))
                    if let extra { bigram.text(5, extra) } else { bigram.null(5) }
                    try bigram.step()
                case .other(let line):
                    childLine.int(1, id); childLine.int(2, Int64(position)); childLine.text(3, line)
                    try childLine.step()
                }
            }
        }

        // Folded keys and the top completions of hot prefixes.
        let index = PrefixIndex(entries: lexicon.entries, ids: ids)
        let folded = try RawStatement(db, "INSERT INTO lexicon_folded(key, word_id) VALUES (?, ?)")
        for (keyText, id) in index.foldedRows {
            folded.text(1, keyText); folded.int(2, id)
            try folded.step()
        }
        let prefix = try RawStatement(db, "INSERT INTO lexicon_prefix(prefix, rank, word_id) VALUES (?, ?, ?)")
        for (prefixText, top) in index.topLists {
            for (rank, id) in top.enumerated() {
                prefix.text(1, prefixText); prefix.int(2, Int64(rank)); prefix.int(3, id)
                try prefix.step()
            }
        }
    }
}

enum CombinedRange {
    static let frequencies = 0...255
}

/// The derived completion structures of a lexicon (see ``StoreSchema/lexiconPrefixThreshold``).
///
/// Completion candidates are entries that are not `not_a_word` and whose frequency is above 0
/// (f = 0 marks blocked entries), ranked by frequency (descending), then id.
struct PrefixIndex {
    /// (folded key, word id) for words not findable through a spelling of their folded key, sorted.
    var foldedRows: [(String, Int64)] = []
    /// (folded prefix, top ids by rank) for prefixes matching more than the threshold, sorted by prefix.
    var topLists: [(String, [Int64])] = []

    init(entries: [LexiconEntry], ids: [Int64], threshold: Int = StoreSchema.lexiconPrefixThreshold, top: Int = StoreSchema.lexiconPrefixTop) {
        // Folded keys of the completable entries, packed in one arena (sorting compares with memcmp).
        var arena: [UInt8] = []
        arena.reserveCapacity(entries.count * 10)
        var starts: [Int] = [0]
        var rankKey: [(frequency: Int, id: Int64)] = []
        for (i, entry) in entries.enumerated() {
            let folded = LexiconKey.fold(entry.word)
            if folded != entry.word && LexiconKey.needsFoldedRow(word: entry.word, folded: folded) { foldedRows.append((folded, ids[i])) }
            guard !entry.attributes.contains(.notAWord), entry.frequency > 0 else { continue }
            arena.append(contentsOf: folded.utf8)
            starts.append(arena.count)
            rankKey.append((entry.frequency, ids[i]))
        }
        foldedRows.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) || ($0.0 == $1.0 && $0.1 < $1.1) }
        let count = rankKey.count
        var sorted = Array(0..<count)
        arena.withUnsafeBufferPointer { a in
            let base = a.baseAddress ?? UnsafePointer(bitPattern: 1)!
            sorted.sort { x, y in
                let lx = starts[x + 1] - starts[x], ly = starts[y + 1] - starts[y]
                let c = memcmp(base + starts[x], base + starts[y], min(lx, ly))
                return c != 0 ? c < 0 : lx < ly
            }
        }
        @inline(__always) func length(_ k: Int) -> Int { starts[k + 1] - starts[k] }
        @inline(__always) func byte(_ k: Int, _ depth: Int) -> UInt8 { arena[starts[k] + depth] }
        // Depth-first over the trie of folded keys: a node with more than `threshold` words gets its
        // top list and is split further; smaller nodes are left to range scans.
        var stack: [(range: Range<Int>, depth: Int)] = [(0..<sorted.count, 0)]
        var lists: [(String, [Int64])] = []
        // Rank of every completable entry (0 = most frequent); a node's top list is its `top` smallest ranks.
        var byRank = Array(0..<count)
        byRank.sort { rankKey[$0].frequency != rankKey[$1].frequency ? rankKey[$0].frequency > rankKey[$1].frequency : rankKey[$0].id < rankKey[$1].id }
        var rankOf = [Int](repeating: 0, count: count)
        for (rank, k) in byRank.enumerated() { rankOf[k] = rank }
        func best(_ members: ArraySlice<Int>) -> [Int64] {
            var chosen: [Int] = []   // ranks, ascending
            chosen.reserveCapacity(top + 1)
            for k in members {
                let rank = rankOf[k]
                if chosen.count == top, rank >= chosen[top - 1] { continue }
                var at = chosen.count
                while at > 0 && chosen[at - 1] > rank { at -= 1 }
                chosen.insert(rank, at: at)
                if chosen.count > top { chosen.removeLast() }
            }
            return chosen.map { rankKey[byRank[$0]].id }
        }
        if count > threshold { lists.append(("", best(sorted[...]))) }
        while let (range, depth) = stack.popLast() {
            var start = range.lowerBound
            while start < range.upperBound {
                // Skip keys that end at this depth (they belong to the parent node only).
                guard length(sorted[start]) > depth else { start += 1; continue }
                let first = byte(sorted[start], depth)
                var end = start + 1
                while end < range.upperBound, length(sorted[end]) > depth, byte(sorted[end], depth) == first { end += 1 }
                if end - start > threshold {
                    let prefixBytes = arena[starts[sorted[start]]...(starts[sorted[start]] + depth)]
                    if let prefix = String(validating: prefixBytes, as: UTF8.self) {
                        lists.append((prefix, best(sorted[start..<end])))
                    }
                    stack.append((start..<end, depth + 1))
                }
                start = end
            }
        }
        lists.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        topLists = lists
    }
}

/// A prepared statement driven through the C API: bind, step, reset (the bulk-load hot loop).
final class RawStatement {
    let handle: OpaquePointer
    let db: Database

    init(_ db: Database, _ sql: String) throws {
        let statement = try db.makeStatement(sql: sql)
        self.handle = statement.sqliteStatement
        self.db = db
        self.keep = statement
    }
    private let keep: Statement
    nonisolated(unsafe) static let empty: UnsafePointer<CChar> = {
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
        p.pointee = 0
        return UnsafePointer(p)
    }()

    @inline(__always) func int(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
    @inline(__always) func double(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }
    @inline(__always) func null(_ index: Int32) { sqlite3_bind_null(handle, index) }
    @inline(__always) func text(_ index: Int32, _ value: String) {
        var value = value
        value.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                // An empty string has no base address; bind a zero-length text from a static "".
                _ = sqlite3_bind_text(handle, index, chars.baseAddress ?? RawStatement.empty, Int32(chars.count),
                                      unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
        }
    }

    func step() throws {
        let status = sqlite3_step(handle)
        guard status == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
            sqlite3_reset(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: status), message: message)
        }
        sqlite3_reset(handle)
    }
}
