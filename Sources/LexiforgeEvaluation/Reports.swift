import Foundation
import LexiforgeBuild
import LexiforgeReader
import LexiforgeText

/// `lexiforge inspect`: a human-readable summary of a store.
public enum InspectReport {
    public static func render(path: String) throws -> String {
        render(try StoreSummary(store: TrainedStore(path: path)))
    }

    /// The text of a ``StoreSummary`` (collected in LexiforgeReader, which the playground serves as JSON).
    public static func render(_ summary: StoreSummary) -> String {
        var out: [String] = []
        out.append("store: \(summary.path)")
        out.append("schema version: \(summary.schemaVersion)")
        out.append("provenance:")
        for key in summary.meta.keys.sorted() { out.append("  \(key): \(summary.meta[key]!)") }
        out.append("tables and indexes (rows, bytes):")
        for table in summary.tables {
            let rows = table.rows.map { String($0) } ?? "-"
            out.append("  \(table.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(rows.leftPadded(to: 10, with: " ")) \(String(table.bytes).leftPadded(to: 12, with: " "))")
        }
        out.append("  \("total".padding(toLength: 24, withPad: " ", startingAt: 0)) \("".leftPadded(to: 10, with: " ")) \(String(summary.totalBytes).leftPadded(to: 12, with: " "))")
        out.append("vocabulary: \(summary.vocabulary) words (view `word`), packed \(summary.wordBlockSize) to a row in word_block and word_order")
        if let classes = summary.wordClasses {
            out.append("word classes: \(classes.classes) classes in use, \(classes.words) words (view cluster_member_view), "
                       + "\(classes.ngrams) class n-grams; predictions interpolate the class model with weight "
                       + "\(classes.weight)")
        }
        if let rules = summary.formRules {
            out.append("form rules: \(rules) suffix rules (table \(StoreSchema.formRuleTable)); completions add forms they derive once the known words run out")
        }
        out.append("top words:")
        for s in summary.topWords { out.append("  \(s.word)\t\(s.count)") }
        if summary.order >= 2 {
            out.append("starting words:")
            for s in summary.startingWords { out.append("  \(s.word)\t\(s.count)") }
            out.append("top continuations:")
            for c in summary.topContinuations {
                out.append("  \(c.word) → " + c.next.map { "\($0.word) (\($0.count))" }.joined(separator: ", "))
            }
        }
        out += HMMInspect.lines(summary.hmm)
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
