import Foundation
import LexiforgeNgrams
import LexiforgeReader
import LexiforgeText

/// Count shards: the counts of a corpus (or of one part of it), written by one machine or one
/// Spark task, merged exactly into the store one run over the whole corpus gives.
///
/// **Format.** A shard is a counts-only n-gram store (``StoreSchema``: `word` and the
/// `bigram`... tables with counts, no probabilities), readable with `sqlite3` like any store,
/// whose `meta` has the usual provenance (`order`, `text_options`, `inputs`, `tokens`,
/// `sentences`) plus `count_shard`: `{"part":K,"parts":N}`, or `{}` for the counts of whole files.
/// A part counts every N-th paragraph-aligned batch of the corpora (``ParallelCount``), so every
/// part reads every file (and records all of them in `inputs`) and the N parts add up to the whole.
///
/// **Merge.** Shards must agree on the order and the text options (tokens made another way
/// would not add up); parts must be parts of one split (the same `N`, the same inputs, each `K`
/// once). Whole-file shards are concatenated in the order given. The counts are combined
/// (``NgramCounts/combining(_:threads:)``: sorted tables merged linearly) and the rest of the build (vocabulary limit, wordlists, hidden Markov tables, language
/// model, swipe layouts) is ``ModelBuild``'s, so a merge with the model file is byte-identical to
/// `lexiforge train` of that model file.
public enum CountShard {
    /// The meta key marking a shard.
    public static let metaKey = "count_shard"

    /// `meta.count_shard`: which parts of a split the shard holds (`lexiforge count --part K/N`
    /// holds `[K]`; a merge of parts into a shard, their union), or neither for whole files.
    public struct Part: Codable, Equatable, Sendable {
        public var part: [Int]?
        public var parts: Int?
    }

    /// Counts `spec`'s corpora (only part `part.index` of `part.of` when given) into a shard.
    public static func write(_ spec: ModelSpec, inputs: ModelInputs, part: (index: Int, of: Int)?, output: String,
                             threads: Int, memory: Int? = nil, temporaryFolder: String? = nil, strict: Bool, progress: StageProgress,
                             source: SpecDiagnostic.Style = .commandLine) throws -> NgramBuildReport {
        try spec.check(source)
        if let part, !(part.of >= 1 && (0..<part.of).contains(part.index)) {
            throw PipelineError("--part \(part.index)/\(part.of) is out of range; use K/N with 0 <= K < N")
        }
        return try writeShard(spec, inputs: inputs, output: output, strict: strict, progress: progress) { config in
            // Counts only: whatever depends on the whole corpus is done by the merge.
            config.languageModel = false
            config.vocabularySize = nil
            config.wordClasses = false
            config.threads = threads
            config.memory = memory ?? spec.memory
            config.temporaryFolder = temporaryFolder
            config.part = part
            config.extraMeta[metaKey] = MetaJSON.encode(Part(part: part.map { [$0.index] }, parts: part?.of))
        }
    }

    /// The n-gram build of `spec` into a staging file renamed onto `output` once complete.
    static func writeShard(_ spec: ModelSpec, inputs: ModelInputs, output: String, strict: Bool, progress: StageProgress,
                           configure: (inout NgramBuildConfig) -> Void) throws -> NgramBuildReport {
        let staged: AtomicOutput
        do { staged = try AtomicOutput.prepare(path: output, kind: "count shard") } catch { throw PipelineError(error.description) }
        var config = NgramBuildConfig(spec: spec, inputs: inputs, output: staged.temporaryPath, strict: strict)
        config.destination = output
        configure(&config)
        let report = try NgramBuild.run(config, progress: progress)
        do { try staged.commit() } catch { throw PipelineError(error.description) }
        return report
    }

    /// What the shards hold together: their combined counts and the input records, with the order and text
    /// options they agree on (as their meta records them).
    public struct Loaded {
        public var counts: NgramBuildConfig.Precounted
        public var order: Int
        public var meta: [String: String]
        /// The parts the shards hold together.
        public var part: Part
    }

    /// Reads and checks `paths`; with `spec`, also that they were counted as `spec` counts (same
    /// order, text options and corpora). Every problem of every shard is reported at once.
    /// With `partial`, parts may be missing (an intermediate merge of a tree).
    ///
    /// With `spill`, shards whose files together pass half the budget are combined on disk
    /// (``SortedNgrams/combining(_:order:folder:budget:)``: their rows streamed from SQLite through
    /// an external sort) and the build that follows estimates and writes streaming; otherwise they
    /// are read whole and combined in memory. The counts are the same either way.
    public static func load(_ paths: [String], spec: ModelSpec? = nil, inputs: ModelInputs? = nil,
                            partial: Bool = false, spill: (budget: Int, folder: SpillFolder)? = nil,
                            progress: StageProgress) throws -> Loaded {
        guard !paths.isEmpty else { throw PipelineError("no count shard given; name the shards `lexiforge count` wrote") }
        var problems: [String] = []
        var shards: [(path: String, contents: ShardHead, part: Part)] = []
        for path in paths {
            do {
                let contents = try ShardHead(path: path)
                guard let part = MetaJSON.decode(Part.self, from: contents.meta[metaKey]) else {
                    problems.append("\(path): not a count shard (its meta has no \(metaKey) row); write shards with `lexiforge count`")
                    continue
                }
                shards.append((path, contents, part))
            } catch {
                problems.append("\(error)")
            }
        }
        if !problems.isEmpty { throw PipelineError(problems) }
        let first = shards[0]
        let textKey = StoreSchema.MetaKey.textOptions
        for shard in shards.dropFirst() {
            if shard.contents.order != first.contents.order {
                problems.append("\(shard.path): order \(shard.contents.order) differs from \(first.path)'s \(first.contents.order); count every shard with the same order")
            }
            if TextOptionsRecord.read(shard.contents.meta) != TextOptionsRecord.read(first.contents.meta) {
                problems.append("\(shard.path): text options \(shard.contents.meta[textKey] ?? "none") differ from \(first.path)'s \(first.contents.meta[textKey] ?? "none"); the tokens would not add up")
            }
            if shard.contents.meta[StoreSchema.MetaKey.toolchain] != first.contents.meta[StoreSchema.MetaKey.toolchain] {
                problems.append("\(shard.path): written by \(shard.contents.meta[StoreSchema.MetaKey.toolchain] ?? "an unknown toolchain"), \(first.path) by \(first.contents.meta[StoreSchema.MetaKey.toolchain] ?? "an unknown toolchain"); count every shard with the same lexiforge")
            }
        }
        // Parts of one split, or whole-file shards; not a mix.
        let parted = shards.filter { $0.part.parts != nil }
        var records: [InputRecord] = []
        var union = Part()
        if !parted.isEmpty {
            if parted.count != shards.count {
                problems.append("parts of a split (count --part) and whole-file shards cannot be merged together")
            } else {
                let n = first.part.parts!
                var seen = [String?](repeating: nil, count: n)
                for shard in shards {
                    let held = shard.part.part ?? []
                    guard shard.part.parts == n, !held.isEmpty, held.allSatisfy({ (0..<n).contains($0) }) else {
                        problems.append("\(shard.path): holds part(s) \(held.map(String.init).joined(separator: ", ")) of \(shard.part.parts.map(String.init) ?? "?"), but \(first.path) is from a split into \(n)")
                        continue
                    }
                    for k in held {
                        if let other = seen[k] { problems.append("\(shard.path): part \(k) of \(n) again (also in \(other))") }
                        seen[k] = shard.path
                    }
                    if InputRecord.list(shard.contents.meta) != InputRecord.list(first.contents.meta) {
                        problems.append("\(shard.path): counted other inputs than \(first.path) (meta.inputs differ); parts of one split read the same files")
                    }
                }
                let missing = seen.indices.filter { seen[$0] == nil }
                if !missing.isEmpty && !partial {
                    problems.append("part(s) \(missing.map(String.init).joined(separator: ", ")) of \(n) are missing; merge every part of the split")
                }
                union = Part(part: seen.indices.filter { seen[$0] != nil }, parts: n)
            }
            records = InputRecord.list(first.contents.meta)
        } else {
            records = shards.flatMap { InputRecord.list($0.contents.meta) }
        }
        if let spec {
            let order = first.contents.order
            if order != spec.order { problems.append("\(first.path): order \(order), but the model says \(spec.order)") }
            let wanted = TextOptionsRecord(NgramBuildConfig(spec: spec, inputs: inputs ?? ModelInputs(corpora: []), output: "", strict: false))
            if TextOptionsRecord.read(first.contents.meta) != wanted {
                problems.append("\(first.path): text options \(first.contents.meta[textKey] ?? "none"), but the model's are \(MetaJSON.encode(wanted)); count the shards with this model file")
            }
            if let inputs {
                let expected = inputs.corpora.map { path in
                    (URL(fileURLWithPath: path).lastPathComponent, inputs.expectedSHA256[path])
                }
                let got = records.map { ($0.file, Optional($0.sha256)) }
                if got.count != expected.count || zip(got, expected).contains(where: { $0.0 != $1.0 || ($1.1 != nil && $0.1 != $1.1) }) {
                    problems.append("the shards counted \(records.map(\.file).joined(separator: ", ")), but the model's corpora are \(expected.map(\.0).joined(separator: ", ")) (names and sha256 must match, in order)")
                }
            }
        }
        if !problems.isEmpty { throw PipelineError(problems) }
        let order = first.contents.order
        let bytes = shards.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1.path)[.size] as? Int) ?? 0) }
        if let spill, bytes > MemoryBudget.sortingShare(of: spill.budget) {
            progress.say("merging \(shards.count) count shard(s) on disk within the memory budget of \(megabytes(spill.budget)): words summed and ranked, rows streamed, sorted in runs and merged (\(spill.folder.path))")
            let parts = try shards.map { try streamedPart($0.path) }
            let sorted: SortedNgrams
            do {
                sorted = try SortedNgrams.combining(parts, order: order, folder: spill.folder,
                                                    budget: MemoryBudget.sortingShare(of: spill.budget))
            } catch let error as SpillError { throw PipelineError(error.description) }
              catch let error as CountingLimit { throw PipelineError(error.description) }
            return Loaded(counts: .init(sorted: sorted, inputs: records), order: order, meta: first.contents.meta, part: union)
        }
        progress.say("merging \(shards.count) count shard(s): words summed and ranked, tables remapped, sorted and merged")
        let counts = NgramCounts.combining(try shards.map { try StoreContents.load(path: $0.path).counts },
                                           threads: ProcessInfo.processInfo.activeProcessorCount)
        return Loaded(counts: .init(counts: counts, inputs: records), order: order, meta: first.contents.meta, part: union)
    }

    /// What the checks of a merge need of a shard: its meta and order, read without its n-grams.
    struct ShardHead {
        let meta: [String: String]
        let order: Int

        init(path: String) throws {
            let store = try TrainedStore(path: path)
            guard store.meta[StoreSchema.MetaKey.order] != nil else {
                throw StoreError.badMeta(path, key: StoreSchema.MetaKey.order, value: nil, expected: TrainedStore.orderExpectation)
            }
            _ = try store.metaCount(StoreSchema.MetaKey.tokens)
            _ = try store.metaCount(StoreSchema.MetaKey.sentences)
            try LanguageModelStage.checkEstimation(store.meta, path: path)
            meta = store.meta
            order = store.order
        }
    }

    /// A shard as a part of ``SortedNgrams/combining(_:order:folder:budget:)``: its vocabulary read
    /// now, its n-grams streamed from SQLite when asked (``TrainedStore/forEachNgram(order:_:)``
    /// checks every id against the vocabulary; a count past 32 bits is refused here, as
    /// ``StoreContents/load(path:)`` refuses it).
    static func streamedPart(_ path: String) throws -> SortedNgrams.Part {
        let store = try TrainedStore(path: path)
        try store.stopMapping()
        var words: [String] = [], counts: [UInt64] = []
        try store.forEachWord { text, row in
            guard let count = UInt64(exactly: row.count) else { throw StoreError.damaged(path, "word \(words.count) has count \(row.count)") }
            words.append(text)
            counts.append(count)
        }
        return SortedNgrams.Part(words: words, unigramCounts: counts, tokens: try store.metaCount(StoreSchema.MetaKey.tokens),
                                 sentences: try store.metaCount(StoreSchema.MetaKey.sentences)) { n, body in
            var ids = [UInt32](repeating: 0, count: n)
            let table = StoreSchema.ngramTable(order: n)
            try store.forEachNgram(order: n) { row in
                for j in 0..<n { ids[j] = UInt32(truncatingIfNeeded: row.ids[j]) }
                guard let count = UInt32(exactly: row.count) else {
                    throw StoreError.damaged(path, "\(table) holds count \(row.count), outside 0...\(UInt32.max)")
                }
                try ids.withUnsafeBufferPointer { try body($0, count) }
            }
        }
    }
}

extension TextOptionsRecord {
    /// What a build with `config` records in `meta.text_options`.
    init(_ config: NgramBuildConfig) {
        self.init(config.text, replaceInvalidUTF8: config.corpus.replaceInvalidUTF8, stripGutenberg: config.corpus.stripGutenberg)
    }
}

extension CountShard {
    /// `lexiforge merge SHARD... -o STORE`: the shards' counts summed, then the rest of the build.
    ///
    /// With `modelPath`, everything else comes from the model file (wordlists, hidden Markov
    /// tables, language model, swipe layouts) and the store is byte-identical to `lexiforge train`
    /// of it. Without, the order and text options come from the shards and `languageModel` asks
    /// for probabilities with the default estimation, as `lexiforge ngrams --language-model` would.
    /// With `asShard`, the result is a shard again (the union of the parts; any subset of a
    /// split): the inner merges of a tree.
    ///
    /// `memory` (else the model's `memory`, else ``MemoryBudget/defaultBytes``) bounds the merge:
    /// shards past it are combined on disk in a folder of `temporaryFolder` (default: beside
    /// `output`) and the build streams (``load(_:spec:inputs:partial:spill:progress:)``).
    public static func merge(_ paths: [String], modelPath: String?, languageModel: Bool, asShard: Bool = false,
                             output: String, memory: Int? = nil, temporaryFolder: String? = nil,
                             strict: Bool, progress: StageProgress) throws -> NgramBuildReport {
        // The merge's temporary folder goes when the merge ends, success or failure (SpillFolder.remove).
        var folders: [SpillFolder] = []
        defer { for folder in folders { folder.remove() } }
        func spill(_ spec: ModelSpec?) throws -> (budget: Int, folder: SpillFolder) {
            let folder = try NgramBuild.spillFolder(temporaryFolder, beside: output)
            folders.append(folder)
            return (memory ?? spec?.memory ?? MemoryBudget.defaultBytes, folder)
        }
        if let modelPath {
            let (spec, warnings) = try ModelSpec.load(path: modelPath)
            if strict && !warnings.isEmpty { throw PipelineError(warnings.map { $0 + " (an error under --strict)" }) }
            for warning in warnings { progress.warn(warning) }
            guard spec.kind == .ngrams else {
                throw PipelineError("\(modelPath): a \(spec.kind) model has no n-gram counts to merge; use `lexiforge train`")
            }
            let inputs = try ModelInputs(resolving: spec, modelPath: modelPath)
            let loaded = try load(paths, spec: spec, inputs: inputs, spill: try spill(spec), progress: progress)
            return try ModelBuild.run(spec, inputs: inputs, output: output, strict: strict, progress: progress,
                                      source: .modelFile(modelPath), memory: memory, precounted: loaded.counts)
        }
        let loaded = try load(paths, partial: asShard, spill: try spill(nil), progress: progress)
        var spec = ModelSpec()
        let record = TextOptionsRecord.read(loaded.meta) ?? TextOptionsRecord()
        let text = record.textOptions
        spec.corpora = loaded.counts.inputs.map(\.file)
        spec.order = loaded.order
        spec.lowercase = text.lowercase
        spec.keepPunctuation = text.keepPunctuation
        spec.tokenizer = text.mode
        spec.normalization = text.normalization
        spec.straightQuotes = text.straightQuotes
        spec.numberClass = text.numberClass
        spec.replaceInvalidUTF8 = record.replaceInvalidUTF8 ?? false
        spec.keepGutenbergBoilerplate = !(record.stripGutenberg ?? true)
        spec.languageModel = languageModel
        if let name = loaded.meta[StoreSchema.MetaKey.model] { spec.name = name }
        if asShard {
            return try writeShard(spec, inputs: ModelInputs(corpora: []), output: output, strict: strict, progress: progress) { config in
                config.lemmatizer = nil
                config.memory = memory
                config.precounted = loaded.counts
                config.extraMeta[metaKey] = MetaJSON.encode(loaded.part)
            }
        }
        return try ModelBuild.run(spec, inputs: ModelInputs(corpora: []), output: output, strict: strict,
                                  progress: progress, memory: memory, precounted: loaded.counts)
    }
}

extension CountShard {
    /// Whether `path` is a readable store whose meta marks it as a count shard.
    public static func isShard(_ path: String) -> Bool {
        guard let store = try? TrainedStore(path: path) else { return false }
        return store.meta[metaKey] != nil
    }
}
