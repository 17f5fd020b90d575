import Foundation
import LexiforgeText

/// Typed text turned into what a store is queried with: the words of the current sentence before
/// the cursor, tokenized exactly as the store's training text was, and the word being typed.
public struct TypedInput: Sendable, Equatable {
    /// The current sentence's words before ``prefix``, oldest first; empty at the start of a sentence.
    public var context: [String]
    /// The partial word at the end of the text; empty after a space or punctuation.
    public var prefix: String

    public init(context: [String], prefix: String) {
        self.context = context
        self.prefix = prefix
    }
}

extension TrainedStore {
    /// How the store's training text was tokenized: every option its provenance records (tokenizer
    /// mode, lowercase, normalization, straight quotes, number class, punctuation); defaults for
    /// what it does not record.
    /// Read from `meta` once, when the store opens (a front end asks on every keystroke).
    public var textOptions: TextOptions { storedTextOptions }

    /// The options `meta` records, parsed (`TrainedStore.init`).
    static func textOptions(meta: [String: String]) -> TextOptions {
        (TextOptionsRecord.read(meta) ?? TextOptionsRecord()).textOptions
    }

    /// Splits typed text into context and prefix the way training split and tokenized sentences,
    /// so a front end asks the store what the toolchain measured:
    /// ```swift
    /// let input = store.typedInput("I think th")       // context ["I", "think"], prefix "th"
    /// try predictor.completions(of: input.prefix, after: input.context)
    /// store.typedInput("Hello there. ")                 // context [], prefix "": a new sentence
    /// ```
    /// Rules: only the last sentence counts (the sentence splitter decides, so "Mr." does not end
    /// one but "there." does); text ending in a space or punctuation has no prefix, and when it
    /// ends a sentence (".", "!", "?", "…") the context is empty; otherwise the last token is the
    /// prefix. `lastWordComplete` treats the text as ending after its last word (`suggest`).
    /// - Complexity: O(text length); only the text's last sentence is kept.
    public func typedInput(_ text: String, lastWordComplete: Bool = false) -> TypedInput {
        let options = textOptions
        var tokens = SentenceSplitter.sentences(in: text, options: options).last ?? []
        var withPunctuation = options
        withPunctuation.keepPunctuation = true
        let lastToken = SentenceSplitter.sentences(in: text, options: withPunctuation).last?.last
        let endsSentence = lastToken.map { ["!", "?", "…"].contains($0) || $0.hasPrefix(".") } ?? false
        let finished = lastWordComplete || text.last.map { $0.isWhitespace || $0.isPunctuation } ?? true
        if finished {
            return TypedInput(context: endsSentence ? [] : tokens, prefix: "")
        }
        let prefix = tokens.popLast() ?? ""
        return TypedInput(context: tokens, prefix: prefix)
    }
}
