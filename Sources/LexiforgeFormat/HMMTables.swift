/// The hidden Markov tables of a store, as plain values: what `lexiforge hmm` builds, what the
/// store writer writes into the `hmm_*` tables (``StoreSchema/HMM``) and what ``HMMTagger`` reads.
///
/// State 0 is the sentence boundary `<s>` (``StoreSchema/HMM/boundaryState``); real states are
/// 1...K. Word ids index ``words``: 0 `<unk>`, 1 `<s>`, 2 `</s>`, then the training words by
/// descending count, as in every store's vocabulary (`word`). All probabilities are natural logarithms.
public struct HMMTables: Sendable, Equatable {
    /// First-order transition: log P(s2 | s1).
    public struct Transition: Sendable, Equatable {
        public var s1: Int32, s2: Int32
        public var logprob: Double
        public init(_ s1: Int32, _ s2: Int32, _ logprob: Double) { self.s1 = s1; self.s2 = s2; self.logprob = logprob }
    }

    /// Second-order transition: log P(s3 | s1, s2).
    public struct Transition2: Sendable, Equatable {
        public var s1: Int32, s2: Int32, s3: Int32
        public var logprob: Double
        public init(_ s1: Int32, _ s2: Int32, _ s3: Int32, _ logprob: Double) {
            self.s1 = s1; self.s2 = s2; self.s3 = s3; self.logprob = logprob
        }
    }

    /// log P(word | state).
    public struct Emission: Sendable, Equatable {
        public var word: Int32, state: Int32
        public var logprob: Double
        public init(word: Int32, state: Int32, logprob: Double) { self.word = word; self.state = state; self.logprob = logprob }
    }

    /// How often state `s2` followed the frequent word `word` tagged `s1`.
    public struct Lexical: Sendable, Equatable {
        public var word: Int32, s1: Int32, s2: Int32
        public var count: Int32
        public init(word: Int32, s1: Int32, s2: Int32, count: Int32) { self.word = word; self.s1 = s1; self.s2 = s2; self.count = count }
    }

    /// How often a rare training word of shape `shape` ending in `suffix` had tag `state`
    /// (the empty suffix counts every rare word of that shape).
    public struct SuffixCount: Sendable, Equatable {
        public var shape: WordShape
        public var suffix: String
        public var state: Int32
        public var count: Int32
        public init(shape: WordShape, suffix: String, state: Int32, count: Int32) {
            self.shape = shape; self.suffix = suffix; self.state = state; self.count = count
        }
    }

    /// State names, index = state id; `states[0]` is `<s>`.
    public var states: [String]
    /// Training count of each state (expected counts for Baum-Welch; sentences for `<s>`).
    public var stateCounts: [Double]
    /// log P(state), the unigram estimate; index = state id.
    public var stateLogprobs: [Double]
    /// log P(state | <s>); index = state id (the boundary's own entry is unused).
    public var initial: [Double]
    public var transitions: [Transition]
    public var transitions2: [Transition2]
    /// The vocabulary, index = word id (reserved ids included).
    public var words: [String]
    public var wordCounts: [Int64]
    public var emissions: [Emission]
    public var lexical: [Lexical]
    /// Second-order emission counts of frequent words (`hmm_emission2`), in the same shape as
    /// ``lexical``: `word` tagged `s2` right after tag `s1`, `count` times.
    public var emissions2: [Lexical]
    public var suffixes: [SuffixCount]
    /// ``StoreSchema/HMMParameter`` values.
    public var parameters: [String: Double]

    public init(
        states: [String], stateCounts: [Double], stateLogprobs: [Double], initial: [Double],
        transitions: [Transition], transitions2: [Transition2] = [], words: [String], wordCounts: [Int64],
        emissions: [Emission], lexical: [Lexical] = [], emissions2: [Lexical] = [], suffixes: [SuffixCount] = [], parameters: [String: Double]
    ) {
        self.states = states; self.stateCounts = stateCounts; self.stateLogprobs = stateLogprobs
        self.initial = initial; self.transitions = transitions; self.transitions2 = transitions2
        self.words = words; self.wordCounts = wordCounts; self.emissions = emissions
        self.lexical = lexical; self.emissions2 = emissions2; self.suffixes = suffixes; self.parameters = parameters
    }

    /// Number of states, the boundary included.
    public var stateCount: Int { states.count }

    /// A parameter, or `default` when the tables do not set it.
    public func parameter(_ name: String, default value: Double) -> Double { parameters[name] ?? value }
}

/// A word with its tag: what ``HMMTagger`` returns and what a POS-aware lemmatizer consumes.
public struct TaggedToken: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var form: String
    public var tag: String
    public init(form: String, tag: String) { self.form = form; self.tag = tag }
    public var description: String { "\(form)/\(tag)" }
}

/// The shape of a word, the unknown-word model's first feature (TnT's capitalization flag,
/// extended with digits, hyphens, symbols and web addresses). Stored as `hmm_suffix.class`.
public enum WordShape: UInt8, Sendable, CaseIterable, Comparable {
    /// Starts with a lowercase letter (or a letter without case).
    case lower = 0
    /// Starts with a capital, not at the start of a sentence.
    case capitalized = 1
    /// Starts with a capital at the start of a sentence (capitalized or not anyway).
    case sentenceInitialCapitalized = 2
    /// Two or more letters, all capitals.
    case upper = 3
    /// Contains a digit.
    case digit = 4
    /// Letters joined by a hyphen.
    case hyphenated = 5
    /// No letter and no digit: punctuation and symbols.
    case symbol = 6
    /// A web address, e-mail address, @handle or #tag.
    case web = 7
    /// Starts with a capital, not at the start of a sentence, right after another capitalized
    /// word (names and titles: "New York", "Customer Service").
    case capitalizedRun = 8
    /// ``capitalized`` whose lowercase form is a known word ("Deputy" beside "deputy"): common
    /// nouns and adjectives in titles and headings as often as names.
    case capitalizedCommon = 9
    /// ``capitalizedRun`` whose lowercase form is a known word ("Human Resource").
    case capitalizedRunCommon = 10

    public static func < (a: WordShape, b: WordShape) -> Bool { a.rawValue < b.rawValue }

    /// Share of capitalized words (after the first) from which a sentence counts as title case.
    /// (Cross-validation on EWT train, five folds of documents: 0.6 and 0.75 alike, UPOS +0.03
    /// points, lemmas with predicted tags +0.03.)
    public static let titleCaseShare = 0.6

    /// Whether a sentence is written in title case ("Man Arrested in Deputy Shooting"): at
    /// least two words after the first start with a letter and ``titleCaseShare`` of them with
    /// a capital. Every word of such a sentence is shaped as if it started the sentence, since
    /// its capital says as little as a sentence-initial one.
    public static func isTitleCase<Words: Collection>(_ words: Words) -> Bool where Words.Element == String {
        var letters = 0, capitals = 0
        for word in words.dropFirst() {
            guard let first = word.unicodeScalars.first else { continue }
            let v = first.value
            if v < 0x80 {
                if v >= 0x61 && v <= 0x7A { letters += 1 } else if v >= 0x41 && v <= 0x5A { letters += 1; capitals += 1 }
            } else if first.properties.isAlphabetic {
                letters += 1
                if first.properties.isUppercase { capitals += 1 }
            }
        }
        return letters >= 2 && Double(capitals) >= titleCaseShare * Double(letters)
    }

    /// The shape refined by the vocabulary: a capitalized word (not sentence-initial) whose
    /// lowercase form `isKnown` becomes ``capitalizedCommon`` or ``capitalizedRunCommon``.
    public func refined(for word: String, isKnown: (String) -> Bool) -> WordShape {
        switch self {
        case .capitalized: return isKnown(word.lowercased()) ? .capitalizedCommon : self
        case .capitalizedRun: return isKnown(word.lowercased()) ? .capitalizedRunCommon : self
        default: return self
        }
    }

    /// The shape of `word` at sentence position `position` (0 = first word), after `previous`.
    public static func of(_ word: String, position: Int, previous: String? = nil) -> WordShape {
        var letters = 0, uppers = 0, digits = 0, hyphen = false, at = false, dot = false
        var firstUpper = false, firstLetter = true
        for s in word.unicodeScalars {
            let v = s.value
            if v < 0x80 {
                if v >= 0x61 && v <= 0x7A { letters += 1; firstLetter = false; continue }
                if v >= 0x41 && v <= 0x5A {
                    if firstLetter { firstUpper = true }
                    letters += 1; uppers += 1; firstLetter = false; continue
                }
                if v >= 0x30 && v <= 0x39 { digits += 1; firstLetter = false; continue }
                if v == 0x2D { hyphen = true } else if v == 0x40 || v == 0x23 { at = true } else if v == 0x2E || v == 0x2F { dot = true }
                continue
            }
            let p = s.properties
            if p.isAlphabetic {
                if p.isUppercase { uppers += 1; if firstLetter { firstUpper = true } }
                letters += 1
                firstLetter = false
            } else if p.numericType != nil {
                digits += 1
                firstLetter = false
            }
        }
        if letters + digits > 0 && (at || (dot && word.contains("://")) || word.hasPrefix("www.")) { return .web }
        if letters == 0 && digits == 0 { return .symbol }
        if digits > 0 { return .digit }
        if uppers >= 2 && uppers == letters { return .upper }
        if firstUpper {
            if position == 0 { return .sentenceInitialCapitalized }
            if let previous, let first = previous.unicodeScalars.first, first.properties.isUppercase { return .capitalizedRun }
            return .capitalized
        }
        if hyphen { return .hyphenated }
        return .lower
    }
}

extension HMMTables {
    /// The same tables over another vocabulary: word `i` of ``words`` becomes word `newID[i]` of
    /// `vocabulary` (whose counts replace ``wordCounts``). `lexiforge train` uses it to put a
    /// tagger's tables beside n-grams, in the store's one vocabulary (`word`).
    /// - Precondition: `newID` has one id per word, each an index of `vocabulary` holding the same text.
    public func remapped(to vocabulary: [String], counts: [Int64], newID: [Int32]) -> HMMTables {
        precondition(newID.count == words.count && vocabulary.count == counts.count, "one new id per word, one count per new word")
        var copy = self
        copy.words = vocabulary
        copy.wordCounts = counts
        for i in copy.emissions.indices { copy.emissions[i].word = newID[Int(copy.emissions[i].word)] }
        for i in copy.lexical.indices { copy.lexical[i].word = newID[Int(copy.lexical[i].word)] }
        for i in copy.emissions2.indices { copy.emissions2[i].word = newID[Int(copy.emissions2[i].word)] }
        return copy
    }
}
