/// A hash that is the same in every process and on every machine (Swift's `Hasher` is seeded per
/// process): for user folds, stored tables and keys that must not move between runs.
public enum StableHash {
    /// FNV-1a (64 bits) of the text's UTF-8 bytes.
    public static func fnv1a(_ text: some StringProtocol) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }
}
