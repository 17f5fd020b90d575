/// Typed name lists from a lexicon (WordNet's proper nouns, ``EntityLexicon/Category``): lowercased
/// phrases (words joined by one space), each with the set of categories it was listed under.
///
/// A sentence is matched left to right, longest phrase first (up to ``maxLength`` words); the
/// words of a match get the phrase's categories and their place in it (first or inside). Unlike
/// ``EntityGazetteer`` the lists come from outside the training data, so there is nothing to leave
/// out in training.
public struct EntityLexicon: Sendable, Equatable {
    /// The categories of a name, as bits of ``entries``' masks.
    public enum Category: Int, CaseIterable, Sendable {
        /// WordNet noun.person (lexicographer file 18): "Einstein", "Tim Cook" (instances); "American".
        case person = 0
        /// noun.location (15) and instances of noun.object (17): "Paris", "Mississippi".
        case location = 1
        /// noun.group (14): "United Nations", "Red Cross".
        case organization = 2
        /// Any other capitalized noun: "Monday", "English", "Christmas", "Eiffel Tower".
        case other = 3

        /// The bit of this category in a mask, for an instance (a synset with an instance
        /// hypernym: one particular person, place, body) or not (a class: "American", "Earth").
        public func bit(instance: Bool) -> UInt8 { UInt8(1) << UInt8(2 * rawValue + (instance ? 0 : 1)) }
    }

    /// Phrase → mask of ``Category/bit(instance:)``.
    public private(set) var entries: [String: UInt8] = [:]
    /// Where phrases start and how far they go, for the matcher (most are names of one word).
    private var starts = PhraseStarts()
    /// The longest phrase, in words.
    public private(set) var maxLength = 0
    /// Phrases longer than this are not kept.
    public static let longestPhrase = 6

    public init() {}

    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }

    /// Adds `mask` to the categories of `phrase` (lowercase words separated by single spaces).
    public mutating func add(_ phrase: String, mask: UInt8) {
        let words = phrase.split(separator: " ", omittingEmptySubsequences: true)
        guard !words.isEmpty, words.count <= Self.longestPhrase, mask != 0 else { return }
        let key = words.joined(separator: " ")
        entries[key, default: 0] |= mask
        starts.add(words)
        maxLength = max(maxLength, words.count)
    }

    /// Per word: 0 outside any listed name, else `mask << 1 | inside` (inside: not the first word).
    public func match(_ lowered: [String]) -> [UInt16] {
        var out = [UInt16](repeating: 0, count: lowered.count)
        guard maxLength > 0 else { return out }
        matchLongestFirst(count: lowered.count, longest: { starts.longest(lowered, at: $0) }) { i, length in
            guard let mask = entries[joinedPhrase(lowered, i, length)] else { return false }
            out[i] = UInt16(mask) << 1
            for k in (i + 1)..<(i + length) { out[k] = UInt16(mask) << 1 | 1 }
            return true
        }
        return out
    }
}

/// Word classes learnt from unlabelled text (the exchange algorithm's clusters, `WordClusters`):
/// lowercase word → class number (1...K), for the class features of ``EntityFeatures``; a word
/// outside the list has none (0).
public struct EntityClusters: Sendable, Equatable {
    public private(set) var classes: [String: UInt16] = [:]
    public init(classes: [String: UInt16] = [:]) { self.classes = classes.filter { $0.value != 0 } }
    public var isEmpty: Bool { classes.isEmpty }
    public var count: Int { classes.count }

    /// The class of every (lowercased) word as a feature value, 0 for none.
    public func lookup(_ lowered: [String]) -> [UInt64] {
        lowered.map { UInt64(classes[$0] ?? 0) }
    }
}
