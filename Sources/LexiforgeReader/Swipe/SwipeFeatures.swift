import Foundation

/// The precomputed swipe features of one word on one layout (thesis section 3.1).
///
/// All lengths are in key widths on the layout's geometry (``SwipeLayout/rowHeightRatio``).
/// The end point is the last key's centre (not stored separately: `lastKey` names it).
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

    /// Stored quantisation: lengths in hundredths of a key width, angles in whole degrees 0...359.
    public static let lengthScale = 100.0

    public var storedLength: Int { Int((length * Self.lengthScale).rounded()) }
    public var storedSecondDistance: Int { Int((secondDistance * Self.lengthScale).rounded()) }
    public var storedStartAngle: Int {
        let degrees = Int((startAngle * 180 / .pi).rounded())
        return ((degrees % 360) + 360) % 360
    }
}
