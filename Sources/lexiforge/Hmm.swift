import ArgumentParser
import Foundation
import LexiforgeCorpus
import LexiforgeHMM
import LexiforgeBuild
import LexiforgeEvaluation

struct Hmm: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Train hidden Markov tables: a part-of-speech tagger from tagged text, or K word classes from plain text.",
        discussion: """
            Supervised (--tagged): a second-order (trigram) tagger as TnT builds it: transitions \
            interpolated by deleted interpolation, unknown words by a suffix model per word shape \
            (capitalization, digits, hyphens), plus word-conditioned transitions after frequent \
            words. Inputs are CoNLL-U (UPOS, or --tagset xpos), one sentence per line of word/TAG \
            or word_TAG, or Create ML word-tagger JSON ([{"tokens": [...], "tags": [...]}]); the \
            format follows the file name (.conllu, .json, anything else word/TAG) unless --format.
            Unsupervised (--states K): Baum-Welch on plain text, log-likelihood per iteration on stderr.
            Examples:
              lexiforge hmm --tagged en_ewt-ud-train.conllu.gz -o Artifacts/en-upos.sqlite
              lexiforge hmm --states 32 --seed 7 Corpora/data/corpora/alice-pg11-body.txt -o Artifacts/alice-k32.sqlite
            """)

    @Option(name: .customLong("tagged"), parsing: .singleValue, help: "A tagged corpus to train a tagger from (repeatable).")
    var tagged: [String] = []

    @Argument(help: "Plain-text corpora for Baum-Welch (with --states).")
    var corpora: [String] = []

    @Option(name: .shortAndLong, help: "The store to write.")
    var output: String

    @Option(help: "Format of the tagged files: conllu, slash or json (default: from the file name).")
    var format: String?

    @Option(help: "CoNLL-U tag column: upos or xpos.")
    var tagset = "upos"

    @Option(help: "Baum-Welch: the number of hidden states K.")
    var states: Int?

    @Option(help: "Baum-Welch: at most this many iterations.")
    var iterations = 20

    @Option(help: "Baum-Welch: seed of the random start.")
    var seed: UInt64 = 1

    @Option(help: "Baum-Welch: threads for the E-step (the result does not depend on it).")
    var threads = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Baum-Welch: words seen fewer times share the <unk> emission.")
    var minCount = 2

    @Flag(inversion: .prefixedNo, help: "Baum-Welch: lowercase the text (--no-lowercase keeps case).")
    var lowercase = true

    @Flag(name: .customLong("keep-case"), help: .hidden)
    var deprecatedKeepCase = false

    @Option(help: "Supervised: words seen at least this often get word-conditioned transitions and second-order emissions (0 = neither, as in plain TnT).")
    var lexicalMinCount = SupervisedHMMConfig().lexicalMinCount

    @Option(help: "Supervised: words seen at most this often train the unknown-word suffix model.")
    var rareThreshold = SupervisedHMMConfig().rareThreshold

    @Option(help: "Supervised: the longest suffix the unknown-word model looks at.")
    var maxSuffixLength = SupervisedHMMConfig().maxSuffixLength

    @Option(help: .hidden)
    var emission2MinCount: Int?

    @Option(help: .hidden)
    var emission2Weight = SupervisedHMMConfig().emission2Weight

    @Option(help: .hidden)
    var lexicalWeight = SupervisedHMMConfig().lexicalWeight

    @OptionGroup var reading: ReadFlags

    @OptionGroup var build: BuildOptions

    func validate() throws {
        if let states {
            guard tagged.isEmpty else { throw ValidationError("give either --tagged FILE (supervised) or --states K with plain-text corpora, not both") }
            guard !corpora.isEmpty else { throw ValidationError("--states needs at least one plain-text corpus") }
            guard (1...4096).contains(states) else { throw ValidationError("--states \(states) is out of range; use 1 to 4096") }
            guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
            guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
        } else {
            guard !tagged.isEmpty else { throw ValidationError("name a tagged corpus with --tagged FILE, or plain text with --states K") }
            guard corpora.isEmpty else { throw ValidationError("plain-text corpora (\(corpora.joined(separator: " "))) need --states K; tagged files go after --tagged") }
        }
        if let format, TaggedFormat(rawValue: format) == nil {
            throw ValidationError("--format \(format) is unknown; use conllu, slash or json")
        }
        guard TagColumn(rawValue: tagset) != nil else { throw ValidationError("--tagset \(tagset) is unknown; use upos or xpos") }
        guard rareThreshold >= 1 else { throw ValidationError("--rare-threshold must be at least 1") }
        guard (1...40).contains(maxSuffixLength) else { throw ValidationError("--max-suffix-length \(maxSuffixLength) is out of range; use 1 to 40") }
        guard (emission2MinCount ?? 0) >= 0, emission2Weight >= 0, lexicalWeight >= 0 else { throw ValidationError("counts and weights must not be negative") }
        guard lexicalMinCount >= 0 else { throw ValidationError("--lexical-min-count must be 0 or more") }
    }

    func run() throws {
        try runReportingErrors {
            let mode: HMMBuildConfig.Mode
            if let states {
                var bw = BaumWelchConfig(states: states)
                bw.iterations = iterations
                bw.seed = seed
                bw.threads = threads
                mode = .unsupervised(bw)
            } else {
                var hmm = SupervisedHMMConfig()
                hmm.lexicalMinCount = lexicalMinCount
                hmm.rareThreshold = rareThreshold
                hmm.maxSuffixLength = maxSuffixLength
                hmm.emission2MinCount = emission2MinCount ?? lexicalMinCount
                hmm.emission2Weight = emission2Weight
                hmm.lexicalWeight = lexicalWeight
                mode = .supervised(hmm)
            }
            var config = HMMBuildConfig(mode: mode, inputs: states == nil ? tagged : corpora, output: output)
            config.format = format.flatMap(TaggedFormat.init(rawValue:))
            config.tagColumn = TagColumn(rawValue: tagset) ?? .upos
            if deprecatedKeepCase { warnDeprecated("--keep-case", "--no-lowercase") }
            config.lowercase = lowercase && !deprecatedKeepCase
            config.minCount = minCount
            config.corpus.replaceInvalidUTF8 = reading.replaceInvalidUTF8
            config.strict = build.strict
            let progress = StageProgress(quiet: build.quiet)
            let report = try HMMBuild.run(config, progress: progress)
            progress.say("\(output): \(report.storeBytes) bytes; \(report.sentences) sentences, \(report.tokens) tokens, \(report.states) states, \(report.vocabulary) words, \(report.emissions) emissions")
            printMeasure(progress, build.measure)
        }
    }
}
