import ArgumentParser
import Foundation
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader

struct EvalLemma: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lemma",
        abstract: "Lemma accuracy against a CoNLL-U treebank.",
        discussion: """
            Trains the lemmatizer on --train (CoNLL-U) and WordNet, lemmatizes the gold file's words \
            (as the treebank tokenized them) and prints the case-sensitive accuracy over all words, \
            and over words the training data never showed. Tags: none (tag-free), --gold-tags (the \
            upper bound for any tagger), --tagger STORE (a part-of-speech tagger in a store) or \
            --tagger-train FILE (an averaged-perceptron UPOS tagger trained now on CoNLL-U).
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

    @Option(help: "CoNLL-U file (UPOS column) an averaged-perceptron tagger is trained on now, for predicted tags (repeat for several; excludes --tagger).")
    var taggerTrain: [String] = []

    @Option(help: .hidden)
    var taggerTemperature: Double?

    @Flag(help: "With --tagger or --tagger-train: lemmatize with the tagger's single best (Viterbi or greedy) tag per word instead of voting over its tag posteriors.")
    var singleTag = false

    @Flag(help: "Use the gold UPOS tags (an upper bound for any tagger).")
    var goldTags = false

    @Option(help: "Print the first N wrong lemmas.")
    var showErrors = 0

    @Option(help: "Also write every word as form, gold tag, tag used, gold lemma, lemma and seen/unseen (tab-separated) to this file.")
    var tokens: String?

    func validate() throws {
        try TaggerFlags.check(store: tagger, training: taggerTrain)
        if goldTags && taggerSource != nil { throw ValidationError("--gold-tags and --tagger/--tagger-train exclude each other; choose one") }
        if singleTag && taggerSource == nil { throw ValidationError("--single-tag needs --tagger STORE or --tagger-train FILE") }
    }

    var taggerSource: TaggerSource? { TaggerFlags.source(store: tagger, training: taggerTrain, temperature: taggerTemperature) }

    func run() throws {
        try runReportingErrors {
            let source = LemmatizerSource(training: train, wordNet: noWordnet ? nil : wordnet)
            let tagging: LemmaTagging = goldTags ? .gold : taggerSource.map { singleTag ? .viterbi($0) : .tagger($0) } ?? .none
            let report = try LemmaEval.run(gold: gold, source: source, tagging: tagging, examples: showErrors,
                                          keepTokens: tokens != nil)
            if let tokens {
                try AtomicOutput.write(Data((report.tokenLines.joined(separator: "\n") + "\n").utf8), to: tokens, kind: "token list")
            }
            for problem in report.problems { FileHandle.standardError.write(Data("warning: \(problem)\n".utf8)) }
            for example in report.examples { print("  " + example) }
            let tags = goldTags ? "gold UPOS tags" : tagger.map { "tags from \($0)" }
                ?? (taggerTrain.isEmpty ? "no tags" : "tags from a perceptron trained on \(taggerTrain.map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: ", "))")
            print("eval lemma \(URL(fileURLWithPath: gold).lastPathComponent): \(report.words) words, \(tags); trained on \(report.trainingWords) words\(noWordnet ? "" : " + WordNet")")
            print(String(format: "accuracy: %.4f (%d/%d); unseen forms %.4f (%d/%d)", report.accuracy, report.correct, report.words,
                         report.unseenAccuracy, report.unseenCorrect, report.unseen))
            FileHandle.standardError.write(Data(String(format: "time: training %.3f s; tagger training %.3f s; tagging %.3f s; lemmatizing %.3f s (%.2f M words/s)\n",
                report.trainingSeconds, report.taggerTrainingSeconds, report.taggingSeconds, report.lemmatizeSeconds, Double(report.words) / max(report.lemmatizeSeconds, 1e-9) / 1e6).utf8))
        }
    }
}

/// `--tagger STORE` and `--tagger-train FILE` (repeatable): two ways to the same tagger slot.
enum TaggerFlags {
    static func check(store: String?, training: [String]) throws {
        if store != nil && !training.isEmpty {
            throw ValidationError("--tagger STORE and --tagger-train FILE exclude each other: use a tagger store or train a perceptron tagger now, not both")
        }
    }

    static func source(store: String?, training: [String], temperature: Double? = nil) -> TaggerSource? {
        if let store { return .store(store) }
        return training.isEmpty ? nil : .perceptron(training: training, temperature: temperature)
    }
}
