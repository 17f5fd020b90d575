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
        // Every cut (stem, ending) of every formable word: the stems' UTF-8 bytes in one buffer and
        // the endings as ids (a few thousand distinct ones), 12 bytes a cut where a dictionary of
        // stems took about 200 (gutenberg-100m's vocabulary makes 1.1 million cuts). Sorted by
        // stem bytes, and by position among equal stems, the cuts of one stem are contiguous and
        // in the order the words gave them.
        var endingID: [String: Int32] = [:]
        var endingText: [String] = []
        var bytes: [UInt8] = []
        var cuts: [(start: UInt32, length: UInt32, ending: Int32)] = []
        for word in words where StoreSchema.isFormable(word) {
            for (stem, ending) in StoreSchema.formCuts(of: word) {
                let id = endingID[ending] ?? {
                    endingText.append(ending)
                    endingID[ending] = Int32(endingText.count - 1)
                    return Int32(endingText.count - 1)
                }()
                let start = bytes.count
                bytes.append(contentsOf: stem.utf8)
                cuts.append((UInt32(start), UInt32(bytes.count - start), id))
            }
        }
        var order = [Int32](0..<Int32(cuts.count))
        bytes.withUnsafeBufferPointer { b in
            cuts.withUnsafeBufferPointer { c in
                order.sort { i, j in
                    let x = c[Int(i)], y = c[Int(j)]
                    let n = Int(min(x.length, y.length))
                    let d = n == 0 ? 0 : memcmp(b.baseAddress! + Int(x.start), b.baseAddress! + Int(y.start), n)
                    if d != 0 { return d < 0 }
                    return x.length != y.length ? x.length < y.length : i < j
                }
            }
        }
        /// Calls `body` with each stem's endings, stems in UTF-8 byte order.
        func forEachStem(_ body: ([Int32]) -> Void) {
            var list: [Int32] = []
            var k = 0
            while k < order.count {
                let first = cuts[Int(order[k])]
                list.removeAll(keepingCapacity: true)
                var m = k
                while m < order.count {
                    let c = cuts[Int(order[m])]
                    guard c.length == first.length,
                          bytes[Int(c.start)..<Int(c.start + c.length)].elementsEqual(bytes[Int(first.start)..<Int(first.start + first.length)])
                    else { break }
                    list.append(c.ending)
                    m += 1
                }
                body(list)
                k = m
            }
        }
        var bases = [Int](repeating: 0, count: endingText.count)
        forEachStem { list in for a in list { bases[Int(a)] += 1 } }
        // Stems per pair of endings, counted only for pairs that can reach `threshold` (both
        // endings on that many stems): every pair there is exact, so once `limit` pairs reach it,
        // they are the `limit` best of all. The threshold starts where the 2 × limit most frequent
        // endings end and halves until enough pairs reach it (at 2, every pair a rule can come
        // from is counted): gutenberg-100m's vocabulary has millions of pairs, mostly rare.
        let ranked = bases.sorted(by: >)
        var threshold = max(2, ranked.count > 2 * limit ? ranked[2 * limit] : 2)
        var pairs: [UInt64: Int32] = [:]
        while true {
            pairs.removeAll()
            forEachStem { list in
                for a in list where bases[Int(a)] >= threshold {
                    for b in list where b != a && bases[Int(b)] >= threshold {
                        pairs[UInt64(UInt32(a)) << 32 | UInt64(UInt32(b)), default: 0] += 1
                    }
                }
            }
            if threshold <= 2 || pairs.values.lazy.filter({ $0 >= threshold }).count >= limit { break }
            threshold = max(2, threshold / 2)
        }
        func pair(_ key: UInt64) -> Pair { Pair(strip: endingText[Int(key >> 32)], append: endingText[Int(key & 0xFFFF_FFFF)]) }
        let kept = pairs.filter { $0.value >= threshold }.map { (pair: pair($0.key), key: $0.key, stems: Int($0.value)) }
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
        forEachStem { list in
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
