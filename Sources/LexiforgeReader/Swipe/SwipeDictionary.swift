import Foundation

/// Every word's swipe features of one layout, in memory, grouped by first key (thesis 3.1: "all
/// words with the same first letter are stored together").
///
/// Key paths live in one flat byte array (`keys[pathStart[i] ..< pathStart[i + 1]]`); the other
/// features are parallel arrays, so 160,000 words take about 5 MB.
public struct SwipeDictionary: Sendable {
    public let layout: SwipeLayout
    public let words: [String]
    public let wordIDs: [Int64]
    let keys: [UInt8]
    let pathStart: [Int32]
    let length: [Float]
    let startAngle: [Float]
    let secondDistance: [Float]
    /// Lexicon frequency 0-255.
    public let frequency: [UInt8]
    /// Word indices by first key.
    let byFirstKey: [[Int32]]

    public var count: Int { words.count }

    /// The key path of entry `i`.
    public func path(_ i: Int) -> ArraySlice<UInt8> { keys[Int(pathStart[i]) ..< Int(pathStart[i + 1])] }

    /// Entry index of a word (exact spelling), nil when absent.
    public func index(of word: String) -> Int? { words.firstIndex(of: word) }

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

        public func build() -> SwipeDictionary {
            var groups = [[Int32]](repeating: [], count: layout.keys.count)
            for i in words.indices { groups[Int(keys[Int(starts[i])])].append(Int32(i)) }
            return SwipeDictionary(layout: layout, words: words, wordIDs: ids, keys: keys, pathStart: starts,
                                   length: length, startAngle: angle, secondDistance: second, frequency: frequency,
                                   byFirstKey: groups)
        }
    }
}
