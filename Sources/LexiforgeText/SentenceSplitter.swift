/// Text options that change the tokens themselves (and so are recorded in a store's provenance).
public struct TextOptions: Sendable, Equatable, Codable {
    /// Lowercase every token (Unicode-aware; ASCII on a fast path).
    public var lowercase: Bool
    /// Keep punctuation and symbol tokens in the sentences handed on. Off by default: a keyboard
    /// model's contexts and suggestions are the words a person types (after "Yes, " the context is
    /// "Yes"), as in Presage and Tally. Punctuation still decides sentence boundaries either way.
    /// Turn it on for a language model that scores punctuation too (KenLM style).
    public var keepPunctuation: Bool
    /// How contractions and hyphenated words are split (``TokenizerMode``); keyboard for training.
    public var mode: TokenizerMode
    /// Unicode normalization of every token.
    public var normalization: UnicodeNormalization
    /// Curly quotes and apostrophes become straight ones (’ → ', “ ” → "), so "don’t" and
    /// "don't" count as one word.
    public var straightQuotes: Bool
    /// Numbers (3.14, 1,000, 5:30) become the class token `<num>`, so a model learns "<num> years"
    /// once instead of once per number.
    public var numberClass: Bool

    public init(lowercase: Bool = false, keepPunctuation: Bool = false, mode: TokenizerMode = .keyboard,
                normalization: UnicodeNormalization = .none, straightQuotes: Bool = false, numberClass: Bool = false) {
        self.lowercase = lowercase
        self.keepPunctuation = keepPunctuation
        self.mode = mode
        self.normalization = normalization
        self.straightQuotes = straightQuotes
        self.numberClass = numberClass
    }
}

/// A sentence, borrowed: valid only inside the callback that receives it.
public struct SentenceView {
    let bytes: UnsafeBufferPointer<UInt8>
    let ends: UnsafeBufferPointer<Int>

    /// Tokens laid end to end in `bytes`; token i ends at `ends[i]`.
    public init(bytes: UnsafeBufferPointer<UInt8>, ends: UnsafeBufferPointer<Int>) {
        self.bytes = bytes
        self.ends = ends
    }

    /// Number of tokens (no `<s>`/`</s>`: boundaries are implied).
    public var count: Int { ends.count }

    /// The bytes of token `i`.
    public subscript(i: Int) -> UnsafeBufferPointer<UInt8> {
        let start = i == 0 ? 0 : ends[i - 1]
        return UnsafeBufferPointer(rebasing: bytes[start..<ends[i]])
    }

    public var tokens: [String] { (0..<count).map { String(decoding: self[$0], as: UTF8.self) } }

    /// Appends the tokens to `out`, separated by one space (no String per token).
    public func appendJoined(to out: inout [UInt8]) {
        var start = 0
        for i in 0..<ends.count {
            if i > 0 { out.append(0x20) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<ends[i]]))
            start = ends[i]
        }
    }
}

/// Splits a stream of lines into tokenized sentences.
///
/// In: lines of UTF-8 text in order, a blank line marking a paragraph break. Out: sentences, each
/// a list of tokens; the consumer adds `<s>` and `</s>`. A line break is not a sentence end
/// (Gutenberg paragraphs are hard-wrapped); a blank line, the end of the input, or a terminal
/// token (`.`, `!`, `?`, `...`, `…`) followed by a token that does not start with a lowercase
/// letter are. Closing quotes and brackets right after the terminal token stay with the sentence
/// they close. Abbreviation periods never reach the splitter: the ``Tokenizer`` keeps them inside
/// the word, decimals (3.14) and initials (J. Smith) too; an abbreviation or capital initial that
/// can end a sentence ("U.S.", "Inc.", "etc.", "plan B.", not titles like "Mr.") ends one when a
/// typical sentence opener follows ("He", "The", "But", ...), so "J. Watson" stays whole.
///
/// ```swift
/// var splitter = SentenceSplitter()
/// splitter.feed(line: bytes) { sentence in print(sentence.tokens) }
/// splitter.finish { sentence in print(sentence.tokens) }
/// ```
public struct SentenceSplitter {
    public let options: TextOptions
    private let tokenizer: Tokenizer
    private var lineTokens: [Token] = []
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    private var pendingBoundary = false
    /// The previous token was an abbreviation that may end a sentence.
    private var pendingAbbreviation = false
    /// Sentences cut at ``maxSentenceTokens`` tokens or ``maxSentenceBytes`` bytes so far.
    public private(set) var cutSentences = 0

    /// The most tokens a sentence holds: a longer run without a sentence end (a word list, a text
    /// without punctuation or blank lines) is cut into sentences of this many tokens, so memory
    /// never follows sentence length. ``cutSentences`` counts the cuts, for a warning.
    public static let maxSentenceTokens = 10_000
    /// The most bytes of token text a sentence holds (4 MiB: 10,000 very long tokens), cut likewise.
    public static let maxSentenceBytes = 1 << 22

    /// Words that typically open a sentence: after "U.S." they mean a new sentence began.
    static let openers: Set<String> = [
        "I", "He", "She", "It", "We", "They", "You", "The", "This", "That", "These", "Those", "There",
        "But", "And", "So", "In", "A", "An", "His", "Her", "Our", "My", "Their", "What", "When", "If",
        "However", "Then", "Now", "Yet", "As", "At", "On", "For", "After", "Today",
    ]

    public init(options: TextOptions = .init()) {
        self.options = options
        self.tokenizer = Tokenizer(mode: options.mode)
        bytes.reserveCapacity(4096)
        ends.reserveCapacity(256)
    }

    /// Sentences completed so far are passed to `emit`.
    public mutating func feed(line: UnsafeBufferPointer<UInt8>, emit: (SentenceView) throws -> Void) rethrows {
        lineTokens.removeAll(keepingCapacity: true)
        tokenizer.tokenize(line, into: &lineTokens)
        if lineTokens.isEmpty {
            // Blank (or whitespace-only) line: paragraph break.
            if isBlank(line) { try flush(emit) }
            return
        }
        for token in lineTokens {
            if pendingAbbreviation {
                pendingAbbreviation = false
                if token.kind == .word && !token.continuesToken
                    && Self.openers.contains(String(decoding: line[token.start..<token.end], as: UTF8.self)) {
                    try flush(emit)
                }
            }
            if pendingBoundary {
                if (token.kind == .closing || token.kind == .terminal) && !token.spaceBefore {
                    append(line, token)
                    if isFull { try cut(emit) }
                    continue
                }
                pendingBoundary = false
                if !(token.kind == .word && token.startsLowercase) { try flush(emit) }
            }
            append(line, token)
            if isFull { try cut(emit); continue }
            if token.kind == .terminal { pendingBoundary = true }
            // A capital initial ("plan B. Then", "J. Watson") counts too: only an opener after it
            // ends the sentence, and a name after an initial is not one.
            let length = token.end - token.start
            if token.kind == .word && length >= 2 && line[token.end - 1] == UInt8(ascii: ".")
                && (length == 2 ? (0x41...0x5A).contains(line[token.start])
                    : !Tokenizer.titles.contains(Array(line[token.start..<(token.end - 1)]))) {
                pendingAbbreviation = true
            }
        }
    }

    /// Ends the input: the last sentence, if any, is passed to `emit`.
    public mutating func finish(emit: (SentenceView) throws -> Void) rethrows {
        try flush(emit)
    }

    /// Splits a whole text (lines separated by `\n`) into sentences of string tokens.
    public static func sentences(in text: String, options: TextOptions = .init()) -> [[String]] {
        var splitter = SentenceSplitter(options: options)
        var result: [[String]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBufferPointer { buffer in
                splitter.feed(line: UnsafeBufferPointer(buffer)) { result.append($0.tokens) }
            }
        }
        splitter.finish { result.append($0.tokens) }
        return result
    }

    private func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in line where b > 0x20 { return false }
        return true
    }

    private mutating func append(_ line: UnsafeBufferPointer<UInt8>, _ token: Token) {
        if token.kind != .word && !options.keepPunctuation { return }
        options.appendToken(UnsafeBufferPointer(rebasing: line[token.start..<token.end]), to: &bytes)
        ends.append(bytes.count)
    }


    /// The sentence being collected reached ``maxSentenceTokens`` or ``maxSentenceBytes``.
    private var isFull: Bool { ends.count >= Self.maxSentenceTokens || bytes.count >= Self.maxSentenceBytes }

    /// Ends an over-long sentence where it is.
    private mutating func cut(_ emit: (SentenceView) throws -> Void) rethrows {
        cutSentences += 1
        try flush(emit)
    }

    private mutating func flush(_ emit: (SentenceView) throws -> Void) rethrows {
        pendingBoundary = false
        pendingAbbreviation = false
        guard !ends.isEmpty else { return }
        try bytes.withUnsafeBufferPointer { b in
            try ends.withUnsafeBufferPointer { e in try emit(SentenceView(bytes: b, ends: e)) }
        }
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }
}
