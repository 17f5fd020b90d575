/// Interns token byte strings to dense provisional ids (in order of first appearance).
///
/// Ids 0, 1, 2 are reserved for `<unk>`, `<s>` and `</s>` (``NgramCounts`` keeps that
/// convention, which is also the store's). Open addressing over a power-of-two table with the
/// hash kept beside each slot, so a probe rarely touches the byte arena.
///
/// - Complexity: amortized O(token length) per ``intern(_:)``.
final class Vocabulary {
    // Used by one thread at a time: no dynamic exclusivity checks in the interning loop.
    @exclusivity(unchecked) private(set) var arena: [UInt8] = []
    @exclusivity(unchecked) private(set) var starts: [Int] = []      // entry i spans arena[starts[i]..<starts[i+1]]
    @exclusivity(unchecked) private var slots: [UInt64] = []         // 0 = empty, else (hash32 << 32) | (id + 1)
    private var mask = 0

    init(reserved: [String]) {
        arena.reserveCapacity(1 << 20)
        starts = [0]
        slots = Array(repeating: 0, count: 1 << 16)
        mask = slots.count - 1
        for word in reserved {
            var bytes = Array(word.utf8)
            _ = bytes.withUnsafeMutableBufferPointer { intern(UnsafeBufferPointer($0)) }
        }
    }

    var count: Int { starts.count - 1 }

    func bytes(of id: Int) -> ArraySlice<UInt8> { arena[starts[id]..<starts[id + 1]] }

    func string(of id: Int) -> String { String(decoding: bytes(of: id), as: UTF8.self) }

    @inline(__always)
    static func hash(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(b.count)
        guard let base = b.baseAddress else { return h }
        var i = 0
        let n = b.count
        while i + 8 <= n {
            let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            h = (h ^ w) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < n { tail |= UInt64(base[i]) << shift; shift += 8; i += 1 }
        h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        h ^= h >> 29
        return h
    }

    /// The id of `token`, adding it when new.
    @inline(__always)
    func intern(_ token: UnsafeBufferPointer<UInt8>) -> Int {
        let h = Self.hash(token)
        let tag = h >> 32
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            if entry >> 32 == tag {
                let id = Int(entry & 0xFFFF_FFFF) - 1
                let s = starts[id], e = starts[id + 1]
                if e - s == token.count && arena.withUnsafeBufferPointer({
                    token.count == 0 || memcmp($0.baseAddress! + s, token.baseAddress!, token.count) == 0
                }) {
                    return id
                }
            }
            slot = (slot + 1) & mask
        }
        let id = count
        arena.append(contentsOf: token)
        starts.append(arena.count)
        slots[slot] = (tag << 32) | UInt64(id + 1)
        if count * 2 > slots.count { grow() }
        return id
    }

    private func grow() {
        var bigger = [UInt64](repeating: 0, count: slots.count * 2)
        let newMask = bigger.count - 1
        for entry in slots where entry != 0 {
            let id = Int(entry & 0xFFFF_FFFF) - 1
            let h = arena.withUnsafeBufferPointer {
                Self.hash(UnsafeBufferPointer(rebasing: $0[starts[id]..<starts[id + 1]]))
            }
            var slot = Int(truncatingIfNeeded: h) & newMask
            while bigger[slot] != 0 { slot = (slot + 1) & newMask }
            bigger[slot] = entry
        }
        slots = bigger
        mask = newMask
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
