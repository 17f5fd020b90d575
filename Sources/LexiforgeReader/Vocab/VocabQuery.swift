import GRDB

/// One SQL statement that answers a canonical predicate with the id ranges of its entries.
///
/// The statement reads `vocabBucket` (a few dozen rows) and, for predicates with text prefixes,
/// seeks `vocabEntryByBucket` twice per prefix and bucket; it never reads the entries it
/// matches. Its rows are `(firstEntry, entries, position…, flag…)`: with prefixes, the prefix
/// boundaries cut each bucket's id range into intervals (positions: the first id at or after
/// each boundary) inside which every prefix test has one value, and flag i says whether the
/// bucket's entries in interval i match.
public struct VocabCompiledQuery: Sendable, Hashable {
    public var sql: String
    /// Bound in order: level masks, category masks, boundary texts.
    public var arguments: [Int64OrText]
    /// Prefix boundaries (sorted by bytes); 0 for predicates without prefix tests.
    public var boundaries: Int

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
                sql: "SELECT b.firstEntry, b.entries FROM vocabBucket b WHERE \(condition) ORDER BY b.id",
                arguments: arguments, boundaries: 0)
        }
        // Boundaries: each prefix p and the first text after every text starting with p.
        var bounds = Set<String>()
        for p in prefixes {
            bounds.insert(p)
            if let upper = successor(of: p) { bounds.insert(upper) }
        }
        let sortedBounds = bounds.sorted(by: VocabPredicate.byteOrder)
        var columns: [String] = []
        for bound in sortedBounds {
            columns.append("(SELECT e.id FROM vocabEntry e WHERE e.bucket = b.id AND e.expression >= ? ORDER BY e.expression, e.id LIMIT 1)")
            arguments.append(.text(bound))
        }
        // Interval i starts at boundary i - 1 (interval 0 before the first boundary).
        var conditions: [String] = []
        var conditionArguments: [[Int64OrText]] = []
        for i in 0...sortedBounds.count {
            let start: String? = i == 0 ? nil : sortedBounds[i - 1]
            let restricted = predicate.substitutingPrefixes { p in
                guard let start else { return false }
                let upper = successor(of: p)
                return !VocabPredicate.byteOrder(start, p) && (upper.map { VocabPredicate.byteOrder(start, $0) } ?? true)
            }.canonical(in: facts)
            var args: [Int64OrText] = []
            conditions.append(bucketCondition(restricted, levelBits: levelBits, arguments: &args))
            conditionArguments.append(args)
        }
        for args in conditionArguments { arguments += args }
        for args in conditionArguments { arguments += args }
        let sql = "SELECT b.firstEntry, b.entries, " + columns.joined(separator: ", ") + ", "
            + conditions.joined(separator: ", ") + " FROM vocabBucket b WHERE "
            + conditions.map { "(\($0))" }.joined(separator: " OR ") + " ORDER BY b.id"
        return VocabCompiledQuery(sql: sql, arguments: arguments, boundaries: sortedBounds.count)
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

    /// SQL over `vocabBucket b` for a predicate without prefix tests.
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
        case .has(.reading): return "b.hasReading"
        case .has(.meaning): return "b.hasMeaning"
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

    /// Runs a compiled query.
    static func fetch(_ query: VocabCompiledQuery, _ db: Database) throws -> VocabMatches {
        let statement = try db.cachedStatement(sql: query.sql)
        let rows = try Row.fetchAll(statement, arguments: StatementArguments(query.arguments.map(\.databaseValue)))
        var ranges: [Range<Int64>] = []
        let m = query.boundaries
        for row in rows {
            let first = try row.integer(0, "vocabBucket", "firstEntry", in: 1...Int64(Int32.max))
            let n = try row.integer(1, "vocabBucket", "entries", in: 1...Int64(Int32.max))
            let end = first + n
            if m == 0 {
                ranges.append(first..<end)
                continue
            }
            var cuts = [first]
            for j in 0..<m {
                let position = try row.optionalInt(2 + j, "vocabEntry", "id", in: first...end).map(Int64.init) ?? end
                cuts.append(max(position, cuts[cuts.count - 1]))
            }
            cuts.append(end)
            for i in 0...m where try row.integer(2 + m + i, "vocabBucket", "condition", in: 0...1) != 0 {
                ranges.append(cuts[i]..<cuts[i + 1])
            }
        }
        return VocabMatches(ranges: ranges)
    }
}
