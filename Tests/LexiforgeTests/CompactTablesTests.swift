import Foundation
import LexiforgeReader
import Testing

/// The compact tables that keep a keyboard front end's memory down: the predictor's word buffer
/// (one UTF-8 buffer with offsets), the spelling tables behind the vocabulary's ids and the swipe
/// dictionary's folded index, and the dictionary's in-place build.
@Suite("compact tables")
struct CompactTablesTests {
    /// Hand-made spellings: empty, ASCII, apostrophes (straight and curly), accents, ß, kana, emoji.
    static let words = ["", "a", "I'm", "it’s", "o'clock", "café", "Straße", "naïve", "ひらがな", "👍🏽", "don't", "x"]

    @Test("a word buffer gives back every word, bytes and string, in order")
    func wordBufferRoundTrip() {
        let buffer = WordBuffer(Self.words)
        #expect(buffer.count == Self.words.count)
        for (i, word) in Self.words.enumerated() {
            #expect(Array(buffer[i]) == Array(word.utf8))
            #expect(buffer.string(i) == word)
        }
        #expect(buffer.bytes.count == Self.words.reduce(0) { $0 + $1.utf8.count })
        var appended = WordBuffer()
        for word in Self.words { appended.append(word) }
        #expect(appended.map(Array.init) == buffer.map(Array.init))
        #expect(WordBuffer([String]()).isEmpty)
    }

    @Test("a word buffer in byte order answers prefix ranges like the sorted arrays it replaces")
    func wordBufferPrefixes() {
        let sorted = (Self.words + ["it", "its", "it's", "ab", "abc"]).map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        let buffer = WordBuffer(sorted.map { String(decoding: $0, as: UTF8.self) })
        for prefix in ["", "i", "it", "it'", "ab", "caf", "ひら", "z"] {
            let key = Array(prefix.utf8)
            let expected = sorted.indices.filter { sorted[$0].starts(with: key) }
            let found = buffer.indices.filter { buffer[$0].starts(with: key) }
            #expect(found == expected, "\(prefix)")
            // Contiguous in byte order, as the predictor's binary search needs.
            if let first = expected.first, let last = expected.last { #expect(expected == Array(first ... last)) }
        }
    }

    @Test("a spelling table finds every entry by its derived spelling (here case-folded), and nothing else")
    func spellingTable() {
        let words = ["Portland", "US", "hello", "naïve", "Straße", "I'm", "it’s"] + (0 ..< 300).map { "w\($0)" }
        var table = SpellingTable(capacity: words.count)
        var tags = table.makeTags()
        for (i, word) in words.enumerated() {
            let folded = word.lowercased()
            let (entry, slot) = table.find(folded, tags: tags) { words[Int($0)].lowercased() }
            #expect(entry == nil)
            table.set(Int32(i), at: slot, key: folded, tags: &tags)
            #expect(table.find(folded, tags: tags) { words[Int($0)].lowercased() }.entry == Int32(i))
        }
        // Any case of a word folds to its key (but "STRASSE" does not fold back to "straße").
        for (i, word) in words.enumerated() {
            for variant in [word, word.uppercased(), word.capitalized] where variant.lowercased() == word.lowercased() {
                #expect(table.find(variant.lowercased()) { words[Int($0)].lowercased() }.entry == Int32(i))
            }
        }
        for absent in ["portlan", "u", "w300", "", "naive", "its", "strasse"] {
            #expect(table.find(absent) { words[Int($0)].lowercased() }.entry == nil)
        }
    }

    @Test("a word index gives the id of every spelling, the first or the last of a repeated one")
    func wordIndex() {
        let texts = ["<unk>", "<s>", "</s>"] + Self.words + ["I'm", "the", "The", "café"]
        let first = WordIndex(texts: texts), last = WordIndex(texts: texts, keepingLast: true)
        #expect(first.distinct == texts.count - 2 && last.distinct == first.distinct)
        for text in Set(texts) {
            #expect(first[text] == texts.firstIndex(of: text).map(Int32.init))
            #expect(last[text] == texts.lastIndex(of: text).map(Int32.init))
        }
        #expect(first["THE"] == nil && first["cafe"] == nil && first["im"] == nil)
        #expect(WordIndex(texts: []).distinct == 0 && WordIndex(texts: [])["a"] == nil)
    }

    /// The dictionary a build must give: the merge of the type's discussion, written plainly.
    static func reference(_ entries: [(String, Int)]) -> [(word: String, frequency: Int, keys: [UInt8])] {
        var groups: [(folded: String, rep: Int, best: Int)] = []
        for (i, (word, f)) in entries.enumerated() where SwipeLayout.qwerty.keyPath(of: word) != nil {
            if let g = groups.firstIndex(where: { $0.folded == word.lowercased() }) {
                if f > entries[groups[g].rep].1 { groups[g].rep = i }
                groups[g].best = max(groups[g].best, f)
            } else {
                groups.append((word.lowercased(), i, f))
            }
        }
        return groups.map { (entries[$0.rep].0, $0.best, SwipeLayout.qwerty.keyPath(of: entries[$0.rep].0)!) }
    }

    @Test("a build merges case variants: best spelling, its path and id, highest frequency; grouped by end keys, most frequent first")
    func buildInPlace() throws {
        // Variants whose best spelling comes after other entries (so entries move down in the
        // arrays), paths of different lengths, ties (the first added wins), and a word with no path.
        let entries: [(String, Int)] = [("portland", 90), ("hello", 100), ("us", 180), ("Portland", 150), ("MP3", 50),
                                        ("world", 120), ("US", 200), ("PORTLAND", 150), ("Us", 199), ("it's", 60),
                                        ("Hello", 100), ("zebra", 10), ("Zebra", 30), ("quick", 70),
                                        ("lead", 40), ("load", 40), ("loud", 90), ("lid", 40)]
        var builder = SwipeDictionary.Builder(layout: .qwerty)
        builder.reserveCapacity(entries: 4, keys: 8)   // too small: appends still grow it
        for (i, (w, f)) in entries.enumerated() { builder.add(word: w, id: Int64(i), frequency: f) }
        let dictionary = builder.build()
        let expected = Self.reference(entries)
        #expect(dictionary.count == expected.count)
        #expect(Set(dictionary.words) == Set(expected.map(\.word)))
        #expect(Set(dictionary.words) == ["Portland", "hello", "US", "world", "it's", "Zebra", "quick", "lead", "load", "loud", "lid"])
        for e in expected {
            let i = try #require(dictionary.index(of: e.word.uppercased()))
            #expect(dictionary.words[i] == e.word && Int(dictionary.frequency[i]) == e.frequency && Array(dictionary.path(i)) == e.keys)
            #expect(entries[Int(dictionary.wordIDs[i])].0 == e.word)
            let f = SwipeFeatures(word: e.word, layout: .qwerty)!
            #expect(dictionary.length[i] == Float(f.length) && dictionary.startAngle[i] == Float(f.startAngle))
        }
        // Every entry lies in the group of its first and last keys; a group is most frequent
        // first, equal frequencies in the order added ("lead", "load", "lid": l…d at 40, after
        // "loud" at 90).
        let keys = SwipeLayout.qwerty.keys.count
        var covered = 0
        for first in 0 ..< keys {
            #expect(dictionary.entries(first: first) == dictionary.entries(first: first, last: 0).lowerBound ..< dictionary.entries(first: first, last: keys - 1).upperBound)
            for last in 0 ..< keys {
                let group = dictionary.entries(first: first, last: last)
                covered += group.count
                for i in group { #expect(Int(dictionary.path(i).first!) == first && Int(dictionary.path(i).last!) == last) }
                for i in group.dropFirst() { #expect(dictionary.frequency[i - 1] >= dictionary.frequency[i]) }
            }
        }
        #expect(covered == dictionary.count)
        let l = Int(try #require(SwipeLayout.qwerty.keyPath(of: "l")?.first)), d = Int(try #require(SwipeLayout.qwerty.keyPath(of: "d")?.first))
        #expect(dictionary.entries(first: l, last: d).map { dictionary.words[$0] } == ["loud", "lead", "load", "lid"])
        #expect(dictionary.index(of: "mp3") == nil && dictionary.index(of: "portlands") == nil)
    }
}
