import Foundation
import LexiforgeCorpus
import LexiforgeHMM
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeText

/// Everything that decides what `lexiforge hmm` builds.
public struct HMMBuildConfig: Sendable {
    public enum Mode: Sendable, Equatable {
        /// Supervised (TnT-style) training from tagged corpora.
        case supervised(SupervisedHMMConfig)
        /// Baum-Welch with K hidden classes on plain text.
        case unsupervised(BaumWelchConfig)
    }
    public var mode: Mode
    /// Tagged corpora (supervised) or plain-text corpora (unsupervised).
    public var inputs: [String]
    public var output: String
    /// Format of tagged inputs; nil guesses from each file name (``TaggedFormat/guess(path:)``).
    public var format: TaggedFormat?
    /// Which CoNLL-U column gives the tags.
    public var tagColumn: TagColumn = .upos
    /// Unsupervised: lowercase the text before training (classes of words, not of spellings).
    public var lowercase = true
    /// Unsupervised: how the text is split and tokenized; nil is the default of `lexiforge hmm`
    /// (``lowercase``, punctuation kept). `train` passes the model's options, so the classes are
    /// learned over exactly the tokens of the n-grams they sit beside.
    public var text: TextOptions?
    /// Unsupervised: words seen fewer times share the `<unk>` emission.
    public var minCount = 2
    /// How files are read (invalid UTF-8, Gutenberg boilerplate).
    public var corpus = CorpusReadOptions()
    /// Warnings become errors.
    public var strict = false

    public init(mode: Mode, inputs: [String], output: String) {
        self.mode = mode
        self.inputs = inputs
        self.output = output
    }
}

/// What an HMM build did.
public struct HMMBuildReport: Sendable {
    /// The inputs as read (path, sha256, bytes).
    public var files: [CorpusFileSummary] = []
    public var sentences: Int
    public var tokens: Int
    public var states: Int
    public var vocabulary: Int
    public var emissions: Int
    /// Supervised: λ1, λ2, λ3. Unsupervised: empty.
    public var lambdas: [Double]
    /// Unsupervised: the log-likelihood before each iteration, then after the last.
    public var logLikelihoods: [Double]
    public var storeBytes: Int
    public var warnings: [String]
}

/// Trained hidden Markov tables, not yet written.
public struct HMMTraining: Sendable {
    /// Word ids are indexes into `tables.words` (reserved tokens first).
    public var tables: HMMTables
    /// Provenance for a store of its own (`lexiforge hmm`), with ``StoreSchema/MetaKey/hmm``.
    public var meta: [String: String]
    /// JSON for ``StoreSchema/MetaKey/hmm``: how the tables were trained (beside n-grams, the
    /// store's other meta rows describe the n-grams).
    public var description: String
    /// `storeBytes` is 0 until a store is written.
    public var report: HMMBuildReport
}

/// Tagged or plain corpora in, a store of hidden Markov tables out.
///
/// In: ``HMMBuildConfig``. Out: the store at `config.output` (written atomically; see
/// ``StoreSchema/HMM``) and an ``HMMBuildReport``. Every input is read even after one fails, every
/// malformed line is reported as `file:line: problem`, and nothing is written unless all were good.
/// `lexiforge train` calls ``train(_:progress:)`` instead and writes the tables beside the n-grams.
public enum HMMBuild {
    public static func run(_ config: HMMBuildConfig, progress: StageProgress) throws -> HMMBuildReport {
        try checkInputs(config)
        let file = try AtomicStoreFile.prepare(path: config.output)
        let trained = try trainChecked(config, progress: progress, stages: 3)
        progress.stage(3, of: 3, "Writing \(config.output)")
        try StoreWriter.write(hmm: trained.tables, meta: trained.meta, to: file)
        progress.endStage()
        var report = trained.report
        report.storeBytes = (try? FileManager.default.attributesOfItem(atPath: config.output)[.size] as? Int) ?? 0
        return report
    }

    /// Reads the inputs and trains the tables without writing a store: stages 1 and 2 of `stages`.
    /// - Throws: ``PipelineError`` with every problem of every input.
    public static func train(_ config: HMMBuildConfig, progress: StageProgress, stages: Int = 2) throws -> HMMTraining {
        try checkInputs(config)
        return try trainChecked(config, progress: progress, stages: stages)
    }

    /// ``train(_:progress:stages:)`` once ``checkInputs(_:)`` has passed.
    static func trainChecked(_ config: HMMBuildConfig, progress: StageProgress, stages: Int) throws -> HMMTraining {
        switch config.mode {
        case .supervised(let hmm): return try supervised(config, hmm, progress: progress, stages: stages)
        case .unsupervised(let bw): return try unsupervised(config, bw, progress: progress, stages: stages)
        }
    }

    /// Every input exists and is a readable file (all problems at once), before anything is read.
    static func checkInputs(_ config: HMMBuildConfig) throws {
        guard !config.inputs.isEmpty else { throw PipelineError("no corpus given; name at least one file") }
        let problems = config.inputs.compactMap(NgramBuild.checkInput)
        if !problems.isEmpty { throw PipelineError(problems) }
    }

    /// Reads every tagged file into `body`; throws all problems together.
    public static func readTagged(
        _ paths: [String], format: TaggedFormat?, column: TagColumn, config: HMMBuildConfig,
        progress: StageProgress, afterFile: (String) -> String? = { _ in nil }, _ body: ([String], [String]) -> Void
    ) throws -> (summaries: [TaggedFileSummary], warnings: [String]) {
        var errors: [String] = [], warnings: [String] = [], summaries: [TaggedFileSummary] = []
        for path in paths {
            let format = format ?? TaggedFormat.guess(path: path)
            let summary = TaggedCorpusReader.read(path: path, format: format, tagColumn: column,
                                                  replaceInvalidUTF8: config.corpus.replaceInvalidUTF8, body)
            errors += summary.errors.map(\.description)
            warnings += summary.warnings.map(\.description)
            summaries.append(summary)
            progress.say("  \(path) (\(format.rawValue)): \(summary.sentences) sentences, \(summary.tokens) tokens\(summary.errors.isEmpty ? "" : ", \(summary.errors.count) problem(s)")")
            if let problem = afterFile(path) { throw PipelineError(errors + [problem]) }
        }
        if config.strict { errors += warnings.map { $0 + " (an error under --strict)" } }
        for warning in warnings where !config.strict { progress.say("warning: \(warning)") }
        if !errors.isEmpty { throw PipelineError(errors) }
        return (summaries, warnings)
    }

    static func supervised(_ config: HMMBuildConfig, _ hmm: SupervisedHMMConfig, progress: StageProgress, stages: Int) throws -> HMMTraining {
        progress.stage(1, of: stages, "Reading \(config.inputs.count) tagged file(s)")
        let trainer = SupervisedHMMTrainer(config: hmm)
        let (summaries, warnings) = try readTagged(config.inputs, format: config.format, column: config.tagColumn,
                                                   config: config, progress: progress, afterFile: { path in
            // Checked before the tag tables are allocated (tags³ numbers).
            guard trainer.tagCount > SupervisedHMMTrainer.maxTags else { return nil }
            return "\(path): \(trainer.tagCount) distinct \(config.tagColumn.rawValue.uppercased()) tags so far, more than the \(SupervisedHMMTrainer.maxTags) a tagger holds (its trigram tables take tags³ numbers); check the tag column (--tagset upos|xpos) and the file format"
        }) { trainer.add(words: $0, tags: $1) }
        progress.stage(2, of: stages, "Estimating transitions, emissions and the suffix model")
        let tables = trainer.finish()
        typealias P = StoreSchema.HMMParameter
        let lambdas = [P.lambda1, P.lambda2, P.lambda3].map { tables.parameters[$0] ?? 0 }
        progress.say("  \(tables.stateCount - 1) tags, \(tables.words.count - 3) words; λ = \(lambdas.map { String(format: "%.3f", $0) }.joined(separator: ", ")); θ = \(String(format: "%.4f", tables.parameters[P.suffixTheta] ?? 0))")
        let files = summaries.compactMap(\.file)
        var textOptions = TextOptionsRecord()
        textOptions.tagset = config.tagColumn.rawValue
        textOptions.lowercase = false
        let description = HMMRecord(training: "supervised", tagset: config.tagColumn.rawValue, inputs: files.map(\.record),
                                    sentences: trainer.sentences, tokens: trainer.tokens)
        let meta = provenance(config, files: files, tokens: trainer.tokens, sentences: trainer.sentences, vocabulary: tables.words.count,
                              textOptions: textOptions, description: description).rows
        return HMMTraining(tables: tables, meta: meta, description: description.json,
                           report: report(tables, files: summaries.compactMap(\.file), sentences: trainer.sentences, tokens: trainer.tokens,
                                          lambdas: lambdas, logLikelihoods: [], warnings: warnings))
    }

    static func unsupervised(_ config: HMMBuildConfig, _ bw: BaumWelchConfig, progress: StageProgress, stages: Int) throws -> HMMTraining {
        guard (1...BaumWelchConfig.maxStates).contains(bw.states) else {
            throw PipelineError("\(bw.states) hidden states is out of range; use 1 to \(BaumWelchConfig.maxStates)")
        }
        progress.stage(1, of: stages, "Reading \(config.inputs.count) file(s) of plain text")
        let text = config.text ?? TextOptions(lowercase: config.lowercase, keepPunctuation: true)
        var index: [String: Int32] = [:]
        var names: [String] = []
        var tokens: [Int32] = []
        var ends: [Int] = []
        func add(_ sentence: SentenceView) {
            for i in 0..<sentence.count {
                let word = String(decoding: sentence[i], as: UTF8.self)
                if let id = index[word] { tokens.append(id) } else {
                    let id = Int32(names.count)
                    index[word] = id
                    names.append(word)
                    tokens.append(id)
                }
            }
            ends.append(tokens.count)
        }
        var reader = CorpusSentences(text: text, corpus: config.corpus)
        reader.strict = config.strict
        let read = try reader.read(config.inputs, fileDone: { progress.say("  \($0.path): \(tokens.count) tokens so far") }, emit: add)
        let summaries = read.files, warnings = read.warnings
        for warning in warnings { progress.say("warning: \(warning)") }

        // Vocabulary: words seen at least minCount times by descending count; the rest are <unk>.
        var counts = [Int64](repeating: 0, count: names.count)
        for t in tokens { counts[Int(t)] += 1 }
        let kept = (0..<names.count).filter { counts[$0] >= Int64(config.minCount) }.sorted {
            counts[$0] != counts[$1] ? counts[$0] > counts[$1] : names[$0].utf8.lexicographicallyPrecedes(names[$1].utf8)
        }
        var remap = [Int32](repeating: Int32(StoreSchema.ReservedID.unknown), count: names.count)
        for (rank, w) in kept.enumerated() { remap[w] = Int32(Int(StoreSchema.ReservedID.firstWord) + rank) }
        var unknownCount: Int64 = 0
        for i in tokens.indices {
            let id = remap[Int(tokens[i])]
            if id == Int32(StoreSchema.ReservedID.unknown) { unknownCount += 1 }
            tokens[i] = id
        }
        let words = [StoreSchema.unknownToken, StoreSchema.sentenceStartToken, StoreSchema.sentenceEndToken] + kept.map { names[$0] }
        let wordCounts = [unknownCount, Int64(ends.count), Int64(ends.count)] + kept.map { counts[$0] }
        let corpus = BaumWelchCorpus(tokens: tokens, sentenceEnds: ends, vocabularySize: words.count)

        progress.stage(2, of: stages, "Baum-Welch: \(bw.states) states, \(tokens.count) tokens, \(words.count) words, seed \(bw.seed)")
        let trainer = BaumWelch(corpus: corpus, config: bw)
        var previous = -Double.infinity
        for iteration in 1...max(bw.iterations, 1) {
            let started = Date()
            let startedCPU = processCPUSeconds()
            let ll = trainer.iterate()
            let perToken = ll / Double(max(tokens.count, 1))
            progress.say(String(format: "  iteration %d: log-likelihood %.6e (%.5f per token), %.2f s (%.2f CPU s)", iteration, ll, perToken,
                                Date().timeIntervalSince(started), processCPUSeconds() - startedCPU))
            if previous.isFinite && (perToken - previous) < bw.tolerance { break }
            previous = perToken
        }
        let tables = trainer.tables(words: words, wordCounts: wordCounts, lowercase: text.lowercase)

        var textOptions = TextOptionsRecord(text, replaceInvalidUTF8: config.corpus.replaceInvalidUTF8, stripGutenberg: config.corpus.stripGutenberg)
        textOptions.minCount = config.minCount
        let description = HMMRecord(training: "baum-welch", states: bw.states, seed: bw.seed, iterations: trainer.logLikelihoods.count - 1,
                                    minCount: config.minCount, inputs: summaries.map(\.record), sentences: ends.count, tokens: tokens.count)
        let meta = provenance(config, files: summaries, tokens: tokens.count, sentences: ends.count, vocabulary: words.count,
                              textOptions: textOptions, description: description).rows
        return HMMTraining(tables: tables, meta: meta, description: description.json,
                           report: report(tables, files: summaries, sentences: ends.count, tokens: tokens.count, lambdas: [],
                                          logLikelihoods: trainer.logLikelihoods, warnings: warnings))
    }

    static func report(_ tables: HMMTables, files: [CorpusFileSummary], sentences: Int, tokens: Int, lambdas: [Double], logLikelihoods: [Double],
                       warnings: [String]) -> HMMBuildReport {
        return HMMBuildReport(files: files, sentences: sentences, tokens: tokens, states: tables.stateCount - 1, vocabulary: tables.words.count,
                              emissions: tables.emissions.count, lambdas: lambdas, logLikelihoods: logLikelihoods,
                              storeBytes: 0, warnings: warnings)
    }

    static func provenance(_ config: HMMBuildConfig, files: [CorpusFileSummary], tokens: Int, sentences: Int, vocabulary: Int,
                           textOptions: TextOptionsRecord, description: HMMRecord) -> StoreProvenance {
        var model: String
        switch config.mode {
        case .supervised: model = "hmm-supervised"
        case .unsupervised(let bw): model = "hmm-baum-welch-k\(bw.states)-seed\(bw.seed)"
        }
        var provenance = StoreProvenance(toolchain: toolchainVersion, model: model, order: 1, inputs: files.map(\.record),
                                         textOptions: textOptions, tokens: tokens, sentences: sentences, vocabulary: vocabulary)
        provenance.extra[StoreSchema.MetaKey.hmm] = description.json
        return provenance
    }
}
