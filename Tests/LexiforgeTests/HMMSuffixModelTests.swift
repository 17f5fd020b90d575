import Foundation
import Testing
import LexiforgeFormat

/// The HMM tagger's unknown-word model built depth first over one word buffer and spelling
/// tables, against the dictionaries it replaced (suffix → counts, suffix → smoothed row), on
/// hand-made counts over three states.
@Suite("HMM suffix model")
struct HMMSuffixModelTests {
    static let theta = 1.5

    static func count(_ shape: WordShape, _ suffix: String, _ state: Int32, _ count: Int32) -> HMMTables.SuffixCount {
        HMMTables.SuffixCount(shape: shape, suffix: suffix, state: state, count: count)
    }

    /// A suffix in two records, a parent missing ("zq" has no "q"), a canonically equal pair
    /// (NFC "é" and NFD "e\u{301}": one key, as in a dictionary) with a child, a shape without
    /// an empty suffix (its root is the rare-word distribution itself), a shape with none at all.
    static let counts: [HMMTables.SuffixCount] = [
        count(.lower, "", 1, 6), count(.lower, "", 2, 3), count(.lower, "s", 1, 2), count(.lower, "es", 1, 1),
        count(.lower, "s", 2, 1), count(.lower, "ies", 2, 1), count(.lower, "ng", 2, 2), count(.lower, "ing", 2, 4),
        count(.lower, "xng", 1, 1), count(.lower, "zq", 1, 1), count(.lower, "é", 2, 1), count(.lower, "e\u{301}", 1, 2),
        count(.lower, "xé", 1, 1), count(.capitalized, "", 1, 1), count(.capitalized, "a", 2, 1), count(.digit, "5", 2, 3),
    ]

    /// The rows as the dictionaries computed them: per shape and suffix, smoothed in the order of
    /// scalar count then spelling, each towards its parent's row if already computed, else the empty suffix's.
    static func reference(_ suffixes: [HMMTables.SuffixCount], S: Int) -> [WordShape: [String: [Double]]] {
        var counts: [WordShape: [String: [Double]]] = [:]
        for x in suffixes { counts[x.shape, default: [:]][x.suffix, default: [Double](repeating: 0, count: S)][Int(x.state)] += Double(x.count) }
        var rare = [Double](repeating: 0, count: S)
        for table in counts.values { if let row = table[""] { for s in 0..<S { rare[s] += row[s] } } }
        let total = rare.reduce(0, +)
        guard total > 0 else { return [:] }
        func smooth(_ c: [Double]?, _ parent: [Double]) -> [Double] {
            guard let c else { return parent }
            let t = c.reduce(0, +)
            return (0..<S).map { (c[$0] / t + theta * parent[$0]) / (1 + theta) }
        }
        var out: [WordShape: [String: [Double]]] = [:]
        for shape in WordShape.allCases {
            let table = counts[shape] ?? [:]
            var probs = ["": smooth(table[""], rare.map { $0 / total })]
            let keys = table.keys.filter { !$0.isEmpty }.sorted {
                let (a, b) = ($0.unicodeScalars.count, $1.unicodeScalars.count)
                return a != b ? a < b : $0 < $1
            }
            for key in keys { probs[key] = smooth(table[key], probs[String(key.unicodeScalars.dropFirst())] ?? probs[""]!) }
            out[shape] = probs
        }
        return out
    }

    /// The model with every row it was handed, its entry its index.
    static func build(_ suffixes: [HMMTables.SuffixCount], S: Int) -> (HMMSuffixModel, [[Double]]) {
        var rows: [[Double]] = []
        let builder = HMMSuffixModel.Builder(suffixes: suffixes, stateCount: S, theta: theta)
        var visited = 0
        builder.walk { _, _ in visited += 1 }
        #expect(visited == builder.rowCount)
        let model = builder.model(unknownEntry: -1) { row in
            rows.append(Array(row))
            return Int32(rows.count - 1)
        }
        return (model, rows)
    }

    @Test("every suffix's row is the dictionaries' row, bit for bit")
    func rowsMatchTheDictionaries() {
        let expected = Self.reference(Self.counts, S: 3)
        let (model, rows) = Self.build(Self.counts, S: 3)
        #expect(rows.count == 11 + 11)   // every shape's empty suffix, 11 distinct suffixes
        for (shape, table) in expected {
            for (suffix, row) in table {
                // The suffix as a word finds itself (its longest suffix), the empty one its shape's row.
                let entry = model.entry(suffix, shape: shape, maxLength: 10)
                #expect(rows[Int(entry)] == row, "\(shape) \(suffix.debugDescription)")
            }
        }
        #expect(model.entry("e\u{301}", shape: .lower, maxLength: 10) == model.entry("é", shape: .lower, maxLength: 10))
    }

    @Test("a word takes its longest known suffix, up to the maximum length, else its shape's row")
    func longestSuffix() {
        let (model, _) = Self.build(Self.counts, S: 3)
        let ing = model.entry("ing", shape: .lower, maxLength: 10)
        #expect(model.entry("running", shape: .lower, maxLength: 10) == ing)
        #expect(model.entry("running", shape: .lower, maxLength: 2) == model.entry("ng", shape: .lower, maxLength: 10))
        #expect(model.entry("tries", shape: .lower, maxLength: 10) == model.entry("ies", shape: .lower, maxLength: 10))
        #expect(model.entry("qqq", shape: .lower, maxLength: 10) == model.shapeEntry[Int(WordShape.lower.rawValue)])
        #expect(model.entry("Ring", shape: .capitalized, maxLength: 10) == model.shapeEntry[Int(WordShape.capitalized.rawValue)])
        #expect(model.hasSuffixes(.lower) && model.hasSuffixes(.digit) && !model.hasSuffixes(.symbol))
    }

    @Test("without rare words (no empty suffix anywhere) there is no suffix row")
    func noRareWords() {
        let (model, rows) = Self.build(Self.counts.filter { !$0.suffix.isEmpty }, S: 3)
        #expect(rows.isEmpty)
        #expect(!model.hasSuffixes(.lower))
        #expect(model.entry("running", shape: .lower, maxLength: 10) == -1)
    }

    @Test("group starts: offsets of items put group by group, negative keys left out")
    func groupStarts() {
        #expect(HMMSuffixModel.groupStarts(count: 3, keys: [2, 0, -1, 2, 2]) == [0, 1, 1, 4])
        #expect(HMMSuffixModel.groupStarts(count: 0, keys: []) == [0])
    }
}
