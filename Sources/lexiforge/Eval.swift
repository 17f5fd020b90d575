import ArgumentParser

/// `lexiforge eval ...`: measurements of a store against gold or held-out data. Each evaluation is
/// its own subcommand in its own file.
struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Evaluate a store against gold or held-out data.",
        subcommands: [EvalTag.self, EvalPerplexity.self, EvalKSR.self])
}
