import Foundation
import LexiforgeNgrams
import LexiforgeReader

/// Which source decides the frequency of a word that is both in the list and in the corpora.
public enum FrequencySource: String, Sendable, CaseIterable {
    /// The list's `f=` stays; corpora only add words the list lacks.
    case list
    /// The corpus frequency (mapped onto the 0-255 scale) replaces `f=`.
    case corpus
    /// A weighted mean of both on the 0-255 scale (a geometric mean of the probabilities).
    case mix
}

/// How `train` combines a wordlist with corpus counts (model-file keys in parentheses).
public struct LexiconMergeOptions: Sendable, Equatable {
    /// (`frequency_source`) Which source wins for words in both.
    public var source: FrequencySource = .mix
    /// (`list_weight`) λ in f = λ·f_list + (1 − λ)·f_corpus, for `mix`.
    public var listWeight = 0.5
    /// (`min_corpus_count`) Corpus words missing from the list join the lexicon from this count on
    /// (1 would add every typo and name a corpus has once).
    public var minCorpusCount = 2

    public init() {}
}

/// The wordlist side of a `train` build: the lists (already read) and how to merge them.
public struct LexiconMergeInput: Sendable {
    public var lexicon: Lexicon
    public var options: LexiconMergeOptions
    public init(lexicon: Lexicon, options: LexiconMergeOptions) {
        self.lexicon = lexicon
        self.options = options
    }
}

/// Combines list frequencies and corpus counts into one frequency per word, on the list's scale.
///
/// In: the corpus ``NgramCounts`` (N tokens, count c per word) and the imported lists. Out: the
/// counts renumbered so that every word of both has one id, ids in merged-frequency order (list
/// words the corpora never saw are appended to the vocabulary with count 0), and the lexicon in id
/// order.
///
/// The formula (documented in README, "Wordlists"):
/// 1. A corpus word counts for a list entry spelled the same, or else for the entry spelled as its
///    lowercase ("The" counts for "the"), a typographic apostrophe read as `'` ("don’t" → "don't").
/// 2. The corpus frequency on the list's scale: the list's f stands for p = 1.15^(f − 255), so a
///    corpus word gets f_corpus = log₁.₁₅(c / N) + offset, where offset is the median over the
///    words in both (f > 0) of f_list − log₁.₁₅(c / N): the shift that makes the corpus agree with
///    the list on the words they share. Rounded and clamped to 1…255.
/// 3. For a word in both: `list` keeps f_list, `corpus` takes f_corpus, `mix` takes
///    round(λ·f_list + (1 − λ)·f_corpus). A word the corpora never saw keeps f_list; f = 0
///    (blocked) always stays 0.
/// 4. A corpus word missing from every list, suggestible (a word or number) and seen at least
///    `minCorpusCount` times joins with f_corpus, `flags=corpus` and ``LexiconAttributes/notInList``.
///
/// Ids: reserved tokens, then words with a lexicon entry by merged frequency (descending), then
/// by corpus count, list position and bytes; then corpus-only words without an entry by count.
public enum LexiconMerge {
    public struct Result: Sendable {
        public var counts: NgramCounts
        public var lexicon: Lexicon
        /// JSON for `meta.lexicon_merge`.
        public var summary: String
        public var added: Int
        public var shared: Int
    }

    public static func merge(counts: NgramCounts, input: LexiconMergeInput) -> Result {
        let plan = plan(words: counts.words, unigramCounts: counts.unigramCounts, tokens: counts.tokens, input: input)
        return Result(counts: counts.renumbered(appending: plan.listOnly, order: plan.order), lexicon: plan.lexicon,
                      summary: plan.summary, added: plan.added, shared: plan.shared)
    }

    /// What a merge does to a vocabulary: the list words to append, the new order of the ids (as
    /// ``NgramCounts/renumbered(appending:order:)`` takes them) and the merged lexicon. It needs the
    /// words and their counts only, so a build with its n-grams on disk renumbers them there
    /// (``SortedNgrams/renumbered(appending:order:budget:)``).
    public struct Plan: Sendable {
        public var listOnly: [String]
        public var order: [Int]
        public var lexicon: Lexicon
        public var summary: String
        public var added: Int
        public var shared: Int
    }

    /// The progress line of a merge.
    static func describe(_ plan: Plan, listEntries: Int) -> String {
        "  merged \(listEntries) list entries with the counts: \(plan.shared) in both, \(plan.added) added from the corpora"
    }

    public static func plan(words: [String], unigramCounts: [UInt64], tokens: Int, input: LexiconMergeInput) -> Plan {
        let counts = (words: words, unigramCounts: unigramCounts, tokens: tokens)
        let options = input.options
        let entries = input.lexicon.entries
        let total = Double(max(counts.tokens, 1))
        let reserved = Int(StoreSchema.ReservedID.firstWord)
        var entryOf: [String: Int] = [:]
        entryOf.reserveCapacity(entries.count)
        for (i, e) in entries.enumerated() { entryOf[e.word] = i }
        /// The entry a corpus spelling counts for: the same spelling, else its lowercase, each also
        /// with the typographic apostrophe (U+2019, curly-quoted books) as the list's ASCII `'`.
        func listEntry(_ word: String) -> Int? {
            if let i = entryOf[word] ?? entryOf[word.lowercased()] { return i }
            guard word.contains("\u{2019}") else { return nil }
            let ascii = word.replacingOccurrences(of: "\u{2019}", with: "'")
            return entryOf[ascii] ?? entryOf[ascii.lowercased()]
        }

        // 1. Corpus counts credited to entries; corpus-only candidates.
        var credited = [UInt64](repeating: 0, count: entries.count)
        var corpusEntryOf = [Int](repeating: -1, count: counts.words.count)   // corpus id → entry
        for id in reserved..<counts.words.count {
            let word = counts.words[id]
            if let i = listEntry(word) {
                credited[i] += counts.unigramCounts[id]
                if entries[i].word == word { corpusEntryOf[id] = i }
            }
        }
        // 2. Calibration on the words in both.
        let logBase = log(1.15)
        var differences: [Double] = []
        for (i, e) in entries.enumerated() where credited[i] > 0 && e.frequency > 0 {
            differences.append(Double(e.frequency) - log(Double(credited[i]) / total) / logBase)
        }
        differences.sort()
        let offset = differences.isEmpty ? 255 : differences[differences.count / 2]
        func corpusFrequency(_ c: UInt64) -> Int {
            Int(max(1, min(255, (log(Double(c) / total) / logBase + offset).rounded())))
        }
        // 3. Merged frequencies of list entries.
        var merged = entries
        for i in merged.indices where credited[i] > 0 && merged[i].frequency > 0 {
            let fc = corpusFrequency(credited[i])
            switch options.source {
            case .list: break
            case .corpus: merged[i].frequency = fc
            case .mix:
                merged[i].frequency = Int((options.listWeight * Double(merged[i].frequency) + (1 - options.listWeight) * Double(fc)).rounded())
            }
        }
        // 4. Corpus-only words.
        var addedFromCorpus = 0
        var lexiconOfCorpusID: [Int: Int] = [:]      // corpus id → index in `merged`
        for id in reserved..<counts.words.count where corpusEntryOf[id] < 0 {
            let word = counts.words[id]
            let c = counts.unigramCounts[id]
            guard listEntry(word) == nil, c >= UInt64(options.minCorpusCount),
                  TrainedStore.isSuggestible(word) else { continue }
            lexiconOfCorpusID[id] = merged.count
            merged.append(LexiconEntry(word: word, frequency: corpusFrequency(c), flags: "corpus", attributes: [.notInList]))
            addedFromCorpus += 1
        }
        // Ids: old ids are the corpus ids, then list words the corpora never saw, appended.
        var listOnly: [String] = []
        var oldID = [Int](repeating: -1, count: merged.count)   // index in merged → old id
        for (id, i) in corpusEntryOf.enumerated() where i >= 0 { oldID[i] = id }
        for (id, i) in lexiconOfCorpusID { oldID[i] = id }
        for i in entries.indices where oldID[i] < 0 {
            if let reservedID = [StoreSchema.unknownToken, StoreSchema.sentenceStartToken, StoreSchema.sentenceEndToken].firstIndex(of: entries[i].word) {
                oldID[i] = reservedID
                continue
            }
            oldID[i] = counts.words.count + listOnly.count
            listOnly.append(entries[i].word)
        }
        let allCounts = counts.unigramCounts + Array(repeating: 0, count: listOnly.count)
        let allWords = counts.words + listOnly
        var entryOfOld = [Int](repeating: -1, count: allWords.count)
        for (i, id) in oldID.enumerated() { entryOfOld[id] = i }
        var order = Array(reserved..<allWords.count)
        order.sort { a, b in
            let ea = entryOfOld[a], eb = entryOfOld[b]
            if (ea >= 0) != (eb >= 0) { return ea >= 0 }
            if ea >= 0 && merged[ea].frequency != merged[eb].frequency { return merged[ea].frequency > merged[eb].frequency }
            if allCounts[a] != allCounts[b] { return allCounts[a] > allCounts[b] }
            if ea >= 0 && ea != eb { return ea < eb }
            return allWords[a].utf8.lexicographicallyPrecedes(allWords[b].utf8)
        }
        let fullOrder = Array(0..<reserved) + order
        var lexicon = Lexicon(headers: input.lexicon.headers)
        lexicon.entries = fullOrder.compactMap { entryOfOld[$0] >= 0 ? merged[entryOfOld[$0]] : nil }
        let summary = "{\"frequency_source\":\"\(options.source.rawValue)\",\"list_weight\":\(options.listWeight),\"min_corpus_count\":\(options.minCorpusCount),\"offset\":\(String(format: "%.3f", offset)),\"shared_words\":\(differences.count),\"added_from_corpus\":\(addedFromCorpus)}"
        return Plan(listOnly: listOnly, order: fullOrder, lexicon: lexicon, summary: summary, added: addedFromCorpus,
                    shared: differences.count)
    }
}
