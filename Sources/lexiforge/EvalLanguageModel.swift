import ArgumentParser
import Foundation
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader

struct EvalPerplexity: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "perplexity",
        abstract: "Perplexity of held-out text, with OOV count (as KenLM's query reports).",
        discussion: """
            Each sentence is scored as <s> w1 ... wk </s>; unknown words score as <unk> and \
            are counted as OOV. Prints tokens, OOVs, log10 total and both perplexities: those \
            of the word model, which is what `export arpa` writes and KenLM reads; a store built \
            with --classes adds perplexity_with_classes, the interpolated model its predictions use.
            Example:
              lexiforge eval perplexity Artifacts/dorian-gray.sqlite Corpora/data/corpora/frankenstein-pg84.txt
            """)
    @Argument(help: "The store.") var store: String
    @Argument(help: "Held-out text files.") var text: [String] = []
    @Option(help: "Also write the scored sentences, one per line, tokens separated by spaces (for kenlm).")
    var writeTokens: String?

    func validate() throws {
        guard !text.isEmpty else { throw ValidationError("name at least one held-out text file") }
    }

    func run() throws {
        try runReportingErrors {
            let r = try Evaluation.perplexity(store: store, files: text, tokensOutput: writeTokens)
            print("sentences\t\(r.sentences)")
            print("tokens\t\(r.tokens)")
            print("oov\t\(r.oov)")
            print("log10_total\t\(String(format: "%.4f", r.log10Sum))")
            print("perplexity\t\(String(format: "%.4f", r.perplexity))")
            print("perplexity_excluding_oov\t\(String(format: "%.4f", r.perplexityExcludingOOV))")
            if let interpolated = r.interpolatedPerplexity {
                print("perplexity_with_classes\t\(String(format: "%.4f", interpolated))")
            }
        }
    }
}

struct EvalKSR: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ksr",
        abstract: "Keystroke savings rate of a simulated user typing held-out text.",
        discussion: """
            Before each character the user sees N suggestions (next words, then completions of \
            the typed prefix, in the sentence's context) and takes the wanted word with one \
            keystroke (which also types the space) as soon as it is shown. KSR = 1 - (typed + \
            selections) / (characters + one space per word).
            --protocol sentences (default): the store's sentences and tokens (Gutenberg \
            boilerplate dropped), words matched in the store's spelling (lowercased for a \
            lowercased store, like presage_simulator -i).
            --protocol presage: exactly presage_simulator's keystrokes: the raw text cut at ASCII \
            blanks and punctuation (don't = don + t), bytes as keystrokes, a suggestion taken \
            only if it equals the token (case-sensitive, as presage_simulator by default; \
            --case-insensitive for its -i); a lowercased store's suggestions are capitalized \
            when the typed prefix starts with a capital or at a sentence start.
            Example:
              lexiforge eval ksr Artifacts/dorian-gray.sqlite held-out.txt --suggestions 3
              lexiforge eval ksr Artifacts/dorian-gray.sqlite held-out.txt --suggestions 6 --protocol presage
            """)
    @Argument(help: "The store.") var store: String
    @Argument(help: "Held-out text files.") var text: [String] = []
    @Option(help: "How many suggestions the keyboard shows.") var suggestions = 3
    @Flag(help: .hidden) var trace = false
    @Flag(help: "Adapt to the text as it is typed: each finished word joins a session cache mixed into the model (λ 0.3), as a keyboard that learns does.")
    var adapt = false
    @Option(help: .hidden) var sessionWeight = SessionPredictor.defaultWeight
    @Option(help: "Use only the first N characters of each file (as a truncated presage_simulator input).")
    var maxCharacters: Int?
    @Option(name: .customLong("protocol"), help: "Simulated user: sentences (our tokenization) or presage (presage_simulator's, counted identically).")
    var protocolName: KSRProtocolName = .sentences
    @Flag(help: "With --protocol presage: match case-insensitively (presage_simulator -i).")
    var caseInsensitive = false

    enum KSRProtocolName: String, ExpressibleByArgument, CaseIterable { case sentences, presage }

    func validate() throws {
        guard !text.isEmpty else { throw ValidationError("name at least one held-out text file") }
        guard suggestions >= 1 else { throw ValidationError("--suggestions must be at least 1") }
        guard !caseInsensitive || protocolName == .presage else {
            throw ValidationError("--case-insensitive applies to --protocol presage (the sentences protocol matches in the store's spelling)")
        }
    }

    func run() throws {
        try runReportingErrors {
            let r = try Evaluation.ksr(store: store, files: text, suggestions: suggestions, maxCharacters: maxCharacters, adapt: adapt, sessionWeight: sessionWeight,
                                       protocol: protocolName == .presage ? .presage(caseInsensitive: caseInsensitive) : .sentences,
                                       trace: trace ? { word, keys in FileHandle.standardError.write(Data("\(word)\t\(keys)\n".utf8)) } : nil)
            print("words\t\(r.words)")
            print("keystrokes_without_prediction\t\(r.characters)")
            print("typed\t\(r.typed)")
            print("selections\t\(r.selections)")
            print("ksr\t\(String(format: "%.2f", r.ksr * 100))%")
        }
    }
}
