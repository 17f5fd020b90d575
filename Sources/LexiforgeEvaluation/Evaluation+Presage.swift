import Foundation
import LexiforgeBuild
import LexiforgeCorpus
import LexiforgeReader

/// Which simulated user ``Evaluation/ksr(store:files:suggestions:maxCharacters:adapt:protocol:trace:)`` measures.
public enum KeystrokeProtocol: Sendable, Equatable {
    /// Our sentences: the store's tokenization, words matched in the store's spelling.
    case sentences
    /// Exactly what presage_simulator counts (`caseInsensitive`: its `-i`), so both tools are
    /// measured on the same keystrokes:
    /// - the raw text of each file is read as it is (Gutenberg boilerplate, BOM and all) and cut
    ///   into presage_simulator's tokens: maximal runs of bytes that are neither ASCII blank space
    ///   (space, \t, \n, \v, \f, \r) nor ASCII punctuation (`!"#$%&'()*+,-./:;<=>?@[\]^_{|}~` and
    ///   the backquote), so "don't" is two words, "don" and "t", and "well-known" is "well" and
    ///   "known"; punctuation and blanks are typed for free, as there;
    /// - every byte of a token is a keystroke, plus one for the space after it; presage_simulator
    ///   starts its selection counter at 1, and so does this protocol; text that ends with a blank
    ///   or punctuation ends with an empty token there, one keystroke, and so it does here;
    /// - a suggestion is taken only if it equals the token exactly: case-sensitive, as
    ///   presage_simulator runs by default, unless `caseInsensitive` (then the tokens are
    ///   ASCII-lowercased, as `-i` does). Suggestions are shown as ``SuggestionStyle`` shows
    ///   them: after opening punctuation the tokens keep (“, since only ASCII punctuation
    ///   separates), with that punctuation in front; on a lowercased store, capitalized when the
    ///   typed word starts with a capital, or before any letter at the start of a sentence or
    ///   after an opening quote (with `caseInsensitive`, lowercased, as the tokens are), with the
    ///   apostrophe the user writes; right after clause punctuation inside an open “ quotation
    ///   the keyboard offers the closing ” first, in place of its last word (``SuggestionStyle``);
    ///   right after a token and an ASCII apostrophe ("didn'"), the keyboard completes the
    ///   contraction the user is typing ("didn't", from the store) and shows what is left of it
    ///   ("t"), and the whole contraction is the context word afterwards;
    /// - the context is the previous tokens of the sentence (a sentence ends where the text
    ///   between two tokens holds `.`, `!` or `?`), in the store's spelling. presage_simulator
    ///   gives its predictors the previous tokens across sentence ends instead (it feeds them the
    ///   tokens and spaces only).
    case presage(caseInsensitive: Bool)
}

extension Evaluation {
    /// A word of presage_simulator's token stream.
    package struct PresageToken: Equatable {
        package var text: String
        /// UTF-8 bytes: presage_simulator's keystrokes for it.
        package var bytes: [UInt8]
        /// Whether a sentence ended before it (or it is the first of the text).
        package var sentenceStart: Bool
        /// Whether the byte just before it is clause-ending punctuation (`,` `.` `!` `?` `;` `:`).
        package var afterPunctuation = false
        /// Whether exactly one ASCII apostrophe separates it from the token before: the rest of a
        /// contraction ("didn't" is "didn", then "t").
        package var afterApostrophe = false
    }

    /// The tokens presage_simulator types from `text` (see ``KeystrokeProtocol/presage(caseInsensitive:)``).
    package static func presageTokens(_ text: [UInt8], lowercase: Bool) -> [PresageToken] {
        var tokens: [PresageToken] = []
        var current: [UInt8] = []
        var sentenceStart = true
        var ending = false
        var previous: UInt8 = 0, before: UInt8 = 0
        var gap: [UInt8] = [], gapBefore: [UInt8] = []   // the bytes between two tokens
        func flush() {
            guard !current.isEmpty else { return }
            tokens.append(PresageToken(text: String(decoding: current, as: UTF8.self), bytes: current, sentenceStart: sentenceStart,
                                       afterPunctuation: SuggestionStyle.clausePunctuation.contains(before),
                                       afterApostrophe: !tokens.isEmpty && gapBefore == [UInt8(ascii: "'")]))
            current.removeAll()
            sentenceStart = false
        }
        for byte in text {
            if current.isEmpty { before = previous }
            previous = byte
            ending = true
            let blank = byte == 0x20 || (0x09...0x0D).contains(byte)
            let punctuation = (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte)
                || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
            if blank || punctuation {
                flush()
                gap.append(byte)
                if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?") { sentenceStart = true }
            } else {
                ending = false
                if current.isEmpty { gapBefore = gap; gap.removeAll() }
                current.append(lowercase && (0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
            }
        }
        flush()
        // Text that ends in a blank or punctuation ends with an empty token (one keystroke), as there.
        if ending { tokens.append(PresageToken(text: "", bytes: [], sentenceStart: sentenceStart)) }
        return tokens
    }

    static func presageKSR(keyboard: SimulatedKeyboard, files: [String], caseInsensitive: Bool, maxCharacters: Int?,
                           trace: ((String, Int) -> Void)?) throws -> KeystrokeReport {
        let options = keyboard.predictor.store.textOptions
        var style = SuggestionStyle(lowercasedStore: options.lowercase)
        func spelled(_ token: String) -> String {
            var word = options.lowercase ? token.lowercased() : token
            if options.straightQuotes {
                word = word.replacingOccurrences(of: "\u{2019}", with: "'").replacingOccurrences(of: "\u{2018}", with: "'")
            }
            return word
        }
        var report = KeystrokeReport()
        report.selections = 1
        for file in files {
            if let problem = NgramBuild.checkInput(file) { throw PipelineError(problem) }
            let text: [UInt8]
            if let maxCharacters {
                text = Array(try CorpusReader.readAll(of: file, maxCharacters: maxCharacters).utf8)
            } else {
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw PipelineError("\(file): cannot read it; check the path")
                }
                text = Array(data)
            }
            var context: [String] = []
            var previous = ""
            for token in presageTokens(text, lowercase: caseInsensitive) {
                if token.sentenceStart { context.removeAll() }
                // The rest of a contraction ("t" after "didn'"): the keyboard completes the word the
                // user is typing, "didn't", and shows what is left of it to type ("t").
                let stem = token.afterApostrophe && !token.sentenceStart && !context.isEmpty
                    ? spelled(String(SuggestionStyle.split(previous).1)) + "'" : nil
                let keys = try keyboard.type(token.text, length: token.bytes.count, report: &report) { typed, passedOver in
                    let prefix = String(decoding: token.bytes[..<typed], as: UTF8.self)
                    if let stem {
                        let words = try keyboard.suggest(prefix: stem + spelled(prefix), after: Array(context.dropLast()),
                                                         excluding: Set(passedOver.map(\.word)))
                        return words.compactMap { w in
                            let rest = String(w.word.dropFirst(stem.count))
                            return rest.isEmpty ? nil : (w.word, caseInsensitive ? rest.lowercased() : rest)
                        }
                    }
                    func shown(_ word: String) -> String {
                        let shown = style.display(word, typed: prefix, atSentenceStart: token.sentenceStart,
                                                  written: keyboard.spelling(of: word))
                        return caseInsensitive ? shown.lowercased() : shown
                    }
                    // Not repeated: the words that would look as they looked before ("I" after “ is “I, new).
                    let repeated = Set(passedOver.filter { shown($0.word) == $0.shown }.map(\.word))
                    // After “Yes, the keyboard offers the closing ” first.
                    let quote = typed == 0 ? style.closingQuote(afterPunctuation: token.afterPunctuation) : nil
                    let words = try keyboard.suggest(prefix: spelled(style.query(prefix)), after: context, excluding: repeated,
                                                     limit: keyboard.suggestions - (quote == nil ? 0 : 1))
                    return (quote.map { [($0, $0)] } ?? []) + words.map { ($0.word, shown($0.word)) }
                }
                style.observe(token.text)
                trace?(token.text, keys)
                previous = token.text
                // The context word is then the whole contraction, as the store spells it.
                if let whole = stem.map({ $0 + spelled(token.text) }), keyboard.predictor.id(of: whole) != nil {
                    context.removeLast()
                    keyboard.learn(whole, after: context.last)
                    context.append(whole)
                    continue
                }
                // The context word: the token without the quotes it keeps around it.
                let word = spelled(token.text).trimmingCharacters(in: CharacterSet.alphanumerics.inverted)
                guard !word.isEmpty else { continue }   // a lone quote: no word of the model
                // Case says something inside a sentence only (not at its start, nor after a quote).
                let (opening, written) = SuggestionStyle.split(token.text)
                let meaningful = !caseInsensitive && !token.sentenceStart && opening.isEmpty && written.count == word.count
                keyboard.learn(word, after: context.last, written: meaningful ? String(written) : nil)
                context.append(word)
            }
        }
        return report
    }
}
