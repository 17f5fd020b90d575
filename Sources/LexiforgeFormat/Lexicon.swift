/// A keyboard lexicon as plain values: what a "combined" wordlist holds, and what a store's
/// `lexicon*` tables hold (see ``StoreSchema/lexiconCreationStatements``).
///
/// The wordlist stage parses files into this value, the store writer writes it, the reader reads it
/// back, and the wordlist writer turns it into a file again. Everything needed to reproduce a
/// list byte for byte is here: the header attributes in order, each entry's keys beyond the typed
/// ones (with their positions in the line), and each entry's child lines in order.
public struct Lexicon: Sendable, Equatable {
    /// One header attribute (`key=value` of the first line), in file order.
    public struct HeaderAttribute: Sendable, Equatable {
        public var key: String
        public var value: String
        public init(key: String, value: String) { self.key = key; self.value = value }
    }

    /// The header of each imported list, in import order (most stores hold one list).
    public var headers: [[HeaderAttribute]]
    /// The entries, in store id order (for an imported list: file order).
    public var entries: [LexiconEntry]

    public init(headers: [[HeaderAttribute]] = [], entries: [LexiconEntry] = []) {
        self.headers = headers
        self.entries = entries
    }
}

/// What a lexicon entry says about its word besides the frequency, as bits of the `lexicon.attributes`
/// column (one integer keeps the row small: SQLite stores 0 and 1 in no data bytes).
public struct LexiconAttributes: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `not_a_word=true`: a shortcut-only or blocked entry, never offered as a completion.
    public static let notAWord = LexiconAttributes(rawValue: 1)
    /// `possibly_offensive=true`: offered only when the front end allows offensive words.
    public static let possiblyOffensive = LexiconAttributes(rawValue: 2)
    /// Added by `lexiforge train` from corpora: the word is in no imported list.
    public static let notInList = LexiconAttributes(rawValue: 4)
    /// The entry line has no `originalFreq=` key (the 47 `not_a_word` entries of en_US).
    public static let noOriginalFrequency = LexiconAttributes(rawValue: 8)
}

/// One word of a lexicon with every field of its "combined" entry.
public struct LexiconEntry: Sendable, Equatable {
    /// A `key=value` of the entry line that has no typed field (`whitelist=`, unknown keys, a
    /// `not_a_word=false`), kept verbatim with its 0-based position among the line's keys
    /// (`word=` is position 0).
    public struct ExtraKey: Sendable, Equatable {
        public var position: Int
        public var key: String
        public var value: String
        public init(position: Int, key: String, value: String) {
            self.position = position; self.key = key; self.value = value
        }
    }

    /// A line under the entry line.
    public enum Child: Sendable, Equatable {
        /// `  shortcut=TARGET,f=N`; `frequency` nil stands for `f=whitelist` (the target replaces
        /// the typed word outright). `extra` is any verbatim rest of the line (`,key=value...`).
        case shortcut(target: String, frequency: Int?, extra: String?)
        /// `  bigram=NEXT,f=N`: NEXT often follows the word. `extra` as for shortcuts.
        case bigram(next: String, frequency: Int, extra: String?)
        /// A child line of a kind this toolchain does not interpret, verbatim (without its line end).
        case other(line: String)
    }

    public var word: String
    /// `f=`: 0-255 on a logarithmic scale (see ``probability(ofFrequency:)``); 0 marks blocked
    /// entries. In a store built by `train`, the merged frequency.
    public var frequency: Int
    /// `originalFreq=`, nil when the line has none.
    public var originalFrequency: Int?
    /// `flags=` (e.g. `abbreviation`, `offensive:nonword`), nil when the line has no `flags=` key.
    public var flags: String?
    public var attributes: LexiconAttributes
    public var extraKeys: [ExtraKey]
    public var children: [Child]

    public init(
        word: String, frequency: Int, originalFrequency: Int? = nil, flags: String? = nil,
        attributes: LexiconAttributes = [], extraKeys: [ExtraKey] = [], children: [Child] = []
    ) {
        self.word = word
        self.frequency = frequency
        self.originalFrequency = originalFrequency
        self.flags = flags
        self.attributes = attributes
        self.extraKeys = extraKeys
        self.children = children
    }

    /// The `whitelist=` value (the autocorrect target), if the entry has one.
    public var whitelist: String? {
        extraKeys.first { $0.key == "whitelist" }?.value
    }

    /// The probability a list frequency stands for: p = 1.15^(f − 255), so f = 255 is 1 and every
    /// step down divides by 1.15 (f = 222, "the", is about 0.0099).
    public static func probability(ofFrequency f: Int) -> Double {
        pow115(f - 255)
    }

    /// The probability of this entry's frequency (see ``probability(ofFrequency:)``).
    public var probability: Double { Self.probability(ofFrequency: frequency) }
}

/// 1.15^n without Foundation (the reader stays small).
@inline(__always)
func pow115(_ n: Int) -> Double {
    var result = 1.0, base = n < 0 ? 1 / 1.15 : 1.15, e = abs(n)
    while e > 0 {
        if e & 1 == 1 { result *= base }
        base *= base
        e >>= 1
    }
    return result
}
