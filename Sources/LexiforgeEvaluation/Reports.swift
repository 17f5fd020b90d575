import Foundation
import LexiforgeBuild
import LexiforgeReader
import LexiforgeText

/// `lexiforge inspect`: a human-readable summary of a store.
public enum InspectReport {
    public static func render(path: String) throws -> String {
        do {
            return render(try StoreSummary(store: TrainedStore(path: path)))
        } catch StoreError.notAStore(let file, let reason) {
            // A vocabulary store has its own reader; anything else stays "not a store".
            let vocabulary: VocabularyStore
            do { vocabulary = try VocabularyStore(path: path) } catch StoreError.notAStore { throw StoreError.notAStore(file, reason) }
            return try render(vocabulary)
        }
    }

    /// The text for a vocabulary store (``VocabularyStore/summary()``).
    public static func render(_ store: VocabularyStore) throws -> String {
        let summary = try store.summary()
        var out: [String] = []
        out.append("store: \(store.path)")
        out.append("schema version: \(store.meta[StoreSchema.MetaKey.schemaVersion] ?? "-") (vocabulary schema \(store.meta[StoreSchema.Vocab.MetaKey.schema] ?? "-"))")
        out.append("provenance:")
        for key in store.meta.keys.sorted() { out.append("  \(key): \(store.meta[key]!)") }
        out += tableLines(summary.tables.map { ($0.name, $0.rows, $0.bytes) }, total: summary.tables.reduce(0) { $0 + $1.bytes })
        out.append("vocabulary: \(summary.entries) entries (view vocab_view) in \(summary.buckets) buckets of one level set, category and present fields (view vocab_bucket_view)")
        out.append("levels (a word at several levels counts at each):")
        for level in summary.levels { out.append("  \(level.name)\t\(level.entries)") }
        out.append("categories:")
        for c in summary.categories where c.entries > 0 { out.append("  \(c.category.name)\t\(c.entries)") }
        out.append("with a reading: \(summary.withReading); with a meaning: \(summary.withMeaning)")
        out.append("ask it: lexiforge vocab count \(store.path) --levels \(summary.levels.last?.name ?? "LEVEL"); "
                   + "lexiforge vocab quiz \(store.path) --test choose-meaning --count 5 --seed 1")
        return out.joined(separator: "\n")
    }

    static func tableLines(_ tables: [(name: String, rows: Int?, bytes: Int)], total: Int) -> [String] {
        var out = ["tables and indexes (rows, bytes):"]
        for table in tables {
            let rows = table.rows.map { String($0) } ?? "-"
            out.append("  \(table.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(rows.leftPadded(to: 10, with: " ")) \(String(table.bytes).leftPadded(to: 12, with: " "))")
        }
        out.append("  \("total".padding(toLength: 24, withPad: " ", startingAt: 0)) \("".leftPadded(to: 10, with: " ")) \(String(total).leftPadded(to: 12, with: " "))")
        return out
    }

    /// The text of a ``StoreSummary`` (collected in LexiforgeReader, which the playground serves as JSON).
    public static func render(_ summary: StoreSummary) -> String {
        var out: [String] = []
        out.append("store: \(summary.path)")
        out.append("schema version: \(summary.schemaVersion)")
        out.append("provenance:")
        for key in summary.meta.keys.sorted() { out.append("  \(key): \(summary.meta[key]!)") }
        out += tableLines(summary.tables.map { ($0.name, $0.rows, $0.bytes) }, total: summary.totalBytes)
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
