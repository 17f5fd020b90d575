import Foundation

/// Every word's swipe features of one layout, in memory, grouped by first key (thesis 3.1: "all
/// words with the same first letter are stored together").
///
/// Key paths live in one flat byte array (`keys[pathStart[i] ..< pathStart[i + 1]]`); the other
/// features are parallel arrays, so 160,000 words take about 5 MB.
///
/// A swipe carries no case, so entries are case-folded: spellings that differ only in case
/// ("Portland", "portland"; "US", "us") become one entry that proposes the most frequent spelling
/// (the first added on a tie) with the highest frequency of its variants.
public struct SwipeDictionary: Sendable {
    public let layout: SwipeLayout
    public let words: [String]
    public let wordIDs: [Int64]
    public let keys: [UInt8]
    public let pathStart: [Int32]
    /// Perfect-swipe length, start angle and distance to the second key, per entry (see ``SwipeFeatures``).
    public let length: [Float]
    public let startAngle: [Float]
    public let secondDistance: [Float]
    /// Lexicon frequency 0-255.
    public let frequency: [UInt8]
    /// Word indices by first key.
    let byFirstKey: [[Int32]]

    public var count: Int { words.count }

    /// The key path of entry `i`.
    public func path(_ i: Int) -> ArraySlice<UInt8> { keys[Int(pathStart[i]) ..< Int(pathStart[i + 1])] }

    /// Entry index by case-folded spelling.
    let foldedIndex: [String: Int32]

    /// Entry index of a word, compared case-insensitively; nil when absent.
    public func index(of word: String) -> Int? { foldedIndex[word.lowercased()].map(Int.init) }

    /// The same words with features measured on `layout` (the same keys, another geometry: say
    /// the row height of the device's keyboard instead of the stored one). Paths stay, lengths and
    /// start directions are recomputed: about 30 ms for 160,000 words.
    public func adapted(to layout: SwipeLayout) -> SwipeDictionary {
        precondition(layout.keys.count == self.layout.keys.count, "a layout with the same keys")
        var length = self.length, angle = startAngle, second = secondDistance
        for i in 0 ..< count {
            let f = SwipeFeatures(keys: Array(path(i)), layout: layout)
            length[i] = Float(f.length); angle[i] = Float(f.startAngle); second[i] = Float(f.secondDistance)
        }
        return SwipeDictionary(layout: layout, words: words, wordIDs: wordIDs, keys: keys, pathStart: pathStart,
                               length: length, startAngle: angle, secondDistance: second, frequency: frequency,
                               byFirstKey: byFirstKey, foldedIndex: foldedIndex)
    }

    /// Collects entries; ``build()`` groups them.
    public struct Builder {
        let layout: SwipeLayout
        var words: [String] = [], ids: [Int64] = [], keys: [UInt8] = [], starts: [Int32] = [0]
        var length: [Float] = [], angle: [Float] = [], second: [Float] = [], frequency: [UInt8] = []

        public init(layout: SwipeLayout) { self.layout = layout }

        public mutating func add(word: String, id: Int64, keys path: [UInt8], length l: Double, startAngle: Double,
                                 secondDistance: Double, frequency f: Int) {
            words.append(word); ids.append(id)
            keys.append(contentsOf: path); starts.append(Int32(keys.count))
            length.append(Float(l)); angle.append(Float(startAngle)); second.append(Float(secondDistance))
            frequency.append(UInt8(clamping: f))
        }

        /// Adds a word with features computed on the layout (tests, small lexicons).
        public mutating func add(word: String, id: Int64 = 0, frequency: Int) {
            guard let f = SwipeFeatures(word: word, layout: layout) else { return }
            add(word: word, id: id, keys: f.keys, length: f.length, startAngle: f.startAngle,
                secondDistance: f.secondDistance, frequency: frequency)
        }

        /// Merges case variants (see the type's discussion) and groups entries by first key.
        public func build() -> SwipeDictionary {
            var chosen: [String: Int] = [:]   // folded spelling → entry added that represents it
            var best: [Int: UInt8] = [:]       // representative → highest frequency of its variants
            var order: [Int] = []
            for i in words.indices {
                let folded = words[i].lowercased()
                guard let j = chosen[folded] else { chosen[folded] = i; best[i] = frequency[i]; order.append(i); continue }
                let top = max(best[j]!, frequency[i])
                if frequency[i] > frequency[j] {
                    chosen[folded] = i
                    best[i] = top
                    best[j] = nil
                    order[order.firstIndex(of: j)!] = i
                } else {
                    best[j] = top
                }
            }
            var merged = Builder(layout: layout)
            var folded: [String: Int32] = [:]
            for i in order {
                folded[words[i].lowercased()] = Int32(merged.words.count)
                merged.words.append(words[i]); merged.ids.append(ids[i])
                merged.keys.append(contentsOf: keys[Int(starts[i]) ..< Int(starts[i + 1])]); merged.starts.append(Int32(merged.keys.count))
                merged.length.append(length[i]); merged.angle.append(angle[i]); merged.second.append(second[i])
                merged.frequency.append(best[i]!)
            }
            var groups = [[Int32]](repeating: [], count: layout.keys.count)
            for i in merged.words.indices { groups[Int(merged.keys[Int(merged.starts[i])])].append(Int32(i)) }
            return SwipeDictionary(layout: layout, words: merged.words, wordIDs: merged.ids, keys: merged.keys, pathStart: merged.starts,
                                   length: merged.length, startAngle: merged.angle, secondDistance: merged.second,
                                   frequency: merged.frequency, byFirstKey: groups, foldedIndex: folded)
        }
    }
}
