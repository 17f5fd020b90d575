import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an output path cannot be written (or, for ``StoreLock``, updated now).
public enum OutputError: Error, CustomStringConvertible, Sendable, Equatable {
    case folderMissing(String)
    case isDirectory(String)
    /// Something other than a regular file is at the path: `what` says what ("a symbolic link").
    case notRegularFile(String, what: String)
    /// `kind` names what is written ("store", "wordlist", "ARPA file").
    case notWritable(String, String, kind: String)
    /// Another process holds the update lock of the store.
    case busy(String)

    public var description: String {
        switch self {
        case .folderMissing(let dir):
            return "\(dir): output folder does not exist; create it (mkdir -p) or choose another -o path"
        case .isDirectory(let path):
            return "\(path): is a directory; -o takes the path of the file to write"
        case .notRegularFile(let path, let what):
            return "\(path): is \(what), not a regular file; lexiforge only replaces regular files and never writes through links or into devices; remove it or choose another path"
        case .notWritable(let path, let reason, let kind):
            return "\(path): cannot write the \(kind) here (\(reason)); choose a writable -o path"
        case .busy(let path):
            return "busy: another lexiforge is updating \(path); try again when it finishes"
        }
    }
}

/// The one way every writer creates an output: built in a private folder beside it, renamed into place.
///
/// ``prepare(path:kind:)`` refuses a destination that is anything but a regular file or absent
/// (checked with `lstat`, so a symbolic link is refused, not followed), then creates a private
/// folder `.NAME.lexiforge-PID-XXXXXX` (mode 0700, `mkdtemp`) in the destination's own folder.
/// The output is built at ``temporaryPath`` inside it: nobody else can create or replace
/// anything in that folder, so opening the temporary file by name (as SQLite does) is safe.
/// ``commit()`` renames the finished file over the destination (`rename(2)` replaces whatever
/// entry is there and never follows it) and removes the folder; ``discard()``, or releasing the
/// value uncommitted, removes the folder and everything in it. Folders left by a killed writer of
/// the same destination (their process no longer exists) are removed by the next ``prepare``.
public final class AtomicOutput: @unchecked Sendable {
    /// The destination.
    public let path: String
    /// The private folder.
    public let folder: String
    /// Where to build the output: `folder/NAME`.
    public let temporaryPath: String
    public let kind: String
    private var finished = false

    /// Marks the private folders of a destination: `.NAME` + this + `PID-XXXXXX`.
    public static let folderInfix = ".lexiforge-"

    /// Checks the destination and creates the private folder. `kind` names what is written.
    public static func prepare(path: String, kind: String) throws(OutputError) -> AtomicOutput {
        let (dir, name) = split(path)
        if let problem = destinationProblem(path) { throw problem }
        var info = stat()
        guard stat(dir, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { throw .folderMissing(dir) }
        removeAbandoned(dir: dir, name: name)
        var template = Array("\(dir)/.\(name)\(folderInfix)\(getpid())-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard created else { throw .notWritable(path, String(cString: strerror(errno)), kind: kind) }
        let folder = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return AtomicOutput(path: path, folder: folder, temporaryPath: folder + "/" + name, kind: kind)
    }

    /// Writes `data` to `path` atomically (``prepare(path:kind:)``, write, ``commit()``).
    public static func write(_ data: Data, to path: String, kind: String) throws(OutputError) {
        let output = try prepare(path: path, kind: kind)
        let fd = try output.createFile()
        var failure: Int32 = 0
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += n
            }
        }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure != 0 {
            output.discard()
            throw .notWritable(path, String(cString: strerror(failure)), kind: kind)
        }
        try output.commit()
    }

    private init(path: String, folder: String, temporaryPath: String, kind: String) {
        self.path = path
        self.folder = folder
        self.temporaryPath = temporaryPath
        self.kind = kind
    }

    deinit { if !finished { discard() } }

    /// Creates the temporary file (`O_EXCL|O_NOFOLLOW`) and returns its descriptor, for writers
    /// that write bytes themselves.
    public func createFile() throws(OutputError) -> Int32 {
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .notWritable(path, String(cString: strerror(errno)), kind: kind) }
        return fd
    }

    /// Removes the private folder and everything in it (the temporary file, SQLite's journal).
    public func discard() {
        try? FileManager.default.removeItem(atPath: folder)
        finished = true
    }

    /// Renames the complete temporary file over the destination and removes the private folder.
    public func commit() throws(OutputError) {
        // Something may have been put at the destination since prepare: refuse it too.
        if let problem = Self.destinationProblem(path), case .notRegularFile = problem {
            discard()
            throw problem
        }
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw .notWritable(path, reason, kind: kind)
        }
        discard()
    }

    /// Why `path` cannot be an output: it exists and is not a regular file (`lstat`: links are not followed).
    public static func destinationProblem(_ path: String) -> OutputError? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return .isDirectory(path)
        case S_IFLNK: return .notRegularFile(path, what: "a symbolic link")
        case S_IFIFO: return .notRegularFile(path, what: "a FIFO (named pipe)")
        case S_IFCHR, S_IFBLK: return .notRegularFile(path, what: "a device")
        case S_IFSOCK: return .notRegularFile(path, what: "a socket")
        default: return .notRegularFile(path, what: "not a regular file")
        }
    }

    /// The destination's folder and file name.
    static func split(_ path: String) -> (dir: String, name: String) {
        let url = URL(fileURLWithPath: path)
        return (url.deletingLastPathComponent().path, url.lastPathComponent)
    }

    /// Removes what writers of the same destination that no longer run left behind: private
    /// folders (`.NAME.lexiforge-PID-…`) and the temporary files of earlier versions
    /// (`.NAME.tmp-PID`, with journals). A live writer's are left alone, as is anything not a
    /// folder of ours.
    static func removeAbandoned(dir: String, name: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        let folderPrefix = ".\(name)\(folderInfix)", legacyPrefix = ".\(name).tmp-"
        let me = getpid()
        func gone(_ digits: Substring) -> Bool {
            guard let pid = Int32(digits), pid != me else { return false }
            return kill(pid, 0) == -1 && errno == ESRCH
        }
        for entry in names {
            let full = dir + "/" + entry
            if entry.hasPrefix(folderPrefix) {
                let digits = entry.dropFirst(folderPrefix.count).prefix { $0.isASCII && $0.isNumber }
                var info = stat()
                guard gone(digits), lstat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR,
                      info.st_uid == getuid() else { continue }
                try? FileManager.default.removeItem(atPath: full)
            } else if entry.hasPrefix(legacyPrefix) {
                let digits = entry.dropFirst(legacyPrefix.count).prefix { $0.isASCII && $0.isNumber }
                if gone(digits) { unlink(full) }
            }
        }
    }
}

/// The exclusive update lock of a store, held for a whole read-modify-write (`learn`, `merge`
/// into an existing store, `swipe features`).
///
/// `flock(LOCK_EX|LOCK_NB)` on `.NAME.lock` beside the store: a second writer fails at once with
/// ``OutputError/busy(_:)`` instead of one run's changes being lost. The lock file is removed on
/// release (while still locked); a writer that locked a file just removed notices (the path no
/// longer names it) and starts over, so two writers never both hold the lock. A lock file left by
/// a killed writer holds no lock and is reused.
public final class StoreLock: @unchecked Sendable {
    public let path: String
    public let lockPath: String
    private var fd: Int32

    public static func acquire(for path: String) throws(OutputError) -> StoreLock {
        let (dir, name) = AtomicOutput.split(path)
        let lockPath = "\(dir)/.\(name).lock"
        while true {
            let fd = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o600)
            guard fd >= 0 else {
                let code = errno
                if code == ELOOP { throw .notRegularFile(lockPath, what: "a symbolic link") }
                if code == ENOENT || code == ENOTDIR { throw .folderMissing(dir) }
                throw .notWritable(path, String(cString: strerror(code)), kind: "store")
            }
            var opened = stat()
            guard fstat(fd, &opened) == 0, (opened.st_mode & S_IFMT) == S_IFREG else {
                close(fd)
                throw .notRegularFile(lockPath, what: "not a regular file")
            }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                close(fd)
                if code == EWOULDBLOCK { throw .busy(path) }
                throw .notWritable(path, "cannot lock \(lockPath): \(String(cString: strerror(code)))", kind: "store")
            }
            var named = stat()
            if lstat(lockPath, &named) == 0, named.st_ino == opened.st_ino, named.st_dev == opened.st_dev {
                return StoreLock(path: path, lockPath: lockPath, fd: fd)
            }
            close(fd)   // its holder removed it as we locked it: take a fresh one
        }
    }

    private init(path: String, lockPath: String, fd: Int32) {
        self.path = path
        self.lockPath = lockPath
        self.fd = fd
    }

    /// Removes the lock file and releases the lock (also done when the value is released).
    public func release() {
        guard fd >= 0 else { return }
        unlink(lockPath)
        close(fd)
        fd = -1
    }

    deinit { release() }
}

/// A private scratch folder (`mkdtemp`, mode 0700) in the system's temporary folder, removed
/// with everything in it when the value is released: for intermediate files nobody else may
/// replace or read.
public final class ScratchFolder: @unchecked Sendable {
    public let path: String

    public init(label: String) throws(OutputError) {
        let base = NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
        var template = Array("\(base)\(label)-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard created else { throw .notWritable(base, String(cString: strerror(errno)), kind: "scratch folder") }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    public func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
