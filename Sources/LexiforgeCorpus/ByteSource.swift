#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib
import CLibcrypto

/// Reads the raw bytes of one input file, decompressing gzip transparently.
///
/// A file is treated as gzip when its first two bytes are the gzip magic `1F 8B`, whatever its
/// name; concatenated gzip members are read one after the other, as `zcat` does. The SHA-256 of the
/// file *as stored* (compressed bytes for `.gz`) is computed on the way, so provenance costs no
/// second pass.
///
/// Public so other stages (the wordlist importer) stream files the same way instead of growing a
/// second zlib reader.
///
/// - Complexity: O(file size) time; O(1) memory (two fixed buffers).
public final class ByteSource {
    public let path: String
    private let fd: Int32
    private let hasher: OpaquePointer
    public private(set) var storedBytes: Int = 0

    private var raw: UnsafeMutablePointer<UInt8>
    private let rawCapacity = 1 << 18
    private var rawStart = 0
    private var rawEnd = 0
    private var rawEOF = false

    /// Whether the file starts with the gzip magic bytes (and is being decompressed).
    public private(set) var gzip = false
    private var stream = z_stream()
    private var streamEnded = false
    /// Reading the zero padding after the last member.
    private var inPadding = false

    public init(path: String) throws(CorpusError) {
        self.path = path
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw errno == ENOENT || errno == ENOTDIR ? .missing(path) : .unreadable(path, String(cString: strerror(errno)))
        }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory(path) }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .unreadable(path, String(cString: strerror(errno))) }
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            close(fd)
            throw .unreadable(path, "libcrypto could not start a SHA-256 digest")
        }
        self.fd = fd
        hasher = context
        raw = .allocate(capacity: rawCapacity)
        try fillRaw()
        if rawEnd - rawStart >= 2, raw[rawStart] == 0x1F, raw[rawStart + 1] == 0x8B {
            gzip = true
            let status = inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            guard status == Z_OK else { throw .unreadable(path, "zlib could not start (status \(status))") }
        }
    }

    deinit {
        if gzip { inflateEnd(&stream) }
        close(fd)
        EVP_MD_CTX_free(hasher)
        raw.deallocate()
    }

    /// The SHA-256 of the stored bytes, lowercase hex. Valid once ``read(into:capacity:)`` returned 0.
    public func finalizeDigest() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        // A copy, so the running digest stays usable (finalising ends a context).
        let copy = EVP_MD_CTX_new()
        defer { EVP_MD_CTX_free(copy) }
        guard let copy, EVP_MD_CTX_copy_ex(copy, hasher) == 1, EVP_DigestFinal_ex(copy, &digest, &length) == 1 else {
            preconditionFailure("libcrypto could not finish a SHA-256 digest")
        }
        return digest.prefix(Int(length)).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    private func fillRaw() throws(CorpusError) {
        if rawStart > 0 && rawStart == rawEnd { rawStart = 0; rawEnd = 0 }
        guard !rawEOF, rawEnd < rawCapacity else { return }
        let n = Glibc.read(fd, raw + rawEnd, rawCapacity - rawEnd)
        if n < 0 { throw .unreadable(path, String(cString: strerror(errno))) }
        if n == 0 { rawEOF = true; return }
        EVP_DigestUpdate(hasher, raw + rawEnd, n)
        rawEnd += n
        storedBytes += n
    }

    /// Fills `buffer` with up to `capacity` decoded bytes; returns 0 at the end of the file.
    public func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(CorpusError) -> Int {
        if !gzip {
            while rawStart == rawEnd {
                if rawEOF { return 0 }
                rawStart = 0; rawEnd = 0
                try fillRaw()
            }
            let n = min(capacity, rawEnd - rawStart)
            buffer.update(from: raw + rawStart, count: n)
            rawStart += n
            return n
        }
        var produced = 0
        while produced == 0 {
            if rawStart == rawEnd {
                if rawEOF {
                    if !streamEnded && storedBytes > 0 {
                        throw .corruptGzip(path, "the compressed stream ends early (truncated file?)")
                    }
                    return 0
                }
                rawStart = 0; rawEnd = 0
                try fillRaw()
                continue
            }
            if streamEnded {
                // Zero bytes after the last member (tape or block padding) end the file, as gzip
                // reads them; anything after the padding is garbage.
                if inPadding || raw[rawStart] == 0 {
                    inPadding = true
                    while rawStart < rawEnd && raw[rawStart] == 0 { rawStart += 1 }
                    if rawStart < rawEnd {
                        throw .corruptGzip(path, "byte offset \(storedBytes - (rawEnd - rawStart)): data after the zero padding that follows the last gzip member")
                    }
                    continue
                }
                // Another gzip member follows (or trailing garbage, which zlib will reject).
                inflateReset(&stream)
                streamEnded = false
            }
            stream.next_in = raw + rawStart
            stream.avail_in = UInt32(rawEnd - rawStart)
            stream.next_out = buffer + produced
            stream.avail_out = UInt32(capacity - produced)
            let status = inflate(&stream, Z_NO_FLUSH)
            let consumed = (rawEnd - rawStart) - Int(stream.avail_in)
            rawStart += consumed
            produced = capacity - Int(stream.avail_out)
            switch status {
            case Z_OK, Z_BUF_ERROR:
                break
            case Z_STREAM_END:
                streamEnded = true
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "status \(status)"
                throw .corruptGzip(path, message)
            }
            if produced == 0 && consumed == 0 && status == Z_BUF_ERROR && rawEOF && rawStart == rawEnd {
                throw .corruptGzip(path, "the compressed stream ends early (truncated file?)")
            }
        }
        return produced
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
