import Foundation
import GRDB

extension TrainedStore {
    /// Opens a store file read-only and checks its application id and schema version: the first
    /// step of every reader (``TrainedStore``, ``VocabularyStore``).
    /// - Throws: ``StoreError`` `.missing`, `.notAStore` or `.wrongVersion`, each saying how to rebuild.
    static func openReadOnly(path: String) throws -> DatabaseQueue {
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError.missing(path) }
        var configuration = Configuration()
        configuration.readonly = true
        // A store is never changed in place (builds, `learn` and `merge` rename a new file over
        // it), so the connection takes its shared lock once and keeps it, and maps the file:
        // no lock, journal check or page copy per query.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE; PRAGMA mmap_size = 268435456")
        }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw StoreError.notAStore(path, "\(error)")
        }
        let (applicationID, version): (Int32, Int)
        do {
            (applicationID, version) = try queue.read { db in
                (try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
                 try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0)
            }
        } catch {
            throw StoreError.notAStore(path, "SQLite cannot read it: \((error as? DatabaseError)?.message ?? "\(error)")")
        }
        guard applicationID == StoreSchema.applicationID else {
            throw StoreError.notAStore(path, version == 0 ? "no Lexiforge application id; an unfinished build or another database" : "foreign application id \(applicationID)")
        }
        guard version == StoreSchema.version else {
            throw StoreError.wrongVersion(path, found: version, expected: StoreSchema.version)
        }
        return queue
    }
}
