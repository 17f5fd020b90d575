import Foundation
import GRDB

/// The suffix rules of a store built with `ngrams --form-rules N` (``StoreSchema/formRuleCreationStatements``).
struct FormDeriver: Sendable {
    struct Rule: Sendable {
        var strip: String
        var append: String
        /// The rule's share of the unseen-word mass (10^logprob).
        var weight: Double
    }
    let rules: [Rule]
    let byStrip: [String: [Rule]]

    init?(_ db: Database) throws {
        guard try db.tableExists(StoreSchema.formRuleTable) else { return nil }
        let table = StoreSchema.formRuleTable
        rules = try Row.fetchAll(db, sql: "SELECT strip, append, logprob FROM \(table) ORDER BY strip, append").map { row in
            Rule(strip: try row.text(0, table, "strip"), append: try row.text(1, table, "append"),
                 weight: pow(10, Double(try row.logValue(2, table, "logprob")) / StoreSchema.logScale))
        }
        byStrip = Dictionary(grouping: rules, by: \.strip)
    }
}

extension TrainedStore {
    /// How many suffix rules the store has, or nil when it was built without `--form-rules`.
    public func formRuleCount() throws -> Int? {
        try checked { db in
            guard try db.tableExists(StoreSchema.formRuleTable) else { return nil }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM \(StoreSchema.formRuleTable)") ?? 0
        }
    }
}

extension NgramPredictor {
    /// Known words scanned at most for the forms of one prefix (a short prefix matches thousands).
    static let maxFormSources = 4096

    /// Whether the store has suffix rules for unseen forms (``completions(of:after:limit:excluding:)``
    /// offers such forms when the known words run out).
    public var hasFormRules: Bool { forms != nil }

    /// The forms starting with `prefix` that the store's suffix rules derive from its words and
    /// that it never saw, best first, with their share of the unseen-word mass (summed over the
    /// ways each is derived).
    ///
    /// A form is a stem of a known word with one ending replaced by another. A stem at least as
    /// long as the prefix belongs to a known word that starts with the prefix (at most
    /// ``maxFormSources`` of them are looked at); a shorter one is the start of the prefix, whose
    /// rest begins the appended ending ("disturbi" = "disturb" + "i…" from "disturb" + "" → "ing").
    public func derivedForms(of prefix: String, limit: Int, excluding: Set<String> = []) -> [(word: String, weight: Double)] {
        guard let forms, limit >= 1, !prefix.isEmpty else { return [] }
        let typed = Array(prefix)
        let minStem = StoreSchema.formMinStem, maxSuffix = StoreSchema.formMaxSuffix
        var score: [String: Double] = [:]
        func offer(_ stem: String, _ rule: FormDeriver.Rule) {
            let form = stem + rule.append
            guard ids[form] == nil, !excluding.contains(form), form.utf8.starts(with: prefix.utf8) else { return }
            score[form, default: 0] += rule.weight
        }
        // Stems at least as long as the prefix: cuts of the known words that start with it.
        for position in prefixRange(Array(prefix.utf8)).prefix(Self.maxFormSources) {
            let word = words[Int(alphabetical[position])]
            guard StoreSchema.isFormable(word) else { continue }
            for (stem, ending) in StoreSchema.formCuts(of: word, shortestStem: typed.count) {
                for rule in forms.byStrip[ending] ?? [] { offer(stem, rule) }
            }
        }
        // Stems shorter than the prefix: the rest of the prefix starts the appended ending.
        if typed.count > minStem {
            for cut in max(minStem, typed.count - maxSuffix)..<typed.count {
                let stem = String(typed[..<cut]), rest = String(typed[cut...])
                for rule in forms.rules where rule.append.hasPrefix(rest) {
                    let source = stem + rule.strip
                    if ids[source] != nil, StoreSchema.isFormable(source) { offer(stem, rule) }
                }
            }
        }
        return score.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key.utf8.lexicographicallyPrecedes($1.key.utf8)) }
            .prefix(limit).map { ($0.key, $0.value) }
    }

    /// `list` (the known completions of `prefix`) topped up to `limit` with derived forms, each at
    /// p(`<unk>` | h) × its share of the unseen-word mass, order 0.
    func withDerivedForms(_ list: [Prediction], prefix: String, context h: [Int32], limit: Int,
                          excluding: Set<String>) throws -> [Prediction] {
        guard list.count < limit, forms != nil else { return list }
        let derived = derivedForms(of: prefix, limit: limit - list.count, excluding: excluding)
        guard !derived.isEmpty else { return list }
        let unknown = try interpolatedLogProb(of: Int32(StoreSchema.ReservedID.unknown), context: h).value
        return list + derived.map { Prediction(word: $0.word, log10Probability: unknown + log10($0.weight), order: 0) }
    }
}
