import Foundation
import LexiforgeCorpus
import LexiforgeNgrams
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeText

/// The toolchain's name and version, recorded in every store's provenance.
public let toolchainVersion = "lexiforge 0.1.0"

/// Everything that decides what `lexiforge ngrams` (and the n-gram stage of `train`) builds.
public struct NgramBuildConfig: Sendable {
    /// Corpus files, read in this order (plain or gzipped UTF-8 text).
    public var inputs: [String]
    /// The store to write (replaced atomically).
    public var output: String
    /// The store's final path when `output` is a staging file (``ModelBuild``), for messages.
    public var destination: String?
    /// Highest n-gram order counted, 1...5. Orders above 3 cost memory quickly.
    public var order: Int = 3
    /// Token-changing options; recorded in provenance.
    public var text = TextOptions()
    /// How files are read; recorded in provenance.
    public var corpus = CorpusReadOptions()
    /// Warnings (such as replaced invalid UTF-8) become errors.
    public var strict = false
    /// The model's name when built from a model file.
    public var modelName: String?
    /// Expected sha256 per input path (from the corpus manifest); a mismatch fails the build.
    public var expectedSHA256: [String: String] = [:]
    /// Estimate interpolated modified Kneser-Ney probabilities and store them next to the counts.
    /// Off by default: a counts-only store keeps the foundation layout and size budget (chapter 1
    /// at order 3: 155 KB instead of 204 KB); prediction, `eval` and ARPA export need it on.
    public var languageModel = false
    /// Language-model estimation: count and entropy pruning (see ``EstimationOptions``).
    public var estimation = EstimationOptions()
    /// Wordlists to merge with the counts (`train` with a model naming `wordlists`).
    public var lexiconMerge: LexiconMergeInput?
    /// Keep only this many most frequent words; the rest become `<unk>`. Nil keeps every word.
    public var vocabularySize: Int?
    /// Write the `word.lemma` and `word.script` columns. Off by default: on chapter 1 of Dorian
    /// Gray at order 2 they add about 26 kB (lemma text, two indexes), more than the keyboard
    /// store's size budget allows.
    public var wordClasses = false
    /// Where the lemmas of the `word.lemma` column come from (with ``wordClasses``); nil leaves
    /// the column NULL (every word its own lemma). Default: WordNet when installed.
    public var lemmatizer: LemmatizerSource? = LemmatizerSource.wordNetIfInstalled
    /// Hidden Markov tables to store beside the n-grams (`train` with `hmm_tagged` or
    /// `hmm_states`): their words join the vocabulary (count 0 when the corpora never saw them),
    /// so the store keeps one id per word.
    public var hmm: HMMTraining?
    /// Threads that read, tokenize and count (``ParallelCount``); the store does not depend on it.
    public var threads = 1
    /// The memory budget in bytes (`--memory`, model key `memory`); nil: ``MemoryBudget/defaultBytes``
    /// (half the machine's memory). Counting writes sorted runs to ``temporaryFolder`` when its
    /// tables reach the budget, and a build whose n-grams do not fit estimates and writes them
    /// streaming (``StreamingKneserNey``). The store does not depend on it.
    public var memory: Int?
    /// Where a build under a memory budget writes its temporary files; nil: beside the output.
    public var temporaryFolder: String?
    /// Count only part `index` of `of` of the corpora (a count shard: ``CountShard``): every file
    /// is read, and of its paragraph-aligned batches those numbered `index` modulo `of` are counted.
    public var part: (index: Int, of: Int)?
    /// More `meta` rows (a count shard's part).
    public var extraMeta: [String: String] = [:]
    /// Counts made elsewhere (merged count shards) instead of reading `inputs`.
    public var precounted: Precounted?

    /// Counts made elsewhere and the input records of what they counted.
    public struct Precounted: Sendable {
        /// In memory, or (a merge under a memory budget) sorted on disk.
        public let counts: NgramCounts?
        public let sorted: SortedNgrams?
        public let inputs: [InputRecord]
        public init(counts: NgramCounts, inputs: [InputRecord]) {
            self.counts = counts
            self.sorted = nil
            self.inputs = inputs
        }
        public init(sorted: SortedNgrams, inputs: [InputRecord]) {
            self.counts = nil
            self.sorted = sorted
            self.inputs = inputs
        }
    }

    public init(inputs: [String], output: String) {
        self.inputs = inputs
        self.output = output
    }
}

/// What a build did, for the statistics block and the tests.
public struct NgramBuildReport: Sendable {
    public var files: [CorpusFileSummary]
    public var tokens: Int
    public var sentences: Int
    /// Distinct words, reserved tokens included.
    public var vocabulary: Int
    /// Distinct n-grams per order (index 0 = unigrams = vocabulary).
    public var ngrams: [Int]
    public var storeBytes: Int
    public var warnings: [String]
}

/// One or more problems that stop a build; each is one line for a person.
public struct PipelineError: Error, CustomStringConvertible, Sendable {
    public var problems: [String]
    public init(_ problems: [String]) { self.problems = problems }
    public init(_ problem: String) { self.problems = [problem] }
    public var description: String { problems.joined(separator: "\n") }
}

/// Corpora in, an n-gram store out: read → split sentences and tokenize → count → write.
///
/// In: ``NgramBuildConfig``. Out: the store at `config.output`, written atomically, and an
/// ``NgramBuildReport``. Every input is checked before any is read (all problems are reported
/// together), every file is read even after one fails (so all bad files are named in one run),
/// and nothing is written unless every file was good.
public enum NgramBuild {
    public static func run(_ config: NgramBuildConfig, progress: StageProgress) throws -> NgramBuildReport {
        guard (1...StoreSchema.maxOrder).contains(config.order) else {
            throw PipelineError("--order \(config.order) is out of range; use 1 to \(StoreSchema.maxOrder)")
        }
        if config.precounted == nil {
            guard !config.inputs.isEmpty else { throw PipelineError("no corpus given; name at least one text file") }
            let problems = config.inputs.compactMap(checkInput)
            if !problems.isEmpty { throw PipelineError(problems) }
        }
        let file = try AtomicStoreFile.prepare(path: config.output)
        let lemmatizer = config.wordClasses ? try config.lemmatizer.map(LemmatizerBuild.make) : nil
        let budget = config.memory ?? MemoryBudget.defaultBytes
        // The temporary folder is checked (and created) before any reading: a missing or
        // unwritable one fails in milliseconds. Its files go with it on success and failure alike.
        let spill = config.precounted == nil ? try spillFolder(config.temporaryFolder, beside: file.temporaryPath) : nil
        defer { spill?.remove() }

        let stages = config.languageModel ? 4 : 3
        progress.stage(1, of: stages, config.precounted.map { "Counts of \($0.inputs.count) file(s) merged from count shards, orders 1-\(config.order)" }
                       ?? "Reading and counting \(config.inputs.count) file(s), orders 1-\(config.order)")
        let counters: [NgramCounter]
        var summaries: [CorpusFileSummary] = []
        let records: [InputRecord]
        var warnings: [String] = []
        if let precounted = config.precounted {
            counters = []
            records = precounted.inputs
        } else {
            (counters, summaries, warnings) = try countCorpora(config, budget: budget, spill: spill, progress: progress)
            records = summaries.map(\.record)
        }

        /// Sorted n-grams on disk: the rest of the build streams, unless a stage needs them in
        /// memory (then they are loaded, with a warning that the budget bounded only `what`).
        func fromDisk(_ sorted: SortedNgrams, bounding what: String) throws -> (NgramCounts?, NgramBuildReport?) {
            if let reason = inMemoryReason(config) {
                progress.warn("\(reason) needs every n-gram in memory: the memory budget of \(megabytes(budget)) bounds \(what) only")
                do { return (try sorted.load(), nil) } catch { throw PipelineError("\(error)") }
            }
            return (nil, try writeStreaming(sorted, config: config, records: records, summaries: summaries, warnings: warnings,
                                            lemmatizer: lemmatizer, budget: budget, file: file, stages: stages, progress: progress))
        }
        var counts: NgramCounts
        if let precounted = config.precounted, let sorted = precounted.sorted {
            progress.stage(2, of: stages, "\(sorted.words.count) words and their n-grams, sorted on disk by the merge")
            let (loaded, report) = try fromDisk(sorted, bounding: "the merge")
            if let report { return report }
            counts = loaded!
        } else if let precounted = config.precounted, let inMemory = precounted.counts {
            progress.stage(2, of: stages, "\(inMemory.words.count) words and their n-grams, sorted by the merge")
            counts = inMemory
        } else if let spill, counters.contains(where: { $0.spills > 0 }) || counters.reduce(0, { $0 + $1.inMemoryFinishBytes }) > budget {
            let runs = counters.reduce(0) { $0 + $1.spills }
            progress.stage(2, of: stages, "Sorting the n-grams of \(counters.count) thread(s) within the memory budget of \(megabytes(budget)) (\(runs) run(s) written to \(spill.path))")
            let sorted: SortedNgrams
            do {
                sorted = try NgramCounter.finishBounded(counters, folder: spill, budget: MemoryBudget.sortingShare(of: budget), threads: config.threads)
            } catch let error as SpillError { throw PipelineError(error.description) }
              catch let error as CountingLimit { throw PipelineError(error.description) }
            let (loaded, report) = try fromDisk(sorted, bounding: "the counting")
            if let report { return report }
            counts = loaded!
        } else {
            progress.stage(2, of: stages, counters.count == 1 ? "Sorting \(counters[0].vocabularySize) words and their n-grams"
                                                            : "Sorting and merging the n-grams of \(counters.count) threads")
            counts = NgramCounter.finish(counters, threads: config.threads)
        }
        if let size = config.vocabularySize { counts = counts.limitingVocabulary(to: size) }
        var lexicon: Lexicon?
        var mergeSummary: String?
        if let merge = config.lexiconMerge {
            let plan = LexiconMerge.plan(words: counts.words, unigramCounts: counts.unigramCounts, tokens: counts.tokens, input: merge)
            progress.say(LexiconMerge.describe(plan, listEntries: merge.lexicon.entries.count))
            counts = counts.renumbered(appending: plan.listOnly, order: plan.order)
            (lexicon, mergeSummary) = (plan.lexicon, plan.summary)
        }

        var hmm: HMMTables?
        if let training = config.hmm {
            let attached = attach(training.tables, to: counts)
            (counts, hmm) = (attached.counts, attached.tables)
            progress.say(describeAttached(training.tables, added: attached.added))
        }

        var meta = provenance(config: config, inputs: records, counts: counts)
        if let training = config.hmm { meta[StoreSchema.MetaKey.hmm] = training.description }
        meta.merge(config.extraMeta) { _, extra in extra }
        if let lexicon, let mergeSummary {
            meta[StoreSchema.LexiconMetaKey.entries] = String(lexicon.entries.count)
            meta[StoreSchema.LexiconMetaKey.merge] = mergeSummary
        }
        var written = counts
        if config.languageModel {
            progress.stage(3, of: stages, "Estimating interpolated modified Kneser-Ney probabilities")
            let model = LanguageModelStage.estimate(counts, options: config.estimation, progress: progress)
            progress.stage(4, of: stages, "Writing \(config.destination ?? config.output)")
            meta[StoreSchema.MetaKey.languageModel] = LanguageModelStage.describe(model, options: config.estimation, vocabularySize: config.vocabularySize)
            guard model.counts.words == counts.words else {
                throw PipelineError("internal: estimation changed the vocabulary (\(counts.words.count) → \(model.counts.words.count) words); please report it")
            }
            try StoreWriter.write(model: model, lexicon: lexicon, meta: meta,
                                  words: config.wordClasses ? wordColumns(model.counts.words, lemmatizer: lemmatizer) : nil,
                                  hmm: hmm, to: file)
            written = model.counts
        } else {
            progress.stage(3, of: stages, "Writing \(config.destination ?? config.output)")
            try StoreWriter.write(counts: counts, lexicon: lexicon, meta: meta,
                                  words: config.wordClasses ? wordColumns(counts.words, lemmatizer: lemmatizer) : nil,
                                  hmm: hmm, to: file)
        }
        progress.endStage()
        let bytes = (try? FileManager.default.attributesOfItem(atPath: config.output)[.size] as? Int) ?? 0
        return NgramBuildReport(
            files: summaries, tokens: counts.tokens, sentences: counts.sentences,
            vocabulary: counts.words.count, ngrams: [counts.words.count] + written.tables.map(\.entryCount),
            storeBytes: bytes, warnings: warnings)
    }

    /// Reads every input in order, splitting sentences and counting them (on `config.threads`
    /// threads: ``ParallelCount``). Returns the counters (one per thread, for
    /// ``NgramCounter/finish(_:threads:)``), the file summaries and the warnings; throws every
    /// file problem at once.
    static func countCorpora(_ config: NgramBuildConfig, budget: Int, spill: SpillFolder?, progress: StageProgress) throws -> ([NgramCounter], [CorpusFileSummary], [String]) {
        var options = config.corpus
        options.treebankText = true
        var reader = CorpusSentences(text: config.text, corpus: options)
        reader.expectedSHA256 = config.expectedSHA256
        reader.strict = config.strict
        let say: (CorpusFileSummary, Int) -> Void = { summary, tokens in
            progress.say("  \(summary.path): \(megabytes(summary.textBytes)) of text, \(summary.boilerplateLines) boilerplate lines dropped; \(tokens) tokens so far (\(String(format: "%.1f", progress.elapsed)) s)")
        }
        let counters: [NgramCounter]
        var result: CorpusSentences.Result
        // The counters' tables share a part of the budget (the rest: sorting, vocabularies, batches).
        let tableBytes = MemoryBudget.countingShare(of: budget, counters: max(1, config.threads))
        let bound: (NgramCounter) -> Void = { counter in if let spill { counter.bound(bytes: tableBytes, folder: spill) } }
        if config.threads > 1 || config.part != nil {
            (counters, result) = try ParallelCount.count(config.inputs, reader: reader, order: config.order,
                                                        threads: max(1, config.threads), part: config.part, bound: bound, fileDone: say)
        } else {
            let counter = NgramCounter(order: config.order)
            bound(counter)
            counters = [counter]
            result = try reader.read(config.inputs, fileDone: { say($0, counter.tokens) }) { sentence in
                counter.addSentence(count: sentence.count) { sentence[$0] }
            }
        }
        let saturated = counters.reduce(0) { $0 + $1.saturatedCounts }
        if saturated > 0 {
            let warning = "\(saturated) addition(s) found an n-gram count at 4,294,967,295, the largest a store holds (32-bit counts); those counts stay there, so their probabilities are slightly low"
            if config.strict { throw PipelineError(warning + " (an error under --strict)") }
            result.warnings.append(warning)
        }
        for warning in result.warnings { progress.say("warning: \(warning)") }
        return (counters, result.files, result.warnings)
    }

    /// `tables` over the vocabulary of `counts`: each of their words takes its id in `counts`, and
    /// the words the corpora never saw are appended with count 0 (in the tables' order: by
    /// training count, so the ids stay deterministic). Returns how many were appended.
    static func attach(_ tables: HMMTables, to counts: NgramCounts) -> (counts: NgramCounts, tables: HMMTables, added: Int) {
        var counts = counts
        let (remapped, added) = attach(tables, words: &counts.words, unigramCounts: &counts.unigramCounts)
        return (counts, remapped, added)
    }

    /// ``attach(_:to:)`` on a vocabulary alone (the n-gram ids do not change: new words are
    /// appended), for builds whose n-grams are on disk.
    static func attach(_ tables: HMMTables, words: inout [String], unigramCounts: inout [UInt64]) -> (tables: HMMTables, added: Int) {
        var idOf: [String: Int32] = [:]
        idOf.reserveCapacity(words.count)
        for (id, word) in words.enumerated() { idOf[word] = Int32(id) }
        let reserved = Int(StoreSchema.ReservedID.firstWord)
        var newID = [Int32](repeating: 0, count: tables.words.count)
        var added = 0
        for (i, word) in tables.words.enumerated() {
            if i < reserved { newID[i] = Int32(i); continue }
            if let id = idOf[word] { newID[i] = id; continue }
            newID[i] = Int32(words.count)
            idOf[word] = newID[i]
            words.append(word)
            unigramCounts.append(0)
            added += 1
        }
        return (tables.remapped(to: words, counts: unigramCounts.map { Int64($0) }, newID: newID), added)
    }

    /// The progress line of attaching hidden Markov tables.
    static func describeAttached(_ tables: HMMTables, added: Int) -> String {
        "  hidden Markov tables: \(tables.stateCount - 1) states; \(added) of their \(tables.words.count - Int(StoreSchema.ReservedID.firstWord)) words were not in the corpora and join the vocabulary with count 0"
    }

    /// The `word.lemma` and `word.script` columns: tag-free lemmas (NULL when the word is its own
    /// lemma, and for the reserved tokens) and script classes.
    static func wordColumns(_ words: [String], lemmatizer: Lemmatizer?) -> StoreWriter.WordColumns {
        var lemmas: [String?] = []
        var scripts: [UInt8] = []
        lemmas.reserveCapacity(words.count)
        scripts.reserveCapacity(words.count)
        for (id, word) in words.enumerated() {
            let reserved = id < Int(StoreSchema.ReservedID.firstWord)
            scripts.append(reserved ? ScriptClass.symbols.rawValue : ScriptClass(of: word).rawValue)
            let lemma = reserved ? nil : lemmatizer?.lemma(of: word, tag: nil, position: 1)
            lemmas.append(lemma == word ? nil : lemma)
        }
        return .init(lemmas: lemmas, scripts: scripts)
    }

    /// One line when `path` cannot be a corpus (checked before any reading starts).
    public static func checkInput(_ path: String) -> String? {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            return CorpusError.missing(path).description
        }
        if isDir.boolValue { return CorpusError.isDirectory(path).description }
        if !FileManager.default.isReadableFile(atPath: path) {
            return CorpusError.unreadable(path, "permission denied").description
        }
        return nil
    }

    /// The `meta` rows: everything needed to tell how a store was made, nothing that varies
    /// between identical builds (the build time only when `SOURCE_DATE_EPOCH` is set).
    static func provenance(config: NgramBuildConfig, inputs: [InputRecord], counts: NgramCounts) -> [String: String] {
        provenance(config: config, inputs: inputs, tokens: counts.tokens, sentences: counts.sentences, vocabulary: counts.words.count)
    }

    static func provenance(config: NgramBuildConfig, inputs: [InputRecord], tokens: Int, sentences: Int, vocabulary: Int) -> [String: String] {
        var provenance = StoreProvenance(
            toolchain: toolchainVersion, model: config.modelName, order: config.order, inputs: inputs,
            textOptions: TextOptionsRecord(config),
            tokens: tokens, sentences: sentences, vocabulary: vocabulary)
        if config.wordClasses, let lemmatizer = config.lemmatizer { provenance.extra[StoreSchema.MetaKey.lemmatizer] = lemmatizer.json }
        return provenance.rows
    }
}

extension CorpusFileSummary {
    /// The file as `meta.inputs` records it: name (not path), sha256, stored bytes.
    var record: InputRecord {
        InputRecord(file: URL(fileURLWithPath: path).lastPathComponent, sha256: sha256, bytes: storedBytes)
    }
}
