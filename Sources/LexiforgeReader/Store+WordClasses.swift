import GRDB

/// Search by lemma and by script class, in stores built with word classes (`word_class` table).
extension TrainedStore {
    /// Whether the store has the `word_class` table (built with `--word-classes`).
    public var hasWordClasses: Bool {
        (try? queue.read { db in try db.tableExists("word_class") }) ?? false
    }

    /// The words whose lemma is `lemma` (the lemma itself included when it is a word of the
    /// store), most frequent first: "run" finds "running", "ran", "runs", "run".
    /// - Throws: ``StoreError/notAStore`` when the store has no word classes.
    public func words(withLemma lemma: String, limit: Int = 100) throws -> [String] {
        try requireWordClasses()
        return try queue.read { db in
            try String.fetchAll(db, sql: """
                SELECT w.text FROM word_class AS c JOIN word AS w ON w.id = c.word
                WHERE c.lemma = ?1 OR (w.text = ?1 AND c.lemma IS NULL)
                ORDER BY w.count DESC, w.id LIMIT ?2
                """, arguments: [lemma, limit])
        }
    }

    /// The words of a script class (a name of ``StoreSchema/scriptNames``: "han", "kanji_kana",
    /// "katakana", ...), most frequent first, through the `word_class_by_script` index.
    public func words(inScript name: String, limit: Int = 100) throws -> [String] {
        try requireWordClasses()
        guard let code = StoreSchema.scriptNames.firstIndex(of: name) else {
            throw StoreError.notAStore(path, "no script class '\(name)'; use one of \(StoreSchema.scriptNames.joined(separator: ", "))")
        }
        return try queue.read { db in
            try String.fetchAll(db, sql: """
                SELECT w.text FROM word_class AS c JOIN word AS w ON w.id = c.word
                WHERE c.script = ? ORDER BY w.count DESC, w.id LIMIT ?
                """, arguments: [code, limit])
        }
    }

    private func requireWordClasses() throws {
        guard hasWordClasses else {
            throw StoreError.notAStore(path, "built without word classes; rebuild it with `lexiforge ngrams --word-classes`")
        }
    }
}
