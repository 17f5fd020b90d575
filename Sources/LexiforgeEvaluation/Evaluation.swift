import Foundation
import LexiforgeBuild
import LexiforgeCorpus
import LexiforgeReader
import LexiforgeText

/// `lexiforge eval perplexity|ksr`: how good a store's language model is on held-out text.
///
/// Held-out text is read like a corpus (gzip, BOM, CRLF, Gutenberg boilerplate as the store was
/// built) and tokenized with the store's own text options, so it is split exactly as training was.
public enum Evaluation {
    /// Perplexity figures as KenLM's `query` prints them.
    public struct PerplexityReport: Sendable {
        public var sentences = 0
        /// Scored tokens: words plus one `</s>` per sentence.
        public var tokens = 0
        /// Words not in the store's vocabulary (scored as `<unk>`).
        public var oov = 0
        /// Total log10 probability, and the part contributed by OOV words.
        public var log10Sum = 0.0
        public var oovLog10Sum = 0.0
        public var perplexity: Double { pow(10, -log10Sum / Double(max(tokens, 1))) }
        public var perplexityExcludingOOV: Double {
            pow(10, -(log10Sum - oovLog10Sum) / Double(max(tokens - oov, 1)))
        }
        /// With a store's class model: the total log10 probability of the same tokens under the
        /// interpolated model the predictions use (the ARPA figures above are the word model's).
        public var interpolatedLog10Sum: Double?
        public var interpolatedPerplexity: Double? { interpolatedLog10Sum.map { pow(10, -$0 / Double(max(tokens, 1))) } }
    }

    /// The sentences of held-out files, tokenized the way `store` was built.
    public static func sentences(of files: [String], store: TrainedStore) throws -> [[String]] {
        let (text, strip, replace) = LanguageModelStage.textOptions(from: store.meta)
        var options = CorpusReadOptions()
        options.stripGutenberg = strip
        options.replaceInvalidUTF8 = replace
        var result: [[String]] = []
        _ = try CorpusSentences(text: text, corpus: options).read(files) { result.append($0.tokens) }
        return result
    }

    /// Scores every sentence as `<s> w1 ... wk </s>` with the store's back-off probabilities.
    /// `tokensOutput`, when given, receives the scored sentences one per line, tokens separated by
    /// spaces: exactly what `kenlm.Model.score(line)` needs to score the same text.
    public static func perplexity(store path: String, files: [String], tokensOutput: String? = nil) throws -> PerplexityReport {
        let predictor = try NgramPredictor(store: TrainedStore(path: path))
        let sentences = try Self.sentences(of: files, store: predictor.store)
        var report = PerplexityReport()
        var lines: [String] = []
        let eos = Int32(StoreSchema.ReservedID.sentenceEnd)
        if predictor.hasClusters { report.interpolatedLog10Sum = 0 }
        for sentence in sentences where !sentence.isEmpty {
            report.sentences += 1
            var context: [Int32] = [Int32(StoreSchema.ReservedID.sentenceStart)]
            for id in sentence.map({ predictor.id(of: $0) ?? Int32(StoreSchema.ReservedID.unknown) }) + [eos] {
                let value = try predictor.log10Probabilities(of: id, context: context)
                report.log10Sum += value.word
                if let interpolated = value.interpolated { report.interpolatedLog10Sum! += interpolated }
                if id == Int32(StoreSchema.ReservedID.unknown) {
                    report.oov += 1
                    report.oovLog10Sum += value.word
                }
                context.append(id)
            }
            report.tokens += sentence.count + 1
            if tokensOutput != nil { lines.append(sentence.joined(separator: " ")) }
        }
        if let tokensOutput {
            try AtomicOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: tokensOutput, kind: "tokenized text")
        }
        return report
    }

    /// Keystroke savings as ``ksr(store:files:suggestions:maxCharacters:)`` measures them.
    public struct KeystrokeReport: Sendable {
        public var words = 0
        /// Keystrokes without prediction: every character of every word, plus one space after each
        /// (UTF-8 bytes under the presage protocol: presage_simulator's kn).
        public var characters = 0
        /// Characters typed, and suggestions taken (one keystroke each; the presage protocol
        /// starts `selections` at 1, as presage_simulator starts ks).
        public var typed = 0
        public var selections = 0
        public var ksr: Double { characters == 0 ? 0 : 1 - Double(typed + selections) / Double(characters) }
    }

    /// Keystroke savings rate of a simulated user.
    ///
    /// Protocol ``KeystrokeProtocol/sentences`` (the default): for each word of each sentence
    /// (tokenized as the store was built, so punctuation is dropped unless the store keeps it),
    /// before each character the user types, the keyboard shows `suggestions` words: the next-word
    /// predictions when nothing of the word is typed yet, the completions of the typed prefix
    /// otherwise, both in the context of the sentence's previous words, leaving out the words
    /// already shown (and so passed over) for this word, as Presage does with REPEAT_SUGGESTIONS
    /// off. As soon as the wanted word is shown, the user takes it with one keystroke, which also
    /// enters the space after it; otherwise the user types the next character, and after the last
    /// one a space. KSR = 1 − (typed + selections) / (characters + spaces without prediction).
    /// Words are matched in the store's spelling (lowercased for a lowercased store, like
    /// presage_simulator -i), Gutenberg boilerplate is dropped as in training, and characters are
    /// Unicode characters. ``KeystrokeProtocol/presage(caseInsensitive:)`` measures instead
    /// exactly what presage_simulator measures (see there).
    /// With `adapt`, a ``SessionPredictor`` of weight `sessionWeight` learns each word once typed.
    /// `maxCharacters` limits the held-out text to the first N characters of each file.
    /// `trace` receives each word and the keystrokes it took (for comparing simulators word by word).
    public static func ksr(store path: String, files: [String], suggestions: Int, maxCharacters: Int? = nil,
                           adapt: Bool = false, sessionWeight: Double = SessionPredictor.defaultWeight,
                           protocol mode: KeystrokeProtocol = .sentences,
                           trace: ((String, Int) -> Void)? = nil) throws -> KeystrokeReport {
        let predictor = try NgramPredictor(store: TrainedStore(path: path))
        let keyboard = SimulatedKeyboard(predictor: predictor, session: adapt ? SessionPredictor(model: predictor, weight: sessionWeight) : nil,
                                         suggestions: suggestions)
        if case .presage(let caseInsensitive) = mode {
            return try presageKSR(keyboard: keyboard, files: files, caseInsensitive: caseInsensitive,
                                  maxCharacters: maxCharacters, trace: trace)
        }
        var inputs = files
        // The shortened texts go in a private folder (mkdtemp, 0700), removed with it at the end.
        var scratch: ScratchFolder?
        if let maxCharacters {
            inputs = []
            let folder = try ScratchFolder(label: "lexiforge-ksr")
            scratch = folder
            for (i, file) in files.enumerated() {
                let text = try CorpusReader.readAll(of: file, maxCharacters: maxCharacters)
                let temporary = folder.file("\(i).txt")
                try text.write(toFile: temporary, atomically: false, encoding: .utf8)
                inputs.append(temporary)
            }
        }
        defer { withExtendedLifetime(scratch) {} }
        var report = KeystrokeReport()
        for sentence in try Self.sentences(of: inputs, store: predictor.store) {
            for (i, word) in sentence.enumerated() {
                let context = Array(sentence[..<i])
                let characters = Array(word)
                let keys = try keyboard.type(word, length: characters.count, report: &report) { typed, passedOver in
                    try keyboard.suggest(prefix: String(characters[..<typed]), after: context, excluding: Set(passedOver.map(\.word))).map { ($0.word, $0.word) }
                }
                trace?(word, keys)
                keyboard.learn(word, after: context.last)
            }
        }
        return report
    }
}

/// The keyboard a simulated user types on: a store's predictions, or a session mixed into them.
struct SimulatedKeyboard {
    let predictor: NgramPredictor
    let session: SessionPredictor?
    let suggestions: Int

    /// The suggestions shown after `prefix` (store spelling) of a word is typed.
    /// `limit`: how many (all the keyboard shows unless some slots are taken otherwise).
    func suggest(prefix: String, after context: [String], excluding passedOver: Set<String>, limit: Int? = nil) throws -> [Prediction] {
        let limit = limit ?? suggestions
        if let session {
            return prefix.isEmpty
                ? try session.nextWords(after: context, limit: limit, excluding: passedOver)
                : try session.completions(of: prefix, after: context, limit: limit, excluding: passedOver)
        }
        return prefix.isEmpty
            ? try predictor.nextWords(after: context, limit: limit, excluding: passedOver)
            : try predictor.completions(of: prefix, after: context, limit: limit, excluding: passedOver)
    }

    func learn(_ word: String, after previous: String?, written: String? = nil) {
        session?.learn(word, after: previous, written: written)
    }

    /// How the session saw the user write `word` inside a sentence, if it differs from the store.
    func spelling(of word: String) -> String? { session?.spelling(of: word) }

    /// Types `wanted` (`length` keystrokes long) as the simulated user does: before each keystroke
    /// `shown(typed, passedOver)` gives the suggestions on screen after `typed` keystrokes (each
    /// as the store spells it and as it is shown), given those shown before for this word; the
    /// user takes `wanted` with one keystroke as soon as it is shown. Returns the keystrokes spent.
    func type(_ wanted: String, length: Int, report: inout Evaluation.KeystrokeReport,
              shown: (Int, [(word: String, shown: String)]) throws -> [(word: String, shown: String)]) rethrows -> Int {
        report.words += 1
        report.characters += length + 1
        var passedOver: [(word: String, shown: String)] = []
        for typed in 0..<length {
            let words = try shown(typed, passedOver)
            if words.contains(where: { $0.shown == wanted }) {
                report.typed += typed
                report.selections += 1
                return typed + 1
            }
            passedOver += words
        }
        report.typed += length + 1
        return length + 1
    }
}

extension CorpusReader {
    /// The first `maxCharacters` characters of a text file (for truncated evaluations).
    static func readAll(of path: String, maxCharacters: Int) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PipelineError("\(path): cannot read it; check the path")
        }
        return String(String(decoding: data, as: UTF8.self).prefix(maxCharacters))
    }
}
