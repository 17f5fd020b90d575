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
        let vocabulary = try vocabulary()
        let ids = try checked { db in
            var ids = try Row.fetchAll(db, sql: "SELECT word FROM word_class WHERE lemma = ?", arguments: [lemma]).map {
                Int64(try $0.wordID(0, "word_class", "word", words: vocabulary.texts.count))
            }
            if let own = vocabulary.id(of: lemma),
               try Bool.fetchOne(db, sql: "SELECT lemma IS NULL FROM word_class WHERE word = ?", arguments: [own]) == true {
                ids.append(own)
            }
            return ids
        }
        return Self.mostFrequent(ids, vocabulary, limit: limit)
    }

    /// The lemma the store recorded for `word` (spelled as the store holds it), the word itself
    /// when its recorded lemma is empty (a word that is its own lemma), nil when the store never
    /// saw the word.
    /// - Throws: ``StoreError/notAStore`` when the store has no word classes.
    public func lemma(of word: String) throws -> String? {
        try requireWordClasses()
        let vocabulary = try vocabulary()
        guard let id = vocabulary.id(of: word) else { return nil }
        return try checked { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT lemma FROM word_class WHERE word = ?", arguments: [id]) else { return nil }
            return try row.optionalText(0, "word_class", "lemma") ?? word
        }
    }

    /// The words of a script class (a name of ``StoreSchema/scriptNames``: "han", "kanji_kana",
    /// "katakana", ...), most frequent first, through the `word_class_by_script` index.
    public func words(inScript name: String, limit: Int = 100) throws -> [String] {
        try requireWordClasses()
        guard let code = StoreSchema.scriptNames.firstIndex(of: name) else {
            throw StoreError.notAStore(path, "no script class '\(name)'; use one of \(StoreSchema.scriptNames.joined(separator: ", "))")
        }
        let vocabulary = try vocabulary()
        let ids = try checked { db in
            try Row.fetchAll(db, sql: "SELECT word FROM word_class WHERE script = ?", arguments: [code]).map {
                Int64(try $0.wordID(0, "word_class", "word", words: vocabulary.texts.count))
            }
        }
        return Self.mostFrequent(ids, vocabulary, limit: limit)
    }

    /// The spellings of `ids` (each checked to be in the vocabulary), most frequent first (ties by id), at most `limit`.
    private static func mostFrequent(_ ids: [Int64], _ vocabulary: StoreVocabulary, limit: Int) -> [String] {
        ids.sorted { (vocabulary.counts[Int($0)], $1) > (vocabulary.counts[Int($1)], $0) }
            .prefix(max(limit, 0)).map { vocabulary.texts[Int($0)] }
    }

    private func requireWordClasses() throws {
        guard hasWordClasses else {
            throw StoreError.notAStore(path, "built without word classes; rebuild it with `lexiforge ngrams --word-classes`")
        }
    }
}
