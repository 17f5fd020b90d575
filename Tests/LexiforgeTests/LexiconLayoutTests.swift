import Foundation
import GRDB
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeWordlist
import LexiforgeTestSupport
import Testing

/// The schema-3 lexicon layout: frequencies as runs over ids, details only for uncommon entries,
/// and `lexicon_view` restoring every entry for plain sqlite3.
@Suite("lexicon layout")
struct LexiconLayoutTests {
    @Test("tiny list: one run per frequency change, details only where needed, the view shows every entry")
    func tinyLayout() throws {
        let folder = try TemporaryFolder()
        let path = try WordlistFixture.importStore([WordlistFixture.path("tiny.combined")], in: folder)
        let lexicon = try WordlistReader.read(paths: [WordlistFixture.path("tiny.combined")]).lexicon(strict: false)
        let queue = try DatabaseQueue(path: path)
        try queue.read { db in
            // Runs over ids 0... : reserved ids (no entry: NULL), then a row wherever f changes.
            var expectedRuns = 1
            for i in lexicon.entries.indices.dropFirst() where lexicon.entries[i].frequency != lexicon.entries[i - 1].frequency {
                expectedRuns += 1
            }
            let nullRuns = try Int.fetchOne(db, sql: "SELECT count(*) FROM lexicon_frequency WHERE frequency IS NULL") ?? 0
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM lexicon_frequency") == expectedRuns + nullRuns)
            #expect(try Int.fetchOne(db, sql: "SELECT frequency FROM lexicon_frequency WHERE first_id = 0") == nil, "reserved ids have no entry")

            let needingDetail = lexicon.entries.filter(StoreSchema.lexiconNeedsDetail).count
            #expect(needingDetail < lexicon.entries.count, "the fixture has common-case entries")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM lexicon_detail") == needingDetail)

            let rows = try Row.fetchAll(db, sql: "SELECT word, frequency, original_frequency, flags FROM lexicon_view ORDER BY id")
            #expect(rows.map { $0[0] as String } == lexicon.entries.map(\.word))
            #expect(rows.map { $0[1] as Int } == lexicon.entries.map(\.frequency))
            #expect(rows.map { $0[2] as Int? } == lexicon.entries.map(\.originalFrequency))
            #expect(rows.map { $0[3] as String? } == lexicon.entries.map(\.flags))
        }
    }

    @Test("a merged store: corpus words without an entry are NULL runs; the lexicon reads back as merged")
    func mergedLayout() throws {
        let result = try LexiconMergeTests.merged()
        let folder = try TemporaryFolder()
        let path = folder.file("merged.sqlite")
        try StoreWriter.write(counts: result.counts, lexicon: result.lexicon, meta: [:], to: AtomicStoreFile.prepare(path: path))
        let store = try TrainedStore(path: path)
        #expect(try store.lexicon().entries == result.lexicon.entries)
        // "The" and "once" have ids but no entry.
        let queue = try DatabaseQueue(path: path)
        let frequencies = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT w.text, \(StoreSchema.lexiconFrequencySQL(of: "w.id")) FROM word AS w WHERE w.text IN ('The', 'once', 'the')")
                .reduce(into: [String: Int?]()) { $0[$1[0]] = $1[1] as Int? }
        }
        #expect(frequencies["the"] == .some(180))
        #expect(frequencies["The"] == .some(nil))
        #expect(frequencies["once"] == .some(nil))
    }
}
