import Foundation
import LexiforgeFormat
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Relative-entropy pruning (``EntropyPruning``, Stolcke 1998) of a model on disk
/// (``StreamedModel``), for builds under a memory budget: the same n-grams dropped and the same
/// backoff weights, bit for bit, with memory bounded by the vocabulary, one context group and the
/// sorting budget, whatever the number of n-grams.
///
/// Passes, each a sequential read of id-ordered files or an ``ExternalSorter``:
/// 1. log10 P(h) of every n-gram of orders 2...N−1 (a file aligned with its rows): its prefix's
///    value (merge-joined with the order below, in memory for unigrams) plus its own log10 p.
/// 2. From order N down to 2:
///    - log10 p(w | h′) of each n-gram's suffix: the n-grams sorted by suffix, merge-joined with the
///      order below, sorted back into id order (unigrams: in memory);
///    - for n < N, the flags of n-grams that are a prefix or suffix of a kept (n+1)-gram (the
///      kept rows of the order above, prefixes in order, suffixes through a sort);
///    - one pass over the context groups deciding which n-grams go and each context's new backoff
///      (a file keyed by context, merge-joined when the order below is written; unigrams in memory),
///      writing the kept rows with the backoffs the order above gave them.
enum StreamingEntropyPruning {
    /// Prunes `model` with `threshold` (> 0) and returns the pruned model, its rows in new files of
    /// the same folder (`model`'s files go when it is released). `budget` is each external sort's
    /// buffer.
    static func prune(_ model: StreamedModel, threshold: Double, budget: Int) throws -> StreamedModel {
        let N = model.order
        precondition(N >= 2, "entropy pruning needs n-grams of order 2 or more")
        let bits = model.idBits
        let folder = model.folder
        let io = max(64 << 10, min(1 << 20, budget / 8))
        let ln10 = log(10.0)
        let bos = Int(StoreSchema.ReservedID.sentenceStart)
        var runs = 0
        var temporary: [String] = []
        var finals: [String] = [], succeeded = false
        defer { for path in temporary where !(succeeded && finals.contains(path)) { unlink(path) } }
        func rows(_ n: Int) throws(SpillError) -> RecordReader<RowRecord> {
            try RecordReader<RowRecord>(path: model.rowPaths[n - 2], bufferBytes: io)
        }
        func next<R>(_ reader: RecordReader<R>) throws -> R {
            guard let value = try reader.next() else { throw SpillError.readFailed(reader.path, "it ends early") }
            return value
        }
        /// log10 P(h) of the contexts of order n's n-grams, asked in id order: unigrams from
        /// memory, longer contexts merge-joined from order n − 1's rows and history file.
        final class Histories {
            let rows: RecordReader<RowRecord>?, values: RecordReader<Double>?
            let unigrams: [Double]
            var key = PackedKey(), value = 0.0, started = false
            init(rows: RecordReader<RowRecord>?, values: RecordReader<Double>?, unigrams: [Double]) {
                (self.rows, self.values, self.unigrams) = (rows, values, unigrams)
            }
            func of(_ prefix: PackedKey) throws -> Double {
                guard let rows, let values else { return unigrams[Int(prefix.lo)] }
                while !started || key < prefix {
                    guard let row = try rows.next(), let v = try values.next() else {
                        throw SpillError.readFailed(values.path, "it ends early")
                    }
                    (key, value, started) = (row.key, v, true)
                }
                precondition(key == prefix, "n-gram prefix missing from the lower order")
                return value
            }
        }
        func histories(_ n: Int) throws -> Histories {
            n > 2 ? Histories(rows: try rows(n - 1), values: try RecordReader<Double>(path: historyPaths[n - 1], bufferBytes: io),
                              unigrams: unigramHistory)
                : Histories(rows: nil, values: nil, unigrams: unigramHistory)
        }

        // 1. log10 P(h) of the n-grams of orders 2...N−1, with P(<s>) = 1.
        var unigramHistory = model.unigramLogProb
        unigramHistory[bos] = 0
        var historyPaths = [String](repeating: "", count: N + 1)
        if N > 2 {
            for n in 2..<N {
                let table = try rows(n)
                let writer = try RecordWriter<Double>(folder, name: "history\(n)", bufferBytes: io)
                temporary.append(writer.path)
                let contexts = try histories(n)
                while let row = try table.next() {
                    try writer.append(try contexts.of(row.key.shiftedRight(bits)) + row.logProb)
                }
                _ = try writer.finish()
                historyPaths[n] = writer.path
            }
        }

        // 2. Orders N down to 2.
        var unigramLogBackoff = model.unigramLogBackoff
        var entryCounts = model.entryCounts
        var pruned = model.pruned
        var rowPaths = [String](repeating: "", count: N + 1)
        var backoffPath = ""   // new log10 backoffs of order n's contexts (GammaRecord), from order n + 1
        for n in stride(from: N, through: 2, by: -1) {
            // log10 p(w | h′) of each n-gram's suffix, aligned with the rows (order 2: in memory).
            var lowerPath = ""
            if n > 2 {
                let bySuffix = ExternalSorter<SuffixRecord>(folder: folder, name: "prune-suffix\(n)", budget: budget)
                let table = try rows(n)
                while let row = try table.next() { try bySuffix.append(SuffixRecord(key: row.key.rotated(n: n, bits: bits))) }
                let back = ExternalSorter<ProbabilityRecord>(folder: folder, name: "prune-lower\(n)", budget: budget)
                let lower = try rows(n - 1)
                var current = try lower.next()
                try bySuffix.finish { record in
                    let (suffix, key) = record.key.unrotated(n: n, bits: bits)
                    while let entry = current, entry.key < suffix { current = try lower.next() }
                    guard let entry = current, entry.key == suffix else {
                        preconditionFailure("n-gram suffix missing from the lower order: the model is not closed under suffixes")
                    }
                    try back.append(ProbabilityRecord(key: key, probability: entry.logProb, count: 0))
                }
                runs += bySuffix.runsWritten
                let writer = try RecordWriter<Double>(folder, name: "prune-q\(n)", bufferBytes: io)
                temporary.append(writer.path)
                try back.finish { try writer.append($0.probability) }
                runs += back.runsWritten
                _ = try writer.finish()
                lowerPath = writer.path
            }

            // Prefixes and suffixes of the kept n-grams of order n + 1 (flags aligned with the rows).
            var protectedPath = ""
            if n < N {
                let forced = ExternalSorter<SuffixRecord>(folder: folder, name: "prune-forced\(n)", budget: budget)
                let higher = try RecordReader<RowRecord>(path: rowPaths[n + 1], bufferBytes: io)
                while let row = try higher.next() {
                    try forced.append(SuffixRecord(key: row.key.shiftedRight(bits)))
                    try forced.append(SuffixRecord(key: row.key.keepingLow(n * bits)))
                }
                let table = try rows(n)
                let writer = try RecordWriter<UInt8>(folder, name: "prune-protected\(n)", bufferBytes: io)
                temporary.append(writer.path)
                var current = try table.next()
                var mark = false
                try forced.finish { key in
                    while let entry = current, entry.key < key.key {
                        try writer.append(mark ? 1 : 0)
                        mark = false
                        current = try table.next()
                    }
                    guard current?.key == key.key else {
                        preconditionFailure("n-gram prefix or suffix missing from the lower order: the model is not closed")
                    }
                    mark = true
                }
                while current != nil {
                    try writer.append(mark ? 1 : 0)
                    mark = false
                    current = try table.next()
                }
                runs += forced.runsWritten
                _ = try writer.finish()
                protectedPath = writer.path
            }

            // The context groups: what goes, the contexts' new backoffs, the kept rows.
            let table = try rows(n)
            let q = n > 2 ? try RecordReader<Double>(path: lowerPath, bufferBytes: io) : nil
            let protectedFlags = n < N ? try RecordReader<UInt8>(path: protectedPath, bufferBytes: io) : nil
            let backoffs = n < N ? try RecordReader<GammaRecord>(path: backoffPath, bufferBytes: io) : nil
            let contexts = try histories(n)
            let writer = try RecordWriter<RowRecord>(folder, name: "pruned\(n)", bufferBytes: io)
            temporary.append(writer.path)
            let newBackoffs = n > 2 ? try RecordWriter<GammaRecord>(folder, name: "prune-backoff\(n - 1)", bufferBytes: io) : nil
            if let newBackoffs { temporary.append(newBackoffs.path) }
            var nextBackoff = try backoffs?.next()
            var group: [RowRecord] = [], lowerLog: [Double] = [], isProtected: [Bool] = [], keep: [Bool] = []
            var kept = 0

            func flush() throws {
                let prefix = group[0].key.shiftedRight(bits)
                let historyProb = pow(10, try contexts.of(prefix))
                var sumP = 0.0, sumQ = 0.0
                for e in group.indices {
                    sumP += pow(10, group[e].logProb)
                    sumQ += pow(10, lowerLog[e])
                }
                let logGamma = log(max(1 - sumP, 1e-300)) - log(max(1 - sumQ, 1e-300))
                keep = [Bool](repeating: true, count: group.count)
                for e in group.indices where !isProtected[e] {
                    let p = pow(10, group[e].logProb), qe = pow(10, lowerLog[e])
                    let logGammaPrime = log(max(1 - sumP + p, 1e-300)) - log(max(1 - sumQ + qe, 1e-300))
                    let lnP = group[e].logProb * ln10
                    let lnPPrime = logGammaPrime + log(qe)
                    let d = -historyProb * (p * (lnPPrime - lnP) + (1 - sumP) * (logGammaPrime - logGamma))
                    if d < threshold { keep[e] = false }
                }
                var keptP = 0.0, keptQ = 0.0
                for e in group.indices where keep[e] {
                    keptP += pow(10, group[e].logProb)
                    keptQ += pow(10, lowerLog[e])
                }
                let gamma = max(1 - keptP, 1e-300) / max(1 - keptQ, 1e-300)
                if let newBackoffs {
                    try newBackoffs.append(GammaRecord(key: prefix, gamma: log10(gamma)))
                } else {
                    unigramLogBackoff[Int(prefix.lo)] = log10(gamma)
                }
                // The backoffs the order above gave (a context may go if all its continuations went).
                for e in group.indices {
                    var row = group[e]
                    if let b = nextBackoff, b.key == row.key {
                        row.logBackoff = b.gamma
                        nextBackoff = try backoffs!.next()
                    }
                    guard keep[e] else { continue }
                    try writer.append(row)
                    kept += 1
                }
                group.removeAll(keepingCapacity: true)
                lowerLog.removeAll(keepingCapacity: true)
                isProtected.removeAll(keepingCapacity: true)
            }

            var context = PackedKey()
            while let row = try table.next() {
                let prefix = row.key.shiftedRight(bits)
                if !group.isEmpty && prefix != context { try flush() }
                context = prefix
                group.append(row)
                lowerLog.append(try q.map { try next($0) } ?? model.unigramLogProb[Int(row.key.id(1, n: 2, bits: bits))])
                isProtected.append(try protectedFlags.map { try next($0) != 0 } ?? false)
            }
            if !group.isEmpty { try flush() }
            precondition(nextBackoff == nil, "a context of the order above is missing from its order")
            _ = try writer.finish()
            _ = try newBackoffs?.finish()
            rowPaths[n] = writer.path
            finals.append(writer.path)
            pruned[n - 1] += entryCounts[n - 2] - kept
            entryCounts[n - 2] = kept
            if !backoffPath.isEmpty { unlink(backoffPath) }
            backoffPath = newBackoffs?.path ?? ""
            if !lowerPath.isEmpty { unlink(lowerPath) }
            if !protectedPath.isEmpty { unlink(protectedPath) }
            if n > 2 { unlink(historyPaths[n - 1]) }
        }

        let result = StreamedModel(
            order: N, words: model.words, unigramCounts: model.unigramCounts, tokens: model.tokens,
            sentences: model.sentences, unigramLogProb: model.unigramLogProb, unigramLogBackoff: unigramLogBackoff,
            discounts: model.discounts, fallbackOrders: model.fallbackOrders, entryCounts: entryCounts,
            pruned: pruned, folder: folder, idBits: bits, rowPaths: Array(rowPaths[2...N]))
        result.sortedRuns = model.sortedRuns + runs
        succeeded = true
        return result
    }
}
