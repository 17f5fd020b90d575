import Foundation
import LexiforgeBuild
import LexiforgeReader

/// `lexiforge diff A B`: what differs between two stores, table by table.
///
/// In: two stores. Out: one line per difference (at most `limit` per table, then a count), words
/// shown as text. Provenance rows are listed apart (`meta`), because two stores built from the
/// same text in different ways (a whole-corpus build, a merge of shards) differ there by design.
public enum StoreDiff {
    public struct Result: Sendable {
        /// Differences in words, n-grams, counts or probabilities.
        public var data: [String]
        /// Differences in the `meta` table.
        public var provenance: [String]
    }

    public static func run(_ a: String, _ b: String, limit: Int = 10) throws -> Result {
        let first = try StoreContents.load(path: a)
        let second = try StoreContents.load(path: b)
        var data: [String] = []
        var provenance: [String] = []
        for key in Set(first.meta.keys).union(second.meta.keys).sorted() where first.meta[key] != second.meta[key] {
            provenance.append("meta \(key): \(first.meta[key] ?? "(none)") | \(second.meta[key] ?? "(none)")")
        }
        if first.counts.order != second.counts.order {
            data.append("order: \(first.counts.order) | \(second.counts.order)")
        }
        let w1 = first.counts.words, w2 = second.counts.words
        func text(_ words: [String], _ ids: ArraySlice<UInt32>) -> String { ids.map { words[Int($0)] }.joined(separator: " ") }
        // Words by id: text, count, logprob, backoff.
        var differences = 0
        for id in 0..<max(w1.count, w2.count) {
            let x = id < w1.count ? "\(w1[id]) \(first.counts.unigramCounts[id]) \(first.unigramLogProb[id]) \(first.unigramBackoff[id])" : "(none)"
            let y = id < w2.count ? "\(w2[id]) \(second.counts.unigramCounts[id]) \(second.unigramLogProb[id]) \(second.unigramBackoff[id])" : "(none)"
            if x != y {
                differences += 1
                if differences <= limit { data.append("word \(id) (text count logprob backoff): \(x) | \(y)") }
            }
        }
        if differences > limit { data.append("word: \(differences - limit) more difference(s)") }
        for n in 2...max(2, min(first.counts.order, second.counts.order)) where n <= min(first.counts.order, second.counts.order) {
            let t1 = first.counts.table(order: n), t2 = second.counts.table(order: n)
            let p1 = first.logProbs[n - 2], p2 = second.logProbs[n - 2]
            let b1 = first.backoffs[n - 2], b2 = second.backoffs[n - 2]
            var i = 0, j = 0
            differences = 0
            let name = StoreSchema.ngramTable(order: n)
            func report(_ line: String) {
                differences += 1
                if differences <= limit { data.append("\(name) \(line)") }
            }
            while i < t1.entryCount || j < t2.entryCount {
                let k1 = i < t1.entryCount ? t1.ids(of: i).map(\.self) : nil
                let k2 = j < t2.entryCount ? t2.ids(of: j).map(\.self) : nil
                let s1 = k1.map { text(w1, $0[...]) }, s2 = k2.map { text(w2, $0[...]) }
                if let k1, let k2, k1 == k2 {
                    let x = "\(t1.counts[i]) \(p1[i]) \(b1[i])", y = "\(t2.counts[j]) \(p2[j]) \(b2[j])"
                    if x != y || s1 != s2 { report("\(s1!) (count logprob backoff): \(x) | \(s2!) \(y)") }
                    i += 1; j += 1
                } else if let k1, k2 == nil || k1.lexicographicallyPrecedes(k2!) {
                    report("\(s1!): only in A"); i += 1
                } else {
                    report("\(s2!): only in B"); j += 1
                }
            }
            if differences > limit { data.append("\(name): \(differences - limit) more difference(s)") }
        }
        data += try optionalTableDifferences(a, b, limit: limit)
        return Result(data: data, provenance: provenance)
    }

    /// Row differences in the optional model tables (class model, suffix rules), in key order.
    static func optionalTableDifferences(_ a: String, _ b: String, limit: Int) throws -> [String] {
        let x = try TrainedStore(path: a).optionalModelRows(), y = try TrainedStore(path: b).optionalModelRows()
        guard x != y else { return [] }
        let onlyInA = Set(x).subtracting(y), onlyInB = Set(y).subtracting(x)
        var lines: [String] = []
        for table in StoreSchema.optionalModelTables {
            let onlyA = onlyInA.filter { $0.hasPrefix(table + " ") }.sorted()
            let onlyB = onlyInB.filter { $0.hasPrefix(table + " ") }.sorted()
            let all = onlyA.map { "\($0): only in A" } + onlyB.map { "\($0): only in B" }
            lines += all.prefix(limit)
            if all.count > limit { lines.append("\(table): \(all.count - limit) more difference(s)") }
        }
        return lines
    }
}
