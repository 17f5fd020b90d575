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
        (try? queue.read { db in try db.tableExists("lexiconFrequency") }) ?? false
    }

    /// The `limit` most frequent words starting with `prefix`, ignoring case and accents: "th" gives
    /// the, that, this…; "uber" gives "über". Entries marked `not_a_word` or with frequency 0 are
    /// never offered; possibly offensive ones only when `allowOffensive` is set.
    ///
    /// Ranked by frequency, then id (list order). A prefix matching many words reads its stored top
    /// list (`lexiconPrefix`, one short range scan); any other prefix is at most
    /// ``StoreSchema/lexiconPrefixThreshold`` rows found by range scans of `word_by_text` (lower,
    /// Capitalized and UPPER spellings of the folded prefix) and `lexiconFolded`, then ranked by
    /// their `lexiconFrequency` runs.
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
        SELECT p.wordId, w.text, \(StoreSchema.lexiconFrequencySQL(of: "p.wordId")), coalesce(d.attributes, 0)
        FROM lexiconPrefix AS p JOIN word AS w ON w.id = p.wordId LEFT JOIN lexiconDetail AS d ON d.wordId = p.wordId
        WHERE p.prefix = ? ORDER BY p.rank
        """

    private static func completion(_ row: Row) -> Completion {
        let attributes = LexiconAttributes(rawValue: row[3])
        return Completion(word: row[1], id: row[0], frequency: row[2],
                          possiblyOffensive: attributes.contains(.possiblyOffensive))
    }

    private func scan(_ db: Database, key: String, limit: Int, allowOffensive: Bool) throws -> [Completion] {
        let blocked = LexiconAttributes.notAWord.rawValue | (allowOffensive ? 0 : LexiconAttributes.possiblyOffensive.rawValue)
        // Candidates (word rows in the folded prefix's ranges), then frequency and attributes of those only.
        var parts: [String] = []
        var arguments: [DatabaseValueConvertible] = []
        if key.isEmpty {
            parts.append("SELECT id FROM word")
        } else {
            for spelling in LexiconKey.spellings(ofFolded: key) {
                parts.append("SELECT id FROM word WHERE text >= ? AND text < ?")
                arguments += [spelling, LexiconKey.upperBound(of: spelling)]
            }
            parts.append("SELECT wordId FROM lexiconFolded WHERE key >= ? AND key < ?")
            arguments += [key, LexiconKey.upperBound(of: key)]
        }
        let candidates = parts.joined(separator: "\nUNION\n")
        let sql = """
            SELECT * FROM (
                SELECT c.id AS id, w.text, \(StoreSchema.lexiconFrequencySQL(of: "c.id")) AS f, coalesce(d.attributes, 0) AS a
                FROM (\(candidates)) AS c JOIN word AS w ON w.id = c.id LEFT JOIN lexiconDetail AS d ON d.wordId = c.id
            ) WHERE f > 0 AND a & \(blocked) = 0
            ORDER BY f DESC, id LIMIT ?
            """
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
            // Runs of frequencies over ids, expanded against the word table; details where stored.
            let runs = try Row.fetchAll(db, sql: "SELECT firstId, frequency FROM lexiconFrequency ORDER BY firstId")
                .map { (first: $0[0] as Int64, frequency: $0[1] as Int?) }
            var details: [Int64: Row] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT wordId, originalFrequency, flags, attributes FROM lexiconDetail") {
                details[row[0]] = row
            }
            for (r, run) in runs.enumerated() {
                guard let frequency = run.frequency else { continue }
                let end = r + 1 < runs.count ? runs[r + 1].first : Int64.max
                let rows = try Row.fetchCursor(db, sql: "SELECT id, text FROM word WHERE id >= ? AND id < ? ORDER BY id", arguments: [run.first, end])
                while let row = try rows.next() {
                    let id: Int64 = row[0]
                    var entry = LexiconEntry(word: row[1], frequency: frequency, originalFrequency: frequency, flags: "")
                    if let detail = details[id] {
                        let attributes = LexiconAttributes(rawValue: detail[3])
                        entry.originalFrequency = attributes.contains(.noOriginalFrequency) ? nil : ((detail[1] as Int?) ?? frequency)
                        entry.flags = detail[2]
                        entry.attributes = attributes.subtracting(.noOriginalFrequency)
                    }
                    index[id] = lexicon.entries.count
                    lexicon.entries.append(entry)
                }
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
