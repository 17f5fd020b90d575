import Foundation
import GRDB
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeTestSupport
import Testing

/// Predicates: canonical forms, the SQL against brute force, uniform picks, the seven tests.
/// Randomized over reproducible seeds (SplitMix64); a failure names its seed.
@Suite("Vocabulary predicates")
struct VocabPredicateTests {
    static let levels = ["L1", "L2", "L3", "L4"]
    static let alphabet = Array("あいかきさ会見テレ")

    /// A synthetic store: 400 entries of 1-3 characters from a small alphabet (so prefixes
    /// match many), 1-2 random levels each, a random category, a reading missing for 1 in 10;
    /// the meaning is always there (so `meaning != nil` is a tautology here).
    static func makeStore(_ folder: TemporaryFolder, entries: Int = 400, seed: UInt64 = 7) throws -> VocabularyStore {
        var g = SplitMix64(seed: seed)
        var seen = Set<String>()
        var records: [VocabRecord] = []
        while records.count < entries {
            let text = String((0..<Int.random(in: 1...3, using: &g)).map { _ in alphabet.randomElement(using: &g)! })
            let reading: String? = Int.random(in: 0..<10, using: &g) == 0 ? nil : "r\(records.count % 37)"
            let meaning = "m\(records.count)"
            guard seen.insert(text + (reading ?? "") + meaning).inserted else { continue }
            var mask = Int64(1) << Int64(Int.random(in: 0..<4, using: &g))
            if Bool.random(using: &g) { mask |= Int64(1) << Int64(Int.random(in: 0..<4, using: &g)) }
            let category: VocabCategory = reading == nil ? .untestable : VocabCategory.allCases.filter(\.isTestable).randomElement(using: &g)!
            records.append(VocabRecord(expression: text, reading: reading, meaning: meaning, tags: nil, levelMask: mask, category: category))
        }
        let path = folder.path + "/synthetic-\(seed).sqlite"
        try StoreWriter.writeVocabulary(VocabStoreContents(levels: levels, records: records), meta: [:], to: AtomicStoreFile.prepare(path: path))
        return try VocabularyStore(path: path)
    }

    static let prefixes = ["あ", "会", "会見", "か", "テレ", "さき", "き"]

    /// An equivalent predicate: operands shuffled, duplicated and nested, membership tests split
    /// into ORs, tautologies added (every level, every category, `!= nil` on fields never NULL,
    /// TRUE, OR FALSE), tests double-negated.
    static func variant<G: RandomNumberGenerator>(_ p: VocabPredicate, using g: inout G) -> VocabPredicate {
        var q: VocabPredicate
        switch p {
        case .and(let xs), .or(let xs):
            var ys = xs.map { variant($0, using: &g) }
            if Bool.random(using: &g), let d = ys.randomElement(using: &g) { ys.append(d) }
            ys.shuffle(using: &g)
            let isAnd = if case .and = p { true } else { false }
            if ys.count >= 3, Bool.random(using: &g) {
                ys = [ys[0], isAnd ? .and(Array(ys.dropFirst())) : .or(Array(ys.dropFirst()))]
            }
            q = isAnd ? .and(ys) : .or(ys + (Bool.random(using: &g) ? [.none] : []))
        case .not(let x):
            q = .not(variant(x, using: &g))
        case .categories(let set) where set.count >= 2 && Bool.random(using: &g):
            q = .or(set.shuffled(using: &g).map { .categories([$0]) })
        case .levels(let set) where set.count >= 2 && Bool.random(using: &g):
            let names = set.shuffled(using: &g)
            q = .or([.levels(Set(names.prefix(1))), .levels(Set(names.dropFirst()))])
        case .levels, .categories, .has, .prefix:
            q = Int.random(in: 0..<4, using: &g) == 0 ? .not(.not(p)) : p
        default:
            q = p
        }
        switch Int.random(in: 0..<8, using: &g) {
        case 0: return .and([q, .levels(Set(levels))].shuffled(using: &g))
        case 1: return .and([.categories(Set(VocabCategory.allCases)), q].shuffled(using: &g))
        case 2: return .and([q, .has(.meaning), .has(.expression)].shuffled(using: &g))
        case 3: return .or([q, .none])
        case 4: return .and([q, .all])
        default: return q
        }
    }

    @Test("Reordered, duplicated and redundant variants canonicalize equal; canonical forms are stable", arguments: 0..<4)
    func variants(batch: Int) throws {
        let folder = try TemporaryFolder()
        let store = try Self.makeStore(folder)
        let generator = VocabPredicateGenerator(levels: Self.levels, prefixes: Self.prefixes)
        for seed in UInt64(batch * 150)..<UInt64(batch * 150 + 150) {
            var g = SplitMix64(seed: seed)
            let p = generator.next(using: &g, depth: 3)
            let canonical = store.canonical(p)
            #expect(store.canonical(canonical) == canonical, "seed \(seed): not idempotent: \(p)")
            for _ in 0..<4 {
                let v = Self.variant(p, using: &g)
                #expect(store.canonical(v) == canonical, "seed \(seed): \(v) → \(store.canonical(v)), but \(p) → \(canonical)")
                #expect(store.compiled(v) == store.compiled(p), "seed \(seed): different SQL for \(v)")
            }
        }
    }

    @Test("The compiled statement selects exactly the entries a brute-force evaluation of the original selects", arguments: 0..<4)
    func bruteForce(batch: Int) throws {
        let folder = try TemporaryFolder()
        let store = try Self.makeStore(folder, seed: UInt64(100 + batch))
        let entries = try store.allEntries()
        let generator = VocabPredicateGenerator(levels: Self.levels, prefixes: Self.prefixes + ["", "ん", "\u{10FFFF}"])
        var nonEmpty = 0
        for seed in UInt64(batch * 150)..<UInt64(batch * 150 + 150) {
            var g = SplitMix64(seed: seed)
            let p = generator.next(using: &g, depth: 3)
            let expected = entries.filter { $0.matches(p) }.map(\.id)
            let matches = try store.matches(p)
            let got = matches.ranges.flatMap { Array($0) }
            #expect(got == expected, "seed \(seed): \(p) (canonical \(store.canonical(p)))")
            #expect(entries.filter { $0.matches(store.canonical(p)) }.map(\.id) == expected, "seed \(seed): canonical form changes the rows of \(p)")
            #expect((0..<matches.count).map { matches.id(at: $0) } == expected)
            if !expected.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > 50)  // the predicates are not all trivially empty
    }

    @Test("random picks uniformly: chi-square over the matching entries")
    func uniform() throws {
        let folder = try TemporaryFolder()
        let store = try Self.makeStore(folder)
        // Entries spread over several buckets and prefix intervals.
        let predicate: VocabPredicate = .and([.levels(["L2", "L3"]), .or([.prefix("会"), .categories([.katakana, .hiragana])])])
        let n = try store.count(matching: predicate)
        #expect(n >= 20 && n <= 120)
        var g = SplitMix64(seed: 42)
        let draws = n * 200
        var tally: [Int64: Int] = [:]
        for _ in 0..<draws {
            let e = try #require(try store.random(matching: predicate, using: &g))
            #expect(e.matches(predicate))
            tally[e.id, default: 0] += 1
        }
        #expect(tally.count == n)
        let expected = Double(draws) / Double(n)
        let chi2 = tally.values.reduce(0.0) { $0 + pow(Double($1) - expected, 2) / expected }
        // df = n - 1; the 0.999 quantile is below df + 3.1·sqrt(2·df) + 10 for df in 20...120.
        let df = Double(n - 1)
        #expect(chi2 < df + 3.1 * (2 * df).squareRoot() + 10, "chi-square \(chi2) with \(n - 1) degrees of freedom")
        // A biased picker (the first range twice as likely) fails the same test.
        var biased: [Int: Int] = [:]
        let matches = try store.matches(predicate)
        for _ in 0..<draws {
            let k = Bool.random(using: &g) ? Int.random(in: 0..<max(1, n / 4), using: &g) : Int.random(in: 0..<n, using: &g)
            biased[k, default: 0] += 1
        }
        let chi2b = (0..<matches.count).reduce(0.0) { $0 + pow(Double(biased[$1] ?? 0) - expected, 2) / expected }
        #expect(chi2b > df + 3.1 * (2 * df).squareRoot() + 10)
    }

    @Test("Distractors: same category, a level in common, different expression, reading and meaning")
    func distractors() throws {
        let folder = try TemporaryFolder()
        let store = try Self.makeStore(folder)
        var g = SplitMix64(seed: 3)
        for _ in 0..<50 {
            let e = try #require(try store.random(matching: .has(.reading), using: &g))
            let wrong = try store.distractors(for: e, count: 3, using: &g)
            for d in wrong {
                #expect(d.category == e.category && !Set(d.levels).isDisjoint(with: e.levels))
                #expect(d.expression != e.expression && d.reading != e.reading && d.meaning != e.meaning)
            }
            #expect(Set(wrong.map(\.id)).count == wrong.count && Set(wrong.compactMap(\.reading)).count == wrong.count)
            let pool = try store.allEntries().filter { $0.category == e.category && !Set($0.levels).isDisjoint(with: e.levels) && $0.reading != e.reading && $0.expression != e.expression }
            if Set(pool.compactMap(\.reading)).count >= 3 { #expect(wrong.count == 3) }
        }
    }

    @Test("The seed's seven tests need two statements; the cache runs each once")
    func sevenTests() throws {
        let folder = try TemporaryFolder()
        let store = try Self.makeStore(folder)
        let settings = VocabTest.settings(levels: ["L3", "L2"], categories: VocabCategory.allCases)
        let forms = Set(VocabTest.allCases.map { store.canonical($0.predicate(settings: settings)) })
        #expect(forms == [
            .and([.categories([.kanji, .kanjiHiragana]), .levels(["L2", "L3"])]),
            .and([.levels(["L2", "L3"]), .has(.reading)]),  // categories, levels, fields, prefixes, NOT, AND, OR
        ])
        var g = SplitMix64(seed: 1)
        for test in VocabTest.allCases {
            for _ in 0..<3 {
                let q = try #require(try store.question(test, settings: settings, using: &g))
                #expect(q.entry.matches(test.predicate(settings: settings)))
                if test.style == .choice { #expect(q.choices.count == 4 && q.choices[q.answerIndex!] == q.answer) }
            }
        }
        #expect(store.cacheStatistics.statements.count <= 2 + 2 * VocabTest.allCases.count)  // distractor pools per category/levels
        #expect(Set(VocabTest.allCases.map { store.compiled($0.predicate(settings: settings)).sql }).count <= 2)
    }

    @Test("Set order without sorting agrees with sorting both sets and comparing the lists")
    func setOrder() {
        var g = SplitMix64(seed: 5)
        for _ in 0..<2_000 {
            let x = Set((0..<Int.random(in: 0...4, using: &g)).map { _ in Int.random(in: 0..<6, using: &g) })
            let y = Set((0..<Int.random(in: 0...4, using: &g)).map { _ in Int.random(in: 0..<6, using: &g) })
            let expected = x.sorted().lexicographicallyPrecedes(y.sorted())
            #expect(VocabPredicate.sortedPrecedes(x, y, <) == expected, "\(x.sorted()) vs \(y.sorted())")
        }
    }

    @Test("A damaged vocabulary store answers with an error naming the file, never a crash",
          arguments: [
              "UPDATE vocab_entry SET bucket = 'b' WHERE id % 3 = 0",
              "UPDATE vocab_entry SET id = id + 100000 WHERE id % 5 = 0",
              "UPDATE vocab_bucket SET levels = 'x'",
              "UPDATE vocab_bucket SET has_reading = 7",
              "UPDATE vocab_bucket SET entries = entries + 1 WHERE id = 1",
              "DELETE FROM vocab_entry WHERE id % 2 = 0",
              "UPDATE vocab_entry SET expression = 12 WHERE id % 4 = 0",
              // An id at the top of the integers, in a prefix's span (its end would overflow).
              "UPDATE vocab_entry SET id = 9223372036854775807 WHERE id = (SELECT max(id) FROM vocab_entry WHERE expression LIKE '会%')",
              // Two levels of one name (a damaged UNIQUE index reads so; found by `make fuzz`, which crashed on it).
              """
              CREATE TABLE old_level AS SELECT * FROM vocab_level; DROP TABLE vocab_level;
              CREATE TABLE vocab_level (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
              INSERT INTO vocab_level SELECT id, CASE WHEN id = 1 THEN (SELECT name FROM old_level WHERE id = 0) ELSE name END FROM old_level;
              DROP TABLE old_level
              """,
          ])
    func damaged(_ sql: String) throws {
        let folder = try TemporaryFolder()
        let store = try Self.makeStore(folder)
        let path = folder.path + "/damaged.sqlite"
        try FileManager.default.copyItem(atPath: store.path, toPath: path)
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON; PRAGMA foreign_keys = OFF")
            try db.execute(sql: sql)
        }
        try queue.close()
        var failures = 0
        func run(_ body: () throws -> Void) {
            do { try body() } catch let error as StoreError {
                failures += 1
                #expect(error.description.contains(path), "\(error)")
            } catch {
                Issue.record("not a StoreError: \(error)")
            }
        }
        var reopened: VocabularyStore?
        run { reopened = try VocabularyStore(path: path) }
        guard let damaged = reopened else { return }
        var g = SplitMix64(seed: 9)
        let predicates: [VocabPredicate] = [.all, .levels(["L2"]), .prefix("会"), .or([.prefix("あ"), .prefix("テレ")]), .not(.prefix("か")),
                                            .and([.categories([.kanji, .hiragana]), .not(.levels(["L1"]))])]
        for p in predicates {
            run { _ = try damaged.count(matching: p) }
            run {
                if let e = try damaged.random(matching: p, using: &g) { _ = try damaged.distractors(for: e, count: 3, using: &g) }
            }
        }
        // Damage the reader can see in what these queries read is reported (the rest, e.g. a
        // missing row, reads as an answer without it).
        if sql.contains("bucket = 'b'") || sql.contains("levels = 'x'") || sql.contains("has_reading") || sql.contains("entries + 1")
            || sql.contains("old_level") || sql.contains("9223372036854775807") {
            #expect(failures > 0, "no error for \(sql)")
        }
    }

    @Test("Canonical forms without a store: sorting, merging, NOT")
    func rules() {
        let a: VocabPredicate = .and([.has(.reading), .has(.meaning)])
        let b: VocabPredicate = .and([.has(.meaning), .has(.reading), .has(.expression)])
        #expect(VocabPredicate.canonical(a) == VocabPredicate.canonical(b))
        #expect(VocabPredicate.canonical(.or(VocabCategory.allCases.map { .categories([$0]) })) == .all)
        #expect(VocabPredicate.canonical(.not(.categories([.kanji]))) == .categories(Set(VocabCategory.allCases).subtracting([.kanji])))
        #expect(VocabPredicate.canonical(.and([.levels(["N2", "N3"]), .levels(["N3"])])) == .levels(["N3"]))
        #expect(VocabPredicate.canonical(.and([.categories([.kanji, .hiragana]), .categories([.kanji]), .has(.reading)])) == .categories([.kanji]))
        #expect(VocabPredicate.canonical(.and([.has(.reading), .not(.has(.reading))])) == .none)
        #expect(VocabCompiledQuery.successor(of: "あ") == "ぃ")
        #expect(VocabCompiledQuery.successor(of: "a\u{10FFFF}") == "b")
        #expect(VocabCompiledQuery.successor(of: "\u{D7FF}") == "\u{E000}")
    }
}
