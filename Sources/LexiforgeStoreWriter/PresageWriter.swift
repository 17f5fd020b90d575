import Foundation
import GRDB
import LexiforgeNgrams
import LexiforgeReader

/// Writes counts as Presage's SQLite n-gram database, the format of `text2ngram -f sqlite`.
///
/// Tables `_1_gram(word, count)`, `_2_gram(word_1, word, count)`, `_3_gram(word_2, word_1, word,
/// count)`, each with the `UNIQUE` constraint text2ngram declares over its word columns. The
/// oldest context word comes first (`word_2` before `word_1`). N-grams holding a reserved token
/// (`<unk>`, `<s>`, `</s>`) are skipped: Presage has no sentence markers.
public enum PresageWriter {
    /// Returns the rows written per order.
    public static func write(counts: NgramCounts, maxOrder: Int, to file: AtomicStoreFile) throws(StoreWriteError) -> [Int] {
        let top = min(maxOrder, counts.order, 3)
        let firstWord = UInt32(StoreSchema.ReservedID.firstWord)
        var written: [Int] = []
        do {
            let queue = try DatabaseQueue(path: file.temporaryPath)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
                try db.inTransaction {
                    let names = ["word", "word_1", "word_2"]
                    for n in 1...3 {
                        let columns = names[0..<n].reversed()
                        try db.execute(sql: "CREATE TABLE _\(n)_gram (\(columns.map { "\($0) TEXT" }.joined(separator: ", ")), count INTEGER, UNIQUE(\(columns.joined(separator: ", "))) )")
                    }
                    let unigram = try db.makeStatement(sql: "INSERT INTO _1_gram(word, count) VALUES (?, ?)")
                    var rows = 0
                    for id in Int(firstWord)..<counts.words.count where counts.unigramCounts[id] > 0 {
                        try unigram.execute(arguments: [counts.words[id], Int64(counts.unigramCounts[id])])
                        rows += 1
                    }
                    written.append(rows)
                    if top >= 2 {
                        for n in 2...top {
                            let columns = names[0..<n].reversed()
                            let insert = try db.makeStatement(sql: "INSERT INTO _\(n)_gram(\(columns.joined(separator: ", ")), count) VALUES (\(Array(repeating: "?", count: n + 1).joined(separator: ", ")))")
                            let table = counts.table(order: n)
                            rows = 0
                            for e in 0..<table.entryCount {
                                let ids = table.ids(of: e)
                                guard ids.allSatisfy({ $0 >= firstWord }) else { continue }
                                var arguments: [DatabaseValueConvertible] = ids.map { counts.words[Int($0)] }
                                arguments.append(Int64(table.counts[e]))
                                try insert.execute(arguments: StatementArguments(arguments))
                                rows += 1
                            }
                            written.append(rows)
                        }
                    }
                    return .commit
                }
            }
            try queue.close()
        } catch {
            file.discard()
            throw .sqlite(file.path, (error as? DatabaseError)?.message ?? "\(error)")
        }
        try file.commit()
        return written
    }
}
