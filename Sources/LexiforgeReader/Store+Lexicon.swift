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
        (try? queue.read { db in try db.tableExists("lexicon") }) ?? false
    }

    /// The `limit` most frequent words starting with `prefix`, ignoring case and accents: "th" gives
    /// the, that, this…; "uber" gives "über". Entries marked `not_a_word` or with frequency 0 are
    /// never offered; possibly offensive ones only when `allowOffensive` is set.
    ///
    /// Ranked by frequency, then id (list order). A prefix matching many words reads its stored top
    /// list (`lexiconPrefix`, one short range scan); any other prefix is at most
    /// ``StoreSchema/lexiconPrefixThreshold`` rows found by range scans of `word_by_text` (lower,
    /// Capitalized and UPPER spellings of the folded prefix) and `lexiconFolded`.
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
            // No wrapping transaction (the store is read-only): one statement for a hot prefix.
            return try queue.inDatabase { db in
                if limit <= StoreSchema.lexiconPrefixTop {
                    let hot = try Row.fetchCursor(db.cachedStatement(sql: Self.hotSQL), arguments: [key])
                    var result: [Completion] = []
                    var stored = 0
                    while let row = try hot.next() {
                        stored += 1
                        let completion = Self.completion(row)
                        if completion.possiblyOffensive && !allowOffensive { continue }
                        if result.count < limit { result.append(completion) }
                    }
                    if stored > 0 && (result.count == limit || stored < StoreSchema.lexiconPrefixTop) { return result }
                }
                return try scan(db, key: key, limit: limit, allowOffensive: allowOffensive)
            }
        } catch let error as DatabaseError where error.message?.contains("no such table") == true {
            throw LexiconError.noLexicon(path)
        }
    }

    private static let hotSQL = """
        SELECT p.wordId, w.text, l.frequency, l.attributes
        FROM lexiconPrefix AS p JOIN word AS w ON w.id = p.wordId JOIN lexicon AS l ON l.wordId = p.wordId
        WHERE p.prefix = ? ORDER BY p.rank
        """

    private static func completion(_ row: Row) -> Completion {
        let attributes = LexiconAttributes(rawValue: row[3])
        return Completion(word: row[1], id: row[0], frequency: row[2],
                          possiblyOffensive: attributes.contains(.possiblyOffensive))
    }

    private func scan(_ db: Database, key: String, limit: Int, allowOffensive: Bool) throws -> [Completion] {
        let blocked = LexiconAttributes.notAWord.rawValue | (allowOffensive ? 0 : LexiconAttributes.possiblyOffensive.rawValue)
        let filter = "l.frequency > 0 AND l.attributes & \(blocked) = 0"
        let select = "SELECT l.wordId, w.text, l.frequency, l.attributes FROM word AS w JOIN lexicon AS l ON l.wordId = w.id"
        var parts: [String] = []
        var arguments: [DatabaseValueConvertible] = []
        if key.isEmpty {
            parts.append("\(select) WHERE \(filter)")
        } else {
            for spelling in LexiconKey.spellings(ofFolded: key) {
                parts.append("\(select) WHERE w.text >= ? AND w.text < ? AND \(filter)")
                arguments += [spelling, LexiconKey.upperBound(of: spelling)]
            }
            parts.append("""
                SELECT l.wordId, w.text, l.frequency, l.attributes FROM lexiconFolded AS f
                JOIN lexicon AS l ON l.wordId = f.wordId JOIN word AS w ON w.id = f.wordId
                WHERE f.key >= ? AND f.key < ? AND \(filter)
                """)
            arguments += [key, LexiconKey.upperBound(of: key)]
        }
        let sql = parts.joined(separator: "\nUNION\n") + "\nORDER BY 3 DESC, 1 LIMIT ?"
        arguments.append(limit)
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments)).map(Self.completion)
    }

    /// The whole lexicon, entries in id order, with every field needed to write the list back.
    /// - Throws: ``LexiconError/noLexicon(_:)`` when the store has no lexicon.
    public func lexicon() throws -> Lexicon {
        guard hasLexicon else { throw LexiconError.noLexicon(path) }
        return try queue.read { db in
            var lexicon = Lexicon()
            var list = -1
            for row in try Row.fetchAll(db, sql: "SELECT list, key, value FROM lexiconHeader ORDER BY list, position") {
                let l: Int = row[0]
                while list < l { lexicon.headers.append([]); list += 1 }
                lexicon.headers[l].append(.init(key: row[1], value: row[2]))
            }
            var index: [Int64: Int] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT l.wordId, w.text, l.frequency, l.originalFrequency, l.flags, l.attributes, l.lemma, l.scriptClass
                FROM lexicon AS l JOIN word AS w ON w.id = l.wordId ORDER BY l.wordId
                """)
            while let row = try rows.next() {
                let attributes = LexiconAttributes(rawValue: row[5])
                let frequency: Int = row[2]
                let original: Int? = attributes.contains(.noOriginalFrequency) ? nil : ((row[3] as Int?) ?? frequency)
                index[row[0]] = lexicon.entries.count
                lexicon.entries.append(LexiconEntry(
                    word: row[1], frequency: frequency, originalFrequency: original, flags: row[4],
                    attributes: attributes.subtracting(.noOriginalFrequency), lemma: row[6], scriptClass: row[7]))
            }
            for row in try Row.fetchAll(db, sql: "SELECT wordId, position, key, value FROM lexiconKey ORDER BY wordId, position") {
                guard let i = index[row[0]] else { continue }
                lexicon.entries[i].extraKeys.append(.init(position: row[1], key: row[2], value: row[3]))
            }
            var children: [Int64: [(Int, LexiconEntry.Child)]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT wordId, position, target, frequency, extra FROM lexiconShortcut") {
                children[row[0], default: []].append((row[1], .shortcut(target: row[2], frequency: row[3], extra: row[4])))
            }
            for row in try Row.fetchAll(db, sql: "SELECT b.wordId, b.position, w.text, b.frequency, b.extra FROM lexiconBigram AS b JOIN word AS w ON w.id = b.nextWordId") {
                children[row[0], default: []].append((row[1], .bigram(next: row[2], frequency: row[3], extra: row[4])))
            }
            for row in try Row.fetchAll(db, sql: "SELECT wordId, position, line FROM lexiconChildLine") {
                children[row[0], default: []].append((row[1], .other(line: row[2])))
            }
            for (id, list) in children {
                guard let i = index[id] else { continue }
                lexicon.entries[i].children = list.sorted { $0.0 < $1.0 }.map(\.1)
            }
            return lexicon
        }
    }
}
