import Foundation
import LexiforgeFormat

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
        let formable = words.filter(StoreSchema.isFormable)
        // Endings seen on each stem, as ids (a few thousand distinct endings; pairs of them are
        // counted by a 64-bit key, which keeps gutenberg-11m's millions of pairs small).
        var endingID: [String: Int32] = [:]
        var endingText: [String] = []
        var endings: [String: [Int32]] = [:]
        for word in formable {
            for (stem, ending) in StoreSchema.formCuts(of: word) {
                let id = endingID[ending] ?? {
                    endingText.append(ending)
                    endingID[ending] = Int32(endingText.count - 1)
                    return Int32(endingText.count - 1)
                }()
                endings[stem, default: []].append(id)
            }
        }
        var bases = [Int](repeating: 0, count: endingText.count)
        var pairs: [UInt64: Int32] = [:]
        for list in endings.values {
            for a in list {
                bases[Int(a)] += 1
                for b in list where b != a { pairs[UInt64(UInt32(a)) << 32 | UInt64(UInt32(b)), default: 0] += 1 }
            }
        }
        func pair(_ key: UInt64) -> Pair { Pair(strip: endingText[Int(key >> 32)], append: endingText[Int(key & 0xFFFF_FFFF)]) }
        let kept = pairs.filter { $0.value >= 2 }.map { (pair: pair($0.key), key: $0.key, stems: Int($0.value)) }
            .sorted { x, y in x.stems != y.stems ? x.stems > y.stems : x.pair.precedes(y.pair) }
            .prefix(limit)
        var productivity = [[(append: Int32, p: Double)]](repeating: [], count: endingText.count)
        for rule in kept {
            let a = Int(rule.key >> 32)
            productivity[a].append((Int32(rule.key & 0xFFFF_FFFF), Double(rule.stems) / Double(bases[a])))
        }
        // The mass to share: every derivation of a form the vocabulary does not hold. A form
        // stem + b is in the vocabulary exactly when b is among the stem's endings (the cuts above
        // include every stem and ending a rule can make), so no form is spelled out here. Stems
        // are visited in a fixed order, so the sum is the same on every run.
        var total = 0.0
        var derivations = 0
        for stem in endings.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let list = endings[stem]!
            for a in list {
                for rule in productivity[Int(a)] where !list.contains(rule.append) {
                    total += rule.p
                    derivations += 1
                }
            }
        }
        let rules = kept.map { rule -> Rule in
            let p = Double(rule.stems) / Double(bases[Int(rule.key >> 32)])
            return Rule(strip: rule.pair.strip, append: rule.pair.append, stems: rule.stems, log10Weight: total > 0 ? log10(p / total) : 0)
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
