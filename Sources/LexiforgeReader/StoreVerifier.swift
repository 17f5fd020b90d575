import Foundation
import GRDB

extension StoreSchema {
    /// `identifier` as an SQL identifier: in double quotes, embedded quotes doubled. For every
    /// name read from a store (`sqlite_master`) that goes into SQL.
    public static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// `lexiforge verify STORE`: SQLite's integrity check plus the schema's invariants that are cheap
/// to check, without trusting anything in the file.
///
/// Checks: `PRAGMA integrity_check`; the application id and schema version; meta `order` known
/// (1…``StoreSchema/maxOrder``) and the n-gram tables present exactly up to it; meta counts
/// (`tokens`, `sentences`, `vocabulary`) whole numbers; the vocabulary tables readable; word
/// ids in every n-gram table (and `word_class`, `swipe_feature`) inside the vocabulary; counts
/// whole and non-negative; every swipe layout readable and its features' keys inside it.
/// Every value is checked in SQL (`typeof`, ranges) before Swift reads it, so a damaged file
/// gives a list of problems, never a trap.
public enum StoreVerifier {
    public struct Report: Sendable {
        /// One line per problem, each starting with the store's path.
        public var problems: [String] = []
        /// One line describing a store without problems.
        public var summary = ""
    }

    public static func verify(path: String) -> Report {
        var report = Report()
        func problem(_ text: String) { report.problems.append("\(path): \(text)") }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            problem("no such store")
            return report
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            problem("not a regular file")
            return report
        }
        var configuration = Configuration()
        configuration.readonly = true
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            problem("SQLite cannot open it: \((error as? DatabaseError)?.message ?? "\(error)")")
            return report
        }
        do {
            try queue.inDatabase { db in try check(db, path: path, report: &report) }
        } catch {
            problem("SQLite cannot read it: \((error as? DatabaseError)?.message ?? "\(error)")")
        }
        try? queue.close()
        return report
    }

    /// The number of rows `sql` (a `SELECT count(*) …`) counts.
    private static func count(_ db: Database, _ sql: String) throws -> Int {
        try Int.fetchOne(db, sql: sql) ?? 0
    }

    private static func check(_ db: Database, path: String, report: inout Report) throws {
        func problem(_ text: String) { report.problems.append("\(path): \(text)") }
        let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check(20)")
        if integrity != ["ok"] {
            for line in integrity { problem("integrity check: \(line)") }
        }
        let applicationID = try Int64.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let version = try Int64.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if applicationID != Int64(StoreSchema.applicationID) {
            problem("application id \(applicationID), not Lexiforge's \(StoreSchema.applicationID) (an unfinished build or another database)")
        }
        if version != Int64(StoreSchema.version) {
            problem("schema version \(version), but this toolchain reads version \(StoreSchema.version)")
        }
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND typeof(name) = 'text'"))
        let q = StoreSchema.quoted

        // meta
        var meta: [String: String] = [:]
        if tables.contains("meta") {
            let rows = try Row.fetchAll(db, sql: "SELECT key, value FROM meta WHERE typeof(key) = 'text' AND typeof(value) = 'text'")
            for row in rows {
                if let key = String.fromDatabaseValue(row[0] as DatabaseValue),
                   let value = String.fromDatabaseValue(row[1] as DatabaseValue) { meta[key] = value }
            }
            let odd = try count(db, "SELECT count(*) FROM meta WHERE typeof(key) != 'text' OR typeof(value) != 'text'")
            if odd > 0 { problem("meta: \(odd) row(s) whose key or value is not text") }
        } else {
            problem("no meta table")
        }
        if tables.contains("vocab_entry") && !tables.contains("word_block") {
            try checkVocabulary(db, tables: tables, problem: problem)
            if report.problems.isEmpty {
                let entries = try count(db, "SELECT count(*) FROM vocab_entry")
                report.summary = "\(path): ok: a vocabulary store, schema version \(version), \(entries) entries, \(tables.count) tables, integrity check ok"
            }
            return
        }
        var order: Int?
        if let value = meta[StoreSchema.MetaKey.order] {
            order = TrainedStore.metaOrder(value)
            if order == nil { problem("meta \"order\" is \"\(value)\", not \(TrainedStore.orderExpectation)") }
        } else {
            problem("meta \"order\" is missing")
        }
        for key in [StoreSchema.MetaKey.tokens, StoreSchema.MetaKey.sentences, StoreSchema.MetaKey.vocabulary] {
            if let value = meta[key], Int(value).map({ $0 < 0 }) ?? true {
                problem("meta \"\(key)\" is \"\(value)\", not a whole number ≥ 0")
            }
        }
        if let order {
            for n in 2...StoreSchema.maxOrder {
                let table = StoreSchema.ngramTable(order: n)
                if n <= order && !tables.contains(table) { problem("meta \"order\" is \(order) but there is no \(table) table") }
                if n > order && tables.contains(table) { problem("a \(table) table, but meta \"order\" is \(order)") }
            }
        }

        // The vocabulary, checked in SQL before it is read.
        var vocabularySize: Int?
        let wordTables = ["word_block", "word_order", "word_count"]
        let missingWordTables = wordTables.filter { !tables.contains($0) }
        if !missingWordTables.isEmpty {
            problem("no \(missingWordTables.joined(separator: ", ")) table(s): the vocabulary is missing")
        } else {
            var readable = true
            let checks: [(String, String)] = [
                ("SELECT count(*) FROM word_block WHERE typeof(block) != 'integer' OR typeof(words) != 'text'", "word_block rows that are not (integer, text)"),
                ("SELECT count(*) FROM word_order WHERE typeof(ids) != 'blob'", "word_order rows without an id list"),
                ("SELECT count(*) FROM word_count WHERE typeof(id) != 'integer' OR typeof(count) != 'integer'", "word_count rows whose id or count is not an integer"),
            ]
            for (sql, what) in checks {
                let bad = try count(db, sql)
                if bad > 0 { problem("\(bad) \(what)"); readable = false }
            }
            let negative = try count(db, "SELECT count(*) FROM word_count WHERE count < 0")
            if negative > 0 { problem("\(negative) word count(s) below 0") }
            if try db.columns(in: "word_count").contains(where: { $0.name == "logprob" }) {
                let out = try count(db, "SELECT count(*) FROM word_count WHERE typeof(logprob) != 'integer' OR typeof(backoff) != 'integer' OR logprob NOT BETWEEN -2147483648 AND 2147483647 OR backoff NOT BETWEEN -2147483648 AND 2147483647")
                if out > 0 { problem("\(out) word_count row(s) whose logprob or backoff is not a 32-bit integer"); readable = false }
            }
            if readable {
                do {
                    vocabularySize = try WordRows.read(db).texts.count
                } catch {
                    problem("the vocabulary cannot be read: \((error as? DatabaseError)?.message ?? "\(error)")")
                }
            }
        }

        // Word ids and counts of the n-gram tables.
        var ngramRows: [Int] = []
        if let order, order >= 2 {
            for n in 2...order {
                let table = StoreSchema.ngramTable(order: n)
                guard tables.contains(table) else { continue }
                ngramRows.append(try count(db, "SELECT count(*) FROM \(q(table))"))
                let columns = (1...n).map { "w\($0)" }
                if let size = vocabularySize {
                    let outside = columns.map { "typeof(\($0)) != 'integer' OR \($0) NOT BETWEEN 0 AND \(size - 1)" }.joined(separator: " OR ")
                    let bad = try count(db, "SELECT count(*) FROM \(q(table)) WHERE \(outside)")
                    if bad > 0 { problem("\(table): \(bad) row(s) with a word id outside the vocabulary of \(size) words") }
                }
                let counts = try count(db, "SELECT count(*) FROM \(q(table)) WHERE typeof(count) != 'integer' OR count < 0")
                if counts > 0 { problem("\(table): \(counts) count(s) that are not whole numbers ≥ 0") }
            }
        }
        if tables.contains("word_class"), let size = vocabularySize {
            let bad = try count(db, "SELECT count(*) FROM word_class WHERE typeof(word) != 'integer' OR word NOT BETWEEN 0 AND \(size - 1)")
            if bad > 0 { problem("word_class: \(bad) row(s) with a word id outside the vocabulary of \(size) words") }
        }

        // Swipe features: keys inside their layout, words inside the vocabulary.
        if tables.contains("swipe_layout") && tables.contains("swipe_feature") {
            let layouts = try Row.fetchAll(db, sql: "SELECT id, name, definition FROM swipe_layout WHERE typeof(id) = 'integer' AND typeof(name) = 'text' AND typeof(definition) = 'text'")
            let odd = try count(db, "SELECT count(*) FROM swipe_layout WHERE typeof(id) != 'integer' OR typeof(name) != 'text' OR typeof(definition) != 'text'")
            if odd > 0 { problem("swipe_layout: \(odd) row(s) that are not (integer, text, …, text)") }
            var ids: [Int64] = []
            for row in layouts {
                let id: Int64 = Int64.fromDatabaseValue(row[0] as DatabaseValue) ?? -1
                let name = String.fromDatabaseValue(row[1] as DatabaseValue) ?? "?"
                let definition = String.fromDatabaseValue(row[2] as DatabaseValue) ?? ""
                ids.append(id)
                guard let layout = try? SwipeLayout.fromJSON(Data(definition.utf8), source: "swipe_layout \(name)") else {
                    problem("swipe_layout \(name): its definition is not a readable layout")
                    continue
                }
                let keys = layout.keys.count
                let bad = try count(db, "SELECT count(*) FROM swipe_feature WHERE layout_id = \(id) AND (typeof(first_key) != 'integer' OR typeof(last_key) != 'integer' OR first_key NOT BETWEEN 0 AND \(keys - 1) OR last_key NOT BETWEEN 0 AND \(keys - 1))")
                if bad > 0 { problem("swipe_feature: \(bad) row(s) of layout \(name) with a key outside its \(keys) keys") }
            }
            let orphans = try count(db, "SELECT count(*) FROM swipe_feature WHERE layout_id NOT IN (SELECT id FROM swipe_layout)")
            if orphans > 0 { problem("swipe_feature: \(orphans) row(s) of no layout") }
            if let size = vocabularySize {
                let bad = try count(db, "SELECT count(*) FROM swipe_feature WHERE typeof(word_id) != 'integer' OR word_id NOT BETWEEN 0 AND \(size - 1)")
                if bad > 0 { problem("swipe_feature: \(bad) row(s) with a word id outside the vocabulary of \(size) words") }
            }
        }

        let words = vocabularySize.map { "\($0) words" } ?? "no readable vocabulary"
        let ngrams = ngramRows.isEmpty ? "" : ", n-grams " + ngramRows.map(String.init).joined(separator: "/")
        report.summary = "\(path): ok: schema version \(version), order \(order.map(String.init) ?? "?"), \(words)\(ngrams), \(tables.count) tables, integrity check ok"
    }

    /// A vocabulary store's invariants: its tables, entries in buckets whose id ranges are
    /// contiguous, start at 1 and cover every entry exactly once, levels and categories known.
    private static func checkVocabulary(_ db: Database, tables: Set<String>, problem: (String) -> Void) throws {
        let required = ["vocab_level", "vocab_category", "vocab_bucket", "vocab_entry"]
        let missing = required.filter { !tables.contains($0) }
        if !missing.isEmpty {
            problem("a vocabulary store without its \(missing.joined(separator: ", ")) table(s)")
            return
        }
        let checks: [(String, String)] = [
            ("SELECT count(*) FROM vocab_bucket WHERE typeof(first_entry) != 'integer' OR typeof(entries) != 'integer' OR entries < 1 OR first_entry < 1",
             "vocab_bucket row(s) without a valid entry range"),
            ("SELECT count(*) FROM vocab_bucket b WHERE NOT EXISTS (SELECT 1 FROM vocab_category c WHERE c.id = b.category)",
             "vocab_bucket row(s) naming an unknown category"),
            ("SELECT count(*) FROM vocab_bucket WHERE levels >> (SELECT coalesce(max(id), -1) + 1 FROM vocab_level) != 0",
             "vocab_bucket row(s) with a level bit no vocab_level row names"),
            ("SELECT count(*) FROM vocab_entry e JOIN vocab_bucket b ON b.id = e.bucket WHERE e.id NOT BETWEEN b.first_entry AND b.first_entry + b.entries - 1",
             "vocab_entry row(s) outside their bucket's id range"),
            ("SELECT count(*) FROM vocab_entry e WHERE NOT EXISTS (SELECT 1 FROM vocab_bucket b WHERE b.id = e.bucket)",
             "vocab_entry row(s) in no bucket"),
            ("SELECT count(*) FROM vocab_entry WHERE typeof(expression) != 'text' OR expression = ''",
             "vocab_entry row(s) without an expression"),
        ]
        for (sql, what) in checks {
            let bad = try count(db, sql)
            if bad > 0 { problem("\(bad) \(what)") }
        }
        let entries = try count(db, "SELECT count(*) FROM vocab_entry")
        let covered = try count(db, "SELECT coalesce(sum(entries), 0) FROM vocab_bucket")
        let last = try count(db, "SELECT coalesce(max(first_entry + entries - 1), 0) FROM vocab_bucket")
        if covered != entries || last != entries {
            problem("the buckets cover \(covered) entries up to id \(last), but there are \(entries) entries: the ranges must tile 1...\(entries)")
        }
    }
}
