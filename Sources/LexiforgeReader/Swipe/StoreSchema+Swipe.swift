/// The swipe tables: per-word precomputed swipe features, one row per word and layout.
///
/// Present only in stores built with `lexiforge swipe features` or a model naming
/// `swipe_layouts`. Layout:
/// - `swipeLayout(id, name, rowHeightRatio, definition, words)`: the layouts whose features are
///   stored; `definition` is the layout as JSON with every key in index order
///   (``SwipeLayout/jsonDefinition()``), so key paths and custom layouts read back exactly.
/// - `swipeFeature(layoutId, firstKey, lastKey, length, wordId, startAngle, secondDistance, path)`:
///   `WITHOUT ROWID`, keyed by `(layoutId, firstKey, lastKey, length, wordId)`, so the start-point,
///   end-point and length filters are range scans of the primary key (`firstKey IN … AND lastKey
///   IN … AND length BETWEEN …`; the length filter alone is at most one range per (first, last)
///   pair). `length` is hundredths of a key width, `secondDistance` tenths, `startAngle` 256ths of a
///   turn as −128...127 (y down; see ``SwipeFeatures/storedStartAngle``), `path` the inner key indices (between the first
///   and last key) packed 5 bits each (``SwipeFeatures/pack(_:keyCount:)``), NULL for paths of one or two keys. The end point is the centre of
///   `lastKey`.
/// No secondary index: one would cost 2.5 MB for 160,000 words, over the 4 MB budget.
extension StoreSchema {
    public enum SwipeMetaKey {
        /// JSON object: layouts, words with features, words without a key path, seconds.
        public static let features = "swipe_features"
    }

    public static func swipeCreationStatements() -> [String] {
        [
            """
            CREATE TABLE swipeLayout (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                rowHeightRatio REAL NOT NULL CHECK (rowHeightRatio > 0),
                definition TEXT NOT NULL,
                words INTEGER NOT NULL CHECK (words >= 0)
            )
            """,
            """
            CREATE TABLE swipeFeature (
                layoutId INTEGER NOT NULL REFERENCES swipeLayout(id),
                firstKey INTEGER NOT NULL CHECK (firstKey BETWEEN 0 AND 254),
                lastKey INTEGER NOT NULL CHECK (lastKey BETWEEN 0 AND 254),
                length INTEGER NOT NULL CHECK (length >= 0),
                wordId INTEGER NOT NULL,
                startAngle INTEGER NOT NULL CHECK (startAngle BETWEEN -128 AND 127),
                secondDistance INTEGER NOT NULL CHECK (secondDistance BETWEEN 0 AND 127),
                path BLOB,
                PRIMARY KEY (layoutId, firstKey, lastKey, length, wordId)
            ) WITHOUT ROWID
            """,
        ]
    }

    /// Created after the rows are in (none: the primary key answers the filters).
    public static let swipeIndexStatements: [String] = []
}
