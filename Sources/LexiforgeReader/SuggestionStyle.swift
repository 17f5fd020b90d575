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
///   keyboards capitalize after ". "). A store that keeps case is queried and shown as it is.
///
/// ```swift
/// let style = SuggestionStyle(lowercasedStore: true)
/// style.query("Th")                                                 // "th"
/// style.display("the", typed: "Th", atSentenceStart: false)         // "The"
/// style.display("cat", typed: "", atSentenceStart: true)            // "Cat"
/// style.query("“I")                                                 // "i"
/// style.display("i", typed: "“", atSentenceStart: false)            // "“I"
/// ```
public struct SuggestionStyle: Sendable, Equatable {
    /// Whether the store's words are lowercased (then suggestions are re-cased for display).
    public var lowercasedStore: Bool

    public init(lowercasedStore: Bool) { self.lowercasedStore = lowercasedStore }

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
        let (opening, typedWord) = Self.split(typed)
        guard lowercasedStore, let first = word.first else { return opening + word }
        let capital = typedWord.first.map(\.isUppercase) ?? (atSentenceStart || !opening.isEmpty)
        if let written, written.lowercased() == word, written.hasPrefix(String(typedWord)) || capital {
            return opening + (capital ? written.prefix(1).uppercased() + written.dropFirst() : written)
        }
        return opening + (capital ? first.uppercased() + word.dropFirst() : word)
    }
}
