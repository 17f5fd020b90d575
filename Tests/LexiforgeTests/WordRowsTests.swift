import Foundation
import GRDB
import LexiforgeReader
import LexiforgeTestSupport
import Testing

/// The packed vocabulary of schema 5 (`word_block`, `word_order`, `word_count` behind the `word`
/// view): what is written reads back, byte order and prefix scans agree with brute force across
/// row boundaries, the view shows every word in id order.
@Suite("packed vocabulary")
struct WordRowsTests {
    /// 300 spellings (five blocks, the last one partial): ASCII of mixed case, accents, kana,
    /// shared prefixes that run across `word_order` rows, and the reserved tokens first.
    static let texts: [String] = {
        var words = ["<unk>", "<s>", "</s>"]
        for i in 0..<200 { words.append("th" + String(i, radix: 7)) }
        words += ["the", "The", "THE", "thé", "über", "Über", "uber", "ひらがな", "ひら", "a", "ab", "abc", "z"]
        var i = 0
        while words.count < 300 { words.append("w\(i)x"); i += 1 }
        return words
    }()

    static func database(languageModel: Bool) throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            for sql in StoreSchema.wordCreationStatements(languageModel: languageModel) { try db.execute(sql: sql) }
            let counts = texts.indices.map { Int64($0 % 3 == 0 ? 0 : $0) }
            if languageModel {
                try WordRows.insert(db, texts: texts, counts: counts,
                                    logprobs: texts.indices.map { -Int64($0) }, backoffs: texts.indices.map { Int64($0 % 5) })
            } else {
                try WordRows.insert(db, texts: texts, counts: counts)
            }
        }
        return queue
    }

    @Test("written and read back: spellings, counts, model values, byte order", arguments: [false, true])
    func roundTrip(languageModel: Bool) throws {
        let queue = try Self.database(languageModel: languageModel)
        let vocabulary = try queue.read { db in try WordRows.read(db) }
        #expect(vocabulary.texts == Self.texts)
        #expect(vocabulary.counts == Self.texts.indices.map { Int64($0 % 3 == 0 ? 0 : $0) })
        #expect(vocabulary.logprobs == (languageModel ? Self.texts.indices.map { -Int32($0) } : Array(repeating: 0, count: Self.texts.count)))
        let byBytes = Self.texts.indices.sorted { Array(Self.texts[$0].utf8).lexicographicallyPrecedes(Array(Self.texts[$1].utf8)) }
        #expect(vocabulary.alphabetical.map(Int.init) == byBytes)
        for (id, text) in Self.texts.enumerated() { #expect(vocabulary.id(of: text) == Int64(id)) }
        #expect(vocabulary.id(of: "absent") == nil)
        // Counts-only stores keep rows only for the counts that are not 0.
        let rows = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM word_count") }
        #expect(rows == (languageModel ? Self.texts.count : Self.texts.indices.filter { $0 % 3 != 0 }.count))
    }

    @Test("the word view lists every word in id order with its count", arguments: [false, true])
    func view(languageModel: Bool) throws {
        let queue = try Self.database(languageModel: languageModel)
        try queue.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, text, count FROM word")
            #expect(rows.map { $0[0] as Int } == Array(Self.texts.indices))
            #expect(rows.map { $0[1] as String } == Self.texts)
            #expect(rows.map { $0[2] as Int64 } == Self.texts.indices.map { Int64($0 % 3 == 0 ? 0 : $0) })
            #expect(try Int.fetchOne(db, sql: "SELECT id FROM word WHERE text = 'über'") == Self.texts.firstIndex(of: "über"))
            if languageModel {
                #expect(try Int.fetchOne(db, sql: "SELECT logprob FROM word WHERE id = 7") == -7)
            }
        }
    }

    @Test("prefix scans of word_order and the in-memory ranges equal brute force")
    func prefixes() throws {
        let queue = try Self.database(languageModel: false)
        let vocabulary = try queue.read { db in try WordRows.read(db) }
        let cache = WordTextCache(capacity: 2)   // small, so blocks are dropped and read again
        for prefix in ["", "t", "th", "th1", "th10", "th6", "the", "The", "thé", "ü", "über", "u", "ひ", "ひら", "a", "ab", "w", "w1", "zz", "~"] {
            let expected = Self.texts.indices.filter { Self.texts[$0].utf8.starts(with: prefix.utf8) }.map(Int64.init).sorted()
            let scanned = try queue.read { db in try cache.ids(withPrefix: prefix, db) }.sorted()
            #expect(scanned == expected, "\(prefix)")
            #expect(vocabulary.prefixRange(prefix).map { Int64(vocabulary.alphabetical[$0]) }.sorted() == expected, "\(prefix)")
        }
        let spellings = try queue.read { db in try (0...Self.texts.count).map { try cache.text(of: Int64($0), db) } }
        #expect(spellings == Self.texts + [nil])
    }

    @Test("a spelling with a line break is refused")
    func lineBreak() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            for sql in StoreSchema.wordCreationStatements(languageModel: false) { try db.execute(sql: sql) }
            #expect(throws: WordRows.InvalidWord.self) { try WordRows.insert(db, texts: ["<unk>", "a\nb"], counts: [0, 1]) }
        }
    }

    @Test("a store whose packed tables disagree is reported as damaged, by path")
    func damaged() throws {
        let folder = try TemporaryFolder()
        let path = try WordlistFixture.importStore([WordlistFixture.path("tiny.combined")], in: folder)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "DELETE FROM word_order") }
        try queue.close()
        let store = try TrainedStore(path: path)
        #expect {
            try store.vocabulary()
        } throws: { error in
            "\(error)".contains(path) && "\(error)".contains("word_order lists 0 ids")
        }
    }
}
