import ArgumentParser

/// `lexiforge eval`: measurements against gold data, one subcommand per file (EvalTokenize.swift, ...).
struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure a stage against gold data.",
        subcommands: [EvalTokenize.self, EvalLemma.self])
}
