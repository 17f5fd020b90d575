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
///   IN … AND length BETWEEN …`). `length` and `secondDistance` are hundredths of a key width,
///   `startAngle` whole degrees 0-359 (y down), `path` the inner key indices (between the first
///   and last key) as bytes, NULL for paths of one or two keys. The end point is the centre of
///   `lastKey`.
/// - Index `swipeFeature_by_length(layoutId, length)`: candidates by length range alone.
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
                wordId INTEGER NOT NULL REFERENCES word(id),
                startAngle INTEGER NOT NULL CHECK (startAngle BETWEEN 0 AND 359),
                secondDistance INTEGER NOT NULL CHECK (secondDistance >= 0),
                path BLOB,
                PRIMARY KEY (layoutId, firstKey, lastKey, length, wordId)
            ) WITHOUT ROWID
            """,
        ]
    }

    /// Created after the rows are in.
    public static let swipeIndexStatements = [
        "CREATE INDEX swipeFeature_by_length ON swipeFeature(layoutId, length)",
    ]
}
