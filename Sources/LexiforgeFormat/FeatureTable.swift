/// An open-addressing map from hashed feature keys (never 0) to weight rows: the feature index
/// of the averaged-perceptron UPOS tagger (LexiforgePerceptron) and of the entity tagger.
public struct FeatureTable: Sendable {
    @usableFromInline private(set) var keys: [UInt64]
    @usableFromInline private(set) var rows: [Int32]
    public private(set) var count = 0

    public init(capacity: Int = 1 << 16) {
        var n = 16
        while n < capacity * 2 { n <<= 1 }
        keys = Array(repeating: 0, count: n)
        rows = Array(repeating: -1, count: n)
    }

    @usableFromInline @inline(__always)
    func slot(_ key: UInt64) -> Int {
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: key) & mask
        while keys[slot] != key && keys[slot] != 0 { slot = (slot + 1) & mask }
        return slot
    }

    /// The row of `key`, or −1.
    @inlinable @inline(__always)
    public func row(_ key: UInt64) -> Int32 { rows[slot(key)] }

    /// The row of `key`, giving it the next free row if it has none.
    public mutating func insert(_ key: UInt64) -> Int32 {
        if (count + 1) * 2 > keys.count {
            var bigger = FeatureTable(capacity: keys.count)
            for (k, r) in zip(keys, rows) where k != 0 {
                let s = bigger.slot(k)
                bigger.keys[s] = k
                bigger.rows[s] = r
            }
            bigger.count = count
            self = bigger
        }
        let s = slot(key)
        if keys[s] == 0 {
            keys[s] = key
            rows[s] = Int32(count)
            count += 1
        }
        return rows[s]
    }

    /// Every (key, row), in no particular order.
    public var entries: [(key: UInt64, row: Int32)] {
        zip(keys, rows).compactMap { $0.0 == 0 ? nil : (key: $0.0, row: $0.1) }
    }
}
