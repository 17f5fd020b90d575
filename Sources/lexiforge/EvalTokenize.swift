import ArgumentParser
import Foundation
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeText

struct EvalTokenize: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokenize",
        abstract: "Tokenization precision, recall and F1 against a CoNLL-U treebank.",
        discussion: """
            Tokenizes each sentence's `# text =` line and compares the written tokens with the gold \
            ones (multiword tokens as written: "don't" is one token) as character spans, then the \
            syntactic words inside matched tokens ("do" + "n't").
            Example:
              lexiforge eval tokenize ../shared/data/ud/en_ewt-ud-dev.conllu.gz
            """)

    @Argument(help: "Gold CoNLL-U file (plain or .gz).")
    var gold: String

    @Option(help: "Tokenizer mode: treebank (UD conventions) or keyboard.")
    var tokenizer: TokenizerMode = .treebank

    @Option(name: .customLong("mode"), help: .hidden)
    var deprecatedMode: TokenizerMode?

    var mode: TokenizerMode {
        if let deprecatedMode { warnDeprecated("--mode", "--tokenizer"); return deprecatedMode }
        return tokenizer
    }

    @Option(help: "Print the first N sentences with a tokenization error (gold, then system).")
    var showErrors = 0

    func run() throws {
        try runReportingErrors {
            let report = try TokenizationEval.run(gold: gold, mode: mode, examples: showErrors)
            for problem in report.problems { FileHandle.standardError.write(Data("warning: \(problem)\n".utf8)) }
            for example in report.examples { print("  " + example) }
            print("eval tokenize \(URL(fileURLWithPath: gold).lastPathComponent): \(report.sentences) sentences, mode \(mode.rawValue)")
            print("tokens: " + report.tokens.line)
            print("words:  " + report.words.line)
            if report.textMismatches > 0 { print("note: \(report.textMismatches) sentence(s) whose gold forms do not spell their # text line") }
            if report.missingText > 0 { print("note: \(report.missingText) sentence(s) without a # text line skipped") }
            FileHandle.standardError.write(Data(String(format: "time: %.3f s\n", report.seconds).utf8))
        }
    }
}

extension TokenizerMode: ExpressibleByArgument {}
