import GRDB
import GRDBSQLite

/// The SQL that answers a canonical predicate with the id ranges of its entries.
///
/// ``sql`` reads `vocab_bucket` (a few dozen rows) and never the entries: without prefix tests its
/// rows are the matching buckets' `(first_entry, entries)`, each an id range. With prefix tests,
/// the prefixes' boundaries (each prefix p and the first text after every text starting with p)
/// cut the expressions into intervals inside which every prefix test has one value; ``sql``
/// returns every bucket's `(id, first_entry, entries, flag…)` where flag j says whether its entries in
/// interval j match (interval 0, before the first boundary, is also the one after the last), and
/// ``spanSQL`` counts, by one range scan of `vocab_entry_by_expression` between the first and the last
/// boundary, each bucket's entries per inner interval `(bucket, interval, min(id), count)`.
/// Inside a bucket ids follow the expression, so each interval of a bucket is one id range.
public struct VocabCompiledQuery: Sendable, Hashable {
    public var sql: String
    /// Bound in order: level masks, category masks.
    public var arguments: [Int64OrText]
    /// Prefix boundaries (sorted by bytes); 0 for predicates without prefix tests.
    public var boundaries: Int
    /// The prefix span scan, nil without prefix tests.
    public var spanSQL: String?
    public var spanArguments: [Int64OrText] = []
    /// Flag columns of ``sql`` (intervals, the outer one included).
    public var flags = 1

    /// The statements, for counting distinct ones.
    public var statements: [String] { [sql] + (spanSQL.map { [$0] } ?? []) }

    /// A bound value.
    public enum Int64OrText: Sendable, Hashable {
        case int(Int64)
        case text(String)
        var databaseValue: DatabaseValue {
            switch self {
            case .int(let v): v.databaseValue
            case .text(let t): t.databaseValue
            }
        }
    }

    /// Compiles a canonical predicate; `levelBits` maps level names to their bit.
    public static func compile(_ predicate: VocabPredicate, levelBits: [String: Int], facts: VocabFacts) -> VocabCompiledQuery {
        var arguments: [Int64OrText] = []
        let prefixes = predicate.prefixes
        if prefixes.isEmpty {
            let condition = bucketCondition(predicate, levelBits: levelBits, arguments: &arguments)
            return VocabCompiledQuery(
                sql: "SELECT b.first_entry, b.entries FROM vocab_bucket b WHERE \(condition) ORDER BY b.id",
                arguments: arguments, boundaries: 0)
        }
        var bounds = Set<String>()
        for p in prefixes {
            bounds.insert(p)
            if let upper = successor(of: p) { bounds.insert(upper) }
        }
        let sortedBounds = bounds.sorted(by: VocabPredicate.byteOrder)
        let m = sortedBounds.count
        // The last boundary is open when it is a prefix without successor (ends in U+10FFFF):
        // then every text after it starts with it.
        let open = prefixes.contains(sortedBounds[m - 1]) && successor(of: sortedBounds[m - 1]) == nil
        let inner = open ? m : m - 1
        // Interval j (1...inner) starts at bound j-1; interval 0 is outside them all.
        var conditions: [String] = []
        var conditionArguments: [[Int64OrText]] = []
        for j in 0...inner {
            let start: String? = j == 0 ? nil : sortedBounds[j - 1]
            let restricted = predicate.substitutingPrefixes { p in
                guard let start else { return false }
                let upper = successor(of: p)
                return !VocabPredicate.byteOrder(start, p) && (upper.map { VocabPredicate.byteOrder(start, $0) } ?? true)
            }.folded
            var args: [Int64OrText] = []
            conditions.append(bucketCondition(restricted, levelBits: levelBits, arguments: &args))
            conditionArguments.append(args)
        }
        for args in conditionArguments { arguments += args }
        // Every bucket (a few dozen rows) with its flags; a WHERE would repeat every condition.
        let sql = "SELECT b.id, b.first_entry, b.entries, " + conditions.joined(separator: ", ") + " FROM vocab_bucket b ORDER BY b.id"
        var spanArguments: [Int64OrText] = []
        let cases = (1..<inner).map { "WHEN expression < ? THEN \($0) " }.joined()
        // Only the texts inside some prefix: outside them every prefix test is false, as in
        // interval 0. One covering range scan of the index per prefix not inside another (the
        // ranges are disjoint, so UNION ALL counts each entry once).
        let outer = prefixes.filter { p in !prefixes.contains { q in q != p && p.unicodeScalars.starts(with: q.unicodeScalars) } }
            .sorted(by: VocabPredicate.byteOrder)
        var scans: [String] = []
        for p in outer {
            spanArguments.append(.text(p))
            if let upper = successor(of: p) {
                spanArguments.append(.text(upper))
                scans.append("SELECT bucket, expression, id FROM vocab_entry WHERE expression >= ? AND expression < ?")
            } else {
                scans.append("SELECT bucket, expression, id FROM vocab_entry WHERE expression >= ?")
            }
        }
        spanArguments = (1..<inner).map { .text(sortedBounds[$0]) } + spanArguments
        let spanSQL = "SELECT bucket, " + (cases.isEmpty ? "\(inner)" : "CASE \(cases)ELSE \(inner) END")
            + " AS interval, min(id), count(*) FROM (" + scans.joined(separator: " UNION ALL ") + ") GROUP BY bucket, interval"
        var query = VocabCompiledQuery(sql: sql, arguments: arguments, boundaries: m)
        query.flags = inner + 1
        query.spanSQL = spanSQL
        query.spanArguments = spanArguments
        return query
    }

    /// The smallest text after every text that starts with `prefix` (byte order): its last
    /// scalar incremented (surrogates skipped); nil when there is none.
    public static func successor(of prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                var text = ""
                text.unicodeScalars.append(contentsOf: scalars)
                return text
            }
        }
        return nil
    }

    /// SQL over `vocab_bucket b` for a predicate without prefix tests.
    static func bucketCondition(_ p: VocabPredicate, levelBits: [String: Int], arguments: inout [Int64OrText]) -> String {
        switch p {
        case .all, .has(.expression): return "1"
        case .none, .prefix: return "0"
        case .levels(let names):
            let mask = names.reduce(Int64(0)) { mask, name in levelBits[name].map { mask | (Int64(1) << Int64($0)) } ?? mask }
            arguments.append(.int(mask))
            return "(b.levels & ?) <> 0"
        case .categories(let set):
            arguments.append(.int(set.reduce(Int64(0)) { $0 | $1.bit }))
            return "((1 << b.category) & ?) <> 0"
        case .has(.reading): return "b.has_reading"
        case .has(.meaning): return "b.has_meaning"
        case .not(let inner): return "NOT " + bucketCondition(inner, levelBits: levelBits, arguments: &arguments)
        case .and(let operands):
            return "(" + operands.map { bucketCondition($0, levelBits: levelBits, arguments: &arguments) }.joined(separator: " AND ") + ")"
        case .or(let operands):
            return "(" + operands.map { bucketCondition($0, levelBits: levelBits, arguments: &arguments) }.joined(separator: " OR ") + ")"
        }
    }
}

/// The entries a predicate matches, as id ranges: counting is a sum, picking the k-th is a
/// binary search, and nothing of the entries themselves is loaded.
public struct VocabMatches: Sendable {
    /// Disjoint id ranges in ascending order.
    public let ranges: [Range<Int64>]
    /// `ends[i]`: matching entries in `ranges[0...i]`.
    let ends: [Int64]

    init(ranges: [Range<Int64>]) {
        var merged: [Range<Int64>] = []
        for r in ranges where !r.isEmpty {
            if let last = merged.last, last.upperBound == r.lowerBound {
                merged[merged.count - 1] = last.lowerBound..<r.upperBound
            } else {
                merged.append(r)
            }
        }
        self.ranges = merged
        var total: Int64 = 0
        ends = merged.map { total += Int64($0.count); return total }
    }

    /// How many entries match.
    public var count: Int { Int(ends.last ?? 0) }

    /// The id of the k-th matching entry (0-based, ascending id order).
    /// - Complexity: O(log r) for r ranges.
    public func id(at k: Int) -> Int64 {
        precondition(k >= 0 && k < count, "index \(k) outside 0..<\(count)")
        var lo = 0, hi = ends.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if ends[mid] > Int64(k) { hi = mid } else { lo = mid + 1 }
        }
        let before = lo == 0 ? 0 : ends[lo - 1]
        return ranges[lo].lowerBound + Int64(k) - before
    }

    /// Runs a compiled query. Rows are read with raw SQLite calls (a first query steps through
    /// every bucket; GRDB's `Row` would copy each one), every value checked (``StoreDamage``).
    static func fetch(_ query: VocabCompiledQuery, _ db: Database) throws -> VocabMatches {
        var ranges: [Range<Int64>] = []
        func positive(_ handle: OpaquePointer?, _ column: Int32, _ name: String) throws -> Int64 {
            let v = try RawColumn.integer(handle, column, "`vocab_bucket`.\(name)")
            guard v >= 1, v <= Int64(Int32.max) else { throw StoreDamage("`vocab_bucket.\(name)` holds \(v), outside 1...\(Int32.max)") }
            return v
        }
        guard let spanSQL = query.spanSQL else {
            try step(db, query.sql, query.arguments) { handle in
                let first = try positive(handle, 0, "first_entry")
                ranges.append(first..<(first + (try positive(handle, 1, "entries"))))
            }
            return VocabMatches(ranges: ranges)
        }
        let m = query.flags
        // Per bucket, its entries in each inner interval: (interval, first id, count).
        var spans: [Int64: [(interval: Int, first: Int64, count: Int64)]] = [:]
        try step(db, spanSQL, query.spanArguments) { handle in
            let bucket = try RawColumn.integer(handle, 0, "`vocab_entry`.bucket")
            let interval = try RawColumn.integer(handle, 1, "the interval of a `vocab_entry` span")
            guard interval >= 1, interval < Int64(m) else { throw StoreDamage("a `vocab_entry` span falls in interval \(interval), outside 1...\(m - 1)") }
            let first = try RawColumn.integer(handle, 2, "`vocab_entry`.id")
            let n = try RawColumn.integer(handle, 3, "the count of a `vocab_entry` span")
            guard n >= 1, n <= Int64(Int32.max) else { throw StoreDamage("a `vocab_entry` span counts \(n) entries") }
            spans[bucket, default: []].append((Int(interval), first, n))
        }
        var flags = [Bool](repeating: false, count: m)
        try step(db, query.sql, query.arguments) { handle in
            let bucket = try RawColumn.integer(handle, 0, "`vocab_bucket`.id")
            let first = try positive(handle, 1, "first_entry")
            let end = first + (try positive(handle, 2, "entries"))
            var any = false
            for j in 0..<m {
                let v = try RawColumn.integer(handle, Int32(3 + j), "a `vocab_bucket` condition")
                guard v == 0 || v == 1 else { throw StoreDamage("a `vocab_bucket` condition is \(v), not 0 or 1 (a damaged column type?)") }
                flags[j] = v != 0
                any = any || flags[j]
            }
            guard any else { return }
            guard let inner = spans[bucket]?.sorted(by: { $0.interval < $1.interval }) else {
                if flags[0] { ranges.append(first..<end) }
                return
            }
            // Between and around the scanned intervals: texts outside every prefix (interval 0).
            var cursor = first
            for span in inner {
                // `end - span.count`, not `span.first + span.count`: a damaged id may be near Int64.max.
                guard span.first >= cursor, span.first <= end - span.count else {
                    throw StoreDamage("`vocab_entry` ids of bucket \(bucket) do not follow the expressions (id \(span.first) in interval \(span.interval))")
                }
                if flags[0] { ranges.append(cursor..<span.first) }
                if flags[span.interval] { ranges.append(span.first..<(span.first + span.count)) }
                cursor = span.first + span.count
            }
            if flags[0] { ranges.append(cursor..<end) }
        }
        return VocabMatches(ranges: ranges.sorted { $0.lowerBound < $1.lowerBound })
    }

    /// Steps a cached statement with these arguments, calling `row` with the handle on each row.
    private static func step(_ db: Database, _ sql: String, _ arguments: [VocabCompiledQuery.Int64OrText],
                             _ row: (OpaquePointer?) throws -> Void) throws {
        let handle = try db.cachedStatement(sql: sql).sqliteStatement
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        for (i, argument) in arguments.enumerated() {
            switch argument {
            case .int(let v): sqlite3_bind_int64(handle, Int32(i + 1), v)
            case .text(let t): sqlite3_bind_text(handle, Int32(i + 1), t, -1, transient)
            }
        }
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_ROW: try row(handle)
            case SQLITE_DONE: return
            case let status:
                throw RawColumn.error(db, status)
            }
        }
    }
}


/// SQLite's SQLITE_TRANSIENT: the bound text is copied before `sqlite3_bind_text` returns.
private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
