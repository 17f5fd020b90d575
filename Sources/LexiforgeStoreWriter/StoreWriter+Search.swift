import Foundation
import GRDB
import LexiforgeReader

extension StoreWriter {
    /// Writes a lemma search index (``StoreSchema/Search``): the documents in the order given
    /// (ids from 1), the FTS5 index built in one pass (`rebuild`), and the vocabulary of word
    /// forms with their lemmas (`words`, `counts` and `columns` indexed alike, most frequent
    /// first). Identical inputs give identical files.
    public static func writeSearchIndex(documents: [(name: String, text: String, lemmas: String)], meta: [String: String],
                                        words: [String], counts: [Int64], columns: WordColumns,
                                        to file: AtomicStoreFile) throws(StoreWriteError) {
        try writeAuxiliary(file, meta: meta, words: words, counts: counts, columns: columns,
                           extra: StoreSchema.Search.creationStatements) { db in
            let insert = try db.makeStatement(sql: "INSERT INTO search_document(id, name, text, lemmas) VALUES (?, ?, ?, ?)")
            for (k, document) in documents.enumerated() {
                try insert.execute(arguments: [k + 1, document.name, document.text, document.lemmas])
            }
            try db.execute(sql: "INSERT INTO search_fts(search_fts) VALUES ('rebuild')")
            try db.execute(sql: "INSERT INTO search_fts(search_fts) VALUES ('optimize')")
        }
    }
}
