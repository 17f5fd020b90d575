import ArgumentParser
import Foundation
import LexiforgePipeline

struct EvalLemma: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lemma",
        abstract: "Lemma accuracy against a CoNLL-U treebank.",
        discussion: """
            Trains the lemmatizer on --train (CoNLL-U) and WordNet, lemmatizes the gold file's words \
            (as the treebank tokenized them) and prints the case-sensitive accuracy over all words, \
            and over words the training data never showed. Tags: none (tag-free), --gold-tags (the \
            upper bound for any tagger) or --tagger STORE (a part-of-speech tagger in a store).
            Example:
              lexiforge eval lemma ../shared/data/ud/en_ewt-ud-dev.conllu.gz --train ../shared/data/ud/en_ewt-ud-train.conllu.gz
            """)

    @Argument(help: "Gold CoNLL-U file (plain or .gz).")
    var gold: String

    @Option(help: "CoNLL-U training file (repeat for several).")
    var train: [String] = []

    @Option(help: "WordNet dictionary folder (Debian wordnet-base).")
    var wordnet = "/usr/share/wordnet"

    @Flag(help: "Do not use WordNet.")
    var noWordnet = false

    @Option(help: "A store holding a part-of-speech tagger, for predicted tags.")
    var tagger: String?

    @Flag(help: "With --tagger: lemmatize with the tagger's single best (Viterbi) tag per word instead of voting over its tag posteriors.")
    var singleTag = false

    @Flag(help: "Use the gold UPOS tags (an upper bound for any tagger).")
    var goldTags = false

    @Option(help: "Print the first N wrong lemmas.")
    var showErrors = 0

    @Option(help: "Also write every word as form, gold tag, tag used, gold lemma, lemma and seen/unseen (tab-separated) to this file.")
    var tokens: String?

    func validate() throws {
        if goldTags && tagger != nil { throw ValidationError("--gold-tags and --tagger exclude each other; choose one") }
        if singleTag && tagger == nil { throw ValidationError("--single-tag needs --tagger STORE") }
    }

    func run() throws {
        try runReportingErrors {
            let source = LemmatizerSource(training: train, wordNet: noWordnet ? nil : wordnet)
            let tagging: LemmaTagging = goldTags ? .gold : tagger.map { singleTag ? .viterbi($0) : .tagger($0) } ?? .none
            let report = try LemmaEval.run(gold: gold, source: source, tagging: tagging, examples: showErrors,
                                          keepTokens: tokens != nil)
            if let tokens {
                guard FileManager.default.createFile(atPath: tokens, contents: Data((report.tokenLines.joined(separator: "\n") + "\n").utf8)) else {
                    throw ValidationError("\(tokens): cannot write the token list; choose a writable path")
                }
            }
            for problem in report.problems { FileHandle.standardError.write(Data("warning: \(problem)\n".utf8)) }
            for example in report.examples { print("  " + example) }
            let tags = goldTags ? "gold UPOS tags" : tagger.map { "tags from \($0)" } ?? "no tags"
            print("eval lemma \(URL(fileURLWithPath: gold).lastPathComponent): \(report.words) words, \(tags); trained on \(report.trainingWords) words\(noWordnet ? "" : " + WordNet")")
            print(String(format: "accuracy: %.4f (%d/%d); unseen forms %.4f (%d/%d)", report.accuracy, report.correct, report.words,
                         report.unseenAccuracy, report.unseenCorrect, report.unseen))
            FileHandle.standardError.write(Data(String(format: "time: training %.3f s; tagging %.3f s; lemmatizing %.3f s (%.2f M words/s)\n",
                report.trainingSeconds, report.taggingSeconds, report.lemmatizeSeconds, Double(report.words) / max(report.lemmatizeSeconds, 1e-9) / 1e6).utf8))
        }
    }
}
