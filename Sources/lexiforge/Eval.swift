import ArgumentParser

/// `lexiforge eval`: measurements against gold data, one subcommand per file (EvalTokenize.swift,
/// EvalLemma.swift, EvalTag.swift).
struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure a stage or a store against gold data.",
        subcommands: [EvalTokenize.self, EvalLemma.self, EvalTag.self])
}
