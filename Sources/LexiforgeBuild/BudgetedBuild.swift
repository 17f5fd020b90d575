import Foundation
import LexiforgeCorpus
import LexiforgeNgrams
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeText

/// The memory budget of a build (`--memory SIZE`, model key `memory`): sizes as KenLM's `lmplz -S`
/// writes them, and how a budget is shared between the stages.
public enum MemoryBudget {
    /// Half the machine's physical memory: room for the page cache and whatever else runs.
    public static var defaultBytes: Int { Int(ProcessInfo.processInfo.physicalMemory / 2) }

    /// The smallest budget accepted: below it the fixed parts (vocabularies, buffers, SQLite's
    /// cache) would not fit.
    public static let minimumBytes = 16 << 20

    /// `256M`, `4G`, `512K`, `1T` (binary units, as `lmplz -S`), a number of bytes, or a
    /// percentage of physical memory (`50%`). Nil when `text` is none of these.
    public static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let last = trimmed.last else { return nil }
        if last == "%" {
            guard let percent = Double(trimmed.dropLast()), percent > 0, percent <= 100 else { return nil }
            return Int(Double(ProcessInfo.processInfo.physicalMemory) * percent / 100)
        }
        let units: [Character: Int] = ["b": 1, "B": 1, "k": 1 << 10, "K": 1 << 10, "m": 1 << 20, "M": 1 << 20,
                                       "g": 1 << 30, "G": 1 << 30, "t": 1 << 40, "T": 1 << 40]
        let (digits, unit) = units[last].map { (trimmed.dropLast(), $0) } ?? (Substring(trimmed), 1)
        guard let value = Double(digits), value > 0, value.isFinite else { return nil }
        let bytes = value * Double(unit)
        guard bytes < Double(Int.max) else { return nil }
        return Int(bytes)
    }

    /// What `--memory` and the model key `memory` say they take.
    public static let expectation = "a size such as 256M, 4G or 50% (of the machine's memory), at least 16M"

    /// The bytes each counter's hash tables may hold: half the budget, shared by the counting
    /// threads and the reading thread's own counter (long paragraphs). The rest is for the
    /// vocabularies, the batches in flight and the sorting that follows.
    static func countingShare(of budget: Int, counters: Int) -> Int { capped(budget / 2 / (counters + 1)) }

    /// The bytes of one stage's sorting (finishing the counts, each sort of the estimation).
    static func sortingShare(of budget: Int) -> Int { capped(budget / 2) }

    /// `LEXIFORGE_SPILL_BYTES` caps every share, so that tests on tiny corpora spill (the same
    /// knob as `LEXIFORGE_BATCH_BYTES` for the parallel reader's batches).
    static let testCap: Int? = ProcessInfo.processInfo.environment["LEXIFORGE_SPILL_BYTES"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }

    static func capped(_ bytes: Int) -> Int { testCap.map { min($0, bytes) } ?? bytes }
}

extension NgramCounter {
    /// About what finishing and estimating in memory would take: the sorted tables, their copies
    /// while sorting, and the estimation's per-entry arrays (suffix and prefix indexes, adjusted
    /// counts, probabilities).
    var inMemoryFinishBytes: Int {
        guard order >= 2 else { return 0 }
        return (2...order).reduce(0) { $0 + entryCount(order: $1) * (2 * (4 * $1 + 4) + 40) }
    }
}

extension NgramBuild {
    /// Why a build must hold its n-grams in memory even under a budget (the stages that need
    /// random access to them), or nil when it can estimate and write streaming.
    static func inMemoryReason(_ config: NgramBuildConfig) -> String? {
        if config.languageModel { return StreamingKneserNey.unsupported(config.estimation, order: config.order) }
        return nil
    }

    /// The private folder for a build's temporary files: in `temporaryFolder`, else beside `output`.
    /// - Throws: ``PipelineError`` naming the folder when it is missing or cannot be written.
    static func spillFolder(_ temporaryFolder: String?, beside output: String) throws -> SpillFolder {
        do {
            return try SpillFolder(in: temporaryFolder ?? URL(fileURLWithPath: output).deletingLastPathComponent().path)
        } catch { throw PipelineError(error.description) }
    }

    /// The rest of a build whose n-grams are in sorted files: estimation streaming over them
    /// (``StreamingKneserNey``) and the store written row by row (``StoreWriter``), in the same
    /// bytes as the in-memory path.
    static func writeStreaming(_ counted: SortedNgrams, config: NgramBuildConfig, records: [InputRecord],
                               summaries: [CorpusFileSummary], warnings: [String], lemmatizer: Lemmatizer?,
                               budget: Int, file: AtomicStoreFile, stages: Int, progress: StageProgress) throws -> NgramBuildReport {
        var sorted = counted
        var lexicon: Lexicon?
        var mergeSummary: String?
        var hmm: HMMTables?
        do {
            if let size = config.vocabularySize {
                sorted = try sorted.limitingVocabulary(to: size, budget: MemoryBudget.sortingShare(of: budget))
            }
            if let merge = config.lexiconMerge {
                let plan = LexiconMerge.plan(words: sorted.words, unigramCounts: sorted.unigramCounts, tokens: sorted.tokens, input: merge)
                progress.say(LexiconMerge.describe(plan, listEntries: merge.lexicon.entries.count))
                sorted = try sorted.renumbered(appending: plan.listOnly, order: plan.order, budget: MemoryBudget.sortingShare(of: budget))
                (lexicon, mergeSummary) = (plan.lexicon, plan.summary)
            }
            if let training = config.hmm {
                var (words, unigrams) = (sorted.words, sorted.unigramCounts)
                let attached = attach(training.tables, words: &words, unigramCounts: &unigrams)
                progress.say(describeAttached(training.tables, added: attached.added))
                sorted = try sorted.renumbered(appending: Array(words[sorted.words.count...]), order: Array(words.indices),
                                               budget: MemoryBudget.sortingShare(of: budget))
                hmm = attached.tables
            }
        } catch let error as SpillError { throw PipelineError(error.description) }
          catch let error as CountingLimit { throw PipelineError(error.description) }
        var meta = provenance(config: config, inputs: records, tokens: sorted.tokens, sentences: sorted.sentences,
                              vocabulary: sorted.words.count)
        if let training = config.hmm { meta[StoreSchema.MetaKey.hmm] = training.description }
        meta.merge(config.extraMeta) { _, extra in extra }
        if let lexicon, let mergeSummary {
            meta[StoreSchema.LexiconMetaKey.entries] = String(lexicon.entries.count)
            meta[StoreSchema.LexiconMetaKey.merge] = mergeSummary
        }
        let columns = config.wordClasses ? wordColumns(sorted.words, lemmatizer: lemmatizer) : nil
        guard config.languageModel else {
            progress.stage(stages, of: stages, "Writing \(config.destination ?? config.output), streaming the sorted n-grams")
            try StoreWriter.write(sorted: sorted, lexicon: lexicon, meta: meta, words: columns, hmm: hmm, to: file)
            return finished(sorted, config: config, summaries: summaries, warnings: warnings, progress: progress)
        }
        let streamed: StreamedModel
        do {
            progress.stage(3, of: stages, "Estimating interpolated modified Kneser-Ney probabilities, streaming over sorted n-grams")
            streamed = try StreamingKneserNey.estimate(sorted, options: config.estimation, budget: MemoryBudget.sortingShare(of: budget))
            LanguageModelStage.sayDiscounts(streamed.discounts, fallbackOrders: streamed.fallbackOrders, progress: progress)
            LanguageModelStage.sayExtras(clusters: streamed.clusterModel, weight: streamed.clusterWeight,
                                         formRules: streamed.formRules, progress: progress)
            LanguageModelStage.sayPruned(streamed.pruned, progress: progress)
            meta[StoreSchema.MetaKey.languageModel] = LanguageModelStage.describe(streamed, options: config.estimation,
                                                                                  vocabularySize: config.vocabularySize)
        } catch let error as SpillError { throw PipelineError(error.description) }
        progress.stage(stages, of: stages, "Writing \(config.destination ?? config.output)")
        try StoreWriter.write(streamed: streamed, lexicon: lexicon, meta: meta, words: columns, hmm: hmm, to: file)
        return finished(sorted, entryCounts: streamed.entryCounts, config: config, summaries: summaries, warnings: warnings, progress: progress)
    }

    /// The report of a streamed build; `entryCounts` are the n-grams stored per order from 2 (the
    /// model's, after pruning), else the sorted tables'.
    static func finished(_ sorted: SortedNgrams, entryCounts: [Int]? = nil, config: NgramBuildConfig, summaries: [CorpusFileSummary],
                         warnings: [String], progress: StageProgress) -> NgramBuildReport {
        progress.endStage()
        let bytes = (try? FileManager.default.attributesOfItem(atPath: config.output)[.size] as? Int) ?? 0
        return NgramBuildReport(
            files: summaries, tokens: sorted.tokens, sentences: sorted.sentences, vocabulary: sorted.words.count,
            ngrams: [sorted.words.count] + (entryCounts ?? sorted.entryCounts), storeBytes: bytes, warnings: warnings)
    }
}
