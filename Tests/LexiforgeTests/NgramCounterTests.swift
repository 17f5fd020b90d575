import LexiforgeNgrams
import LexiforgeReader
import LexiforgeTestSupport
import Testing

@Suite("N-gram counter")
struct NgramCounterTests {
    /// Table entries as (id tuple, count) pairs, in table order.
    static func entries(_ table: NgramCounts.Table) -> [[UInt32]] {
        (0..<table.entryCount).map { Array(table.ids(of: $0)) + [table.counts[$0]] }
    }

    @Test("hand-worked: \"the cat sat\" / \"the cat ran\", order 3")
    func handWorked() {
        let counter = NgramCounter(order: 3)
        counter.add(sentence: ["the", "cat", "sat"])
        counter.add(sentence: ["the", "cat", "ran"])
        let counts = counter.finish()

        // Ids: reserved 0-2; "cat" and "the" (2 each) in byte order; "ran" and "sat" (1 each).
        #expect(counts.words == ["<unk>", "<s>", "</s>", "cat", "the", "ran", "sat"])
        #expect(counts.unigramCounts == [0, 2, 2, 2, 2, 1, 1])
        #expect(counts.tokens == 6)
        #expect(counts.sentences == 2)
        #expect(counts.order == 3)
        #expect(counts.tables.map(\.n) == [2, 3])

        // Bigrams: <s> the 2, the cat 2, cat sat 1, cat ran 1, sat </s> 1, ran </s> 1 (sorted by ids).
        let bigrams = counts.table(order: 2)
        #expect(Self.entries(bigrams) == [
            [1, 4, 2],   // <s> the
            [3, 5, 1],   // cat ran
            [3, 6, 1],   // cat sat
            [4, 3, 2],   // the cat
            [5, 2, 1],   // ran </s>
            [6, 2, 1],   // sat </s>
        ])
        #expect(bigrams.keys == [1, 4, 3, 5, 3, 6, 4, 3, 5, 2, 6, 2])
        #expect(bigrams.counts == [2, 1, 1, 2, 1, 1])

        // Trigrams start with a single <s>; there is no "<s> <s>".
        #expect(Self.entries(counts.table(order: 3)) == [
            [1, 4, 3, 2],   // <s> the cat
            [3, 5, 2, 1],   // cat ran </s>
            [3, 6, 2, 1],   // cat sat </s>
            [4, 3, 5, 1],   // the cat ran
            [4, 3, 6, 1],   // the cat sat
        ])
    }

    @Test("hand-worked: the tiny.txt sentences, order 3")
    func tinySentences() {
        let counter = NgramCounter(order: 3)
        for s in [["The", "cat", "sat", "on", "the", "mat"], ["The", "dog", "ran"],
                  ["It", "was", "a", "good", "day"], ["My", "cat", "ran", "home"]] {
            counter.add(sentence: s)
        }
        let counts = counter.finish()
        #expect(counts.words == ["<unk>", "<s>", "</s>", "The", "cat", "ran", "It", "My", "a", "day", "dog",
                                 "good", "home", "mat", "on", "sat", "the", "was"])
        #expect(counts.unigramCounts == [0, 4, 4, 2, 2, 2] + Array(repeating: 1, count: 12))
        #expect(counts.tokens == 18)
        #expect(counts.sentences == 4)
        #expect(counts.table(order: 2).entryCount == 21)
        #expect(counts.table(order: 2).counts.reduce(0, +) == 22)
        #expect(counts.table(order: 3).entryCount == 18)
        #expect(counts.table(order: 3).counts.allSatisfy { $0 == 1 })
        #expect(Array(counts.table(order: 2).ids(of: 0)) == [1, 3])   // <s> The
        #expect(counts.table(order: 2).counts[0] == 2)
    }

    @Test("a one-word sentence at order 3: <s> w </s> is its only trigram")
    func oneWord() {
        let counter = NgramCounter(order: 3)
        counter.add(sentence: ["hi"])
        counter.add(sentence: [])   // ignored
        let counts = counter.finish()
        #expect(counts.words == ["<unk>", "<s>", "</s>", "hi"])
        #expect(counts.unigramCounts == [0, 1, 1, 1])
        #expect(counts.sentences == 1)
        #expect(Self.entries(counts.table(order: 2)) == [[1, 3, 1], [3, 2, 1]])
        #expect(Self.entries(counts.table(order: 3)) == [[1, 3, 2, 1]])
    }

    @Test("order 1 has no tables; order 5 windows longer than the sentence are skipped")
    func orders() {
        let one = NgramCounter(order: 1)
        one.add(sentence: ["a", "b", "a"])
        let c1 = one.finish()
        #expect(c1.tables.isEmpty)
        #expect(c1.words == ["<unk>", "<s>", "</s>", "a", "b"])
        #expect(c1.unigramCounts == [0, 1, 1, 2, 1])

        let five = NgramCounter(order: 5)
        five.add(sentence: ["x", "y"])          // <s> x y </s>: 4 ids, no 5-gram
        let c5 = five.finish()
        #expect(c5.tables.map(\.n) == [2, 3, 4, 5])
        #expect(c5.tables.map(\.entryCount) == [3, 2, 1, 0])
        #expect(Self.entries(c5.table(order: 4)) == [[1, 3, 4, 2, 1]])
    }

    @Test("ties are broken by byte order, not by first appearance")
    func byteOrderTies() {
        let counter = NgramCounter(order: 2)
        counter.add(sentence: ["b", "é", "a", "B", "a"])
        let counts = counter.finish()
        // "a" (2) first; then count 1 in UTF-8 byte order: "B" 0x42 < "b" 0x62 < "é" 0xC3 0xA9.
        #expect(counts.words == ["<unk>", "<s>", "</s>", "a", "B", "b", "é"])
    }

    /// A naive reference: every window of each order of every padded sentence, by word.
    static func referenceCounts(_ sentences: [[String]], order: Int) -> [Int: [[String]: Int]] {
        var result: [Int: [[String]: Int]] = [:]
        for s in sentences where !s.isEmpty {
            let padded = ["<s>"] + s + ["</s>"]
            for n in 1...order where n <= padded.count {
                for start in 0...(padded.count - n) {
                    result[n, default: [:]][Array(padded[start..<(start + n)]), default: 0] += 1
                }
            }
        }
        return result
    }

    @Test("seeded random corpora: invariants and a naive reference", arguments: [1, 7, 42, 2024, 99_991] as [UInt64])
    func randomized(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let vocabulary = (0..<Int.random(in: 5...60, using: &rng)).map { "w\($0)" } + ["é", "Ω", "the", "The"]
        let order = Int.random(in: 2...5, using: &rng)
        var sentences: [[String]] = []
        for _ in 0..<Int.random(in: 20...300, using: &rng) {
            let length = Int.random(in: 0...12, using: &rng)
            // Skewed choice so counts differ and ties happen.
            sentences.append((0..<length).map { _ in
                vocabulary[min(Int.random(in: 0..<vocabulary.count, using: &rng),
                               Int.random(in: 0..<vocabulary.count, using: &rng))]
            })
        }
        let counter = NgramCounter(order: order)
        for s in sentences { counter.add(sentence: s) }
        let counts = counter.finish()
        let nonEmpty = sentences.filter { !$0.isEmpty }
        let tokens = nonEmpty.reduce(0) { $0 + $1.count }

        #expect(counts.tokens == tokens)
        #expect(counts.sentences == nonEmpty.count)
        #expect(counts.words.count == counts.unigramCounts.count)
        #expect(Set(counts.words).count == counts.words.count)
        #expect(Array(counts.words.prefix(3)) == ["<unk>", "<s>", "</s>"])
        #expect(counts.unigramCounts[0] == 0)
        #expect(counts.unigramCounts[1] == UInt64(nonEmpty.count))
        #expect(counts.unigramCounts[2] == UInt64(nonEmpty.count))

        // Ids dense and in rank order: count descending, then bytes ascending.
        for id in 4..<max(4, counts.words.count) {
            let (a, b) = (counts.unigramCounts[id - 1], counts.unigramCounts[id])
            #expect(a > b || (a == b && Array(counts.words[id - 1].utf8).lexicographicallyPrecedes(Array(counts.words[id].utf8))),
                    "ids \(id - 1) and \(id) out of order")
        }
        #expect(counts.words.count == 3 + Set(nonEmpty.flatMap { $0 }).count)

        let bigrams = counts.table(order: 2)
        // Every word's unigram count equals the sum of the bigram counts starting with it
        // (<s> included, whose count is the number of sentences); </s> starts none.
        var startingSums = [UInt64](repeating: 0, count: counts.words.count)
        var endingSums = [UInt64](repeating: 0, count: counts.words.count)
        for e in 0..<bigrams.entryCount {
            let ids = Array(bigrams.ids(of: e))
            startingSums[Int(ids[0])] += UInt64(bigrams.counts[e])
            endingSums[Int(ids[1])] += UInt64(bigrams.counts[e])
        }
        for id in 1..<counts.words.count where id != 2 {
            #expect(startingSums[id] == counts.unigramCounts[id], "word \(counts.words[id])")
        }
        #expect(startingSums[2] == 0)
        for id in 2..<counts.words.count {
            #expect(endingSums[id] == counts.unigramCounts[id], "word \(counts.words[id])")
        }
        #expect(bigrams.counts.reduce(UInt64(0)) { $0 + UInt64($1) } == UInt64(tokens + nonEmpty.count))

        // Every table: ids in range, strictly ascending id tuples, exactly the reference counts.
        let reference = Self.referenceCounts(nonEmpty, order: order)
        for n in 1...order {
            let expected = reference[n] ?? [:]
            if n == 1 {
                for (key, count) in expected where key[0] != "<s>" {
                    let id = counts.words.firstIndex(of: key[0])!
                    #expect(counts.unigramCounts[id] == UInt64(count))
                }
                continue
            }
            let table = counts.table(order: n)
            #expect(table.keys.count == table.entryCount * n)
            #expect(table.keys.allSatisfy { Int($0) < counts.words.count })
            for e in 1..<max(1, table.entryCount) {
                #expect(table.ids(of: e - 1).lexicographicallyPrecedes(table.ids(of: e)), "order \(n) entry \(e)")
            }
            var actual: [[String]: Int] = [:]
            for e in 0..<table.entryCount {
                actual[table.ids(of: e).map { counts.words[Int($0)] }] = Int(table.counts[e])
            }
            #expect(actual == expected, "order \(n)")
            // No n-gram has <s> anywhere but first, or </s> anywhere but last.
            for e in 0..<table.entryCount {
                let ids = Array(table.ids(of: e))
                #expect(!ids.dropFirst().contains(1) && !ids.dropLast().contains(2))
            }
        }
    }

    @Test("merging counts past 4,294,967,295 stays there instead of wrapping around or trapping")
    func mergeSaturates() throws {
        let words = ["<unk>", "<s>", "</s>", "a"]
        func counts(_ bigram: UInt32) -> NgramCounts {
            NgramCounts(order: 2, words: words, unigramCounts: [0, 1, 1, UInt64(bigram)],
                        tables: [.init(n: 2, keys: [3, 3], counts: [bigram])], tokens: Int(bigram), sentences: 1)
        }
        let merged = counts(UInt32.max - 5).merged(with: counts(10))
        #expect(merged.table(order: 2).counts == [UInt32.max])
        #expect(merged.unigramCounts[3] == UInt64(UInt32.max) + 5)   // unigram counts are 64-bit
    }
}
