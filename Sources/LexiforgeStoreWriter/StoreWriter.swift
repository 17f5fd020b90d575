import Foundation
import GRDB
import GRDBSQLite
import LexiforgeNgrams
import LexiforgeReader

/// Why a store could not be written.
public enum StoreWriteError: Error, CustomStringConvertible, Sendable {
    case outputDirectoryMissing(String)
    case outputNotWritable(String, String)
    /// The same for another kind of output ("ARPA file", "Presage database").
    case fileNotWritable(String, String, kind: String)
    case outputIsDirectory(String)
    case sqlite(String, String)
    /// The destination is a link, FIFO or device, or another writer holds the store's lock.
    case output(OutputError)

    /// The store writer's error for an ``OutputError``.
    public init(_ error: OutputError) {
        switch error {
        case .folderMissing(let dir): self = .outputDirectoryMissing(dir)
        case .isDirectory(let path): self = .outputIsDirectory(path)
        case .notWritable(let path, let reason, let kind): self = .notWritable(path, reason, kind: kind)
        case .notRegularFile, .busy: self = .output(error)
        }
    }

    /// ``outputNotWritable(_:_:)`` for a store, ``fileNotWritable(_:_:kind:)`` for anything else.
    static func notWritable(_ path: String, _ reason: String, kind: String) -> StoreWriteError {
        kind == "store" ? .outputNotWritable(path, reason) : .fileNotWritable(path, reason, kind: kind)
    }

    public var description: String {
        switch self {
        case .outputDirectoryMissing(let dir):
            return "\(dir): output folder does not exist; create it (mkdir -p) or choose another -o path"
        case .outputNotWritable(let path, let reason):
            return "\(path): cannot write the store here (\(reason)); choose a writable -o path"
        case .fileNotWritable(let path, let reason, let kind):
            return "\(path): cannot write the \(kind) here (\(reason)); choose a writable -o path"
        case .outputIsDirectory(let path):
            return "\(path): is a directory; -o takes the path of the store file to write, e.g. \(path)/model.sqlite"
        case .sqlite(let path, let reason):
            return "\(path): SQLite failed while writing the store (\(reason)); check free disk space and permissions"
        case .output(let error):
            return error.description
        }
    }
}

/// Writes a store at `path` atomically: everything goes into a temporary file in a private folder
/// beside it (``AtomicOutput``), which is stamped with the schema version last and renamed over
/// `path` only when complete. If anything fails, the private folder is removed and whatever was at
/// `path` stays untouched. A symbolic link, FIFO or device at `path` is refused, never followed.
///
/// Call ``prepare(path:kind:)`` before the long work so an unwritable destination fails in
/// milliseconds, not after counting a corpus.
public final class AtomicStoreFile {
    public var path: String { output.path }
    /// Where the store is built: inside a private folder (mode 0700) in the destination's folder.
    public var temporaryPath: String { output.temporaryPath }
    let output: AtomicOutput

    /// Checks the destination and creates the private folder.
    /// `kind` names what is written, for messages ("store", "ARPA file").
    public static func prepare(path: String, kind: String = "store") throws(StoreWriteError) -> AtomicStoreFile {
        do {
            return AtomicStoreFile(output: try AtomicOutput.prepare(path: path, kind: kind))
        } catch {
            throw StoreWriteError(error)
        }
    }

    private init(output: AtomicOutput) { self.output = output }

    /// Creates the temporary file for writers that write bytes themselves (`O_EXCL|O_NOFOLLOW`).
    public func createFile() throws(StoreWriteError) -> Int32 {
        do { return try output.createFile() } catch { throw StoreWriteError(error) }
    }

    /// Removes the temporary file (and its journal, if any) with its private folder.
    public func discard() { output.discard() }

    /// Renames the complete temporary file over the destination.
    public func commit() throws(StoreWriteError) {
        do { try output.commit() } catch { throw StoreWriteError(error) }
    }
}

/// Builds a store's SQLite file from plain values.
///
/// In: counts, optionally a ``LanguageModel`` (probabilities and backoffs), and provenance key/values. Out: a complete store at ``AtomicStoreFile/path``
/// following ``StoreSchema``; rows go in key order in one transaction through prepared statements,
/// secondary indexes are built after the rows, and `user_version` is stamped last.
/// Identical inputs give byte-identical files (no timestamps unless the caller puts one in `meta`).
public enum StoreWriter {
    /// Per-word columns beyond text and count, indexed like `NgramCounts.words`.
    public struct WordColumns: Sendable {
        /// The lemma, nil when it is the word itself.
        public var lemmas: [String?]
        /// `StoreSchema.scriptNames` codes.
        public var scripts: [UInt8]
        public init(lemmas: [String?], scripts: [UInt8]) {
            self.lemmas = lemmas
            self.scripts = scripts
        }
    }

    /// Writes a counts-only store (the foundation layout: no `logprob`/`backoff` columns).
    /// `lexicon`, when given, fills the `lexicon*` tables (``StoreSchema/lexiconCreationStatements()``);
    /// every entry's word must be in `counts.words`. `words`, when given, fills the `word_class` table.
    /// `hmm`, when given, adds the hidden Markov tables (``StoreSchema/HMM``); its word ids must be
    /// ids of `counts.words`.
    public static func write(
        counts: NgramCounts, lexicon: Lexicon? = nil, meta: [String: String], words columns: WordColumns? = nil,
        hmm: HMMTables? = nil, to file: AtomicStoreFile
    ) throws(StoreWriteError) {
        try write(counts: counts, model: nil, lexicon: lexicon, columns: columns, hmm: hmm, meta: meta, to: file)
    }

    /// Writes a store with the language model's probabilities and backoffs next to the counts.
    /// `topLists` overrides the size rule for the `_top` tables (tests use it on small stores).
    public static func write(
        model: LanguageModel, lexicon: Lexicon? = nil, meta: [String: String], words columns: WordColumns? = nil,
        hmm: HMMTables? = nil, to file: AtomicStoreFile, topLists: Bool? = nil
    ) throws(StoreWriteError) {
        try write(counts: model.counts, model: model, lexicon: lexicon, columns: columns, hmm: hmm, meta: meta, to: file, topLists: topLists)
    }

    static func write(
        counts: NgramCounts, model: LanguageModel?, lexicon: Lexicon?, columns: WordColumns?, hmm: HMMTables?,
        meta: [String: String], to file: AtomicStoreFile, topLists: Bool? = nil
    ) throws(StoreWriteError) {
        let unigrams = model.map { (logProbs: $0.unigramLogProb, logBackoffs: $0.unigramLogBackoff) }
        try write(order: counts.order, words: counts.words, unigramCounts: counts.unigramCounts, unigrams: unigrams,
                  entries: counts.tables.reduce(0) { $0 + $1.entryCount }, clusters: model?.clusterModel,
                  formRules: model?.formRules, lexicon: lexicon,
                  columns: columns, hmm: hmm, meta: meta, to: file, topLists: topLists) { db, topTables in
            for (k, table) in counts.tables.enumerated() {
                try insert(table, logProbs: model?.logProbs[k],
                           logBackoffs: model.flatMap { k < $0.logBackoffs.count ? $0.logBackoffs[k] : nil },
                           into: StoreSchema.ngramTable(order: table.n), db: db)
                if topTables, let model { try insertTopLists(table, logProbs: model.logProbs[k], db: db) }
            }
        }
    }

    /// The sequence every n-gram store is written by, whether its n-grams are in memory or streamed
    /// from files: tables, meta, words (with `unigrams`' log10 values when there is a language
    /// model), word classes, then `ngrams(db, topTables)` fills the n-gram tables (and `_top` tables
    /// when `topTables`), then clusters, form rules, lexicon, hidden Markov tables, indexes.
    /// `entries` counts the n-grams of orders 2...N (for the page size and the `_top` rule).
    static func write(
        order: Int, words: [String], unigramCounts: [UInt64], unigrams: (logProbs: [Double], logBackoffs: [Double])?,
        entries: Int, clusters: ClusterModel?, formRules: FormRules?, lexicon: Lexicon?, columns: WordColumns?, hmm: HMMTables?,
        meta: [String: String], to file: AtomicStoreFile, topLists: Bool?,
        ngrams: (Database, Bool) throws -> Void
    ) throws(StoreWriteError) {
        let rows = words.count + entries
        let topTables = unigrams != nil && (topLists ?? (rows >= StoreSchema.topContinuationThreshold))
        let statements = StoreSchema.creationStatements(
            order: order, languageModel: unigrams != nil, topTables: topTables, wordClasses: columns != nil,
            clusters: clusters != nil, formRules: formRules != nil)
        try build(file, pageSize: pageSize(rows: rows + (lexicon?.entries.count ?? 0))) { db in
            for sql in statements
            where !sql.hasPrefix("CREATE UNIQUE INDEX") && !sql.hasPrefix("CREATE INDEX") {
                try db.execute(sql: sql)
            }
            let metaInsert = try db.makeStatement(sql: "INSERT INTO meta(key, value) VALUES (?, ?)")
            for key in meta.keys.sorted() { try metaInsert.execute(arguments: [key, meta[key]!]) }
            let wordCounts = unigramCounts.map { Int64($0) }
            if let unigrams {
                try WordRows.insert(db, texts: words, counts: wordCounts,
                                    logprobs: unigrams.logProbs.map { quantized($0) },
                                    backoffs: unigrams.logBackoffs.map { quantized($0) })
            } else {
                try WordRows.insert(db, texts: words, counts: wordCounts)
            }
            if let columns {
                let classInsert = try db.makeStatement(sql: "INSERT INTO word_class(word, lemma, script) VALUES (?, ?, ?)")
                for id in words.indices {
                    try classInsert.execute(arguments: [id, columns.lemmas[id], Int64(columns.scripts[id])])
                }
            }
            try ngrams(db, topTables)
            if let clusters { try insertClusters(clusters, db: db) }
            if let forms = formRules {
                let insert = try db.makeStatement(sql: "INSERT INTO \(StoreSchema.formRuleTable)(strip, append, stems, logprob) VALUES (?, ?, ?, ?)")
                for rule in forms.rules {
                    try insert.execute(arguments: [rule.strip, rule.append, Int64(rule.stems), quantized(rule.log10Weight)])
                }
            }
            if let lexicon { try LexiconRows.insert(lexicon, words: words, wordClasses: columns != nil, db: db) }
            if let hmm { try insertHMM(hmm, db: db) }
            for sql in statements
            where sql.hasPrefix("CREATE UNIQUE INDEX") || sql.hasPrefix("CREATE INDEX") {
                try db.execute(sql: sql)
            }
        }
    }

    /// The one sequence every store is written by: a temporary file (fresh, or with `copying`, a
    /// copy of an existing store that `fill` adds to) with bulk-load settings, `fill` in one
    /// transaction, then a repack into a fresh file (`VACUUM INTO`: pages full, about a tenth
    /// smaller; one copy where `VACUUM` makes two, 1.3 s instead of 2.1 s for a 200 MB store; and
    /// a header that depends only on the contents, not on how the pages were written), then the
    /// application id and schema version stamped last, then the rename over the destination. On
    /// any failure the private folder with every temporary file is removed and the destination
    /// stays as it was.
    static func build(
        _ file: AtomicStoreFile, pageSize: Int, copying source: String? = nil, fill: (Database) throws -> Void
    ) throws(StoreWriteError) {
        if let source {
            do {
                try FileManager.default.copyItem(atPath: source, toPath: file.temporaryPath)
            } catch {
                file.discard()
                throw .outputNotWritable(file.path, "cannot copy \(source): \(error.localizedDescription)")
            }
        }
        let packed = file.temporaryPath + "-packed"
        do {
            var configuration = Configuration()
            configuration.journalMode = .default
            let queue = try DatabaseQueue(path: file.temporaryPath, configuration: configuration)
            try queue.writeWithoutTransaction { db in
                // A copy keeps its page size; it is unstamped until complete.
                try db.execute(sql: source == nil ? "PRAGMA page_size = \(pageSize)" : "PRAGMA user_version = 0")
                try db.execute(sql: """
                    PRAGMA journal_mode = OFF;
                    PRAGMA synchronous = OFF;
                    PRAGMA locking_mode = EXCLUSIVE;
                    PRAGMA cache_size = -65536;
                    """)
                try db.inTransaction {
                    try fill(db)
                    return .commit
                }
                try db.execute(sql: "VACUUM INTO ?", arguments: [packed])
            }
            try queue.close()
            guard rename(packed, file.temporaryPath) == 0 else {
                throw StoreWriteError.sqlite(file.path, "cannot rename the repacked store: \(String(cString: strerror(errno)))")
            }
            let stamping = try DatabaseQueue(path: file.temporaryPath, configuration: configuration)
            try stamping.writeWithoutTransaction { db in
                try db.execute(sql: """
                    PRAGMA journal_mode = OFF;
                    PRAGMA application_id = \(StoreSchema.applicationID);
                    PRAGMA user_version = \(StoreSchema.version);
                    """)
            }
            try stamping.close()
        } catch let error as DatabaseError {
            file.discard()
            throw .sqlite(file.path, error.message ?? error.description)
        } catch let error as StoreWriteError {
            file.discard()
            throw error
        } catch {
            file.discard()
            throw .sqlite(file.path, "\(error)")
        }
        try file.commit()
    }

    /// Small stores (what a keyboard ships for one chapter or one app) use 1 KiB pages, which waste
    /// less in the partly filled last page of each table and index; larger ones SQLite's default 4 KiB.
    /// `rows` counts words, n-grams and lexicon entries.
    static func pageSize(rows: Int) -> Int { rows < 100_000 ? 1024 : 4096 }

    /// A log10 value in the store's integer units (``StoreSchema/logScale``).
    public static func quantized(_ log10Value: Double) -> Int64 {
        guard log10Value.isFinite else { return log10Value < 0 ? Int64(-99 * StoreSchema.logScale) : 0 }
        return Int64((log10Value * StoreSchema.logScale).rounded())
    }

    /// Fills `<table>_top` (see ``StoreSchema/topTable(order:)``): for every context with more than
    /// ``StoreSchema/busyContext`` continuations, its ``StoreSchema/topLength`` most probable ones.
    /// Contexts are contiguous runs of `table.keys` (sorted by id tuple).
    private static func insertTopLists(_ table: NgramCounts.Table, logProbs: [Double], db: Database) throws {
        let n = table.n
        let top = try TopListInserter(order: n, db: db)
        try table.keys.withUnsafeBufferPointer { keys in
            func sameContext(_ a: Int, _ b: Int) -> Bool {
                (0..<(n - 1)).allSatisfy { keys[a * n + $0] == keys[b * n + $0] }
            }
            var rows: [TopListInserter.Row] = []
            var start = 0
            while start < table.entryCount {
                var end = start + 1
                while end < table.entryCount && sameContext(start, end) { end += 1 }
                if end - start > StoreSchema.busyContext {
                    rows.removeAll(keepingCapacity: true)
                    for entry in start..<end { rows.append((keys[entry * n + n - 1], quantized(logProbs[entry]))) }
                    try top.insert(context: keys.baseAddress! + start * n, rows: &rows)
                }
                start = end
            }
        }
    }

    /// Bulk insert with one prepared statement and raw integer binds (the hot loop of a build).
    /// Without `logProbs` only ids and counts are written (a counts-only store).
    private static func insert(_ table: NgramCounts.Table, logProbs: [Double]?, logBackoffs: [Double]?,
                               into name: String, db: Database) throws {
        let n = table.n
        let row = try NgramRowInserter(order: n, logProbs: logProbs != nil, logBackoffs: logBackoffs != nil, into: name, db: db)
        try table.keys.withUnsafeBufferPointer { keys in
            for entry in 0..<table.entryCount {
                try row.insert(keys.baseAddress! + entry * n, count: table.counts[entry],
                               logProb: logProbs?[entry] ?? 0, logBackoff: logBackoffs?[entry] ?? 0)
            }
        }
        try row.finish()
    }
}

/// Inserts n-gram rows in key order through prepared statements with raw integer binds (the hot
/// loop of a build). Rows are bound into a statement of ``batch`` rows (`INSERT … VALUES (…), (…),
/// …`) and stepped once per batch: a step costs far more than a bind (on gutenberg-100m's 12
/// million rows, one step per row spent about 0.6 µs a row in the step alone). ``finish()``
/// inserts the rows of the last, partial batch one by one.
final class NgramRowInserter {
    let n: Int
    let logProbs: Bool
    let logBackoffs: Bool
    /// Rows per step of the batch statement.
    static let batch = 256
    private let columns: Int
    private let single: Statement
    private let many: Statement
    private let connection: SQLiteConnection?
    /// Rows bound into `many` and not yet stepped.
    private var pending = 0
    /// The pending rows' values, for `finish()` (`columns` per row).
    private var values: [Int64]

    init(order n: Int, logProbs: Bool, logBackoffs: Bool, into name: String, db: Database) throws {
        self.n = n
        self.logProbs = logProbs
        self.logBackoffs = logBackoffs
        columns = n + 1 + (logProbs ? 1 : 0) + (logBackoffs ? 1 : 0)
        let names = (1...n).map { "w\($0)" }.joined(separator: ", ") + ", count"
            + (logProbs ? ", logprob" : "") + (logBackoffs ? ", backoff" : "")
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        single = try db.makeStatement(sql: "INSERT INTO \(name)(\(names)) VALUES \(row)")
        many = try db.makeStatement(sql: "INSERT INTO \(name)(\(names)) VALUES " + Array(repeating: row, count: Self.batch).joined(separator: ", "))
        connection = db.sqliteConnection
        values = Array(repeating: 0, count: Self.batch * columns)
    }

    /// Inserts the n-gram `ids[0..<n]`; `logProb` and `logBackoff` are ignored for columns the
    /// table does not have. Rows must come in key order; call ``finish()`` after the last.
    @inline(__always)
    func insert(_ ids: UnsafePointer<UInt32>, count: UInt32, logProb: Double, logBackoff: Double) throws {
        let base = pending * columns
        for j in 0..<n { values[base + j] = Int64(ids[j]) }
        values[base + n] = Int64(count)
        if logProbs { values[base + n + 1] = StoreWriter.quantized(logProb) }
        if logBackoffs { values[base + n + 2] = StoreWriter.quantized(logBackoff) }
        pending += 1
        if pending == Self.batch {
            try step(many, rows: Self.batch, from: 0)
            pending = 0
        }
    }

    /// Inserts the rows of the last, partial batch.
    func finish() throws {
        for r in 0..<pending { try step(single, rows: 1, from: r) }
        pending = 0
    }

    private func step(_ statement: Statement, rows: Int, from first: Int) throws {
        let handle = statement.sqliteStatement
        try values.withUnsafeBufferPointer { v in
            let start = first * columns
            for i in 0..<(rows * columns) { sqlite3_bind_int64(handle, Int32(i + 1), v[start + i]) }
            let status = sqlite3_step(handle)
            guard status == SQLITE_DONE else {
                throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(connection)))
            }
            sqlite3_reset(handle)
        }
    }
}

/// One prepared `INSERT` into `<table>_top`: the list of a busy context's best continuations.
struct TopListInserter {
    /// A continuation: its last word id and quantized log10 probability.
    typealias Row = (id: UInt32, lp: Int64)
    let n: Int
    private let statement: Statement
    private let handle: SQLiteStatement
    private let connection: SQLiteConnection?

    init(order n: Int, db: Database) throws {
        self.n = n
        let context = (1..<n).map { "w\($0)" }.joined(separator: ", ")
        statement = try db.makeStatement(sql: "INSERT INTO \(StoreSchema.topTable(order: n))(\(context), continuations, top) VALUES (\(Array(repeating: "?", count: n + 1).joined(separator: ", ")))")
        handle = statement.sqliteStatement
        connection = db.sqliteConnection
    }

    /// Writes the row of the context `context[0..<n-1]`, whose continuations are all of `rows`
    /// (sorted here: logprob descending, ties by id).
    func insert(context: UnsafePointer<UInt32>, rows: inout [Row]) throws {
        let continuations = rows.count
        rows.sort { (a: Row, b: Row) -> Bool in a.lp > b.lp || (a.lp == b.lp && a.id < b.id) }
        let best = rows.prefix(StoreSchema.topLength)
        var blob = [UInt8]()
        blob.reserveCapacity(best.count * StoreSchema.topEntryBytes)
        for entry in best {
            withUnsafeBytes(of: entry.id.littleEndian) { blob.append(contentsOf: $0) }
            withUnsafeBytes(of: Int16(clamping: entry.lp).littleEndian) { blob.append(contentsOf: $0) }
        }
        for j in 0..<(n - 1) { sqlite3_bind_int64(handle, Int32(j + 1), Int64(context[j])) }
        sqlite3_bind_int64(handle, Int32(n), Int64(continuations))
        _ = blob.withUnsafeBytes { sqlite3_bind_blob(handle, Int32(n + 1), $0.baseAddress, Int32($0.count), transientBlob) }
        let status = sqlite3_step(handle)
        guard status == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(connection)))
        }
        sqlite3_reset(handle)
    }
}

/// SQLite's SQLITE_TRANSIENT: the bound bytes are copied before `sqlite3_bind_blob` returns.
private let transientBlob = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
