/// Cuts decoded bytes into lines, removing a leading byte order mark and the CR of CRLF, and
/// checks that every line is UTF-8.
///
/// Lines that lie wholly inside one chunk are handed on without copying; a line that spans chunks
/// is assembled in `pending`. Offsets count bytes of the decoded text from 0, BOM included, so a
/// reported offset can be checked with `cmp`/`xxd` on the (decompressed) file.
struct LineSplitter {
    let path: String
    let options: CorpusReadOptions
    private(set) var offset = 0
    private var line = 0
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var scratch: [UInt8] = []
    private var checkedStart = false
    private(set) var invalid: [CorpusError.Diagnostic] = []
    private(set) var invalidCount = 0
    private(set) var replacedCount = 0
    /// Lines longer than `options.maxLineBytes`, cut into pieces, and the first of them.
    private(set) var cutLines = 0
    private(set) var firstCutLine: Int?
    /// The last piece handed on was not the end of its line.
    private var continuing = false

    init(path: String, options: CorpusReadOptions) {
        self.path = path
        self.options = options
    }

    static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in line where b != 0x20 && b != 0x09 && b != 0x0C && b != 0x0B { return false }
        return true
    }

    mutating func feed(
        _ bytes: UnsafeBufferPointer<UInt8>, _ emit: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        var start = 0
        if !checkedStart {
            checkedStart = true
            // NUL bytes never occur in text; one in the first 8 KiB means a binary file.
            let probe = min(bytes.count, 8192)
            for i in 0..<probe where base[i] == 0 { throw CorpusError.binary(path, offset: i) }
            if bytes.count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { start = 3 }
        }
        var lineStart = start
        let chunkOffset = offset
        while lineStart < bytes.count {
            guard let nl = memchrIndex(base, from: lineStart, to: bytes.count, byte: 0x0A) else { break }
            if pending.isEmpty {
                try deliver(UnsafeBufferPointer(start: base + lineStart, count: nl - lineStart), lineOffset: chunkOffset + lineStart, emit)
            } else {
                pending.append(contentsOf: UnsafeBufferPointer(start: base + lineStart, count: nl - lineStart))
                try drainPending(final: true, emit)
            }
            lineStart = nl + 1
        }
        if lineStart < bytes.count {
            if pending.isEmpty { pendingStart = chunkOffset + lineStart }
            pending.append(contentsOf: UnsafeBufferPointer(start: base + lineStart, count: bytes.count - lineStart))
            try drainPending(final: false, emit)
        }
        offset += bytes.count
    }

    mutating func finish(_ emit: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        if !pending.isEmpty { try drainPending(final: true, emit) }
    }

    /// A whole line (found within one chunk), in pieces when it is too long.
    private mutating func deliver(
        _ whole: UnsafeBufferPointer<UInt8>, lineOffset: Int, _ emit: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        var rest = whole[...], at = lineOffset
        while rest.count > options.maxLineBytes {
            let cut = Self.cutPoint(UnsafeBufferPointer(rebasing: rest), limit: options.maxLineBytes)
            try piece(UnsafeBufferPointer(rebasing: rest.prefix(cut)), lineOffset: at, lineEnd: false, emit)
            rest = rest.dropFirst(cut)
            at += cut
        }
        try piece(UnsafeBufferPointer(rebasing: rest), lineOffset: at, lineEnd: true, emit)
    }

    /// Hands on the pieces of the pending (chunk-spanning) line that are too long to wait for
    /// its end, and with `final` the rest of it: `pending` never holds more than the limit plus
    /// one chunk, whatever the line's length.
    private mutating func drainPending(final: Bool, _ emit: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        while pending.count > options.maxLineBytes {
            let cut = pending.withUnsafeBufferPointer { Self.cutPoint($0, limit: options.maxLineBytes) }
            let copy = Array(pending[..<cut])
            pending.removeFirst(cut)
            let lineOffset = pendingStart
            pendingStart += cut
            try copy.withUnsafeBufferPointer { try piece($0, lineOffset: lineOffset, lineEnd: false, emit) }
        }
        if final {
            let copy = pending
            pending.removeAll(keepingCapacity: true)
            try copy.withUnsafeBufferPointer { try piece($0, lineOffset: pendingStart, lineEnd: true, emit) }
        }
    }

    /// Where to cut a too-long line (`bytes.count > limit`): after the last space or tab in the
    /// last 64 KiB before the limit, so no word is split; else at the last UTF-8 character start.
    static func cutPoint(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Int {
        let window = min(limit, 1 << 16)
        var i = limit - 1
        while i >= limit - window {
            if bytes[i] == 0x20 || bytes[i] == 0x09 { return i + 1 }
            i -= 1
        }
        var cut = limit
        while cut > max(0, limit - 3), bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
        return cut > 0 ? cut : limit
    }

    /// One piece of a line: the line itself when it was not cut. Line numbers count lines, not pieces.
    private mutating func piece(
        _ bytes: UnsafeBufferPointer<UInt8>, lineOffset: Int, lineEnd: Bool,
        _ emit: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        if !continuing { line += 1 }
        if !lineEnd && !continuing {
            cutLines += 1
            if firstCutLine == nil { firstCutLine = line }
        }
        continuing = !lineEnd
        try handle(bytes, lineOffset: lineOffset, lineEnd: lineEnd, emit)
    }

    private mutating func handle(
        _ rawLine: UnsafeBufferPointer<UInt8>, lineOffset: Int, lineEnd: Bool,
        _ emit: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        var text = rawLine
        if lineEnd, let last = text.last, last == 0x0D { text = UnsafeBufferPointer(rebasing: text.dropLast()) }
        guard let bad = UTF8Check.firstInvalid(text) else {
            try emit(text)
            return
        }
        if !options.replaceInvalidUTF8 {
            invalidCount += 1
            if invalid.count < 10 { invalid.append(.init(line: line, offset: lineOffset + bad)) }
            return
        }
        scratch.removeAll(keepingCapacity: true)
        var i = 0
        while i < text.count {
            let (length, valid) = UTF8Check.sequence(text, at: i)
            if valid {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: text[i..<(i + length)]))
            } else {
                scratch.append(contentsOf: [0xEF, 0xBF, 0xBD])
                replacedCount += 1
            }
            i += length
        }
        let copy = scratch
        try copy.withUnsafeBufferPointer { try emit($0) }
    }
}

@inline(__always)
func memchrIndex(_ base: UnsafePointer<UInt8>, from: Int, to: Int, byte: UInt8) -> Int? {
    guard let raw = memchr(base + from, Int32(byte), to - from) else { return nil }
    return UnsafePointer(raw.assumingMemoryBound(to: UInt8.self)) - base
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// UTF-8 well-formedness (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF).
enum UTF8Check {
    /// Index of the first byte of the first ill-formed sequence, or nil when `bytes` is valid.
    static func firstInvalid(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let n = bytes.count
        var i = 0
        while i < n {
            // ASCII fast path, eight bytes at a time.
            while i + 8 <= n {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                i += 8
            }
            if i >= n { break }
            if base[i] < 0x80 { i += 1; continue }
            let (length, valid) = sequence(bytes, at: i)
            if !valid { return i }
            i += length
        }
        return nil
    }

    /// Length of the sequence starting at `i` and whether it is well-formed; an ill-formed
    /// sequence has length of the maximal invalid subpart (at least 1), as Unicode recommends
    /// for U+FFFD substitution.
    @inline(__always)
    static func sequence(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> (Int, Bool) {
        let c = b[i]
        if c < 0x80 { return (1, true) }
        let n = b.count
        func cont(_ k: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool {
            i + k < n && b[i + k] >= lo && b[i + k] <= hi
        }
        switch c {
        case 0xC2...0xDF:
            return cont(1) ? (2, true) : (1, false)
        case 0xE0...0xEF:
            let lo: UInt8 = c == 0xE0 ? 0xA0 : 0x80
            let hi: UInt8 = c == 0xED ? 0x9F : 0xBF
            guard cont(1, lo, hi) else { return (1, false) }
            return cont(2) ? (3, true) : (2, false)
        case 0xF0...0xF4:
            let lo: UInt8 = c == 0xF0 ? 0x90 : 0x80
            let hi: UInt8 = c == 0xF4 ? 0x8F : 0xBF
            guard cont(1, lo, hi) else { return (1, false) }
            guard cont(2) else { return (2, false) }
            return cont(3) ? (4, true) : (3, false)
        default:
            return (1, false)
        }
    }
}
