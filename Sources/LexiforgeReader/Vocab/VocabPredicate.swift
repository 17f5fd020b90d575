/// A field of a vocabulary entry that may be absent.
public enum VocabField: String, CaseIterable, Sendable, Hashable, Comparable {
    /// The word as written: never absent (`NOT NULL` in the store).
    case expression
    case reading
    case meaning

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// A test on vocabulary entries: levels, categories, present fields and a text prefix, combined
/// with AND, OR and NOT.
///
/// ```swift
/// let kanjiWords: VocabPredicate = .and([.categories([.kanji, .kanjiHiragana]), .levels(["N3", "N2"]), .has(.reading)])
/// let n = try store.count(matching: kanjiWords)
/// ```
/// Build predicates in any order and with any redundancy: ``canonical(_:)`` (or the store, which
/// canonicalizes with what it knows about its rows) turns equivalent forms into one value, which is
/// the cache key and what the one SQL statement is compiled from.
public indirect enum VocabPredicate: Hashable, Sendable, CustomStringConvertible {
    /// Every entry (TRUEPREDICATE).
    case all
    /// No entry.
    case none
    /// The entry is at one of these levels (a word may be at several).
    case levels(Set<String>)
    /// The entry's category is one of these (every entry has exactly one).
    case categories(Set<VocabCategory>)
    /// The field is present (`reading != nil`).
    case has(VocabField)
    /// The expression starts with this text (Unicode scalars; "" is every entry).
    case prefix(String)
    case and([VocabPredicate])
    case or([VocabPredicate])
    case not(VocabPredicate)

    /// A readable, deterministic form (sets sorted).
    public var description: String {
        switch self {
        case .all: return "TRUE"
        case .none: return "FALSE"
        case .levels(let names): return "level IN {\(names.sorted(by: Self.byteOrder).joined(separator: ", "))}"
        case .categories(let set): return "category IN {\(set.sorted().map(\.name).joined(separator: ", "))}"
        case .has(let field): return "\(field.rawValue) != nil"
        case .prefix(let text): return "expression BEGINSWITH \"\(text)\""
        case .and(let operands): return "(" + operands.map(\.description).joined(separator: " AND ") + ")"
        case .or(let operands): return "(" + operands.map(\.description).joined(separator: " OR ") + ")"
        case .not(let operand): return "NOT " + operand.description
        }
    }

    /// Hashes what `==` compares, cheaply: a set's elements are folded into one word (XOR of
    /// FNV-1a over the UTF-8 of each level, a bit mask of the categories) instead of `Set`'s
    /// own hash, which runs a seeded hasher per element. Every query hashes its predicate (the
    /// canonical-form and answer caches), so this is on the path of a cached query.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .all: hasher.combine(0 as UInt8)
        case .none: hasher.combine(1 as UInt8)
        case .levels(let names):
            hasher.combine(2 as UInt8)
            var mix: UInt64 = 0
            for name in names { mix ^= StableHash.fnv1a(name) }
            hasher.combine(mix)
        case .categories(let set):
            hasher.combine(3 as UInt8)
            hasher.combine(set.reduce(Int64(0)) { $0 | $1.bit })
        case .has(let field):
            hasher.combine(4 as UInt8)
            hasher.combine(field)
        case .prefix(let text):
            hasher.combine(5 as UInt8)
            hasher.combine(text)
        case .and(let operands), .or(let operands):
            hasher.combine(operands.count)
            if case .and = self { hasher.combine(6 as UInt8) } else { hasher.combine(7 as UInt8) }
            for operand in operands { operand.hash(into: &hasher) }
        case .not(let operand):
            hasher.combine(8 as UInt8)
            operand.hash(into: &hasher)
        }
    }

    /// UTF-8 byte order: SQLite's BINARY collation, and the order of entry ids in a store.
    public static func byteOrder(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// The canonical form knowing nothing about the rows (only that every entry has an expression).
    public static func canonical(_ predicate: VocabPredicate) -> VocabPredicate {
        predicate.canonical(in: VocabFacts())
    }

    /// The canonical form: equal for predicates built in different orders, with duplicates, or
    /// with tests that cannot fail in a store with these `facts`.
    ///
    /// Rules, applied bottom-up: nested ANDs and ORs are flattened; TRUE is dropped from AND and
    /// FALSE from OR (and absorbs the other); category tests are merged (AND intersects, OR
    /// unites: every entry has one category) and every category is TRUE; level tests are merged
    /// under OR (union); every level of the store (when every entry has a level) is TRUE; `!= nil`
    /// on a field that is never NULL is TRUE; under AND an operand another one implies is
    /// dropped (a wider level test, `reading != nil` next to categories without "untestable",
    /// X OR Y next to X) and under OR one that implies another (X AND Y next to X); a AND NOT a
    /// is FALSE, a OR NOT a is TRUE; NOT is pushed down to the tests (De Morgan) and NOT over
    /// categories becomes the other categories; operands are deduplicated and sorted
    /// (``precedes(_:_:)``). This decides equality for predicates that differ in operand order,
    /// duplicates, nesting, split membership tests and redundant tests, not logical equivalence
    /// in general (which no rewriting decides cheaply).
    public func canonical(in facts: VocabFacts) -> VocabPredicate {
        switch self {
        case .all, .none: return self
        case .levels(let names): return Self.levelTest(names, facts)
        case .categories(let set): return Self.categoryTest(set)
        case .has(let field): return facts.neverNull.contains(field) ? .all : self
        case .prefix(let text): return text.isEmpty ? .all : self
        case .not(let operand): return Self.negate(operand.canonical(in: facts), facts)
        case .and(let operands): return Self.conjunction(operands.map { $0.canonical(in: facts) }, facts)
        case .or(let operands): return Self.disjunction(operands.map { $0.canonical(in: facts) }, facts)
        }
    }

    static func levelTest(_ names: Set<String>, _ facts: VocabFacts) -> VocabPredicate {
        var names = names
        if let universe = facts.levels {
            names.formIntersection(universe)
            if facts.everyEntryHasLevel && !universe.isEmpty && names == universe { return .all }
        }
        return names.isEmpty ? .none : .levels(names)
    }

    static func categoryTest(_ set: Set<VocabCategory>) -> VocabPredicate {
        if set.isEmpty { return .none }
        if set.count == VocabCategory.allCases.count { return .all }
        return .categories(set)
    }

    /// NOT of a canonical predicate, canonical.
    static func negate(_ p: VocabPredicate, _ facts: VocabFacts) -> VocabPredicate {
        switch p {
        case .all: return .none
        case .none: return .all
        case .not(let inner): return inner
        case .categories(let set): return categoryTest(Set(VocabCategory.allCases).subtracting(set))
        case .and(let operands): return disjunction(operands.map { negate($0, facts) }, facts)
        case .or(let operands): return conjunction(operands.map { negate($0, facts) }, facts)
        case .levels, .has, .prefix: return .not(p)
        }
    }

    /// AND of canonical operands, canonical.
    static func conjunction(_ operands: [VocabPredicate], _ facts: VocabFacts) -> VocabPredicate {
        var flat: [VocabPredicate] = []
        for p in operands {
            if case .and(let inner) = p { flat += inner } else { flat.append(p) }
        }
        var categories: Set<VocabCategory>?
        var rest = Set<VocabPredicate>()
        for p in flat {
            switch p {
            case .none: return .none
            case .all: continue
            case .categories(let set): categories = categories.map { $0.intersection(set) } ?? set
            default: rest.insert(p)
            }
        }
        if let categories { rest.insert(categoryTest(categories)) }
        if rest.contains(.none) { return .none }
        // a AND b is FALSE when a implies NOT b (b a test or a negated test: NOT of a compound
        // operand is itself a compound predicate, too costly to build for every pair).
        let negatedLiterals = rest.filter(\.isLiteral).map { negate($0, facts) }
        for a in rest where negatedLiterals.contains(where: { implies(a, $0, facts) }) { return .none }
        // Drop what another operand implies (absorption: X AND (X OR Y) is X; a narrower level
        // test implies a wider one; categories without "untestable" imply `reading != nil`).
        return simplified(rest, facts: facts, conjunction: true)
    }

    /// OR of canonical operands, canonical.
    static func disjunction(_ operands: [VocabPredicate], _ facts: VocabFacts) -> VocabPredicate {
        var flat: [VocabPredicate] = []
        for p in operands {
            if case .or(let inner) = p { flat += inner } else { flat.append(p) }
        }
        var categories: Set<VocabCategory>?
        var levels: Set<String>?
        var rest = Set<VocabPredicate>()
        for p in flat {
            switch p {
            case .all: return .all
            case .none: continue
            case .categories(let set): categories = (categories ?? []).union(set)
            case .levels(let names): levels = (levels ?? []).union(names)
            default: rest.insert(p)
            }
        }
        if let categories { rest.insert(categoryTest(categories)) }
        if let levels { rest.insert(levelTest(levels, facts)) }
        if rest.contains(.all) { return .all }
        rest.remove(.none)
        // a OR b is TRUE when NOT a implies b (x OR NOT x; `reading != nil` OR "untestable").
        for a in rest where a.isLiteral {
            let negated = negate(a, facts)
            if rest.contains(where: { implies(negated, $0, facts) }) { return .all }
        }
        // Drop what implies another operand (absorption: X OR (X AND Y) is X).
        return simplified(rest, facts: facts, conjunction: false)
    }

    /// The operands without those another one makes redundant (decided in reverse canonical
    /// order), in canonical order, joined by AND or OR.
    private static func simplified(_ operands: Set<VocabPredicate>, facts: VocabFacts, conjunction: Bool) -> VocabPredicate {
        let items = operands.sorted(by: precedes)
        var alive = [Bool](repeating: true, count: items.count)
        for i in items.indices.reversed() {
            let p = items[i]
            alive[i] = !items.indices.contains { j in
                j != i && alive[j] && (conjunction ? implies(items[j], p, facts) : implies(p, items[j], facts))
            }
        }
        let kept = items.indices.filter { alive[$0] }.map { items[$0] }
        switch kept.count {
        case 0: return conjunction ? .all : .none
        case 1: return kept[0]
        default: return conjunction ? .and(kept) : .or(kept)
        }
    }

    /// The order of operands in a canonical form: by kind (categories, levels, `!= nil`, prefix,
    /// NOT, AND, OR), then by content (names and texts in byte order). Decided at the first
    /// difference, without building text.
    static func precedes(_ a: VocabPredicate, _ b: VocabPredicate) -> Bool {
        func rank(_ p: VocabPredicate) -> Int {
            switch p {
            case .all: 0
            case .none: 1
            case .categories: 2
            case .levels: 3
            case .has: 4
            case .prefix: 5
            case .not: 6
            case .and: 7
            case .or: 8
            }
        }
        func lexicographic<T>(_ x: [T], _ y: [T], _ less: (T, T) -> Bool) -> Bool {
            for (u, v) in zip(x, y) {
                if less(u, v) { return true }
                if less(v, u) { return false }
            }
            return x.count < y.count
        }
        switch (a, b) {
        case (.categories(let x), .categories(let y)): return sortedPrecedes(x, y) { $0.rawValue < $1.rawValue }
        case (.levels(let x), .levels(let y)): return sortedPrecedes(x, y, byteOrder)
        case (.has(let x), .has(let y)): return x < y
        case (.prefix(let x), .prefix(let y)): return byteOrder(x, y)
        case (.not(let x), .not(let y)): return precedes(x, y)
        case (.and(let x), .and(let y)), (.or(let x), .or(let y)): return lexicographic(x, y, precedes)
        default: return rank(a) < rank(b)
        }
    }

    /// Whether the elements of `x`, sorted, precede those of `y`, sorted, lexicographically (a
    /// proper prefix first), without sorting: the lists agree up to the smallest element `k` in
    /// only one of the sets; if `k` is in `x`, `x` comes first unless `y` has nothing after `k`
    /// (then `y` is a prefix of `x`); if `k` is in `y`, `x` comes first when it has nothing after `k`.
    package static func sortedPrecedes<T: Hashable>(_ x: Set<T>, _ y: Set<T>, _ less: (T, T) -> Bool) -> Bool {
        var k: T?
        var inX = false
        for e in x where !y.contains(e) && (k.map { less(e, $0) } ?? true) { k = e; inX = true }
        for e in y where !x.contains(e) && (k.map { less(e, $0) } ?? true) { k = e; inX = false }
        guard let k else { return false }
        return inX ? y.contains { less(k, $0) } : !x.contains { less(k, $0) }
    }

    /// Whether every entry satisfying canonical `a` satisfies canonical `b` (sound, not complete).
    static func implies(_ a: VocabPredicate, _ b: VocabPredicate, _ facts: VocabFacts) -> Bool {
        if a == b || a == .none || b == .all { return true }
        switch (a, b) {
        case (.categories(let s), .categories(let t)): return s.isSubset(of: t)
        case (.levels(let x), .levels(let y)): return x.isSubset(of: y)
        case (.categories(let s), .has): return !s.contains(.untestable)
        case (.not(.has), .categories(let t)): return t.contains(.untestable)
        case (.not(.levels(let x)), .not(.levels(let y))): return y.isSubset(of: x)
        case (.not(.prefix(let p)), .not(.prefix(let q))): return p.unicodeScalars.starts(with: q.unicodeScalars)
        case (.prefix(let p), .prefix(let q)): return p.unicodeScalars.starts(with: q.unicodeScalars)
        case (.prefix(let p), .not(.prefix(let q))):
            // Texts starting with p never start with q unless one prefix extends the other.
            return !p.unicodeScalars.starts(with: q.unicodeScalars) && !q.unicodeScalars.starts(with: p.unicodeScalars)
        default: break
        }
        if case .and(let xs) = a, xs.contains(where: { implies($0, b, facts) }) { return true }
        if case .or(let ys) = b, ys.contains(where: { implies(a, $0, facts) }) { return true }
        if case .or(let xs) = a, xs.allSatisfy({ implies($0, b, facts) }) { return true }
        if case .and(let ys) = b, ys.allSatisfy({ implies(a, $0, facts) }) { return true }
        return false
    }

    /// A test or a negated test (no AND, OR, TRUE or FALSE).
    var isLiteral: Bool {
        switch self {
        case .levels, .categories, .has, .prefix: true
        case .not(let inner): inner.isLiteral
        default: false
        }
    }

    /// The distinct prefixes tested anywhere in the predicate.
    public var prefixes: Set<String> {
        switch self {
        case .prefix(let text): return [text]
        case .and(let operands), .or(let operands): return operands.reduce(into: []) { $0.formUnion($1.prefixes) }
        case .not(let operand): return operand.prefixes
        default: return []
        }
    }

    /// Whether an entry with these properties satisfies the predicate: the brute-force
    /// definition the SQL compilation is tested against.
    public func matches(levels: Set<String>, category: VocabCategory, expression: String, reading: String?, meaning: String?) -> Bool {
        switch self {
        case .all: return true
        case .none: return false
        case .levels(let names): return !names.isDisjoint(with: levels)
        case .categories(let set): return set.contains(category)
        case .has(.expression): return true
        case .has(.reading): return reading != nil
        case .has(.meaning): return meaning != nil
        case .prefix(let text): return expression.unicodeScalars.starts(with: text.unicodeScalars)
        case .and(let operands): return operands.allSatisfy { $0.matches(levels: levels, category: category, expression: expression, reading: reading, meaning: meaning) }
        case .or(let operands): return operands.contains { $0.matches(levels: levels, category: category, expression: expression, reading: reading, meaning: meaning) }
        case .not(let operand): return !operand.matches(levels: levels, category: category, expression: expression, reading: reading, meaning: meaning)
        }
    }

    /// TRUE and FALSE folded away (the other operands kept as they are): enough for SQL, and
    /// linear, unlike ``canonical(in:)``.
    var folded: VocabPredicate {
        switch self {
        case .and(let operands): return Self.fold(operands, absorbing: .none, neutral: .all, join: VocabPredicate.and)
        case .or(let operands): return Self.fold(operands, absorbing: .all, neutral: .none, join: VocabPredicate.or)
        case .not(let operand):
            let inner = operand.folded
            return inner == .all ? .none : inner == .none ? .all : .not(inner)
        default:
            return self
        }
    }

    private static func fold(_ operands: [VocabPredicate], absorbing: VocabPredicate, neutral: VocabPredicate,
                             join: ([VocabPredicate]) -> VocabPredicate) -> VocabPredicate {
        var kept: [VocabPredicate] = []
        for p in operands.map(\.folded) {
            if p == absorbing { return absorbing }
            if p != neutral { kept.append(p) }
        }
        return kept.isEmpty ? neutral : kept.count == 1 ? kept[0] : join(kept)
    }

    /// The predicate with every prefix test replaced by its value.
    func substitutingPrefixes(_ value: (String) -> Bool) -> VocabPredicate {
        switch self {
        case .prefix(let text): return value(text) ? .all : .none
        case .and(let operands): return .and(operands.map { $0.substitutingPrefixes(value) })
        case .or(let operands): return .or(operands.map { $0.substitutingPrefixes(value) })
        case .not(let operand): return .not(operand.substitutingPrefixes(value))
        default: return self
        }
    }
}

/// What a store knows about its rows, which makes some tests tautologies.
public struct VocabFacts: Sendable, Hashable {
    /// The store's level names; nil when unknown (no level is dropped as unknown).
    public var levels: Set<String>?
    /// Every entry has at least one level, so a test of every level is TRUE.
    public var everyEntryHasLevel: Bool
    /// Fields no entry lacks (`expression` always).
    public var neverNull: Set<VocabField>

    public init(levels: Set<String>? = nil, everyEntryHasLevel: Bool = false, neverNull: Set<VocabField> = [.expression]) {
        self.levels = levels
        self.everyEntryHasLevel = everyEntryHasLevel
        self.neverNull = neverNull.union([.expression])
    }
}
