#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib
import LexiforgeFormat

/// Why a wordlist could not be written.
public enum WordlistWriteError: Error, Sendable, CustomStringConvertible {
    case notWritable(String, String)
    case noHeader
    case zlib(String, String)
    /// A link, FIFO or device at the destination, or its folder missing.
    case output(OutputError)

    public var description: String {
        switch self {
        case .output(let error):
            return error.description
        case .notWritable(let path, let reason):
            return "\(path): cannot write the wordlist here (\(reason)); choose a writable -o path"
        case .noHeader:
            return "the store holds no wordlist header; import a list with `lexiforge wordlist import` first"
        case .zlib(let path, let reason):
            return "\(path): zlib failed while compressing (\(reason))"
        }
    }
}

/// Writes a ``Lexicon`` in the combined format (``CombinedFormat``).
///
/// In: a lexicon (entries in the order to write). Out: the text, gzip-compressed when the path ends
/// in `.gz`, written in a private folder beside the destination and renamed into place (``AtomicOutput``). Entry keys
/// are written in AOSP's order with extra keys at their recorded positions, child lines in their
/// recorded order, so reading a list and writing it back reproduces the decompressed input byte for
/// byte. The gzip header carries no name and no time, so identical lexicons give identical files.
///
/// ```swift
/// try WordlistWriter.write(lexicon, to: "out.combined.gz")
/// ```
/// - Complexity: O(output bytes); memory for one 1 MiB buffer plus zlib's state.
public enum WordlistWriter {
    /// Returns the number of (uncompressed) text bytes written.
    @discardableResult
    public static func write(_ lexicon: Lexicon, to path: String, compressionLevel: Int32 = 6) throws(WordlistWriteError) -> Int {
        guard let header = lexicon.headers.first, !header.isEmpty else { throw .noHeader }
        let output: AtomicOutput
        let fd: Int32
        do {
            output = try AtomicOutput.prepare(path: path, kind: "wordlist")
            fd = try output.createFile()
        } catch {
            if case .notWritable(_, let reason, _) = error { throw .notWritable(path, reason) }
            throw .output(error)
        }
        var sink = FileSink(fd: fd, path: path, gzip: path.hasSuffix(".gz"), level: compressionLevel)
        do throws(WordlistWriteError) {
            try sink.start()
            try render(lexicon, header: header, into: &sink)
            try sink.finish()
        } catch {
            sink.end()
            close(fd)
            output.discard()
            throw error
        }
        sink.end()
        guard close(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            output.discard()
            throw .notWritable(path, reason)
        }
        do { try output.commit() } catch {
            if case .notWritable(_, let reason, _) = error { throw .notWritable(path, reason) }
            throw .output(error)
        }
        return sink.textBytes
    }

    /// The combined text of `lexicon` as one string (for tests and small lists).
    public static func text(of lexicon: Lexicon) -> String {
        var sink = MemorySink()
        try? render(lexicon, header: lexicon.headers.first ?? [], into: &sink)
        return String(decoding: sink.bytes, as: UTF8.self)
    }

    static func render<S: ByteSink>(_ lexicon: Lexicon, header: [Lexicon.HeaderAttribute], into sink: inout S) throws(WordlistWriteError) {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 20 + 4096)
        out.append(contentsOf: header.map { "\($0.key)=\(CombinedFormat.escaped($0.value))" }.joined(separator: ",").utf8)
        out.append(CombinedFormat.lineFeed)
        for entry in lexicon.entries {
            appendEntry(entry, to: &out)
            if out.count >= 1 << 20 {
                try sink.write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        try sink.write(out)
    }

    @inline(__always)
    static func appendNumber(_ value: Int, to out: inout [UInt8]) {
        if value < 10 { out.append(UInt8(48 + value)); return }
        if value < 100 { out.append(UInt8(48 + value / 10)); out.append(UInt8(48 + value % 10)); return }
        out.append(contentsOf: String(value).utf8)
    }

    static func appendEntry(_ entry: LexiconEntry, to out: inout [UInt8]) {
        out.append(CombinedFormat.space)
        out.append(contentsOf: "word=".utf8)
        out.append(contentsOf: CombinedFormat.escaped(entry.word).utf8)
        // Typed keys after word=, in AOSP order.
        var typed: [(String, String)] = [(CombinedFormat.frequencyTag, String(entry.frequency))]
        if let flags = entry.flags { typed.append((CombinedFormat.flagsTag, CombinedFormat.escaped(flags))) }
        if let original = entry.originalFrequency { typed.append((CombinedFormat.originalFrequencyTag, String(original))) }
        if entry.attributes.contains(.notAWord) { typed.append((CombinedFormat.notAWordTag, CombinedFormat.trueValue)) }
        if entry.attributes.contains(.possiblyOffensive) { typed.append((CombinedFormat.possiblyOffensiveTag, CombinedFormat.trueValue)) }
        if entry.extraKeys.isEmpty {
            for (key, value) in typed { appendKey(key, value, to: &out) }
        } else {
            var next = 0
            var extras = entry.extraKeys.sorted { $0.position < $1.position }[...]
            for position in 1..<(1 + typed.count + extras.count) {
                if let extra = extras.first, extra.position <= position {
                    appendKey(extra.key, CombinedFormat.escaped(extra.value), to: &out)
                    extras = extras.dropFirst()
                } else if next < typed.count {
                    appendKey(typed[next].0, typed[next].1, to: &out)
                    next += 1
                }
            }
        }
        out.append(CombinedFormat.lineFeed)
        for child in entry.children {
            switch child {
            case .shortcut(let target, let frequency, let extra):
                out.append(contentsOf: "\(CombinedFormat.childIndent)\(CombinedFormat.shortcutTag)=".utf8)
                out.append(contentsOf: CombinedFormat.escaped(target).utf8)
                out.append(contentsOf: ",f=".utf8)
                if let frequency { appendNumber(frequency, to: &out) } else { out.append(contentsOf: CombinedFormat.whitelistFrequency.utf8) }
                if let extra { out.append(contentsOf: extra.utf8) }
            case .bigram(let next, let frequency, let extra):
                out.append(contentsOf: "\(CombinedFormat.childIndent)\(CombinedFormat.bigramTag)=".utf8)
                out.append(contentsOf: CombinedFormat.escaped(next).utf8)
                out.append(contentsOf: ",f=".utf8)
                appendNumber(frequency, to: &out)
                if let extra { out.append(contentsOf: extra.utf8) }
            case .other(let line):
                out.append(contentsOf: line.utf8)
            }
            out.append(CombinedFormat.lineFeed)
        }
    }

    @inline(__always)
    static func appendKey(_ key: String, _ value: String, to out: inout [UInt8]) {
        out.append(CombinedFormat.separator)
        out.append(contentsOf: key.utf8)
        out.append(CombinedFormat.assignment)
        out.append(contentsOf: value.utf8)
    }
}

protocol ByteSink {
    mutating func write(_ bytes: [UInt8]) throws(WordlistWriteError)
}

struct MemorySink: ByteSink {
    var bytes: [UInt8] = []
    mutating func write(_ more: [UInt8]) throws(WordlistWriteError) { bytes += more }
}

/// Plain or gzip output to a file descriptor.
struct FileSink: ByteSink {
    let fd: Int32
    let path: String
    let gzip: Bool
    let level: Int32
    var stream = z_stream()
    var started = false
    var textBytes = 0
    var output = [UInt8](repeating: 0, count: 1 << 18)

    init(fd: Int32, path: String, gzip: Bool, level: Int32) {
        self.fd = fd; self.path = path; self.gzip = gzip; self.level = level
    }

    mutating func start() throws(WordlistWriteError) {
        guard gzip else { return }
        // windowBits 15 + 16: a gzip wrapper with no file name and mtime 0.
        let status = deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                                   ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw .zlib(path, "deflateInit2 status \(status)") }
        started = true
    }

    mutating func end() {
        if started { deflateEnd(&stream); started = false }
    }

    mutating func write(_ bytes: [UInt8]) throws(WordlistWriteError) {
        textBytes += bytes.count
        if !gzip { try raw(bytes, count: bytes.count); return }
        try deflateAll(bytes, flush: Z_NO_FLUSH)
    }

    mutating func finish() throws(WordlistWriteError) {
        if gzip { try deflateAll([], flush: Z_FINISH) }
    }

    private mutating func deflateAll(_ bytes: [UInt8], flush: Int32) throws(WordlistWriteError) {
        var input = bytes
        let capacity = output.count
        var failure: WordlistWriteError?
        input.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = UInt32(inBuffer.count)
            while true {
                let (status, produced): (Int32, Int) = output.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = UInt32(capacity)
                    let status = deflate(&stream, flush)
                    return (status, capacity - Int(stream.avail_out))
                }
                if status == Z_STREAM_ERROR { failure = .zlib(path, "deflate status \(status)"); return }
                if produced > 0 {
                    do throws(WordlistWriteError) { try raw(output, count: produced) } catch { failure = error; return }
                }
                if flush == Z_FINISH ? status == Z_STREAM_END : (stream.avail_in == 0 && produced < capacity) { return }
            }
        }
        if let failure { throw failure }
    }

    private func raw(_ bytes: [UInt8], count: Int) throws(WordlistWriteError) {
        var offset = 0
        while offset < count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .notWritable(path, String(cString: strerror(errno)))
            }
            offset += n
        }
    }
}
