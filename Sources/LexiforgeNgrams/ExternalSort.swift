import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a build under a memory budget could not use its temporary folder: one line naming the
/// folder and what to do.
public enum SpillError: Error, CustomStringConvertible, Sendable, Equatable {
    case folderMissing(String)
    case notWritable(String, String)
    /// Writing failed (`ENOSPC`: the disk is full); `bytes` had been written to the folder.
    case writeFailed(String, String, bytes: Int)
    case readFailed(String, String)

    public var description: String {
        switch self {
        case .folderMissing(let dir):
            return "\(dir): temporary folder does not exist or is not a folder; create it or choose another with --temp"
        case .notWritable(let dir, let reason):
            return "\(dir): cannot create temporary files here (\(reason)); choose a writable folder with --temp"
        case .writeFailed(let path, let reason, let bytes):
            return "\(path): cannot write sorted n-grams to the temporary folder (\(reason)) after \(bytes / 1_048_576) MiB; free space there or choose another folder with --temp"
        case .readFailed(let path, let reason):
            return "\(path): cannot read back a temporary file (\(reason)); was the temporary folder changed during the build?"
        }
    }
}

/// A private folder for the temporary files of one build: `DIR/.lexiforge-spill-PID-XXXXXX`
/// (mode 0700, `mkdtemp`), removed with everything in it when the value is released, whether the
/// build succeeded or failed. Folders left by a killed build (their process no longer exists) are
/// removed by the next one that uses the same `DIR`.
public final class SpillFolder: @unchecked Sendable {
    public let path: String
    private var counter = 0
    private let lock = NSLock()
    /// Bytes written to the folder so far (for messages and the report).
    public private(set) var bytesWritten = 0

    static let prefix = ".lexiforge-spill-"

    public init(in dir: String) throws(SpillError) {
        var info = stat()
        guard stat(dir, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { throw .folderMissing(dir) }
        Self.removeAbandoned(in: dir)
        var template = Array("\(dir)/\(Self.prefix)\(getpid())-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard created else { throw .notWritable(dir, String(cString: strerror(errno))) }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    deinit { remove() }

    /// Removes the folder and everything in it (again: nothing). The build that made it calls this
    /// when it ends, success or failure, rather than waiting for the last reference to go: an
    /// error leaves the process soon after, and a reference still held then (a counting thread's,
    /// an error's) would leave the folder behind.
    public func remove() {
        lock.lock()
        defer { lock.unlock() }
        guard !removed else { return }
        removed = true
        try? FileManager.default.removeItem(atPath: path)
    }
    private var removed = false

    /// A fresh file name inside the folder.
    func newFile(_ name: String) -> String {
        lock.lock()
        defer { lock.unlock() }
        counter += 1
        return "\(path)/\(counter)-\(name)"
    }

    func wrote(_ bytes: Int) {
        lock.lock()
        bytesWritten += bytes
        lock.unlock()
    }

    /// Removes the spill folders of builds that no longer run (never a live one's, never
    /// anything of another user's or not a folder).
    static func removeAbandoned(in dir: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        let me = getpid()
        for entry in names where entry.hasPrefix(prefix) {
            let digits = entry.dropFirst(prefix.count).prefix { $0.isASCII && $0.isNumber }
            guard let pid = Int32(digits), pid != me, kill(pid, 0) == -1, errno == ESRCH else { continue }
            let full = dir + "/" + entry
            var info = stat()
            guard lstat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() else { continue }
            try? FileManager.default.removeItem(atPath: full)
        }
    }
}

/// Writes fixed-size records (their raw bytes) to a file, through a buffer.
final class RecordWriter<R: BitwiseCopyable> {
    let path: String
    private let fd: Int32
    private var buffer: UnsafeMutableBufferPointer<R>
    private var used = 0
    private(set) var written = 0
    private let folder: SpillFolder

    init(_ folder: SpillFolder, name: String, bufferBytes: Int = 1 << 20) throws(SpillError) {
        self.folder = folder
        path = folder.newFile(name)
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .notWritable(folder.path, String(cString: strerror(errno))) }
        buffer = .allocate(capacity: max(1, bufferBytes / MemoryLayout<R>.stride))
    }

    deinit {
        buffer.deallocate()
        if fd >= 0 { close(fd) }
    }

    @inline(__always)
    func append(_ record: R) throws(SpillError) {
        if used == buffer.count { try flush() }
        buffer[used] = record
        used += 1
        written += 1
    }

    func append(contentsOf records: UnsafeBufferPointer<R>) throws(SpillError) {
        for r in records { try append(r) }
    }

    func flush() throws(SpillError) {
        let bytes = UnsafeRawBufferPointer(start: buffer.baseAddress, count: used * MemoryLayout<R>.stride)
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw .writeFailed(path, String(cString: strerror(errno)), bytes: folder.bytesWritten)
            }
            offset += n
        }
        folder.wrote(bytes.count)
        used = 0
    }

    /// Flushes and returns the number of records written.
    func finish() throws(SpillError) -> Int {
        try flush()
        return written
    }
}

/// Reads the records a ``RecordWriter`` wrote, in order, through a buffer.
final class RecordReader<R: BitwiseCopyable> {
    let path: String
    private let fd: Int32
    private var buffer: UnsafeMutableBufferPointer<R>
    private var filled = 0
    private var position = 0
    private var ended = false

    init(path: String, bufferBytes: Int = 1 << 20) throws(SpillError) {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .readFailed(path, String(cString: strerror(errno))) }
        buffer = .allocate(capacity: max(1, bufferBytes / MemoryLayout<R>.stride))
    }

    deinit {
        buffer.deallocate()
        close(fd)
    }

    @inline(__always)
    func next() throws(SpillError) -> R? {
        if position == filled {
            if ended { return nil }
            try refill()
            if filled == 0 { return nil }
        }
        position += 1
        return buffer[position - 1]
    }

    private func refill() throws(SpillError) {
        let stride = MemoryLayout<R>.stride
        let raw = UnsafeMutableRawBufferPointer(start: buffer.baseAddress, count: buffer.count * stride)
        var got = 0
        while got < raw.count {
            let n = read(fd, raw.baseAddress! + got, raw.count - got)
            if n < 0 {
                if errno == EINTR { continue }
                throw .readFailed(path, String(cString: strerror(errno)))
            }
            if n == 0 { ended = true; break }
            got += n
        }
        guard got % stride == 0 else { throw .readFailed(path, "it ends inside a record") }
        filled = got / stride
        position = 0
    }
}

/// Records with an order, for ``ExternalSorter``.
package protocol SortableRecord: BitwiseCopyable {
    static func precedes(_ a: Self, _ b: Self) -> Bool
}

/// Sorts more records than memory holds: records are collected in a buffer of `budget` bytes;
/// a full buffer is sorted and written to the spill folder as a run; ``finish(_:)`` merges the
/// runs (a binary heap of run readers) and hands every record over in order. When everything fit
/// in one buffer nothing is written. Records that compare equal come out in an unspecified order:
/// callers either have unique keys or combine equal ones with an operation where order does not
/// matter (a saturating sum).
package final class ExternalSorter<R: SortableRecord> {
    private let folder: SpillFolder
    private let name: String
    private var buffer: [R] = []
    private let capacity: Int
    private var runs: [String] = []
    /// Runs this sorter wrote, the last (written by ``finish(_:)``) included: 0 when everything fit.
    package private(set) var runsWritten = 0

    package init(folder: SpillFolder, name: String, budget: Int) {
        self.folder = folder
        self.name = name
        // The standard library's sort (a merge sort) takes up to half the buffer again.
        capacity = max(1024, budget * 2 / 3 / MemoryLayout<R>.stride)
    }

    @inline(__always)
    package func append(_ record: R) throws(SpillError) {
        if buffer.count == capacity { try spill() }
        // Reserved at once (pages are only committed as records arrive): no copies while growing.
        if buffer.capacity == 0 { buffer.reserveCapacity(capacity) }
        buffer.append(record)
    }

    private func spill() throws(SpillError) {
        buffer.sort(by: R.precedes)
        let writer = try RecordWriter<R>(folder, name: "\(name)-run\(runs.count)")
        try buffer.withUnsafeBufferPointer { (b) throws(SpillError) in try writer.append(contentsOf: b) }
        _ = try writer.finish()
        runs.append(writer.path)
        runsWritten += 1
        buffer.removeAll(keepingCapacity: true)
    }

    /// Hands every record to `body` in order; the sorter is empty afterwards.
    package func finish(_ body: (R) throws -> Void) throws {
        if runs.isEmpty {
            buffer.sort(by: R.precedes)
            let sorted = buffer
            buffer = []
            for r in sorted { try body(r) }
            return
        }
        if !buffer.isEmpty { try spill() }
        buffer = []
        let readerBytes = max(64 << 10, min(1 << 20, capacity * MemoryLayout<R>.stride / max(1, 2 * runs.count)))
        var readers: [RecordReader<R>] = []
        for path in runs { readers.append(try RecordReader<R>(path: path, bufferBytes: readerBytes)) }
        // A binary min-heap of (head record, reader index).
        var heap: [(R, Int)] = []
        heap.reserveCapacity(readers.count)
        for (i, reader) in readers.enumerated() {
            if let first = try reader.next() { heap.append((first, i)) }
        }
        func less(_ a: (R, Int), _ b: (R, Int)) -> Bool {
            R.precedes(a.0, b.0) || (!R.precedes(b.0, a.0) && a.1 < b.1)
        }
        func siftDown(_ start: Int) {
            var i = start
            while true {
                let l = 2 * i + 1, r = l + 1
                var smallest = i
                if l < heap.count && less(heap[l], heap[smallest]) { smallest = l }
                if r < heap.count && less(heap[r], heap[smallest]) { smallest = r }
                if smallest == i { return }
                heap.swapAt(i, smallest)
                i = smallest
            }
        }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
        while !heap.isEmpty {
            let (record, i) = heap[0]
            try body(record)
            if let next = try readers[i].next() {
                heap[0] = (next, i)
            } else {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            if !heap.isEmpty { siftDown(0) }
        }
        for path in runs { unlink(path) }
        runs = []
    }
}

/// Up to 128 bits of word ids packed most significant first, `bits` per id: comparing two keys
/// compares their id tuples lexicographically.
package struct PackedKey: Hashable, BitwiseCopyable {
    var hi: UInt64
    var lo: UInt64

    @inline(__always)
    package static func < (a: PackedKey, b: PackedKey) -> Bool { a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo) }

    /// `ids[0..<n]` packed with `bits` bits each (n × bits ≤ 128).
    @inline(__always)
    package init(_ ids: UnsafePointer<UInt32>, n: Int, bits: Int) {
        hi = 0
        lo = 0
        for j in 0..<n { append(ids[j], bits: bits) }
    }

    init() {
        hi = 0
        lo = 0
    }

    /// Shifts the key left by `bits` and puts `id` in the low bits.
    @inline(__always)
    mutating func append(_ id: UInt32, bits: Int) {
        hi = (hi << UInt64(bits)) | (bits == 64 ? lo : lo >> UInt64(64 - bits))
        lo = (lo << UInt64(bits)) | UInt64(id)
    }

    /// The id at `position` (0 = first) of a key of `n` ids.
    @inline(__always)
    func id(_ position: Int, n: Int, bits: Int) -> UInt32 {
        let shift = (n - 1 - position) * bits
        let mask = (UInt64(1) << UInt64(bits)) - 1
        if shift >= 64 { return UInt32(truncatingIfNeeded: (hi >> UInt64(shift - 64)) & mask) }
        if shift + bits <= 64 { return UInt32(truncatingIfNeeded: (lo >> UInt64(shift)) & mask) }
        let low = lo >> UInt64(shift)
        let high = hi << UInt64(64 - shift)
        return UInt32(truncatingIfNeeded: (low | high) & mask)
    }

    /// The ids of a key of `n` ids.
    package func ids(n: Int, bits: Int) -> [UInt32] { (0..<n).map { id($0, n: n, bits: bits) } }
}
