/// A hash table from n-grams of word ids (fixed n) to counts.
///
/// Keys live in one flat array, `n` ids per entry, in order of first appearance; each slot holds
/// an entry index with the top 32 bits of its hash, so a probe reads the keys only when the
/// hashes agree, and growing never reads them (the slot index is in those bits). Open addressing
/// with linear probing, load factor at most 1/2.
///
/// - Complexity: amortized O(n) per ``add(_:count:)``.
package final class NgramTable {
    let n: Int
    // Hot counting state of one thread's table: no dynamic exclusivity checks (a few per token
    // cost about 5% of counting); a table is only ever used by the thread that counts into it.
    @exclusivity(unchecked) private(set) var keys: [UInt32] = []
    @exclusivity(unchecked) private(set) var counts: [UInt32] = []
    @exclusivity(unchecked) private var slots: [UInt64] = []   // 0 = empty, else (hash >> 32) << 32 | (entry + 1)
    private var shift: UInt64 = 0
    /// How many additions hit `UInt32.max` (the count stays there instead of wrapping around).
    @exclusivity(unchecked) private(set) var saturated = 0

    init(n: Int, expected: Int = 1 << 14) {
        self.n = n
        var size = 1024
        while size < expected * 2 { size <<= 1 }
        slots = Array(repeating: 0, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        keys.reserveCapacity(size / 2 * n)
        counts.reserveCapacity(size / 2)
    }

    var entryCount: Int { counts.count }

    @inline(__always)
    static func hash(_ ids: UnsafePointer<UInt32>, _ n: Int) -> UInt64 {
        var h: UInt64 = 0
        for k in 0..<n {
            h = (h ^ UInt64(ids[k])) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 32
        }
        return h &* 0xD6E8_FEB8_6659_FD93
    }

    /// Adds `count` to the n-gram `ids[0..<n]`.
    @inline(__always)
    func add(_ ids: UnsafePointer<UInt32>, count: UInt32 = 1) {
        let n = self.n
        let h = Self.hash(ids, n)
        let tag = h >> 32
        var slot = Int(truncatingIfNeeded: h >> shift)
        let mask = slots.count - 1
        let found: Int? = slots.withUnsafeBufferPointer { slotsBuffer in
            keys.withUnsafeBufferPointer { keyBuffer in
                while true {
                    let value = slotsBuffer[slot]
                    if value == 0 { return nil }
                    if value >> 32 == tag {
                        let entry = Int(truncatingIfNeeded: value & 0xFFFF_FFFF) - 1
                        let base = entry * n
                        var equal = true
                        for k in 0..<n where keyBuffer[base + k] != ids[k] { equal = false; break }
                        if equal { return entry }
                    }
                    slot = (slot + 1) & mask
                }
            }
        }
        if let entry = found {
            let (sum, overflow) = counts[entry].addingReportingOverflow(count)
            if overflow {
                counts[entry] = .max
                saturated += 1
            } else {
                counts[entry] = sum
            }
            return
        }
        for k in 0..<n { keys.append(ids[k]) }
        counts.append(count)
        slots[slot] = tag << 32 | UInt64(counts.count)
        if counts.count * 2 > slots.count { grow() }
    }

    /// Doubles the slots. A slot's index is the top bits of its hash, which the slot keeps (tables
    /// stay below 2^32 slots), so no key is read.
    private func grow() {
        let size = slots.count * 2
        var bigger = [UInt64](repeating: 0, count: size)
        shift -= 1
        let mask = size - 1
        let tagShift = shift - 32
        slots.withUnsafeBufferPointer { old in
            bigger.withUnsafeMutableBufferPointer { new in
                for value in old where value != 0 {
                    var slot = Int(truncatingIfNeeded: (value >> 32) >> tagShift)
                    while new[slot] != 0 { slot = (slot + 1) & mask }
                    new[slot] = value
                }
            }
        }
        slots = bigger
        // Room for entries up to the next growth, so keys and counts grow when the slots do:
        // a table's size follows from its slot count (``bytes(n:slots:)``), which a memory budget needs.
        keys.reserveCapacity(size / 2 * n)
        counts.reserveCapacity(size / 2)
    }

    /// Bytes a table of order `n` holds at `slots` slots (keys and counts reserved for `slots / 2` entries).
    package static func bytes(n: Int, slots: Int) -> Int { 8 * slots + (4 * n + 4) * (slots / 2) }

    /// Forgets every entry, keeping the slots and the reserved room (after a spill).
    func removeAll() {
        keys.removeAll(keepingCapacity: true)
        counts.removeAll(keepingCapacity: true)
        for i in slots.indices { slots[i] = 0 }
    }

    /// The entries in table order: `n` ids then the count, per entry.
    func forEachEntry<E: Error>(_ body: (UnsafePointer<UInt32>, UInt32) throws(E) -> Void) throws(E) {
        try keys.withUnsafeBufferPointer { (k) throws(E) in
            for e in 0..<counts.count { try body(k.baseAddress! + e * n, counts[e]) }
        }
    }

    /// Releases the hash index (keys and counts stay), for when only the entries are needed.
    func dropIndex() { slots = [] }

    /// Rewrites every id through `map` and returns the entries sorted by id tuple.
    func sortedEntries(remapping map: [UInt32], idBits: Int) -> (keys: [UInt32], counts: [UInt32]) {
        let n = self.n
        let total = counts.count
        if idBits * n <= 64 {
            var packed = NgramCounts.Table.pack(keys: keys, counts: counts, n: n, map: map, idBits: idBits)
            // The table's own arrays are not needed any more: free them before the output's.
            keys = []
            counts = []
            NgramCounts.Table.radixSort(&packed, keyBits: idBits * n)
            let table = NgramCounts.Table.unpack(packed, n: n, idBits: idBits)
            return (table.keys, table.counts)
        }
        var outKeys = [UInt32](repeating: 0, count: total * n)
        var outCounts = [UInt32](repeating: 0, count: total)
        var remapped = keys.map { map[Int($0)] }
        keys = []
        var order = Array(0..<total)
        remapped.withUnsafeMutableBufferPointer { r in
            order.sort { a, b in
                for j in 0..<n where r[a * n + j] != r[b * n + j] { return r[a * n + j] < r[b * n + j] }
                return false
            }
        }
        for (e, source) in order.enumerated() {
            for j in 0..<n { outKeys[e * n + j] = remapped[source * n + j] }
            outCounts[e] = counts[source]
        }
        return (outKeys, outCounts)
    }
}
