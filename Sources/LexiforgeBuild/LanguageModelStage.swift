import Foundation
import LexiforgeNgrams
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeText

/// The language-model stage of a build: counts in, probabilities and backoffs out.
///
/// In: ``NgramCounts``. Out: a ``LanguageModel`` (via ``KneserNey``) and the `language_model`
/// provenance row that records how it was estimated, so `learn` and `merge` can estimate again
/// the same way.
public enum LanguageModelStage {
    public static func estimate(_ counts: NgramCounts, options: EstimationOptions, progress: StageProgress) -> LanguageModel {
        let model = KneserNey.estimate(counts, options: options)
        sayDiscounts(model.discounts, fallbackOrders: model.fallbackOrders, progress: progress)
        sayExtras(clusters: model.clusterModel, weight: model.clusterWeight, formRules: model.formRules, progress: progress)
        sayPruned(model.pruned, progress: progress)
        return model
    }

    /// Prints what the word classes and form rules came to, when the model has them.
    static func sayExtras(clusters: ClusterModel?, weight: Double, formRules: FormRules?, progress: StageProgress) {
        if let clusters {
            progress.say("  word classes: \(clusters.clusters.count) (exchange algorithm, \(clusters.clusters.passes) passes, "
                         + "\(clusters.clusters.lastMoves) moves in the last), class model weight \(weight)")
        }
        if let forms = formRules {
            progress.say("  form rules: \(forms.rules.count) suffix rules, \(forms.derivations) derivations of unseen forms")
        }
    }

    /// The `language_model` meta value (JSON).
    public static func describe(_ model: LanguageModel, options: EstimationOptions, vocabularySize: Int?) -> String {
        describe(discounts: model.discounts, order: model.order, pruned: model.pruned, clusters: model.clusterModel != nil,
                 clusterWeight: model.clusterWeight, formRules: model.formRules != nil, options: options,
                 vocabularySize: vocabularySize)
    }

    /// The `language_model` meta value of a model estimated streaming.
    public static func describe(_ model: StreamedModel, options: EstimationOptions, vocabularySize: Int?) -> String {
        describe(discounts: model.discounts, order: model.order, pruned: model.pruned, clusters: model.clusterModel != nil,
                 clusterWeight: model.clusterWeight, formRules: model.formRules != nil, options: options,
                 vocabularySize: vocabularySize)
    }

    static func describe(discounts: [[Double]], order: Int, pruned: [Int], clusters: Bool, clusterWeight: Double,
                         formRules: Bool, options: EstimationOptions, vocabularySize: Int?) -> String {
        var record = record(discounts: discounts, order: order, pruned: pruned, options: options, vocabularySize: vocabularySize)
        if clusters { (record.clusters, record.clusterWeight) = (options.clusters, clusterWeight) }
        if formRules { record.formRules = options.formRules }
        return record.json
    }

    static func record(discounts: [[Double]], order: Int, pruned: [Int], options: EstimationOptions, vocabularySize: Int?) -> LanguageModelRecord {
        // Six decimals, as the estimation log prints them: the row stays stable across platforms.
        let discounts = discounts.map { $0.map { (($0 * 1e6).rounded()) / 1e6 } }
        return LanguageModelRecord(
            logScale: Int(StoreSchema.logScale), discounts: discounts, minCount: (1...order).map { options.minCount(order: $0) },
            prune: options.entropyThreshold, vocabSize: vocabularySize, pruned: pruned)
    }

    /// Prints the n-grams pruned per order, when any were.
    static func sayPruned(_ pruned: [Int], progress: StageProgress) {
        if pruned.contains(where: { $0 > 0 }) {
            progress.say("  pruned n-grams per order: " + pruned.map(String.init).joined(separator: ", "))
        }
    }

    /// Prints the discounts of every order (and which fell back), as the estimation log shows them.
    static func sayDiscounts(_ discounts: [[Double]], fallbackOrders: [Int], progress: StageProgress) {
        for (i, d) in discounts.enumerated() {
            let note = fallbackOrders.contains(i + 1) ? " (fallback: too few n-grams to estimate)" : ""
            progress.say(String(format: "  discounts of order %d: D1 %.4f, D2 %.4f, D3+ %.4f", i + 1, d[0], d[1], d[2]) + note)
        }
    }

    /// Refuses a store whose `text_options` or `language_model` row is there but unreadable (not
    /// the JSON object lexiforge writes there, an unknown tokenizer ...): `learn` and `merge`
    /// would otherwise tokenize or estimate with defaults and silently rebuild the store differently.
    static func checkMeta(_ meta: [String: String], path: String) throws {
        typealias Key = StoreSchema.MetaKey
        if let json = meta[Key.textOptions], TextOptionsRecord.read(meta) == nil {
            throw StoreError.badMeta(path, key: Key.textOptions, value: json, expected: "the JSON object lexiforge writes there")
        }
        if let json = meta[Key.languageModel], LanguageModelRecord.read(meta) == nil {
            throw StoreError.badMeta(path, key: Key.languageModel, value: json, expected: "the JSON object lexiforge writes there")
        }
    }

    /// The estimation options a store was built with (from its `language_model` row).
    static func options(from meta: [String: String]) -> (options: EstimationOptions, vocabularySize: Int?, pruned: Bool) {
        var options = EstimationOptions()
        guard let record = LanguageModelRecord.read(meta) else { return (options, nil, false) }
        options.minCounts = record.minCount
        options.entropyThreshold = record.prune
        if let clusters = record.clusters { options.clusters = clusters }
        if let weight = record.clusterWeight { options.clusterWeight = weight }
        if let rules = record.formRules { options.formRules = rules }
        let pruned = record.pruned.contains { $0 > 0 }
        return (options, record.vocabSize, pruned || record.vocabSize != nil)
    }

    /// Checks the `language_model` meta row of the store at `path` before a stage estimates again
    /// with it (`merge`, `learn`): a readable record whose sizes are in range, or no row at all.
    /// - Throws: ``StoreError/damaged(_:_:)`` naming the value.
    static func checkEstimation(_ meta: [String: String], path: String) throws {
        guard let json = meta[StoreSchema.MetaKey.languageModel] else { return }
        func damaged(_ what: String) -> StoreError { .damaged(path, "`meta.language_model` \(what)") }
        guard let record = LanguageModelRecord.read(meta) else { throw damaged("is not the JSON object lexiforge writes there: \(json)") }
        func check(_ key: String, _ value: Int?, _ range: ClosedRange<Int>) throws {
            if let value, !range.contains(value) { throw damaged("has \(key) \(value), not an integer in \(range)") }
        }
        try check("vocab_size", record.vocabSize, 0...Int(Int32.max))
        try check("clusters", record.clusters, 0...StoreSchema.maxClusters)
        try check("form_rules", record.formRules, 0...Int(Int32.max))
        if !record.minCount.allSatisfy({ (0...Int(UInt32.max)).contains($0) }) {
            throw damaged("has min_count \(record.minCount), not a list of counts")
        }
        if !(record.prune >= 0 && record.prune.isFinite) { throw damaged("has prune \(record.prune), outside 0...") }
        if let weight = record.clusterWeight, !(0...1).contains(weight) { throw damaged("has cluster_weight \(weight), outside 0.0...1.0") }
    }

    /// The text options a store's tokens were made with (from its `text_options` row).
    public static func textOptions(from meta: [String: String]) -> (text: TextOptions, stripGutenberg: Bool, replaceInvalid: Bool) {
        let record = TextOptionsRecord.read(meta) ?? TextOptionsRecord()
        return (record.textOptions, record.stripGutenberg ?? true, record.replaceInvalidUTF8 ?? false)
    }
}

/// Everything a store holds, as plain values: the counts and the stored (quantized) log values.
public struct StoreContents: Sendable {
    public var meta: [String: String]
    public var counts: NgramCounts
    /// In store units (``StoreSchema/logScale``), aligned with `counts`.
    public var unigramLogProb: [Int64]
    public var unigramBackoff: [Int64]
    public var logProbs: [[Int64]]
    public var backoffs: [[Int64]]

    /// Reads a whole store, for the stages that build on it (`learn`, `merge`, `diff`, exports).
    /// - Throws: ``StoreError/badMeta(_:key:value:expected:)`` when `order`, `tokens` or
    ///   `sentences` is missing or not a number (never a default: learning into a store read as
    ///   the wrong order would silently rebuild it), ``StoreError/damaged(_:_:)`` for an id
    ///   outside the vocabulary or a count out of range.
    public static func load(path: String) throws -> StoreContents {
        let store = try TrainedStore(path: path)
        guard store.meta[StoreSchema.MetaKey.order] != nil else {
            throw StoreError.badMeta(path, key: StoreSchema.MetaKey.order, value: nil, expected: TrainedStore.orderExpectation)
        }
        let tokens = try store.metaCount(StoreSchema.MetaKey.tokens)
        let sentences = try store.metaCount(StoreSchema.MetaKey.sentences)
        try LanguageModelStage.checkEstimation(store.meta, path: path)
        var words: [String] = [], unigrams: [UInt64] = [], lp: [Int64] = [], bo: [Int64] = []
        try store.forEachWord { text, row in
            guard let count = UInt64(exactly: row.count) else {
                throw StoreError.damaged(path, "word \(words.count) has count \(row.count)")
            }
            words.append(text)
            unigrams.append(count)
            lp.append(row.logprob)
            bo.append(row.backoff)
        }
        var tables: [NgramCounts.Table] = [], logProbs: [[Int64]] = [], backoffs: [[Int64]] = []
        if store.order >= 2 {
            for n in 2...store.order {
                var keys: [UInt32] = [], counts: [UInt32] = [], p: [Int64] = [], b: [Int64] = []
                let table = StoreSchema.ngramTable(order: n)
                try store.forEachNgram(order: n) { row in
                    for id in row.ids {
                        guard id >= 0, id < Int64(words.count), let key = UInt32(exactly: id) else {
                            throw StoreError.damaged(path, "\(table) holds word id \(id), outside the vocabulary of \(words.count) words")
                        }
                        keys.append(key)
                    }
                    guard let count = UInt32(exactly: row.count) else {
                        throw StoreError.damaged(path, "\(table) holds count \(row.count), outside 0...\(UInt32.max)")
                    }
                    counts.append(count)
                    p.append(row.logprob)
                    b.append(row.backoff)
                }
                tables.append(.init(n: n, keys: keys, counts: counts))
                logProbs.append(p)
                backoffs.append(b)
            }
        }
        let meta = store.meta
        let counts = NgramCounts(order: store.order, words: words, unigramCounts: unigrams, tables: tables,
                                 tokens: tokens, sentences: sentences)
        return StoreContents(meta: meta, counts: counts, unigramLogProb: lp, unigramBackoff: bo,
                             logProbs: logProbs, backoffs: backoffs)
    }
}
