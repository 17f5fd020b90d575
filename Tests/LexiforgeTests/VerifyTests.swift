import Foundation
import GRDB
import LexiforgeCorpus
import LexiforgeHMM
import LexiforgeNgrams
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeWordlist
import LexiforgeTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 22: `lexiforge verify` and identifiers quoted when read from a store.
@Suite("Hardening: verify and inspect")
struct VerifyTests {
    @Test("verify passes a good store with one summary line")
    func goodStore() throws {
        let dir = try TemporaryFolder()
        let (store, _) = try CLITests.languageModelStore(dir)
        let result = try CLI.run(["verify", store])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdoutLines.count == 1)
        #expect(result.stdoutLines.first?.hasPrefix("\(store): ok: schema version \(StoreSchema.version), order 3, ") == true, "\(result.stdout)")
    }

    @Test("verify lists every problem on its own line and exits 1")
    func damagedStore() throws {
        let dir = try TemporaryFolder()
        let store = try StoreUpdateTests.damagedCopy(dir, """
            UPDATE bigram SET w2 = 100000 + w1 * 1000 + w2 WHERE (w1, w2) IN (SELECT w1, w2 FROM bigram LIMIT 2);
            UPDATE trigram SET count = -1 WHERE (w1, w2, w3) IN (SELECT w1, w2, w3 FROM trigram LIMIT 1);
            UPDATE meta SET value = '2' WHERE key = 'order';
            PRAGMA application_id = 7;
            """)
        let result = try CLI.run(["verify", store])
        #expect(result.status == 1)
        let lines = result.stdoutLines
        #expect(lines.allSatisfy { $0.hasPrefix("\(store): ") }, "\(lines)")
        for fragment in ["application id 7", "a trigram table, but meta \"order\" is 2",
                         "bigram: 2 row(s) with a word id outside the vocabulary"] {
            #expect(lines.contains { $0.contains(fragment) }, "\(fragment) missing from \(lines)")
        }
        let negative = try StoreUpdateTests.damagedCopy(dir, "UPDATE trigram SET count = -1 WHERE (w1, w2, w3) IN (SELECT w1, w2, w3 FROM trigram LIMIT 1)")
        let second = try CLI.run(["verify", negative])
        #expect(second.status == 1)
        #expect(second.stdoutLines == ["\(negative): trigram: 1 count(s) that are not whole numbers ≥ 0"])
    }

    @Test("inspect quotes table names read from the store")
    func craftedTableName() throws {
        let dir = try TemporaryFolder()
        // Unquoted, this name would end the identifier and count the meta table instead.
        let name = #"x" UNION SELECT count(*) FROM meta --"#
        let store = try StoreUpdateTests.damagedCopy(dir, """
            CREATE TABLE \(StoreSchema.quoted(name)) (a);
            INSERT INTO \(StoreSchema.quoted(name)) VALUES (1), (2);
            """)
        let stats = try TrainedStore(path: store).tableStatistics()
        #expect(stats.first { $0.name == name }?.rows == 2)
        let result = try CLI.run(["inspect", store])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(StoreSchema.quoted(#"a"b"#) == #""a""b""#)
    }

    @Test("verify checks a vocabulary store's own invariants, not n-gram tables it never has")
    func vocabularyStore() throws {
        let dir = try TemporaryFolder()
        let store = dir.file("v.sqlite")
        let built = try CLI.run(["vocab", "import", Paths.fixture("vocab/tiny.csv"), "-o", store, "--quiet"])
        try #require(built.status == 0, "\(built.stderr)")
        let good = try CLI.run(["verify", store])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        #expect(good.stdout.contains("ok: a vocabulary store"), "\(good.stdout)")
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in try db.execute(sql: "DELETE FROM vocab_entry WHERE id = (SELECT max(id) FROM vocab_entry)") }
        try queue.close()
        let damaged = try CLI.run(["verify", store])
        #expect(damaged.status == 1)
        #expect(damaged.stdout.contains("the ranges must tile") || damaged.stderr.contains("the ranges must tile"), "\(damaged.stdout)\(damaged.stderr)")
    }
}
