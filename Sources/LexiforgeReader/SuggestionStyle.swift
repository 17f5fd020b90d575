import Foundation

/// How a keyboard turns what the user typed of a word into a store query, and shows the store's
/// suggestions the way the user is typing the word.
///
/// - Opening punctuation typed in the word (a quote, a bracket: any characters before the first
///   letter or digit) is not part of the query; it is kept in front of each suggestion, so after
///   “ the keyboard offers “The, “I, … and taking one keeps the quote.
/// - On a lowercased store (`ngrams --lowercase`, which pools "The" and "the" and so predicts
///   better from a small corpus) the typed letters are looked up lowercased, and a suggestion is
///   shown with a capital first letter when the user started the word with one, or, before any
///   letter is typed, at the start of a sentence or after an opening quote or bracket (as
///   keyboards capitalize after ". "), and "I" always (``capitalized``). A store that keeps case is
///   queried and shown as it is.
///
/// ```swift
/// let style = SuggestionStyle(lowercasedStore: true)
/// style.query("Th")                                                 // "th"
/// style.display("the", typed: "Th", atSentenceStart: false)         // "The"
/// style.display("cat", typed: "", atSentenceStart: true)            // "Cat"
/// style.query("“I")                                                 // "i"
/// style.display("i", typed: "“", atSentenceStart: false)            // "“I"
/// ```
///
/// It also follows the punctuation the user types (``observe(_:)``), as keyboards with smart
/// punctuation do:
/// - the apostrophe: once the user writes a contraction with ’ (or '), suggestions with an
///   apostrophe are shown with that one (a store built with `--straight-quotes` spells "don't";
///   a user who writes “don’t” is shown don’t);
/// - an open quotation: after “ and until ”, when the user has just typed punctuation that ends a
///   clause (`,` `.` `!` `?` `;` `:`), the closing ” is offered (``closingQuote(afterPunctuation:)``).
public struct SuggestionStyle: Sendable, Equatable {
    /// Whether the store's words are lowercased (then suggestions are re-cased for display).
    public var lowercasedStore: Bool
    /// The apostrophe the user writes (nil until a word with one is typed: as the store spells it).
    public var apostrophe: Character?
    /// The closing quote of the quotation the user has opened and not closed yet, if any.
    public var openQuotation: Character?
    /// Words of a lowercased store shown with a capital wherever they are (unless the user types
    /// them in lowercase): by default English "I" and its contractions. Empty for other languages.
    public var capitalized: Set<String> = SuggestionStyle.englishCapitalized

    /// "i", "i'm", "i'll", "i've", "i'd", with straight and curly apostrophes.
    public static let englishCapitalized: Set<String> = Set(["i", "i'm", "i'll", "i've", "i'd"].flatMap {
        [$0, $0.replacingOccurrences(of: "'", with: "\u{2019}")]
    })

    /// Opening and closing quotation marks followed in ``observe(_:)``.
    static let quotationMarks: [Character: Character] = ["\u{201C}": "\u{201D}", "\u{00AB}": "\u{00BB}"]
    static let apostrophes: Set<Character> = ["'", "\u{2019}"]

    public init(lowercasedStore: Bool) { self.lowercasedStore = lowercasedStore }

    /// Follows a word (or any text) the user typed: its apostrophe between letters, and the
    /// quotation marks it opens or closes.
    public mutating func observe(_ typed: String) {
        var previous: Character?
        var characters = typed.makeIterator()
        var current = characters.next()
        while let c = current {
            let next = characters.next()
            if Self.apostrophes.contains(c), previous?.isLetter == true, next?.isLetter == true { apostrophe = c }
            if let closing = Self.quotationMarks[c] {
                openQuotation = closing
            } else if c == openQuotation {
                openQuotation = nil
            }
            previous = c
            current = next
        }
    }

    /// The closing quote to offer first for the next word: when a quotation is open and the user
    /// has just typed clause-ending punctuation (`afterPunctuation`), as in “Yes,” or “Why?”.
    public func closingQuote(afterPunctuation: Bool) -> String? {
        guard afterPunctuation, let openQuotation else { return nil }
        return String(openQuotation)
    }

    /// Clause-ending punctuation after which ``closingQuote(afterPunctuation:)`` offers a closing quote.
    public static let clausePunctuation: Set<UInt8> = Set(",.!?;:".utf8)

    /// The opening punctuation of `typed` (before its first letter or digit), and the rest.
    public static func split(_ typed: String) -> (opening: Substring, word: Substring) {
        let start = typed.firstIndex { $0.isLetter || $0.isNumber } ?? typed.endIndex
        return (typed[..<start], typed[start...])
    }

    /// The prefix to look up: the typed word without its opening punctuation, in the store's spelling.
    public func query(_ typed: String) -> String {
        let word = String(Self.split(typed).word)
        return lowercasedStore ? word.lowercased() : word
    }

    /// `word` (as the store spells it) as the keyboard shows it after the user typed `typed` of it.
    /// `written`: how the user writes the word inside a sentence, if a session learned it
    /// (``SessionPredictor/spelling(of:)``); it is shown so unless a capital is called for.
    public func display(_ word: String, typed: String, atSentenceStart: Bool, written: String? = nil) -> String {
        let always = capitalized.contains(word)
        let word = withApostrophe(word)
        let (opening, typedWord) = Self.split(typed)
        guard lowercasedStore, let first = word.first else { return opening + word }
        let capital = typedWord.first.map(\.isUppercase) ?? (atSentenceStart || !opening.isEmpty || always && written == nil)
        if let written, written.lowercased() == word, written.hasPrefix(String(typedWord)) || capital {
            return opening + (capital ? written.prefix(1).uppercased() + written.dropFirst() : written)
        }
        return opening + (capital ? first.uppercased() + word.dropFirst() : word)
    }

    /// `word` with its apostrophes written as the user writes them.
    func withApostrophe(_ word: String) -> String {
        guard let apostrophe, word.contains(where: { Self.apostrophes.contains($0) && $0 != apostrophe }) else { return word }
        return String(word.map { Self.apostrophes.contains($0) ? apostrophe : $0 })
    }
}
