import Foundation

/// The precomputed swipe features of one word on one layout (thesis section 3.1).
///
/// All lengths are in key widths on the layout's geometry (``SwipeLayout/rowHeightRatio``).
/// The end point is the last key's centre (not stored separately: `last_key` names it).
public struct SwipeFeatures: Sendable, Equatable {
    /// The perfect swipe's corners: key indices, consecutive repeats collapsed.
    public var keys: [UInt8]
    /// Length of the perfect swipe (centre to centre), key widths.
    public var length: Double
    /// Direction from the first to the second key, radians in (-π, π], y down; 0 for one key.
    public var startAngle: Double
    /// Distance from the first to the second key centre, key widths; 0 for one key.
    public var secondDistance: Double

    public var firstKey: UInt8 { keys[0] }
    public var lastKey: UInt8 { keys[keys.count - 1] }

    /// Features of a key path on a layout.
    public init(keys: [UInt8], layout: SwipeLayout) {
        precondition(!keys.isEmpty, "a key path has at least one key")
        self.keys = keys
        var length = 0.0
        for i in keys.indices.dropFirst() {
            length += layout.keys[Int(keys[i - 1])].centre.distance(to: layout.keys[Int(keys[i])].centre)
        }
        self.length = length
        if keys.count > 1 {
            let a = layout.keys[Int(keys[0])].centre, b = layout.keys[Int(keys[1])].centre
            startAngle = atan2(b.y - a.y, b.x - a.x)
            secondDistance = a.distance(to: b)
        } else {
            startAngle = 0
            secondDistance = 0
        }
    }

    /// Features of a word, nil when it has no key path (see ``SwipeLayout/keyPath(of:)``).
    public init?(word: String, layout: SwipeLayout) {
        guard let path = layout.keyPath(of: word) else { return nil }
        self.init(keys: path, layout: layout)
    }

    /// Stored quantisation, chosen so each value fits SQLite's one-byte integer (−128...127) where
    /// it can: lengths in hundredths of a key width (two bytes), the distance to the second key in
    /// tenths (one byte, at most 12.7), the start angle in 256ths of a turn as −128...127 (one byte,
    /// 1.4° steps; 0 = rightwards, 64 = downwards).
    public static let lengthScale = 100.0
    public static let distanceScale = 10.0
    public static let angleSteps = 256.0

    public var storedLength: Int { Int((length * Self.lengthScale).rounded()) }
    public var storedSecondDistance: Int { min(127, Int((secondDistance * Self.distanceScale).rounded())) }
    public var storedStartAngle: Int {
        let steps = Int((startAngle / (2 * .pi) * Self.angleSteps).rounded())
        return ((steps + 128) % 256 + 256) % 256 - 128
    }

    /// The start angle (radians) of a stored value.
    public static func startAngle(stored: Int) -> Double { Double(stored) * 2 * .pi / angleSteps }

    /// Packs the inner keys of a path for the store: 5 bits per key (little-endian bit order) when
    /// the layout has at most 31 keys, closed by 31 when a 5-bit slot remains; else one byte per key.
    /// 6.1 inner keys on average take 3.8 bytes instead of 6.1 (0.37 MB for en_US).
    public static func pack(_ inner: ArraySlice<UInt8>, keyCount: Int) -> [UInt8] {
        guard keyCount <= 31 else { return Array(inner) }
        var bytes: [UInt8] = [], buffer: UInt32 = 0, bits = 0
        for k in inner + (((inner.count * 5) % 8 == 0 || (8 - (inner.count * 5) % 8) < 5) ? [] : [31]) {
            buffer |= UInt32(k) << bits
            bits += 5
            while bits >= 8 { bytes.append(UInt8(buffer & 0xFF)); buffer >>= 8; bits -= 8 }
        }
        if bits > 0 { bytes.append(UInt8(buffer & 0xFF)) }
        return bytes
    }

    /// The inverse of ``pack(_:keyCount:)``.
    public static func unpack(_ bytes: [UInt8], keyCount: Int) -> [UInt8] {
        var keys: [UInt8] = []
        unpack(bytes, keyCount: keyCount, into: &keys)
        return keys
    }

    /// The inverse of ``pack(_:keyCount:)``, appended to `keys` (a store's load unpacks each
    /// word's path from SQLite's bytes into one array, without an array per word).
    @inlinable
    public static func unpack(_ bytes: some Sequence<UInt8>, keyCount: Int, into keys: inout [UInt8]) {
        guard keyCount <= 31 else { keys.append(contentsOf: bytes); return }
        var buffer: UInt32 = 0, bits = 0
        for b in bytes {
            buffer |= UInt32(b) << bits
            bits += 8
            while bits >= 5 {
                let k = UInt8(buffer & 31)
                if k == 31 { return }
                keys.append(k); buffer >>= 5; bits -= 5
            }
        }
    }
}
