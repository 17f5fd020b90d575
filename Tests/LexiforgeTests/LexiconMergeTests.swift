import Foundation
import LexiforgeNgrams
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeWordlist
import LexiforgeTestSupport
import Testing

/// The frequency merge of `train` (``LexiconMerge``) on a hand-made list and corpus
/// (Fixtures/wordlist/merge.combined and merge-corpus.txt; the README there derives every number).
@Suite("Lexicon merge")
struct LexiconMergeTests {
    /// The fixture corpus counted at order 2, tokens split on spaces (no tokenizer in the way).
    static func corpusCounts() throws -> NgramCounts {
        let text = try String(contentsOfFile: WordlistFixture.path("merge-corpus.txt"), encoding: .utf8)
        let counter = NgramCounter(order: 2)
        for line in text.split(separator: "\n") {
            let bytes = Array(line.utf8)
            let ranges = bytes.split(separator: UInt8(ascii: " ")).map { $0.startIndex..<$0.endIndex }
            bytes.withUnsafeBufferPointer { buffer in
                counter.addSentence(count: ranges.count) { UnsafeBufferPointer(rebasing: buffer[ranges[$0]]) }
            }
        }
        return counter.finish()
    }

    static func merged(_ configure: (inout LexiconMergeOptions) -> Void = { _ in }) throws -> LexiconMerge.Result {
        let lexicon = try WordlistReader.read(paths: [WordlistFixture.path("merge.combined")]).lexicon(strict: true)
        var options = LexiconMergeOptions()
        configure(&options)
        return LexiconMerge.merge(counts: try corpusCounts(), input: LexiconMergeInput(lexicon: lexicon, options: options))
    }

    static func frequencies(_ result: LexiconMerge.Result) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: result.lexicon.entries.map { ($0.word, $0.frequency) })
    }

    struct SourceCase: Sendable, CustomTestStringConvertible {
        var id: String
        var source: FrequencySource
        var listWeight: Double
        /// Merged f of the, cat, dog.
        var expected: [Int]
        var testDescription: String { id }
    }

    static let sourceCases: [SourceCase] = [
        // The list wins: f= stays for words in both.
        SourceCase(id: "list keeps f=", source: .list, listWeight: 0.5, expected: [200, 150, 150]),
        // The corpus wins: f_corpus = 150 + log1.15(c / 2) (dog calibrates the scale).
        SourceCase(id: "corpus replaces f=", source: .corpus, listWeight: 0.5, expected: [160, 155, 150]),
        // f_corpus is rounded first (160, 155), then mixed: round(0.5·200 + 0.5·160) = 180,
        // round(0.5·150 + 0.5·155) = round(152.5) = 153 (halves round away from zero).
        SourceCase(id: "mix, λ = 0.5", source: .mix, listWeight: 0.5, expected: [180, 153, 150]),
        // round(0.25·200 + 0.75·160) = 170, round(0.25·150 + 0.75·155) = round(153.75) = 154.
        SourceCase(id: "mix, λ = 0.25", source: .mix, listWeight: 0.25, expected: [170, 154, 150]),
        // λ = 1 is the list, λ = 0 the corpus.
        SourceCase(id: "mix, λ = 1", source: .mix, listWeight: 1, expected: [200, 150, 150]),
        SourceCase(id: "mix, λ = 0", source: .mix, listWeight: 0, expected: [160, 155, 150]),
    ]

    @Test("which source wins for words in both", arguments: sourceCases)
    func sourceWins(_ c: SourceCase) throws {
        let result = try Self.merged { $0.source = c.source; $0.listWeight = c.listWeight }
        let f = Self.frequencies(result)
        #expect([f["the"], f["cat"], f["dog"]] == c.expected.map { Optional($0) })
        // A word the corpora never saw keeps f=; a blocked word (f = 0) stays blocked whatever the corpus says.
        #expect(f["rare"] == 100)
        #expect(f["blocked"] == 0)
        #expect(result.shared == 3, "the, cat, dog calibrate; blocked (f = 0) does not")
    }

    @Test("the calibrated corpus frequency follows the documented formula")
    func formula() throws {
        let result = try Self.merged { $0.source = .corpus }
        let f = Self.frequencies(result)
        // "The" (3) counts for "the" (5): c = 8. f_corpus = log1.15(c / N) + offset, offset the median
        // of f_list − log1.15(c / N) over the, cat, dog: dog's, so f_corpus = 150 + log1.15(c / 2).
        func expected(_ c: Double) -> Int { Int((150 + log(c / 2) / log(1.15)).rounded()) }
        #expect(f["the"] == expected(8))
        #expect(f["cat"] == expected(4))
        #expect(f["dog"] == expected(2))
        #expect(result.summary.contains("\"frequency_source\":\"corpus\""))
        #expect(result.summary.contains("\"shared_words\":3"))
    }

    @Test("corpus-only words join flagged, from min_corpus_count on, suggestible ones only")
    func corpusOnlyWords() throws {
        let result = try Self.merged()
        let added = result.lexicon.entries.filter { $0.attributes.contains(.notInList) }
        #expect(Set(added.map(\.word)) == ["saw", "zebra", "42"], "once (1 < 2) stays out; The counts for the")
        for entry in added {
            #expect(entry.flags == "corpus", "\(entry.word)")
            #expect(entry.frequency == 150, "\(entry.word): f_corpus of a count of 2 is dog's 150")
        }
        #expect(result.added == 3)
        #expect(result.lexicon.entries.filter { !$0.attributes.contains(.notInList) }.allSatisfy { $0.flags != "corpus" })

        let everyOnce = try Self.merged { $0.minCorpusCount = 1 }
        #expect(everyOnce.lexicon.entries.contains { $0.word == "once" && $0.attributes.contains(.notInList) })
        let none = try Self.merged { $0.minCorpusCount = 3 }
        #expect(none.added == 0)
    }

    @Test("one id per word, in merged frequency order, counts kept")
    func idsFollowMergedFrequency() throws {
        let result = try Self.merged()
        let reserved = Int(StoreSchema.ReservedID.firstWord)
        let words = Array(result.counts.words[reserved...])
        // Lexicon entries take the first ids, in lexicon order; then corpus words without an entry.
        #expect(Array(words.prefix(result.lexicon.entries.count)) == result.lexicon.entries.map(\.word))
        let frequencies = result.lexicon.entries.map(\.frequency)
        #expect(frequencies == frequencies.sorted(by: >), "ids in descending merged frequency")
        #expect(Set(words).count == words.count, "one id per word")
        let count = Dictionary(uniqueKeysWithValues: zip(result.counts.words, result.counts.unigramCounts))
        #expect(count["the"] == 5 && count["The"] == 3 && count["cat"] == 4 && count["rare"] == 0)
        #expect(words.contains("The") && words.contains("once"), "corpus words without an entry keep their ids and counts")
    }
}
