import Foundation
import GRDB
import GRDBSQLite
import LexiforgeNgrams
import LexiforgeReader

/// Why a store could not be written.
public enum StoreWriteError: Error, CustomStringConvertible, Sendable {
    case outputDirectoryMissing(String)
    case outputNotWritable(String, String)
    case outputIsDirectory(String)
    case sqlite(String, String)

    public var description: String {
        switch self {
        case .outputDirectoryMissing(let dir):
            return "\(dir): output folder does not exist; create it (mkdir -p) or choose another -o path"
        case .outputNotWritable(let path, let reason):
            return "\(path): cannot write the store here (\(reason)); choose a writable -o path"
        case .outputIsDirectory(let path):
            return "\(path): is a directory; -o takes the path of the store file to write, e.g. \(path)/model.sqlite"
        case .sqlite(let path, let reason):
            return "\(path): SQLite failed while writing the store (\(reason)); check free disk space and permissions"
        }
    }
}

/// Writes a store at `path` atomically: everything goes into a temporary file beside it, which is
/// stamped with the schema version last and renamed over `path` only when complete. If anything
/// fails, the temporary file is removed and whatever was at `path` stays untouched.
///
/// Call ``prepare(path:)`` before the long work so an unwritable destination fails in
/// milliseconds, not after counting a corpus.
public final class AtomicStoreFile {
    public let path: String
    public let temporaryPath: String
    private var finished = false

    /// Checks the destination and creates the temporary file.
    public static func prepare(path: String) throws(StoreWriteError) -> AtomicStoreFile {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            throw .outputIsDirectory(path)
        }
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw .outputDirectoryMissing(dir)
        }
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)").path
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { throw .outputNotWritable(path, String(cString: strerror(errno))) }
        close(fd)
        unlink(temporary)
        return AtomicStoreFile(path: path, temporaryPath: temporary)
    }

    private init(path: String, temporaryPath: String) {
        self.path = path
        self.temporaryPath = temporaryPath
    }

    deinit { if !finished { discard() } }

    /// Removes the temporary file (and its journal, if any).
    public func discard() {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporaryPath + suffix) }
        finished = true
    }

    /// Renames the complete temporary file over the destination.
    public func commit() throws(StoreWriteError) {
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw .outputNotWritable(path, reason)
        }
        finished = true
    }
}

/// Builds a store's SQLite file from plain values.
///
/// In: ``NgramCounts`` and provenance key/values. Out: a complete store at ``AtomicStoreFile/path``
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

    public static func write(
        counts: NgramCounts, meta: [String: String], words columns: WordColumns? = nil, to file: AtomicStoreFile
    ) throws(StoreWriteError) {
        do {
            var configuration = Configuration()
            configuration.journalMode = .default
            let queue = try DatabaseQueue(path: file.temporaryPath, configuration: configuration)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: """
                    PRAGMA page_size = \(pageSize(for: counts));
                    PRAGMA journal_mode = OFF;
                    PRAGMA synchronous = OFF;
                    PRAGMA locking_mode = EXCLUSIVE;
                    PRAGMA cache_size = -65536;
                    """)
                try db.inTransaction {
                    for sql in StoreSchema.creationStatements(order: counts.order, wordClasses: columns != nil)
                    where !sql.hasPrefix("CREATE UNIQUE INDEX") && !sql.hasPrefix("CREATE INDEX") {
                        try db.execute(sql: sql)
                    }
                    let metaInsert = try db.makeStatement(sql: "INSERT INTO meta(key, value) VALUES (?, ?)")
                    for key in meta.keys.sorted() { try metaInsert.execute(arguments: [key, meta[key]!]) }
                    let wordInsert = try db.makeStatement(sql: "INSERT INTO word(id, text, count) VALUES (?, ?, ?)")
                    for (id, word) in counts.words.enumerated() {
                        try wordInsert.execute(arguments: [id, word, Int64(counts.unigramCounts[id])])
                    }
                    if let columns {
                        let classInsert = try db.makeStatement(sql: "INSERT INTO word_class(word, lemma, script) VALUES (?, ?, ?)")
                        for id in counts.words.indices {
                            try classInsert.execute(arguments: [id, columns.lemmas[id], Int64(columns.scripts[id])])
                        }
                    }
                    for table in counts.tables {
                        try insert(table, into: StoreSchema.ngramTable(order: table.n), db: db)
                    }
                    for sql in StoreSchema.creationStatements(order: counts.order, wordClasses: columns != nil)
                    where sql.hasPrefix("CREATE UNIQUE INDEX") || sql.hasPrefix("CREATE INDEX") {
                        try db.execute(sql: sql)
                    }
                    return .commit
                }
                // Repack every b-tree so pages are full (about a tenth smaller), then stamp the
                // version: a store without it is refused by every reader.
                try db.execute(sql: "VACUUM")
                try db.execute(sql: "PRAGMA application_id = \(StoreSchema.applicationID)")
                try db.execute(sql: "PRAGMA user_version = \(StoreSchema.version)")
            }
            try queue.close()
        } catch let error as DatabaseError {
            file.discard()
            throw .sqlite(file.path, error.message ?? error.description)
        } catch {
            file.discard()
            throw .sqlite(file.path, "\(error)")
        }
        try file.commit()
    }

    /// Small stores (what a keyboard ships for one chapter or one app) use 1 KiB pages, which waste
    /// less in the partly filled last page of each table and index; larger ones SQLite's default 4 KiB.
    static func pageSize(for counts: NgramCounts) -> Int {
        let rows = counts.words.count + counts.tables.reduce(0) { $0 + $1.entryCount }
        return rows < 100_000 ? 1024 : 4096
    }

    /// Bulk insert with one prepared statement and raw integer binds (the hot loop of a build).
    private static func insert(_ table: NgramCounts.Table, into name: String, db: Database) throws {
        let n = table.n
        let columns = (1...n).map { "w\($0)" }.joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: n + 1).joined(separator: ", ")
        let statement = try db.makeStatement(sql: "INSERT INTO \(name)(\(columns), count) VALUES (\(placeholders))")
        let handle = statement.sqliteStatement
        try table.keys.withUnsafeBufferPointer { keys in
            for entry in 0..<table.entryCount {
                for j in 0..<n { sqlite3_bind_int64(handle, Int32(j + 1), Int64(keys[entry * n + j])) }
                sqlite3_bind_int64(handle, Int32(n + 1), Int64(table.counts[entry]))
                let status = sqlite3_step(handle)
                guard status == SQLITE_DONE else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: status),
                                        message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                }
                sqlite3_reset(handle)
            }
        }
    }
}
