import Foundation
import LexiforgeReader
import LexiforgeStoreWriter

/// `lexiforge export arpa|presage STORE -o FILE`: a store in the formats other tools read.
public enum Export {
    /// Writes the ARPA back-off file of a store (what KenLM, SRILM and most decoders read).
    ///
    /// In: a store. Out: `\data\`, the n-gram counts per order, then one section per order with
    /// `log10prob<TAB>words[<TAB>log10backoff]`, values exactly as stored (3 decimals). `<s>` has
    /// −99, backoffs of 0 are left out and the highest order has none, as lmplz writes them.
    /// Written beside the target and renamed into place, so a failed export leaves nothing half-done.
    public static func arpa(store path: String, output: String) throws {
        let store = try TrainedStore(path: path)
        guard store.hasLanguageModel else { throw StoreError.noLanguageModel(path) }
        let file = try AtomicStoreFile.prepare(path: output, kind: "ARPA file")
        let handle = FileHandle(fileDescriptor: try file.createFile(), closeOnDealloc: true)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        func flush(force: Bool = false) {
            if force || buffer.count >= 1 << 20 { handle.write(Data(buffer)); buffer.removeAll(keepingCapacity: true) }
        }
        func put(_ s: String) { buffer.append(contentsOf: s.utf8) }
        var words: [String] = []
        var unigrams: [(String, TrainedStore.StoredRow)] = []
        try store.forEachWord { text, row in words.append(text); unigrams.append((text, row)) }
        var sizes = [unigrams.count]
        if store.order >= 2 {
            for n in 2...store.order {
                sizes.append(try TrainedStore.countRows(store, order: n))
            }
        }
        put("\n\\data\\\n")
        for (i, size) in sizes.enumerated() { put("ngram \(i + 1)=\(size)\n") }
        put("\n\\1-grams:\n")
        for (text, row) in unigrams {
            put(decimal(row.logprob)); put("\t"); put(text)
            if store.order > 1 && row.backoff != 0 { put("\t"); put(decimal(row.backoff)) }
            put("\n")
        }
        if store.order >= 2 {
            for n in 2...store.order {
                put("\n\\\(n)-grams:\n")
                try store.forEachNgram(order: n) { row in
                    put(decimal(row.logprob)); put("\t")
                    for (j, id) in row.ids.enumerated() { if j > 0 { put(" ") }; put(words[Int(id)]) }
                    if n < store.order && row.backoff != 0 { put("\t"); put(decimal(row.backoff)) }
                    put("\n")
                    flush()
                }
            }
        }
        put("\n\\end\\\n")
        flush(force: true)
        try handle.close()
        try file.commit()
    }

    /// A store value (units of 1/``StoreSchema/logScale``) as a decimal: -2301 → "-2.301".
    static func decimal(_ value: Int64) -> String {
        let scale = Int64(StoreSchema.logScale)
        let magnitude = value.magnitude
        let fraction = String(magnitude % UInt64(scale))
        return (value < 0 ? "-" : "") + "\(magnitude / UInt64(scale))." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// Writes Presage's n-gram database (what `text2ngram` makes and its smoothed n-gram predictor reads).
    ///
    /// In: a store of order ≥ 1. Out: SQLite tables `_1_gram(word, count)`,
    /// `_2_gram(word_1, word, count)`, `_3_gram(word_2, word_1, word, count)` (oldest word first,
    /// as text2ngram orders them), from the store's counts up to order 3. N-grams holding `<s>`,
    /// `</s>` or `<unk>` are left out: Presage has no sentence markers.
    public static func presage(store path: String, output: String) throws -> [Int] {
        let contents = try StoreContents.load(path: path)
        let file = try AtomicStoreFile.prepare(path: output, kind: "Presage database")
        return try PresageWriter.write(counts: contents.counts, maxOrder: 3, to: file)
    }
}

extension TrainedStore {
    static func countRows(_ store: TrainedStore, order n: Int) throws -> Int {
        var rows = 0
        try store.forEachNgram(order: n) { _ in rows += 1 }
        return rows
    }
}
