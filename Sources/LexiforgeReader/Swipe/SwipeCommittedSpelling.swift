import Foundation

/// The words before a swipe, spelled as a keyboard would have committed them.
///
/// Text typed or transcribed without apostrophes ("im going", "whats up", "ill call": the real
/// swipe prompts are written so) reads to a language model as rare words or a list of unrelated
/// ones, where a keyboard would have committed "I'm", "what's" and "I'll", the spellings it
/// proposes for the same keys. ``spell(_:model:)`` gives each such word the dictionary spelling of
/// the same letters that the model finds most likely after the words already spelled, so the
/// context predicts what it would after committed words. Words with an apostrophe, and words
/// whose letters no dictionary spelling with an apostrophe shares, are kept as they are (the
/// model already matches their case: ``NgramPredictor/distribution(after:)``).
///
/// A front end that passes the words its keyboard committed needs none of this, unless its users
/// type without apostrophes; `eval swipe` and `swipe tune` spell the prompts' words so
/// (docs/swipe.md, *The context as committed*).
public struct SwipeCommittedSpelling: Sendable {
    /// The dictionary's entries whose spelling has an apostrophe, by a hash of their letters
    /// (``letters(_:)``), then most frequent first: 16 bytes an entry (0.5 MB for en_US), where a
    /// table keyed by the letters themselves took 2.5 MB.
    let apostrophed: [(hash: UInt64, entry: Int32)]
    let dictionary: SwipeDictionary

    /// - Complexity: O(N log N) over the N entries with an apostrophe (29,699 of en_US's 161,379,
    ///   most of them possessives).
    public init(dictionary: SwipeDictionary) {
        self.dictionary = dictionary
        var table: [(hash: UInt64, entry: Int32)] = []
        for (i, word) in dictionary.words.enumerated() where Self.hasApostrophe(word) {
            table.append((StableHash.fnv1a(Self.letters(word)), Int32(i)))
        }
        apostrophed = table.sorted { a, b in
            if a.hash != b.hash { return a.hash < b.hash }
            let x = dictionary.frequency[Int(a.entry)], y = dictionary.frequency[Int(b.entry)]
            return x != y ? x > y : a.entry < b.entry
        }
    }

    /// The entries with an apostrophe whose letters are `letters`, most frequent first.
    func variants(of letters: String) -> [Int] {
        let h = StableHash.fnv1a(letters)
        var lo = 0, hi = apostrophed.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if apostrophed[mid].hash < h { lo = mid + 1 } else { hi = mid }
        }
        var found: [Int] = []
        while lo < apostrophed.count && apostrophed[lo].hash == h {
            let entry = Int(apostrophed[lo].entry)
            if Self.letters(dictionary.words[entry]) == letters { found.append(entry) }
            lo += 1
        }
        return found
    }

    static func isApostrophe(_ c: Character) -> Bool { c == "'" || c == "\u{2019}" }

    /// Whether `word` has an apostrophe (``isApostrophe(_:)``). A word whose UTF-8 has neither
    /// 0x27 ("'") nor 0x99 (the last byte of U+2019) has none, and most words are told so by a
    /// byte scan instead of a walk over their characters (which, with the character comparisons,
    /// cost about 0.1 s over en_US's 161,000 entries at load).
    static func hasApostrophe(_ word: String) -> Bool {
        word.utf8.contains { $0 == 0x27 || $0 == 0x99 } && word.contains(where: isApostrophe)
    }

    /// A word's letters as a swipe carries them: lowercased, apostrophes dropped.
    public static func letters(_ word: String) -> String {
        hasApostrophe(word) ? String(word.lowercased().filter { !isApostrophe($0) }) : word.lowercased()
    }

    /// `words` (oldest first), each without an apostrophe respelled as the most likely, by
    /// `model` after the words before it as respelled, of the dictionary's entries with the same
    /// letters: the word's own entry and those with an apostrophe ("im" → "I'm", "whats" →
    /// "what's"; "its" stays "its" or becomes "it's" by what comes before). Each entry is scored
    /// by its word id, as the decoder scores it; a tie keeps the word's own entry.
    /// - Complexity: one ``NgramPredictor/distribution(after:)`` per word that has a spelling
    ///   with an apostrophe; none for the others.
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func spell(_ words: [String], model: NgramPredictor) throws -> [String] {
        var spelled: [String] = []
        spelled.reserveCapacity(words.count)
        for word in words {
            let letters = Self.letters(word)
            let variants = letters.isEmpty || Self.hasApostrophe(word) ? [] : variants(of: letters)
            guard !variants.isEmpty else {
                spelled.append(word)
                continue
            }
            let own = dictionary.index(of: word)
            let distribution = try model.distribution(after: spelled)
            var best = word, bestLog10 = own.map { distribution.log10Probability(of: dictionary.wordIDs[$0]) } ?? -.infinity
            for entry in variants {
                let log10p = distribution.log10Probability(of: dictionary.wordIDs[entry])
                if log10p > bestLog10 { best = dictionary.words[entry]; bestLog10 = log10p }
            }
            spelled.append(best)
        }
        return spelled
    }
}
