import GRDB

/// Why a lexicon query failed.
public enum LexiconError: Error, CustomStringConvertible, Sendable {
    case noLexicon(String)

    public var description: String {
        switch self {
        case .noLexicon(let path):
            return "\(path): the store holds no wordlist; build one with `lexiforge wordlist import LIST.combined.gz -o \(path)` or a model naming `wordlists`"
        }
    }
}

/// A completion of a typed prefix, from the lexicon.
public struct Completion: Sendable, Equatable, CustomStringConvertible {
    /// The word as the list spells it ("über" for the prefix "uber").
    public var word: String
    public var id: Int64
    /// 0-255 (see ``LexiconEntry/probability(ofFrequency:)``).
    public var frequency: Int
    public var possiblyOffensive: Bool

    public var probability: Double { LexiconEntry.probability(ofFrequency: frequency) }
    public var description: String { "\(word) (f=\(frequency))" }
}

extension TrainedStore {
    /// Whether the store holds a lexicon (was built from a wordlist).
    public var hasLexicon: Bool {
        (try? queue.read { db in try db.tableExists("lexicon_frequency") }) ?? false
    }

    /// The `limit` most frequent words starting with `prefix`, ignoring case and accents: "th" gives
    /// the, that, this…; "uber" gives "über". Entries marked `not_a_word` or with frequency 0 are
    /// never offered; possibly offensive ones only when `allowOffensive` is set.
    ///
    /// Ranked by frequency, then id (list order). A prefix matching many words reads its stored top
    /// list (`lexicon_prefix`, one short range scan); any other prefix is at most
    /// ``StoreSchema/lexiconPrefixThreshold`` words found by range scans of the `word_order` index
    /// (lower, Capitalized and UPPER spellings of the folded prefix) and `lexicon_folded`, then
    /// ranked by their `lexicon_frequency` runs. Spellings are read a `word_block` at a time and the
    /// blocks kept as bytes, so completion never builds the whole vocabulary (1.6 MB of blocks for
    /// en_US instead of about 12 MB of strings and tables).
    ///
    /// ```swift
    /// let store = try TrainedStore(path: "Artifacts/en_US-wordlist.sqlite")
    /// try store.completions(of: "th", limit: 3).map(\.word)   // ["the", "that", "this"]
    /// ```
    /// - Throws: ``LexiconError/noLexicon(_:)`` when the store has no lexicon.
    /// - Complexity: O(log n + k) for a hot prefix, O(log n + threshold) otherwise.
    public func completions(of prefix: String, limit: Int = 3, allowOffensive: Bool = false) throws -> [Completion] {
        let key = LexiconKey.fold(prefix)
        do {
            let words = wordTextCache
            // No wrapping transaction (the store is read-only): one statement for a hot prefix.
            return try checked { db in
                if limit <= StoreSchema.lexiconPrefixTop {
                    let hot = try Row.fetchCursor(db.cachedStatement(sql: Self.hotSQL), arguments: [key])
                    var result: [Completion] = []
                    var stored = 0
                    while let row = try hot.next() {
                        stored += 1
                        let completion = try Self.completion(row, words, db)
                        if completion.possiblyOffensive && !allowOffensive { continue }
                        if result.count < limit { result.append(completion) }
                    }
                    if stored > 0 && (result.count == limit || stored < StoreSchema.lexiconPrefixTop) { return result }
                }
                return try scan(db, words, key: key, limit: limit, allowOffensive: allowOffensive)
            }
        } catch StoreError.damaged where !hasLexicon {
            throw LexiconError.noLexicon(path)
        }
    }

    private static let hotSQL = """
        SELECT p.word_id, \(StoreSchema.lexiconFrequencySQL(of: "p.word_id")), coalesce(d.attributes, 0)
        FROM lexicon_prefix AS p LEFT JOIN lexicon_detail AS d ON d.word_id = p.word_id
        WHERE p.prefix = ? ORDER BY p.rank
        """

    /// One row of ``hotSQL`` or ``entrySQL``: id, frequency, attributes.
    private static func completion(_ row: Row, _ words: WordTextCache, _ db: Database) throws -> Completion {
        let id = try row.integer(0, "lexicon_prefix", "word_id", in: 0...Int64(Int32.max))
        let attributes = LexiconAttributes(rawValue: try row.int(2, "lexicon_detail", "attributes", in: 0...Int64(Int32.max)))
        guard let word = try words.text(of: id, db) else {
            throw StoreDamage("the lexicon names word id \(id), which `word_block` does not hold")
        }
        return Completion(word: word, id: id, frequency: try row.int(1, "lexicon_frequency", "frequency", in: 0...255),
                          possiblyOffensive: attributes.contains(.possiblyOffensive))
    }

    private static let entrySQL = """
        SELECT ?1, \(StoreSchema.lexiconFrequencySQL(of: "?1")), coalesce((SELECT attributes FROM lexicon_detail WHERE word_id = ?1), 0)
        """

    private func scan(_ db: Database, _ words: WordTextCache, key: String, limit: Int, allowOffensive: Bool) throws -> [Completion] {
        let blocked = LexiconAttributes.notAWord.rawValue | (allowOffensive ? 0 : LexiconAttributes.possiblyOffensive.rawValue)
        // Candidates: the words in the `word_order` ranges of the folded prefix's spellings and in
        // its `lexicon_folded` range; then the frequency and attributes of those only.
        // (An empty key is every word: the empty prefix of `word_order`.)
        var candidates = Set<Int64>()
        for spelling in LexiconKey.spellings(ofFolded: key) { candidates.formUnion(try words.ids(withPrefix: spelling, db)) }
        candidates.formUnion(try Row.fetchAll(db.cachedStatement(sql: "SELECT word_id FROM lexicon_folded WHERE key >= ? AND key < ?"),
                                              arguments: [key, LexiconKey.upperBound(of: key)]).map {
            try $0.integer(0, "lexicon_folded", "word_id", in: 0...Int64(Int32.max))
        })
        let entry = try db.cachedStatement(sql: Self.entrySQL)
        var found: [Completion] = []
        for id in candidates.sorted() {
            guard let row = try Row.fetchOne(entry, arguments: [id]),
                  let frequency = try row.optionalInt(1, "lexicon_frequency", "frequency", in: 0...255), frequency > 0,
                  try row.int(2, "lexicon_detail", "attributes", in: 0...Int64(Int32.max)) & blocked == 0 else { continue }
            found.append(try Self.completion(row, words, db))
        }
        found.sort { $0.frequency > $1.frequency || ($0.frequency == $1.frequency && $0.id < $1.id) }
        return Array(found.prefix(max(limit, 0)))
    }

    /// The whole lexicon, entries in id order, with every field needed to write the list back.
    /// - Throws: ``LexiconError/noLexicon(_:)`` when the store has no lexicon.
    public func lexicon() throws -> Lexicon {
        guard hasLexicon else { throw LexiconError.noLexicon(path) }
        let vocabulary = try vocabulary()
        let size = vocabulary.texts.count
        return try checked { db in
            var lexicon = Lexicon()
            var list = -1
            for row in try Row.fetchAll(db, sql: "SELECT list, key, value FROM lexicon_header ORDER BY list, position") {
                let l = try row.int(0, "lexicon_header", "list", in: 0...1023)   // a handful of lists; more is damage
                while list < l { lexicon.headers.append([]); list += 1 }
                lexicon.headers[l].append(.init(key: try row.text(1, "lexicon_header", "key"), value: try row.text(2, "lexicon_header", "value")))
            }
            var index: [Int64: Int] = [:]
            // Runs of frequencies over ids, expanded against the vocabulary; details where stored.
            let runs = try Row.fetchAll(db, sql: "SELECT first_id, frequency FROM lexicon_frequency ORDER BY first_id").map {
                (first: Int64(try $0.wordID(0, "lexicon_frequency", "first_id", words: size)),
                 frequency: try $0.optionalInt(1, "lexicon_frequency", "frequency", in: 0...255))
            }
            var details: [Int64: (original: Int?, flags: String?, attributes: LexiconAttributes)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT word_id, original_frequency, flags, attributes FROM lexicon_detail") {
                details[Int64(try row.wordID(0, "lexicon_detail", "word_id", words: size))] = (
                    try row.optionalInt(1, "lexicon_detail", "original_frequency"), try row.optionalText(2, "lexicon_detail", "flags"),
                    LexiconAttributes(rawValue: try row.int(3, "lexicon_detail", "attributes", in: 0...Int64(Int32.max))))
            }
            for (r, run) in runs.enumerated() {
                guard let frequency = run.frequency else { continue }
                let end = r + 1 < runs.count ? runs[r + 1].first : Int64(size)
                guard run.first <= end else { continue }   // ORDER BY first_id: only a duplicate could be out of order
                for id in run.first..<end {
                    var entry = LexiconEntry(word: vocabulary.texts[Int(id)], frequency: frequency, originalFrequency: frequency, flags: "")
                    if let detail = details[id] {
                        entry.originalFrequency = detail.attributes.contains(.noOriginalFrequency) ? nil : (detail.original ?? frequency)
                        entry.flags = detail.flags
                        entry.attributes = detail.attributes.subtracting(.noOriginalFrequency)
                    }
                    index[id] = lexicon.entries.count
                    lexicon.entries.append(entry)
                }
            }
            for row in try Row.fetchAll(db, sql: "SELECT word_id, position, key, value FROM lexicon_key ORDER BY word_id, position") {
                guard let i = index[try row.integer(0, "lexicon_key", "word_id")] else { continue }
                lexicon.entries[i].extraKeys.append(.init(position: try row.int(1, "lexicon_key", "position"),
                                                          key: try row.text(2, "lexicon_key", "key"), value: try row.text(3, "lexicon_key", "value")))
            }
            var children: [Int64: [(Int, LexiconEntry.Child)]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT word_id, position, target, frequency, extra FROM lexicon_shortcut") {
                let t = "lexicon_shortcut"
                children[try row.integer(0, t, "word_id"), default: []].append((try row.int(1, t, "position"), .shortcut(
                    target: try row.text(2, t, "target"), frequency: try row.optionalInt(3, t, "frequency"), extra: try row.optionalText(4, t, "extra"))))
            }
            for row in try Row.fetchAll(db, sql: "SELECT word_id, position, next_word_id, frequency, extra FROM lexicon_bigram") {
                let t = "lexicon_bigram"
                let next = vocabulary.texts[try row.wordID(2, t, "next_word_id", words: size)]
                children[try row.integer(0, t, "word_id"), default: []].append((try row.int(1, t, "position"), .bigram(
                    next: next, frequency: try row.int(3, t, "frequency", in: 0...255), extra: try row.optionalText(4, t, "extra"))))
            }
            for row in try Row.fetchAll(db, sql: "SELECT word_id, position, line FROM lexicon_child_line") {
                let t = "lexicon_child_line"
                children[try row.integer(0, t, "word_id"), default: []].append((try row.int(1, t, "position"), .other(line: try row.text(2, t, "line"))))
            }
            for (id, list) in children {
                guard let i = index[id] else { continue }
                lexicon.entries[i].children = list.sorted { $0.0 < $1.0 }.map(\.1)
            }
            return lexicon
        }
    }
}
