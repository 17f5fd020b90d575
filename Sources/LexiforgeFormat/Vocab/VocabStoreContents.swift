/// What a vocabulary store holds, as plain values: the writer's input.
public struct VocabStoreContents: Sendable, Equatable {
    /// Level names; a level's index is its bit in ``VocabRecord/levelMask``.
    public var levels: [String]
    public var records: [VocabRecord]

    public init(levels: [String], records: [VocabRecord]) {
        self.levels = levels
        self.records = records
    }
}

/// One entry to write.
public struct VocabRecord: Sendable, Equatable {
    public var expression: String
    public var reading: String?
    public var meaning: String?
    public var tags: String?
    public var levelMask: Int64
    public var category: VocabCategory

    public init(expression: String, reading: String?, meaning: String?, tags: String?, levelMask: Int64, category: VocabCategory) {
        self.expression = expression
        self.reading = reading
        self.meaning = meaning
        self.tags = tags
        self.levelMask = levelMask
        self.category = category
    }

    /// The bucket an entry belongs to: entries with equal keys answer every predicate over
    /// levels, categories and present fields alike.
    public var bucketKey: BucketKey {
        BucketKey(levels: levelMask, category: category.rawValue, hasReading: reading != nil, hasMeaning: meaning != nil)
    }

    public struct BucketKey: Hashable, Comparable, Sendable {
        public var levels: Int64
        public var category: Int
        public var hasReading: Bool
        public var hasMeaning: Bool
        public static func < (a: Self, b: Self) -> Bool {
            (a.levels, a.category, a.hasReading ? 1 : 0, a.hasMeaning ? 1 : 0) < (b.levels, b.category, b.hasReading ? 1 : 0, b.hasMeaning ? 1 : 0)
        }
    }

    /// The store's entry order: bucket, then expression, reading, meaning and tags in byte order.
    public static func storeOrder(_ a: VocabRecord, _ b: VocabRecord) -> Bool {
        let ka = a.bucketKey, kb = b.bucketKey
        if ka != kb { return ka < kb }
        for (x, y) in [(a.expression, b.expression), (a.reading ?? "", b.reading ?? ""), (a.meaning ?? "", b.meaning ?? ""), (a.tags ?? "", b.tags ?? "")]
        where x != y {
            return x.utf8.lexicographicallyPrecedes(y.utf8)
        }
        return false
    }
}
