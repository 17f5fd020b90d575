import Foundation
import GRDB
import GRDBSQLite

/// One entry of a vocabulary store.
public struct VocabEntry: Sendable, Hashable, CustomStringConvertible {
    public var id: Int64
    public var expression: String
    public var reading: String?
    public var meaning: String?
    /// Level names, in the store's level order.
    public var levels: [String]
    public var category: VocabCategory
    /// The list's other tags, space-separated.
    public var tags: String?

    public init(id: Int64, expression: String, reading: String?, meaning: String?, levels: [String], category: VocabCategory, tags: String? = nil) {
        self.id = id
        self.expression = expression
        self.reading = reading
        self.meaning = meaning
        self.levels = levels
        self.category = category
        self.tags = tags
    }

    public var description: String {
        "\(expression)\t\(reading ?? "-")\t\(meaning ?? "-")\t\(levels.joined(separator: " "))\t\(category.name)"
    }

    /// Whether the entry satisfies `predicate` (brute force).
    public func matches(_ predicate: VocabPredicate) -> Bool {
        predicate.matches(levels: Set(levels), category: category, expression: expression, reading: reading, meaning: meaning)
    }
}

/// A read-only vocabulary store: counts, uniform random picks and multiple-choice distractors for
/// any ``VocabPredicate``, without loading the matching rows.
///
/// ```swift
/// let store = try VocabularyStore(path: "Artifacts/jlpt.sqlite")
/// var rng = SplitMix64(seed: 1)
/// let question = try store.random(matching: .and([.levels(["N3"]), .categories([.kanji])]), using: &rng)
/// let wrong = try store.distractors(for: question!, count: 3, using: &rng)
/// ```
/// Every predicate is canonicalized with what the store knows (its levels, which fields are
/// never NULL), compiled to one SQL statement over the small `vocab_bucket` table, and its answer
/// (id ranges, ``VocabMatches``) cached by canonical form (``cacheCapacity`` forms, least
/// recently added dropped first). A pick is then a binary search and one primary-key read.
public final class VocabularyStore: @unchecked Sendable {
    public let path: String
    let queue: DatabaseQueue
    public let meta: [String: String]
    /// Level names by bit.
    public let levels: [String]
    let levelBits: [String: Int]
    /// What the rows are like (for canonicalization).
    public let facts: VocabFacts
    /// Entries in the store.
    public let entryCount: Int
    /// The `vocab_bucket` rows in id order (read once, checked, at opening).
    let buckets: [Bucket]

    /// A bucket: the entries of one level set, category and pair of present fields.
    struct Bucket: Sendable {
        var levels: Int64
        var category: VocabCategory
        var hasReading: Bool, hasMeaning: Bool
        var entries: Int
    }
    /// Canonical forms whose answers are kept.
    public static let cacheCapacity = 256

    private let lock = NSLock()
    private var cache: [VocabPredicate: VocabMatches] = [:]
    private var cacheOrder: [VocabPredicate] = []
    private var canonicalForms: [VocabPredicate: VocabPredicate] = [:]
    private var statementsRun = Set<String>()
    private var hits = 0, misses = 0

    public init(path: String) throws {
        queue = try TrainedStore.openReadOnly(path: path)
        self.path = path
        do {
            let loaded = try queue.inDatabase { db -> (meta: [String: String], levels: [String], facts: VocabFacts, buckets: [Bucket])? in
                var meta: [String: String] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT key, value FROM meta") {
                    meta[try row.text(0, "meta", "key")] = try row.text(1, "meta", "value")
                }
                let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
                guard StoreSchema.Vocab.tables.allSatisfy(tables.contains) else { return nil }
                guard meta[StoreSchema.Vocab.MetaKey.schema] == String(StoreSchema.Vocab.version) else {
                    throw StoreError.badMeta(path, key: StoreSchema.Vocab.MetaKey.schema, value: meta[StoreSchema.Vocab.MetaKey.schema],
                                             expected: "\(StoreSchema.Vocab.version) (rebuild the store with `lexiforge vocab import`)")
                }
                var levels: [String] = []
                for row in try Row.fetchAll(db, sql: "SELECT id, name FROM vocab_level ORDER BY id") {
                    let id = try row.int(0, "vocab_level", "id", in: 0...Int64(StoreSchema.Vocab.maxLevels - 1))
                    guard id == levels.count else { throw StoreDamage("`vocab_level.id` \(id) is not dense (expected \(levels.count))") }
                    let name = try row.text(1, "vocab_level", "name")
                    // The schema declares names UNIQUE, but SQLite does not check a damaged index on reading.
                    if let earlier = levels.firstIndex(of: name) {
                        throw StoreDamage("`vocab_level.name` \"\(name)\" is the name of levels \(earlier) and \(id)")
                    }
                    levels.append(name)
                }
                var buckets: [Bucket] = []
                var next: Int64 = 1
                for row in try Row.fetchAll(db, sql: "SELECT levels, category, has_reading, has_meaning, first_entry, entries FROM vocab_bucket ORDER BY id") {
                    let mask = try row.integer(0, "vocab_bucket", "levels", in: 0...((1 << Int64(levels.count)) - 1))
                    let category = try row.int(1, "vocab_bucket", "category", in: 0...Int64(VocabCategory.allCases.count - 1))
                    let reading = try row.integer(2, "vocab_bucket", "has_reading", in: 0...1) == 1
                    let meaning = try row.integer(3, "vocab_bucket", "has_meaning", in: 0...1) == 1
                    let first = try row.integer(4, "vocab_bucket", "first_entry", in: 1...Int64(Int32.max))
                    let n = try row.integer(5, "vocab_bucket", "entries", in: 1...Int64(Int32.max))
                    guard first == next else { throw StoreDamage("`vocab_bucket` ranges are not contiguous (first_entry \(first), expected \(next))") }
                    next = first + n
                    buckets.append(Bucket(levels: mask, category: VocabCategory(rawValue: category)!, hasReading: reading, hasMeaning: meaning, entries: Int(n)))
                }
                var neverNull: Set<VocabField> = [.expression]
                if buckets.allSatisfy(\.hasReading) { neverNull.insert(.reading) }
                if buckets.allSatisfy(\.hasMeaning) { neverNull.insert(.meaning) }
                let facts = VocabFacts(levels: Set(levels), everyEntryHasLevel: buckets.allSatisfy { $0.levels != 0 }, neverNull: neverNull)
                return (meta, levels, facts, buckets)
            }
            guard let loaded else {
                throw StoreError.notAStore(path, "no vocabulary tables; build one with `lexiforge vocab import LIST... -o \(path)`")
            }
            meta = loaded.meta
            levels = loaded.levels
            facts = loaded.facts
            buckets = loaded.buckets
            entryCount = loaded.buckets.reduce(0) { $0 + $1.entries }
        } catch let error as StoreDamage {
            throw StoreError.damaged(path, error.what)
        } catch let error as DatabaseError {
            throw StoreError.damaged(path, error.message ?? error.description)
        }
        levelBits = Dictionary(uniqueKeysWithValues: levels.enumerated().map { ($1, $0) })
    }

    /// The predicate's canonical form in this store (the cache key). Remembered per predicate
    /// as given, so asking again with an equal value skips the rewriting.
    public func canonical(_ predicate: VocabPredicate) -> VocabPredicate {
        lock.lock()
        if let known = canonicalForms[predicate] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let form = predicate.canonical(in: facts)
        lock.lock()
        defer { lock.unlock() }
        if canonicalForms.count >= 4 * Self.cacheCapacity { canonicalForms = [:] }
        canonicalForms[predicate] = form
        return form
    }

    /// The SQL statement a predicate is answered with.
    public func compiled(_ predicate: VocabPredicate) -> VocabCompiledQuery {
        VocabCompiledQuery.compile(canonical(predicate), levelBits: levelBits, facts: facts)
    }

    /// The entries matching `predicate`, as id ranges (cached by canonical form).
    public func matches(_ predicate: VocabPredicate) throws -> VocabMatches {
        let key = canonical(predicate)
        lock.lock()
        if let found = cache[key] {
            hits += 1
            lock.unlock()
            return found
        }
        lock.unlock()
        let query = VocabCompiledQuery.compile(key, levelBits: levelBits, facts: facts)
        let found: VocabMatches
        do {
            found = try queue.inDatabase { db in try VocabMatches.fetch(query, db) }
        } catch let error as StoreDamage {
            throw StoreError.damaged(path, error.what)
        }
        lock.lock()
        defer { lock.unlock() }
        misses += 1
        statementsRun.insert(query.sql)
        if cache[key] == nil {
            if cacheOrder.count >= Self.cacheCapacity { cache[cacheOrder.removeFirst()] = nil }
            cache[key] = found
            cacheOrder.append(key)
        }
        return found
    }

    /// How many entries match.
    public func count(matching predicate: VocabPredicate) throws -> Int { try matches(predicate).count }

    /// An entry picked uniformly among those matching, or nil when none does.
    /// - Complexity: O(log r) over the cached ranges plus one primary-key read.
    public func random<G: RandomNumberGenerator>(matching predicate: VocabPredicate, using generator: inout G) throws -> VocabEntry? {
        let found = try matches(predicate)
        guard found.count > 0 else { return nil }
        let id = found.id(at: Int.random(in: 0..<found.count, using: &generator))
        guard let picked = try entry(id: id) else {
            throw StoreError.damaged(path, "entry \(id) lies in a `vocab_bucket` range but is missing from `vocab_entry`")
        }
        return picked
    }

    /// Up to `count` distinct entries for the wrong answers of a multiple-choice question on
    /// `entry`: the same category, a level in common, matching `predicate`, and an expression,
    /// reading and meaning different from the entry's and from each other's. Fewer when the
    /// store has fewer.
    public func distractors<G: RandomNumberGenerator>(
        for entry: VocabEntry, count: Int, matching predicate: VocabPredicate = .all, using generator: inout G
    ) throws -> [VocabEntry] {
        guard count > 0 else { return [] }
        let pool = try matches(.and([predicate, .categories([entry.category]), .levels(Set(entry.levels))]))
        var chosen: [VocabEntry] = []
        func acceptable(_ c: VocabEntry) -> Bool {
            ([entry] + chosen).allSatisfy { other in
                c.id != other.id && c.expression != other.expression
                    && (c.reading == nil || c.reading != other.reading) && (c.meaning == nil || c.meaning != other.meaning)
            }
        }
        var tried = Set<Int>()
        // Random draws first (the pool is usually far larger than the answer); then the rest in random order.
        var attempts = 0
        while chosen.count < count && attempts < 8 * count + 16 && tried.count < pool.count {
            attempts += 1
            let k = Int.random(in: 0..<pool.count, using: &generator)
            guard tried.insert(k).inserted, let candidate = try self.entry(id: pool.id(at: k)) else { continue }
            if acceptable(candidate) { chosen.append(candidate) }
        }
        if chosen.count < count && tried.count < pool.count {
            guard pool.count <= 100_000 else { return chosen }
            for k in (0..<pool.count).shuffled(using: &generator) where !tried.contains(k) {
                guard let candidate = try self.entry(id: pool.id(at: k)) else { continue }
                if acceptable(candidate) { chosen.append(candidate) }
                if chosen.count == count { break }
            }
        }
        return chosen
    }

    static let entrySQL = """
        SELECT e.expression, e.reading, e.meaning, e.tags, b.levels, b.category
        FROM vocab_entry e JOIN vocab_bucket b ON b.id = e.bucket WHERE e.id = ?
        """

    /// The entry with this id, or nil.
    /// - Complexity: two primary-key reads (the entry, its bucket), with raw SQLite calls.
    public func entry(id: Int64) throws -> VocabEntry? {
        do {
            return try queue.inDatabase { db in
                let handle = try db.cachedStatement(sql: Self.entrySQL).sqliteStatement
                defer { sqlite3_reset(handle) }
                sqlite3_bind_int64(handle, 1, id)
                let status = sqlite3_step(handle)
                if status == SQLITE_DONE { return nil }
                guard status == SQLITE_ROW else {
                    throw RawColumn.error(db, status)
                }
                func text(_ i: Int32, _ column: String) throws -> String? {
                    switch sqlite3_column_type(handle, i) {
                    case SQLITE_NULL where column != "expression": return nil
                    case SQLITE_TEXT:
                        guard let bytes = sqlite3_column_text(handle, i) else { return "" }
                        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, i))), as: UTF8.self)
                    default: throw StoreDamage("`vocab_entry.\(column)` of entry \(id) is not text")
                    }
                }
                func integer(_ i: Int32, _ column: String, in range: ClosedRange<Int64>) throws -> Int64 {
                    let v = sqlite3_column_int64(handle, i)
                    guard sqlite3_column_type(handle, i) == SQLITE_INTEGER, range.contains(v) else {
                        throw StoreDamage("`vocab_bucket.\(column)` of entry \(id)'s bucket is not an integer in \(range)")
                    }
                    return v
                }
                let mask = try integer(4, "levels", in: 0...((1 << Int64(levels.count)) - 1))
                let code = try integer(5, "category", in: 0...Int64(VocabCategory.allCases.count - 1))
                return VocabEntry(
                    id: id, expression: try text(0, "expression") ?? "", reading: try text(1, "reading"), meaning: try text(2, "meaning"),
                    levels: levels.indices.filter { mask & (1 << Int64($0)) != 0 }.map { levels[$0] },
                    category: VocabCategory(rawValue: Int(code))!, tags: try text(3, "tags"))
            }
        } catch let error as StoreDamage {
            throw StoreError.damaged(path, error.what)
        }
    }

    /// An entry from a row of ``entrySQL``'s columns starting at column `o`.
    func entry(id: Int64, row: Row, at o: Int = 0) throws -> VocabEntry {
        let mask = try row.integer(o + 4, "vocab_bucket", "levels", in: 0...((1 << Int64(levels.count)) - 1))
        let code = try row.int(o + 5, "vocab_bucket", "category", in: 0...Int64(VocabCategory.allCases.count - 1))
        return VocabEntry(
            id: id, expression: try row.text(o, "vocab_entry", "expression"),
            reading: try row.optionalText(o + 1, "vocab_entry", "reading"), meaning: try row.optionalText(o + 2, "vocab_entry", "meaning"),
            levels: levels.indices.filter { mask & (1 << Int64($0)) != 0 }.map { levels[$0] },
            category: VocabCategory(rawValue: code)!, tags: try row.optionalText(o + 3, "vocab_entry", "tags"))
    }

    /// Every entry in id order (for tools and tests; a front end never needs this).
    public func allEntries() throws -> [VocabEntry] {
        do {
            return try queue.inDatabase { db in
                try Row.fetchAll(db, sql: """
                    SELECT e.id, e.expression, e.reading, e.meaning, e.tags, b.levels, b.category
                    FROM vocab_entry e JOIN vocab_bucket b ON b.id = e.bucket ORDER BY e.id
                    """).map { row in try entry(id: try row.integer(0, "vocab_entry", "id"), row: row, at: 1) }
            }
        } catch let error as StoreDamage {
            throw StoreError.damaged(path, error.what)
        }
    }

    /// What `lexiforge inspect` prints about a vocabulary store: entries per level and
    /// category, present fields, buckets, and rows and bytes per table.
    public struct Summary: Sendable {
        public var entries: Int
        public var buckets: Int
        /// Entries at each level (a word at several levels counts at each), in level order.
        public var levels: [(name: String, entries: Int)]
        public var categories: [(category: VocabCategory, entries: Int)]
        public var withReading: Int
        public var withMeaning: Int
        public var tables: [TableStatistics]
    }

    /// The store's ``Summary`` (from the buckets read at opening, and SQLite's `dbstat`; for tools).
    public func summary() throws -> Summary {
        var levelCounts = [Int](repeating: 0, count: levels.count)
        var categoryCounts = [Int](repeating: 0, count: VocabCategory.allCases.count)
        for bucket in buckets {
            for bit in levels.indices where bucket.levels & (1 << Int64(bit)) != 0 { levelCounts[bit] += bucket.entries }
            categoryCounts[bucket.category.rawValue] += bucket.entries
        }
        do {
            return Summary(
                entries: entryCount, buckets: buckets.count, levels: zip(levels, levelCounts).map { ($0, $1) },
                categories: VocabCategory.allCases.map { ($0, categoryCounts[$0.rawValue]) },
                withReading: buckets.filter(\.hasReading).reduce(0) { $0 + $1.entries },
                withMeaning: buckets.filter(\.hasMeaning).reduce(0) { $0 + $1.entries },
                tables: try queue.inDatabase { db in try TableStatistics.fetchAll(db) })
        } catch let error as StoreDamage {
            throw StoreError.damaged(path, error.what)
        } catch let error as DatabaseError {
            throw StoreError.damaged(path, error.message ?? error.description)
        }
    }

    /// Cache use since the store was opened: hits, misses, and the distinct SQL statements run.
    public var cacheStatistics: (hits: Int, misses: Int, statements: Set<String>) {
        lock.lock()
        defer { lock.unlock() }
        return (hits, misses, statementsRun)
    }

    /// Empties the cache (benchmarks measure first queries with it).
    public func clearCache() {
        lock.lock()
        defer { lock.unlock() }
        cache = [:]
        cacheOrder = []
        canonicalForms = [:]
    }
}
