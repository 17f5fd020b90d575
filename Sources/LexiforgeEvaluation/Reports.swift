import Foundation
import LexiforgeBuild
import LexiforgeReader
import LexiforgeText

/// `lexiforge inspect`: a human-readable summary of a store.
public enum InspectReport {
    public static func render(path: String) throws -> String {
        let store = try TrainedStore(path: path)
        var out: [String] = []
        out.append("store: \(path)")
        out.append("schema version: \(StoreSchema.version)")
        out.append("provenance:")
        for key in store.meta.keys.sorted() { out.append("  \(key): \(store.meta[key]!)") }
        out.append("tables and indexes (rows, bytes):")
        var total = 0
        for table in try store.tableStatistics() {
            let rows = table.rows.map { String($0) } ?? "-"
            out.append("  \(table.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(rows.leftPadded(to: 10, with: " ")) \(String(table.bytes).leftPadded(to: 12, with: " "))")
            total += table.bytes
        }
        out.append("  \("total".padding(toLength: 24, withPad: " ", startingAt: 0)) \("".leftPadded(to: 10, with: " ")) \(String(total).leftPadded(to: 12, with: " "))")
        let words = try store.vocabulary().texts.count
        out.append("vocabulary: \(words) words (view `word`), packed \(StoreSchema.wordBlockSize) to a row in word_block and word_order")
        if let classes = try store.clusterSummary() {
            out.append("word classes: \(classes.classes) classes in use, \(classes.words) words (view cluster_member_view), "
                       + "\(classes.ngrams) class n-grams; predictions interpolate the class model with weight "
                       + "\(NgramPredictor.clusterWeight(store.meta))")
        }
        if let rules = try store.formRuleCount() {
            out.append("form rules: \(rules) suffix rules (table \(StoreSchema.formRuleTable)); completions add forms they derive once the known words run out")
        }
        out.append("top words:")
        for s in try store.topWords(limit: 10) { out.append("  \(s.word)\t\(s.count)") }
        if store.order >= 2 {
            out.append("starting words:")
            for s in try store.startingWords(limit: 5) { out.append("  \(s.word)\t\(s.count)") }
            out.append("top continuations:")
            for (word, next) in try store.topContinuations(words: 5, each: 3) {
                out.append("  \(word) → " + next.map { "\($0.word) (\($0.count))" }.joined(separator: ", "))
            }
        }
        out += try HMMInspect.lines(store)
        return out.joined(separator: "\n")
    }
}

/// `lexiforge suggest`: what a keyboard would offer after the text typed so far.
public enum Suggest {
    /// Tokenizes `text` the way the store was built (every recorded text option: tokenizer mode,
    /// lowercase, normalization, straight quotes, number class, punctuation) and asks the store.
    public static func run(storePath: String, text: String, limit: Int) throws -> [Suggestion] {
        let store = try TrainedStore(path: storePath)
        return try store.nextWords(after: store.typedInput(text, lastWordComplete: true).context, limit: limit)
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character) -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
