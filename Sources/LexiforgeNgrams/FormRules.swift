import Foundation
import LexiforgeReader

/// Suffix rules learnt from a vocabulary, so that completions can offer forms of known words the
/// corpus never showed (``StoreSchema/formRuleCreationStatements``).
///
/// A rule replaces one ending of a word by another ("ed" → "ing", "" → "ly"). Every formable word
/// (``StoreSchema/isFormable(_:)``) is cut into a stem of at least ``StoreSchema/formMinStem``
/// letters and an ending of at most ``StoreSchema/formMaxSuffix``, in every way it can be; two
/// endings seen on one stem are evidence for the rule between them. The `limit` rules with the most
/// stems (at least 2) are kept. A rule's productivity is the share of the stems with its first
/// ending that also have its second; its weight is that productivity divided by the sum of the
/// productivities of all derivations of unseen forms from the vocabulary, so the derived forms
/// share the unseen-word probability as the rules' productivities do.
public struct FormRules: Sendable, Equatable {
    public struct Rule: Sendable, Equatable {
        public var strip: String
        public var append: String
        /// Stems of the vocabulary with both endings.
        public var stems: Int
        /// log10 of the rule's share of the unseen-word mass.
        public var log10Weight: Double
    }

    /// Sorted by (strip, append) in UTF-8 byte order, as the `form_rule` table's key.
    public var rules: [Rule]
    /// Derivations of unseen forms from the vocabulary (each a word, a cut of it and a rule).
    public var derivations: Int

    /// Learns at most `limit` rules from `words` (a vocabulary: each text once).
    public static func learn(words: [String], limit: Int) -> FormRules {
        guard limit > 0 else { return FormRules(rules: [], derivations: 0) }
        let minStem = StoreSchema.formMinStem, maxSuffix = StoreSchema.formMaxSuffix
        let formable = words.filter(StoreSchema.isFormable)
        // Endings seen on each stem.
        var endings: [String: [String]] = [:]
        for word in formable {
            let letters = Array(word)
            for k in 0...min(maxSuffix, letters.count - minStem) {
                endings[String(letters[..<(letters.count - k)]), default: []].append(String(letters[(letters.count - k)...]))
            }
        }
        var bases: [String: Int] = [:]
        var pairs: [Pair: Int] = [:]
        for list in endings.values {
            for a in list {
                bases[a, default: 0] += 1
                for b in list where b != a { pairs[Pair(strip: a, append: b), default: 0] += 1 }
            }
        }
        let kept = pairs.filter { $0.value >= 2 }.sorted { x, y in
            x.value != y.value ? x.value > y.value : x.key.precedes(y.key)
        }.prefix(limit)
        var productivity: [String: [(append: String, p: Double)]] = [:]
        for (pair, stems) in kept {
            productivity[pair.strip, default: []].append((pair.append, Double(stems) / Double(bases[pair.strip]!)))
        }
        // The mass to share: every derivation of a form the vocabulary does not hold, in word order.
        let vocabulary = Set(words)
        var total = 0.0
        var derivations = 0
        for word in formable {
            let letters = Array(word)
            for k in 0...min(maxSuffix, letters.count - minStem) {
                let stem = String(letters[..<(letters.count - k)])
                for rule in productivity[String(letters[(letters.count - k)...])] ?? [] where !vocabulary.contains(stem + rule.append) {
                    total += rule.p
                    derivations += 1
                }
            }
        }
        let rules = kept.map { pair, stems -> Rule in
            let p = Double(stems) / Double(bases[pair.strip]!)
            return Rule(strip: pair.strip, append: pair.append, stems: stems, log10Weight: total > 0 ? log10(p / total) : 0)
        }.sorted { Pair(strip: $0.strip, append: $0.append).precedes(Pair(strip: $1.strip, append: $1.append)) }
        return FormRules(rules: rules, derivations: derivations)
    }

    struct Pair: Hashable {
        var strip: String
        var append: String
        func precedes(_ other: Pair) -> Bool {
            strip != other.strip ? strip.utf8.lexicographicallyPrecedes(other.strip.utf8)
                : append.utf8.lexicographicallyPrecedes(other.append.utf8)
        }
    }
}
