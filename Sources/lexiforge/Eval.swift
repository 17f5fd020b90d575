import ArgumentParser

/// `lexiforge eval ...`: measurements of a stage or a store against gold or held-out data, one
/// subcommand per file (EvalTokenize.swift, EvalLemma.swift, EvalTag.swift, EvalLanguageModel.swift).
struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure a stage or a store against gold or held-out data.",
        subcommands: [EvalTokenize.self, EvalLemma.self, EvalTag.self, EvalPerplexity.self, EvalKSR.self, EvalSwipe.self, EvalNer.self, EvalSearch.self, EvalClassify.self, EvalLangid.self])
}
