import Foundation
import GRDB
import GRDBSQLite
import LexiforgeReader

extension StoreWriter {
    /// Writes a hidden Markov store: `meta`, the vocabulary (`word`: the model's words) and the
    /// `hmm_*` tables of ``StoreSchema/HMM``, atomically (see ``AtomicStoreFile``).
    ///
    /// In: ``HMMTables`` and provenance key/values. Out: a complete store at the file's path;
    /// rows go in key order in one transaction through prepared statements, `user_version` last.
    public static func write(
        hmm tables: HMMTables, meta: [String: String], to file: AtomicStoreFile
    ) throws(StoreWriteError) {
        let rows = tables.emissions.count + tables.suffixes.count + tables.words.count
        try build(file, pageSize: rows < 100_000 ? 1024 : 4096) { db in
            for sql in StoreSchema.creationStatements(order: 1) { try db.execute(sql: sql) }
            let metaInsert = try db.makeStatement(sql: "INSERT INTO meta(key, value) VALUES (?, ?)")
            for key in meta.keys.sorted() { try metaInsert.execute(arguments: [key, meta[key]!]) }
            try WordRows.insert(db, texts: tables.words, counts: tables.wordCounts)
            try insertHMM(tables, db: db)
        }
    }

    /// Creates and fills the `hmm_*` tables of ``StoreSchema/HMM`` in an open store whose `word`
    /// table holds every word id the tables use.
    static func insertHMM(_ tables: HMMTables, db: Database) throws {
        for sql in StoreSchema.HMM.creationStatements { try db.execute(sql: sql) }
        let state = try db.makeStatement(sql: "INSERT INTO hmm_state(id, name, count, logprob) VALUES (?, ?, ?, ?)")
        for (id, name) in tables.states.enumerated() {
            try state.execute(arguments: [id, name, tables.stateCounts[id], finite(tables.stateLogprobs[id])])
        }
        let initial = try db.makeStatement(sql: "INSERT INTO hmm_initial(state, logprob) VALUES (?, ?)")
        for (s, lp) in tables.initial.enumerated() where s > 0 && lp.isFinite {
            try initial.execute(arguments: [s, min(lp, 0)])
        }
        let t1 = try db.makeStatement(sql: "INSERT INTO hmm_transition(s1, s2, logprob) VALUES (?, ?, ?)")
        for t in tables.transitions.sorted(by: { ($0.s1, $0.s2) < ($1.s1, $1.s2) }) {
            try t1.execute(arguments: [t.s1, t.s2, min(t.logprob, 0)])
        }
        let t2 = try db.makeStatement(sql: "INSERT INTO hmm_transition2(s1, s2, s3, logprob) VALUES (?, ?, ?, ?)")
        for t in tables.transitions2.sorted(by: { ($0.s1, $0.s2, $0.s3) < ($1.s1, $1.s2, $1.s3) }) {
            try t2.execute(arguments: [t.s1, t.s2, t.s3, min(t.logprob, 0)])
        }
        let emission = try db.makeStatement(sql: "INSERT INTO hmm_emission(word, state, logprob) VALUES (?, ?, ?)")
        let handle = emission.sqliteStatement
        for e in tables.emissions.sorted(by: { ($0.word, $0.state) < ($1.word, $1.state) }) {
            sqlite3_bind_int64(handle, 1, Int64(e.word))
            sqlite3_bind_int64(handle, 2, Int64(e.state))
            sqlite3_bind_double(handle, 3, min(e.logprob, 0))
            try step(handle, db)
        }
        for (name, rows) in [("hmm_lexical", tables.lexical), ("hmm_emission2", tables.emissions2)] {
            let insert = try db.makeStatement(sql: "INSERT INTO \(name)(word, s1, s2, count) VALUES (?, ?, ?, ?)")
            for l in rows.sorted(by: { ($0.word, $0.s1, $0.s2) < ($1.word, $1.s1, $1.s2) }) {
                try insert.execute(arguments: [l.word, l.s1, l.s2, l.count])
            }
        }
        let suffix = try db.makeStatement(sql: "INSERT INTO hmm_suffix(class, suffix, state, count) VALUES (?, ?, ?, ?)")
        let suffixHandle = suffix.sqliteStatement
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for x in tables.suffixes.sorted(by: { ($0.shape.rawValue, $0.suffix, $0.state) < ($1.shape.rawValue, $1.suffix, $1.state) }) {
            sqlite3_bind_int64(suffixHandle, 1, Int64(x.shape.rawValue))
            sqlite3_bind_text(suffixHandle, 2, x.suffix, -1, transient)
            sqlite3_bind_int64(suffixHandle, 3, Int64(x.state))
            sqlite3_bind_int64(suffixHandle, 4, Int64(x.count))
            try step(suffixHandle, db)
        }
        let parameter = try db.makeStatement(sql: "INSERT INTO hmm_parameter(name, value) VALUES (?, ?)")
        for key in tables.parameters.keys.sorted() { try parameter.execute(arguments: [key, tables.parameters[key]!]) }
    }

    /// Runs a bound statement once and resets it for the next row.
    private static func step(_ handle: OpaquePointer?, _ db: Database) throws {
        let status = sqlite3_step(handle)
        guard status == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        sqlite3_reset(handle)
    }

    /// SQLite stores no infinities in a `REAL NOT NULL` column that readers can trust; an
    /// impossible state gets a very small log probability instead.
    private static func finite(_ x: Double) -> Double { x.isFinite ? min(x, 0) : -1e30 }
}
