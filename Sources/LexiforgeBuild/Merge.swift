import Foundation
import LexiforgeNgrams
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeText

/// `lexiforge merge A B -o C`: two stores counted from different shards of a corpus, combined into
/// the store that counting the whole corpus in one run gives.
///
/// In: two stores of the same order and text options. Out: a store with summed counts (words
/// re-ranked, so ids match a whole-corpus build), probabilities estimated again with A's estimation
/// options, and provenance listing A's inputs then B's. Exact for unpruned stores; a pruned store
/// has lost the counts it pruned, which the merge cannot restore (a warning says so).
public enum Merge {
    public static func run(_ a: String, _ b: String, output: String, progress: StageProgress) throws -> NgramBuildReport {
        // -o may name A or B (a read-modify-write of that store): held until the rename, so a
        // concurrent update of the output fails as busy instead of one run being lost.
        let lock = try storeLock(output)
        defer { lock.release() }
        let file = try AtomicStoreFile.prepare(path: output)
        progress.stage(1, of: 3, "Reading \(a) and \(b)")
        let first = try StoreContents.load(path: a)
        let second = try StoreContents.load(path: b)
        try LanguageModelStage.checkMeta(first.meta, path: a)
        try LanguageModelStage.checkMeta(second.meta, path: b)
        guard first.counts.order == second.counts.order else {
            throw PipelineError("\(b): order \(second.counts.order) differs from \(a)'s \(first.counts.order); merge stores built with the same --order")
        }
        let key = StoreSchema.MetaKey.textOptions
        guard first.meta[key] == second.meta[key] else {
            throw PipelineError("\(b): text options \(second.meta[key] ?? "none") differ from \(a)'s \(first.meta[key] ?? "none"); the tokens would not match")
        }
        progress.stage(2, of: 3, "Merging counts and estimating")
        let merged = first.counts.merged(with: second.counts)
        var meta = first.meta
        meta[StoreSchema.MetaKey.inputs] = Self.concatenatedInputs(first.meta, second.meta)
        return try Self.write(merged, meta: meta, warnIfPruned: [first.meta, second.meta], to: file, progress: progress)
    }

    /// The update lock of `path` (``StoreLock``), its errors as the store writer's.
    static func storeLock(_ path: String) throws -> StoreLock {
        do { return try StoreLock.acquire(for: path) } catch { throw StoreWriteError(error) }
    }

    /// A's JSON input list followed by B's.
    static func concatenatedInputs(_ a: [String: String], _ b: [String: String]) -> String {
        MetaJSON.encode(InputRecord.list(a) + InputRecord.list(b))
    }

    /// Estimates `counts` the way the store described by `meta` was estimated and writes it.
    static func write(_ counts: NgramCounts, meta base: [String: String], warnIfPruned: [[String: String]],
                      to file: AtomicStoreFile, progress: StageProgress) throws -> NgramBuildReport {
        let (options, vocabularySize, pruned) = LanguageModelStage.options(from: base)
        if warnIfPruned.contains(where: { LanguageModelStage.options(from: $0).pruned }) || pruned {
            progress.say("warning: a store was pruned or had its vocabulary limited; the counts it dropped are lost, so the result is not what a whole-corpus build gives")
        }
        var limited = counts
        if let size = vocabularySize { limited = limited.limitingVocabulary(to: size) }
        var meta = base
        meta[StoreSchema.MetaKey.tokens] = String(limited.tokens)
        meta[StoreSchema.MetaKey.sentences] = String(limited.sentences)
        meta[StoreSchema.MetaKey.vocabulary] = String(limited.words.count)
        meta[StoreSchema.MetaKey.toolchain] = toolchainVersion
        var written = limited
        if base[StoreSchema.MetaKey.languageModel] != nil {
            let model = LanguageModelStage.estimate(limited, options: options, progress: progress)
            meta[StoreSchema.MetaKey.languageModel] = LanguageModelStage.describe(model, options: options, vocabularySize: vocabularySize)
            progress.stage(3, of: 3, "Writing \(file.path)")
            try StoreWriter.write(model: model, meta: meta, to: file)
            written = model.counts
        } else {
            progress.stage(3, of: 3, "Writing \(file.path)")
            try StoreWriter.write(counts: limited, meta: meta, to: file)
        }
        progress.endStage()
        let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        return NgramBuildReport(files: [], tokens: limited.tokens, sentences: limited.sentences,
                                vocabulary: limited.words.count,
                                ngrams: [limited.words.count] + written.tables.map(\.entryCount),
                                storeBytes: bytes, warnings: [])
    }
}

/// `lexiforge learn STORE TEXT...`: adds sentences to an existing store, as a keyboard learns what
/// its user types.
///
/// In: a store and text files (or literal sentences), tokenized with the store's own text options.
/// Out: the same store, replaced atomically by one whose counts include the new sentences and
/// whose probabilities are estimated again: a reader that has the store open keeps reading the old
/// file, and an interrupted run leaves the old store in place. The store's ``StoreLock`` is held
/// throughout: a concurrent `learn` (or `merge`, `swipe features`) on it fails as busy.
public enum Learn {
    public static func run(store path: String, files: [String], sentences: [String], progress: StageProgress) throws -> NgramBuildReport {
        guard !files.isEmpty || !sentences.isEmpty else { throw PipelineError("nothing to learn; name text files or give --sentence") }
        let problems = files.compactMap(NgramBuild.checkInput)
        if !problems.isEmpty { throw PipelineError(problems) }
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError.missing(path) }
        // Held from reading the store to renaming the new one over it: a second `learn` fails
        // as busy at once instead of one run's sentences being lost.
        let lock = try Merge.storeLock(path)
        defer { lock.release() }
        let contents = try StoreContents.load(path: path)
        try LanguageModelStage.checkMeta(contents.meta, path: path)
        let file = try AtomicStoreFile.prepare(path: path)
        let (text, strip, replace) = LanguageModelStage.textOptions(from: contents.meta)
        progress.stage(1, of: 3, "Counting \(files.count) file(s) and \(sentences.count) sentence(s) with the store's text options")
        var config = NgramBuildConfig(inputs: files, output: path)
        config.order = contents.counts.order
        config.text = text
        config.corpus.stripGutenberg = strip
        config.corpus.replaceInvalidUTF8 = replace
        let (counters, summaries, _) = try NgramBuild.countCorpora(config, budget: .max, spill: nil, progress: progress)
        for sentence in sentences {
            for tokens in SentenceSplitter.sentences(in: sentence, options: text) { counters[0].add(sentence: tokens) }
        }
        let learned = NgramCounter.finish(counters, threads: 1)
        progress.say("  learned \(learned.tokens) tokens in \(learned.sentences) sentences")
        var meta = contents.meta
        let added = NgramBuild.provenance(config: config, inputs: summaries.map(\.record), counts: learned)
        meta[StoreSchema.MetaKey.inputs] = Merge.concatenatedInputs(contents.meta, added)
        return try Merge.write(contents.counts.merged(with: learned), meta: meta, warnIfPruned: [],
                               to: file, progress: progress)
    }
}
