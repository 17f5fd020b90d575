import Foundation
import GRDB
import GRDBSQLite

/// What a reader check found wrong in a store's contents, without the file: ``TrainedStore``
/// turns it into ``StoreError/damaged(_:_:)`` naming the file (see ``TrainedStore/checked(_:)``).
///
/// Every value the reader takes from a store is checked before use: ids are in the vocabulary
/// before they index it, counts are integers in `0...`, log values are integers of at most
/// ``StoreSchema/maxLogValue`` in magnitude, text is text, and `meta` values are ones this reader
/// knows. A damaged store gives an error, never a crash of the app that links the reader.
struct StoreDamage: Error, CustomStringConvertible {
    let what: String
    init(_ what: String) { self.what = what }
    var description: String { what }
}

extension StoreSchema {
    /// The largest magnitude of a stored log value (log10 × ``logScale``): 10^−1000 is far below any
    /// probability a model stores (`<s>` has −99 × 1000), so anything larger is damage.
    public static let maxLogValue: Int64 = 1_000_000
    /// The largest count a store may hold for a word or an n-gram (2^48, far beyond any corpus);
    /// larger is damage, and sums of counts cannot overflow.
    public static let maxCount: Int64 = 1 << 48
}

extension TrainedStore {
    /// The error to throw for `error` met while reading this store: SQLite errors (a missing table,
    /// a damaged page), values of the wrong type and failed checks become
    /// ``StoreError/damaged(_:_:)`` naming the file; other errors pass unchanged.
    func storeError(_ error: any Error) -> any Error {
        switch error {
        case let damage as StoreDamage:
            return StoreError.damaged(path, damage.what)
        case let error as DatabaseError:
            return StoreError.damaged(path, Self.describe(error))
        case let error as RowDecodingError:
            return StoreError.damaged(path, "a value of the wrong type (\(error))")
        default:
            return error
        }
    }

    /// A SQLite error as one line, naming the missing table when that is what it is.
    static func describe(_ error: DatabaseError) -> String {
        let message = error.message ?? "\(error)"
        if message.hasPrefix("no such table: ") {
            return "table `\(message.dropFirst("no such table: ".count))` is missing"
        }
        return "SQLite error \(error.resultCode.rawValue): \(message)"
    }

    /// Runs `body` on the store's connection (no transaction), turning what goes wrong into
    /// errors that name the file (``storeError(_:)``).
    func checked<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.inDatabase(body)
        } catch {
            throw storeError(error)
        }
    }
}

/// Checked reads of store values: the declared SQLite type and a range, or ``StoreDamage`` naming
/// the table and the column. (GRDB's `row[i]` stops the process on a value of the wrong type.)
extension Row {
    /// An INTEGER in `range`.
    func integer(_ index: Int, _ table: String, _ column: String, in range: ClosedRange<Int64> = Int64.min...Int64.max) throws -> Int64 {
        let value: DatabaseValue = self[index]
        guard case .int64(let v) = value.storage else {
            throw StoreDamage("`\(table).\(column)` holds \(Self.show(value)) where an integer belongs")
        }
        guard range.contains(v) else {
            throw StoreDamage("`\(table).\(column)` holds \(v), outside \(range.lowerBound)...\(range.upperBound)")
        }
        return v
    }

    /// An INTEGER in `range`, as an `Int`.
    func int(_ index: Int, _ table: String, _ column: String, in range: ClosedRange<Int64> = Int64.min...Int64.max) throws -> Int {
        Int(truncatingIfNeeded: try integer(index, table, column, in: range))
    }

    /// An INTEGER in `range`, or nil for NULL.
    func optionalInt(_ index: Int, _ table: String, _ column: String, in range: ClosedRange<Int64> = Int64.min...Int64.max) throws -> Int? {
        if (self[index] as DatabaseValue).isNull { return nil }
        return try int(index, table, column, in: range)
    }

    /// A word id: an INTEGER in `0..<words`.
    func wordID(_ index: Int, _ table: String, _ column: String, words: Int) throws -> Int {
        let v = try integer(index, table, column)
        guard v >= 0, v < Int64(words) else {
            throw StoreDamage("`\(table).\(column)` holds word id \(v), but the vocabulary has \(words) words")
        }
        return Int(v)
    }

    /// A count: an INTEGER in `0...StoreSchema.maxCount`.
    func count(_ index: Int, _ table: String, _ column: String = "count") throws -> Int64 {
        try integer(index, table, column, in: 0...StoreSchema.maxCount)
    }

    /// A log value in store units: an INTEGER of magnitude at most ``StoreSchema/maxLogValue``.
    func logValue(_ index: Int, _ table: String, _ column: String) throws -> Int64 {
        try integer(index, table, column, in: -StoreSchema.maxLogValue...StoreSchema.maxLogValue)
    }

    /// A REAL (an INTEGER is taken as one), not NaN; `finite` also refuses ±infinity.
    func real(_ index: Int, _ table: String, _ column: String, finite: Bool = false) throws -> Double {
        let value: DatabaseValue = self[index]
        let v: Double
        switch value.storage {
        case .double(let d): v = d
        case .int64(let i): v = Double(i)
        default: throw StoreDamage("`\(table).\(column)` holds \(Self.show(value)) where a number belongs")
        }
        guard !v.isNaN, !finite || v.isFinite else { throw StoreDamage("`\(table).\(column)` holds \(v)") }
        return v
    }

    /// TEXT.
    func text(_ index: Int, _ table: String, _ column: String) throws -> String {
        let value: DatabaseValue = self[index]
        guard case .string(let s) = value.storage else {
            throw StoreDamage("`\(table).\(column)` holds \(Self.show(value)) where text belongs")
        }
        return s
    }

    /// TEXT, or nil for NULL.
    func optionalText(_ index: Int, _ table: String, _ column: String) throws -> String? {
        if (self[index] as DatabaseValue).isNull { return nil }
        return try text(index, table, column)
    }

    /// A BLOB, or nil for NULL.
    func optionalBlob(_ index: Int, _ table: String, _ column: String) throws -> Data? {
        let value: DatabaseValue = self[index]
        switch value.storage {
        case .null: return nil
        case .blob(let data): return data
        default: throw StoreDamage("`\(table).\(column)` holds \(Self.show(value)) where a blob belongs")
        }
    }

    /// A short rendering of a value for a message.
    static func show(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .int64(let v): return "\(v)"
        case .double(let v): return "\(v)"
        case .string(let s): return "text \(String(s.prefix(20)).debugDescription)"
        case .blob(let d): return "a \(d.count)-byte blob"
        }
    }
}

/// Checked reads of raw statement columns: the predictor's hot loops, and whole-table reads at
/// load (the vocabulary's counts, the swipe features), where GRDB's `Row` costs a `DatabaseValue`
/// per column. The messages are those of the `Row` reads above.
enum RawColumn {
    /// Runs `body` on each row of `sql` with `arguments`, given the stepped statement's handle (the
    /// statement lives until the last row: a handle outliving its `Statement` would be finalized).
    static func forEachRow(_ db: Database, sql: String, arguments: StatementArguments = [], _ body: (OpaquePointer?) throws -> Void) throws {
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        try withExtendedLifetime(statement) {
            let handle = statement.sqliteStatement
            while true {
                switch sqlite3_step(handle) {
                case SQLITE_ROW: try body(handle)
                case SQLITE_DONE: return
                case let status: throw error(db, status)
                }
            }
        }
    }

    /// A column's value as the `Row` reads' messages show it.
    static func shown(_ handle: OpaquePointer?, _ column: Int32) -> String {
        Row.show(handle.map { DatabaseValue(sqliteStatement: $0, index: column) } ?? .null)
    }

    /// The error of a failed step.
    static func error(_ db: Database, _ status: Int32) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
    }

    /// An INTEGER column of a stepped statement in `range`, or ``StoreDamage``.
    @inline(__always)
    static func integer(_ handle: OpaquePointer?, _ column: Int32, _ what: @autoclosure () -> String,
                        in range: ClosedRange<Int64> = Int64.min...Int64.max) throws -> Int64 {
        guard sqlite3_column_type(handle, column) == SQLITE_INTEGER else {
            throw StoreDamage("\(what()) holds \(shown(handle, column)) where an integer belongs")
        }
        let v = sqlite3_column_int64(handle, column)
        guard range.contains(v) else { throw StoreDamage("\(what()) holds \(v), outside \(range.lowerBound)...\(range.upperBound)") }
        return v
    }

    /// A word id of a stepped statement: an INTEGER in `0..<words`.
    @inline(__always)
    static func wordID(_ handle: OpaquePointer?, _ column: Int32, _ what: @autoclosure () -> String, words: Int) throws -> Int {
        let v = try integer(handle, column, what())
        guard v >= 0, v < Int64(words) else { throw StoreDamage("\(what()) holds word id \(v), but the vocabulary has \(words) words") }
        return Int(v)
    }

    /// A log value (``StoreSchema/maxLogValue``) of a stepped statement.
    @inline(__always)
    static func logValue(_ handle: OpaquePointer?, _ column: Int32, _ what: @autoclosure () -> String) throws -> Int {
        let v = try integer(handle, column, what())
        guard v >= -StoreSchema.maxLogValue, v <= StoreSchema.maxLogValue else {
            throw StoreDamage("\(what()) holds \(v), outside ±\(StoreSchema.maxLogValue)")
        }
        return Int(v)
    }

    /// A REAL column of a stepped statement (an INTEGER is taken as one), not NaN; `finite` also
    /// refuses ±infinity. Or ``StoreDamage``.
    @inline(__always)
    static func real(_ handle: OpaquePointer?, _ column: Int32, _ what: @autoclosure () -> String, finite: Bool = false) throws -> Double {
        let v: Double
        switch sqlite3_column_type(handle, column) {
        case SQLITE_FLOAT: v = sqlite3_column_double(handle, column)
        case SQLITE_INTEGER: v = Double(sqlite3_column_int64(handle, column))
        default: throw StoreDamage("\(what()) holds \(shown(handle, column)) where a number belongs")
        }
        guard !v.isNaN, !finite || v.isFinite else { throw StoreDamage("\(what()) holds \(v)") }
        return v
    }

    /// A TEXT column of a stepped statement as a string, or ``StoreDamage``.
    @inline(__always)
    static func string(_ handle: OpaquePointer?, _ column: Int32, _ what: @autoclosure () -> String) throws -> String {
        String(decoding: try text(handle, column, what()), as: UTF8.self)
    }

    /// A TEXT column of a stepped statement as its UTF-8 bytes, or ``StoreDamage``. The bytes are
    /// SQLite's, valid until the statement steps or resets.
    @inline(__always)
    static func text(_ handle: OpaquePointer?, _ column: Int32, _ what: @autoclosure () -> String) throws -> UnsafeBufferPointer<UInt8> {
        guard sqlite3_column_type(handle, column) == SQLITE_TEXT else {
            throw StoreDamage("\(what()) holds \(shown(handle, column)) where text belongs")
        }
        let bytes = sqlite3_column_text(handle, column)   // before the length, as SQLite asks
        return UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// A BLOB column of a stepped statement (empty for a zero-length blob), nil for NULL, or
    /// ``StoreDamage``. The bytes are SQLite's, valid until the statement steps or resets.
    @inline(__always)
    static func optionalBlob(_ handle: OpaquePointer?, _ column: Int32, _ what: @autoclosure () -> String) throws -> UnsafeRawBufferPointer? {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: return nil
        case SQLITE_BLOB:
            let bytes = sqlite3_column_blob(handle, column)   // before the length, as SQLite asks
            return UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column)))
        default:
            throw StoreDamage("\(what()) holds \(shown(handle, column)) where a blob belongs")
        }
    }
}
