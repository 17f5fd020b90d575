import Foundation

/// A hash table of entry numbers keyed by a spelling derived from each entry (its text, or its
/// case-folded text), holding no strings of its own: open addressing, 4 bytes a slot, at most
/// 3/4 full (as a Swift dictionary), each probe comparing the key with the spelling of the entry
/// in the slot. 169,000 spellings take 1 MB, against 5.3 MB as a `[String: Int32]` (a key, a
/// value and hash-table room per entry).
package struct SpellingTable: Sendable {
    /// Entry number per slot, -1 for an empty one.
    @usableFromInline var slots: [Int32]
    @usableFromInline let mask: Int

    /// Room for `count` entries.
    package init(capacity count: Int) {
        var size = 16
        while size * 3 < count * 4 { size *= 2 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
    }

    /// Per slot, bits of the hash of the key it holds, so that filling a table compares keys
    /// (deriving the stored one) only where they are likely equal. Not kept afterwards.
    @inlinable package func makeTags() -> [UInt32] { [UInt32](repeating: 0, count: slots.count) }

    /// The entry whose spelling (`spelling(entry)`) equals `key`, or nil and the empty slot where it belongs.
    @inlinable package func find(_ key: String, tags: [UInt32]? = nil, spelling: (Int32) -> String) -> (entry: Int32?, slot: Int) {
        let hash = key.hashValue
        let tag = UInt32(truncatingIfNeeded: hash >> 32)
        var slot = hash & mask
        while true {
            let entry = slots[slot]
            if entry < 0 { return (nil, slot) }
            if tags.map({ $0[slot] == tag }) ?? true, spelling(entry) == key { return (entry, slot) }
            slot = (slot + 1) & mask
        }
    }

    /// Puts `entry` in `slot`: the empty one ``find(_:tags:spelling:)`` gave for `key`, or the one it found `key` in.
    @inlinable package mutating func set(_ entry: Int32, at slot: Int, key: String, tags: inout [UInt32]) {
        slots[slot] = entry
        tags[slot] = UInt32(truncatingIfNeeded: key.hashValue >> 32)
    }

    /// Renumbers the entries: the entry in each slot becomes `number[entry]`.
    package mutating func renumber(_ number: [Int32]) {
        for k in slots.indices where slots[k] >= 0 { slots[k] = number[Int(slots[k])] }
    }
}
