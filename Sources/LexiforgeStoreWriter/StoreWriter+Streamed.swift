import Foundation
import GRDB
import LexiforgeNgrams
import LexiforgeReader

extension StoreWriter {
    /// Writes a store from a model estimated on disk (``StreamingKneserNey``): the same bytes
    /// ``write(model:lexicon:meta:words:hmm:to:topLists:)`` writes for the same model, with the
    /// n-grams streamed from the model's files (one pass per order) instead of held in memory.
    /// `topLists` overrides the size rule for the `_top` tables (tests use it on small stores).
    public static func write(
        streamed: StreamedModel, lexicon: Lexicon? = nil, meta: [String: String], words columns: WordColumns? = nil,
        hmm: HMMTables? = nil, to file: AtomicStoreFile,
        topLists: Bool? = nil
    ) throws(StoreWriteError) {
        let N = streamed.order
        try write(order: N, words: streamed.words, unigramCounts: streamed.unigramCounts,
                  unigrams: (streamed.unigramLogProb, streamed.unigramLogBackoff),
                  entries: streamed.entryCounts.reduce(0, +), clusters: streamed.clusterModel,
                  formRules: streamed.formRules, lexicon: lexicon, columns: columns, hmm: hmm,
                  meta: meta, to: file, topLists: topLists) { db, topTables in
            guard N >= 2 else { return }
            for n in 2...N {
                let row = try NgramRowInserter(order: n, logProbs: true, logBackoffs: n < N,
                                               into: StoreSchema.ngramTable(order: n), db: db)
                let top = topTables ? try TopListInserter(order: n, db: db) : nil
                // The context group being read (for the `_top` table): its ids and continuations.
                var context = [UInt32](repeating: 0, count: n - 1)
                var rows: [TopListInserter.Row] = []
                func flush() throws {
                    if let top, rows.count > StoreSchema.busyContext {
                        try context.withUnsafeBufferPointer { try top.insert(context: $0.baseAddress!, rows: &rows) }
                    }
                    rows.removeAll(keepingCapacity: true)
                }
                try streamed.forEachRow(order: n) { ids, count, logProb, logBackoff in
                    try row.insert(ids.baseAddress!, count: count, logProb: logProb, logBackoff: logBackoff)
                    guard top != nil else { return }
                    if !rows.isEmpty && !(0..<(n - 1)).allSatisfy({ context[$0] == ids[$0] }) { try flush() }
                    if rows.isEmpty { for j in 0..<(n - 1) { context[j] = ids[j] } }
                    rows.append((ids[n - 1], quantized(logProb)))
                }
                try row.finish()
                try flush()
            }
        }
    }
}

extension StoreWriter {
    /// Writes a counts-only store from n-grams sorted on disk (counting under a memory budget):
    /// the same bytes ``write(counts:lexicon:meta:words:hmm:to:)`` writes for the same counts, the
    /// rows streamed from the files.
    public static func write(sorted: SortedNgrams, lexicon: Lexicon? = nil, meta: [String: String], words columns: WordColumns? = nil,
                             hmm: HMMTables? = nil, to file: AtomicStoreFile) throws(StoreWriteError) {
        try write(order: sorted.order, words: sorted.words, unigramCounts: sorted.unigramCounts, unigrams: nil,
                  entries: sorted.entryCounts.reduce(0, +), clusters: nil, formRules: nil, lexicon: lexicon,
                  columns: columns, hmm: hmm,
                  meta: meta, to: file, topLists: nil) { db, _ in
            guard sorted.order >= 2 else { return }
            for n in 2...sorted.order {
                let row = try NgramRowInserter(order: n, logProbs: false, logBackoffs: false,
                                               into: StoreSchema.ngramTable(order: n), db: db)
                try sorted.forEach(order: n) { ids, count in
                    try row.insert(ids.baseAddress!, count: count, logProb: 0, logBackoff: 0)
                }
                try row.finish()
            }
        }
    }
}
