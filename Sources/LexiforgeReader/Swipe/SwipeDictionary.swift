import Foundation

/// Every word's swipe features of one layout, in memory, grouped by first key (thesis 3.1: "all
/// words with the same first letter are stored together") and, within it, by last key, most
/// frequent first: a decoder reads the words of a pair of end keys it keeps one after the other,
/// and can stop in a group once its frequencies are too low (``SwipeDecoder``).
///
/// Key paths live in one flat byte array (`keys[pathStart[i] ..< pathStart[i + 1]]`); the other
/// features are parallel arrays, and the case-folded index is a table of entry numbers
/// (`SpellingTable`), so en_US's 161,000 words take about 9 MB, their spellings' text shared
/// with the store's vocabulary. A build needs about 4 MB more while it runs.
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
    /// Whether the entry's spelling is marked `possibly_offensive` in its wordlist: the decoder
    /// proposes it only when ``SwipeDecoderOptions/allowOffensive`` is set, as completions do.
    public let possiblyOffensive: [Bool]
    /// The entries of first key f and last key l are `groupStart[f · K + l] ..< groupStart[f · K + l + 1]`
    /// (K keys), most frequent first (in the order added on a tie); those of first key f are
    /// `groupStart[f · K] ..< groupStart[(f + 1) · K]`.
    let groupStart: [Int32]

    /// The entries whose first key is `first` and last key `last`, most frequent first.
    public func entries(first: Int, last: Int) -> Range<Int> {
        let g = first * layout.keys.count + last
        return Int(groupStart[g]) ..< Int(groupStart[g + 1])
    }

    /// The entries whose first key is `first`.
    public func entries(first: Int) -> Range<Int> {
        let k = layout.keys.count
        return Int(groupStart[first * k]) ..< Int(groupStart[(first + 1) * k])
    }

    public var count: Int { words.count }

    /// The key path of entry `i`.
    public func path(_ i: Int) -> ArraySlice<UInt8> { keys[Int(pathStart[i]) ..< Int(pathStart[i + 1])] }

    /// Entry index by case-folded spelling.
    let foldedIndex: SpellingTable

    /// Entry index of a word, compared case-insensitively; nil when absent.
    public func index(of word: String) -> Int? {
        foldedIndex.find(word.lowercased()) { words[Int($0)].lowercased() }.entry.map(Int.init)
    }

    /// The same words with features measured on `layout` (the same keys, another geometry: say
    /// the row height of the device's keyboard instead of the stored one). Paths stay, lengths and
    /// start directions are recomputed from a table of the key pairs' distances and directions, a
    /// few milliseconds for 160,000 words (about 30 ms when each word's features were measured
    /// afresh, which made a device's first swipe the slowest of all: docs/swipe.md, *Keyboard setup*).
    public func adapted(to layout: SwipeLayout) -> SwipeDictionary {
        precondition(layout.keys.count == self.layout.keys.count, "a layout with the same keys")
        // The distances and directions between every pair of keys, once (as ``SwipeFeatures``
        // measures them, summed in the same order: the same values), then one pass over the flat
        // paths without an array per word.
        let k = layout.keys.count
        var pairDistance = [Double](repeating: 0, count: k * k), pairAngle = [Double](repeating: 0, count: k * k)
        for a in 0 ..< k {
            for b in 0 ..< k {
                let p = layout.keys[a].centre, q = layout.keys[b].centre
                pairDistance[a * k + b] = p.distance(to: q)
                pairAngle[a * k + b] = atan2(q.y - p.y, q.x - p.x)
            }
        }
        var length = [Float](repeating: 0, count: count), angle = length, second = length
        keys.withUnsafeBufferPointer { keys in
            pathStart.withUnsafeBufferPointer { starts in
                for i in 0 ..< count {
                    let s = Int(starts[i]), e = Int(starts[i + 1])
                    var l = 0.0
                    for j in s + 1 ..< max(s + 1, e) { l += pairDistance[Int(keys[j - 1]) * k + Int(keys[j])] }
                    length[i] = Float(l)
                    if e - s > 1 {
                        let pair = Int(keys[s]) * k + Int(keys[s + 1])
                        angle[i] = Float(pairAngle[pair]); second[i] = Float(pairDistance[pair])
                    }
                }
            }
        }
        return SwipeDictionary(layout: layout, words: words, wordIDs: wordIDs, keys: keys, pathStart: pathStart,
                               length: length, startAngle: angle, secondDistance: second, frequency: frequency,
                               possiblyOffensive: possiblyOffensive, groupStart: groupStart, foldedIndex: foldedIndex)
    }

    /// The same dictionary with `added` words, a user's own (names, contacts, slang: the words a
    /// keyboard's "add to dictionary" keeps), each with a lexicon frequency (0-255, the wordlist's
    /// scale; on real swipes added words decoded best near 128: docs/swipe.md) and, when the
    /// language model knows the word, its id there (`id`, nil: the model's unknown-word
    /// probability, as for any word it lacks). Features are measured on this dictionary's
    /// layout; a word that differs only in case from an entry joins it (the more frequent
    /// spelling is proposed), and a word without a key path on the layout ("MP3") is skipped.
    /// The entries keep their order within each group of end keys, so a dictionary rebuilt this
    /// way decodes as the original did but for the words added. For en_US's 161,000 words about
    /// 0.1 s and, while it runs, a second dictionary's memory (about 12 MB): once when the
    /// user's words change, not per swipe.
    public func adding(_ added: [(word: String, frequency: Int)], id: (String) -> Int64? = { _ in nil }) -> SwipeDictionary {
        var builder = Builder(layout: layout)
        builder.reserveCapacity(entries: count + added.count, keys: keys.count + added.reduce(0) { $0 + $1.word.count })
        for i in 0 ..< count {
            builder.add(word: words[i], id: wordIDs[i], keys: path(i), length: Double(length[i]), startAngle: Double(startAngle[i]),
                        secondDistance: Double(secondDistance[i]), frequency: Int(frequency[i]), possiblyOffensive: possiblyOffensive[i])
        }
        for (word, frequency) in added { builder.add(word: word, id: id(word) ?? -1, frequency: frequency) }
        return builder.build()
    }

    /// Collects entries; ``build()`` groups them.
    public struct Builder {
        let layout: SwipeLayout
        var words: [String] = [], ids: [Int64] = [], keys: [UInt8] = [], starts: [Int32] = [0]
        var length: [Float] = [], angle: [Float] = [], second: [Float] = [], frequency: [UInt8] = []
        var offensive: [Bool] = []

        public init(layout: SwipeLayout) { self.layout = layout }

        /// Room for `entries` more entries with `keys` path keys in all, so the arrays are allocated
        /// once at their size (an array grown by appending holds up to twice what it needs).
        public mutating func reserveCapacity(entries: Int, keys keyCount: Int) {
            words.reserveCapacity(words.count + entries); ids.reserveCapacity(ids.count + entries)
            keys.reserveCapacity(keys.count + keyCount); starts.reserveCapacity(starts.count + entries)
            length.reserveCapacity(length.count + entries); angle.reserveCapacity(angle.count + entries)
            second.reserveCapacity(second.count + entries); frequency.reserveCapacity(frequency.count + entries)
            offensive.reserveCapacity(offensive.count + entries)
        }

        /// Adds a word with its features; `possiblyOffensive` as its wordlist marks the spelling.
        public mutating func add(word: String, id: Int64, keys path: some Collection<UInt8>, length l: Double, startAngle: Double,
                                 secondDistance: Double, frequency f: Int, possiblyOffensive: Bool = false) {
            words.append(word); ids.append(id)
            keys.append(contentsOf: path); starts.append(Int32(keys.count))
            length.append(Float(l)); angle.append(Float(startAngle)); second.append(Float(secondDistance))
            frequency.append(UInt8(clamping: f)); offensive.append(possiblyOffensive)
        }

        /// Adds a word with features computed on the layout (tests, small lexicons).
        public mutating func add(word: String, id: Int64 = 0, frequency: Int, possiblyOffensive: Bool = false) {
            guard let f = SwipeFeatures(word: word, layout: layout) else { return }
            add(word: word, id: id, keys: f.keys, length: f.length, startAngle: f.startAngle,
                secondDistance: f.secondDistance, frequency: frequency, possiblyOffensive: possiblyOffensive)
        }

        /// Merges case variants (see the type's discussion) and groups entries by first and last
        /// key, most frequent first. An entry is possibly offensive when the spelling it proposes
        /// is ("john" may be, "John" is not).
        ///
        /// Within a group, entries of equal frequency keep the order in which their first variant
        /// was added. The per-entry arrays are compacted in place (an entry's representative is
        /// never before its place), then put in group order one at a time, so the only other memory
        /// is the folded index the dictionary keeps, the new key paths and one array at a time.
        public consuming func build() -> SwipeDictionary {
            var b = consume self
            let n = b.words.count
            // Entry g (in order of first appearance) is represented by row rep[g], the variant of
            // highest frequency (the first on a tie), and proposes the highest frequency of all.
            var index = SpellingTable(capacity: n)
            var rep: [Int32] = [], best: [UInt8] = []
            rep.reserveCapacity(n); best.reserveCapacity(n)
            do {
                var tags = index.makeTags()
                for i in 0 ..< n {
                    let folded = b.words[i].lowercased()
                    switch index.find(folded, tags: tags, spelling: { b.words[Int(rep[Int($0)])].lowercased() }) {
                    case (let g?, _):
                        let g = Int(g)
                        if b.frequency[i] > b.frequency[Int(rep[g])] { rep[g] = Int32(i) }
                        best[g] = max(best[g], b.frequency[i])
                    case (nil, let slot):
                        index.set(Int32(rep.count), at: slot, key: folded, tags: &tags)
                        rep.append(Int32(i)); best.append(b.frequency[i])
                    }
                }
            }
            let count = rep.count
            var keys: [UInt8] = [], starts: [Int32] = [0]
            starts.reserveCapacity(count + 1)
            keys.reserveCapacity(rep.reduce(0) { $0 + Int(b.starts[Int($1) + 1] - b.starts[Int($1)]) })
            for g in 0 ..< count {
                let r = Int(rep[g])   // r >= g: entries before g were represented by rows before r or by r's group
                keys.append(contentsOf: b.keys[Int(b.starts[r]) ..< Int(b.starts[r + 1])]); starts.append(Int32(keys.count))
                guard r != g else { b.frequency[g] = best[g]; continue }
                b.words[g] = b.words[r]; b.ids[g] = b.ids[r]
                b.length[g] = b.length[r]; b.angle[g] = b.angle[r]; b.second[g] = b.second[r]
                b.frequency[g] = best[g]; b.offensive[g] = b.offensive[r]
            }
            rep = []; best = []
            if count < n {
                b.words.removeLast(n - count); b.ids.removeLast(n - count)
                b.length.removeLast(n - count); b.angle.removeLast(n - count); b.second.removeLast(n - count)
                b.frequency.removeLast(n - count); b.offensive.removeLast(n - count)
            }
            b.keys = []; b.starts = []
            // Group order: a stable counting sort by frequency (highest first), then a stable one
            // by the pair of end keys.
            let k = b.layout.keys.count
            func group(_ g: Int) -> Int { Int(keys[Int(starts[g])]) * k + Int(keys[Int(starts[g + 1]) - 1]) }
            var byFrequency = [Int32](repeating: 0, count: count)
            do {
                var next = [Int](repeating: 0, count: 257)
                for g in 0 ..< count { next[256 - Int(b.frequency[g])] += 1 }
                for f in 1 ... 256 { next[f] += next[f - 1] }
                for g in 0 ..< count { let f = 255 - Int(b.frequency[g]); byFrequency[next[f]] = Int32(g); next[f] += 1 }
            }
            var groupStart = [Int32](repeating: 0, count: k * k + 1)
            for g in 0 ..< count { groupStart[group(g) + 1] += 1 }
            for j in 0 ..< k * k { groupStart[j + 1] += groupStart[j] }
            var order = [Int32](repeating: 0, count: count)   // order[new place] = old entry
            do {
                var next = groupStart
                for g in byFrequency { let j = group(Int(g)); order[Int(next[j])] = g; next[j] += 1 }
            }
            byFrequency = []
            var number = [Int32](repeating: 0, count: count)   // number[old entry] = new place
            for (place, g) in order.enumerated() { number[Int(g)] = Int32(place) }
            index.renumber(number)
            number = []
            var pathKeys: [UInt8] = [], pathStarts: [Int32] = [0]
            pathKeys.reserveCapacity(keys.count); pathStarts.reserveCapacity(count + 1)
            for g in order {
                pathKeys.append(contentsOf: keys[Int(starts[Int(g)]) ..< Int(starts[Int(g) + 1])]); pathStarts.append(Int32(pathKeys.count))
            }
            keys = []; starts = []
            func reordered<T>(_ values: inout [T]) { values = order.map { values[Int($0)] } }
            reordered(&b.words); reordered(&b.ids); reordered(&b.length); reordered(&b.angle); reordered(&b.second); reordered(&b.frequency)
            reordered(&b.offensive)
            return SwipeDictionary(layout: b.layout, words: b.words, wordIDs: b.ids, keys: pathKeys, pathStart: pathStarts,
                                   length: b.length, startAngle: b.angle, secondDistance: b.second,
                                   frequency: b.frequency, possiblyOffensive: b.offensive, groupStart: groupStart, foldedIndex: index)
        }
    }
}
