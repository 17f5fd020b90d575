/// The swipe tables: per-word precomputed swipe features, one row per word and layout.
///
/// Present only in stores built with `lexiforge swipe features` or a model naming
/// `swipe_layouts`. Layout:
/// - `swipe_layout(id, name, row_height_ratio, definition, words)`: the layouts whose features are
///   stored; `definition` is the layout as JSON with every key in index order
///   (``SwipeLayout/jsonDefinition()``), so key paths and custom layouts read back exactly.
/// - `swipe_feature(layout_id, first_key, last_key, length, word_id, start_angle, second_distance, path)`:
///   `WITHOUT ROWID`, keyed by `(layout_id, first_key, last_key, length, word_id)`, so the start-point,
///   end-point and length filters are range scans of the primary key (`first_key IN … AND last_key
///   IN … AND length BETWEEN …`; the length filter alone is at most one range per (first, last)
///   pair). `length` is hundredths of a key width, `second_distance` tenths, `start_angle` 256ths of a
///   turn as −128...127 (y down; see ``SwipeFeatures/storedStartAngle``), `path` the inner key indices (between the first
///   and last key) packed 5 bits each (``SwipeFeatures/pack(_:keyCount:)``), NULL for paths of one or two keys. The end point is the centre of
///   `last_key`.
/// No secondary index: one would cost 2.5 MB for 160,000 words, over the 4 MB budget.
extension StoreSchema {
    public enum SwipeMetaKey {
        /// JSON object: layouts, words with features, words without a key path, seconds.
        public static let features = "swipe_features"
    }

    public static func swipeCreationStatements() -> [String] {
        [
            """
            CREATE TABLE swipe_layout (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                row_height_ratio REAL NOT NULL CHECK (row_height_ratio > 0),
                definition TEXT NOT NULL,
                words INTEGER NOT NULL CHECK (words >= 0)
            )
            """,
            """
            CREATE TABLE swipe_feature (
                layout_id INTEGER NOT NULL REFERENCES swipe_layout(id),
                first_key INTEGER NOT NULL CHECK (first_key BETWEEN 0 AND 254),
                last_key INTEGER NOT NULL CHECK (last_key BETWEEN 0 AND 254),
                length INTEGER NOT NULL CHECK (length >= 0),
                word_id INTEGER NOT NULL,
                start_angle INTEGER NOT NULL CHECK (start_angle BETWEEN -128 AND 127),
                second_distance INTEGER NOT NULL CHECK (second_distance BETWEEN 0 AND 127),
                path BLOB,
                PRIMARY KEY (layout_id, first_key, last_key, length, word_id)
            ) WITHOUT ROWID
            """,
        ]
    }

    /// Created after the rows are in (none: the primary key answers the filters).
    public static let swipeIndexStatements: [String] = []
}
