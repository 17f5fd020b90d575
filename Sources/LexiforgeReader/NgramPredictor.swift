import Foundation
import GRDB
import GRDBSQLite

/// A word the language model predicts, with its probability in the context asked about.
public struct Prediction: Sendable, Equatable, CustomStringConvertible {
    public var word: String
    /// log10 p(word | context) as the store holds it (back-off applied).
    public var log10Probability: Double
    /// The order of the n-gram that gave the probability: 3 = two words of context matched,
    /// 2 = one, 1 = none (unigram, backed off); 0 = a form the store never saw, derived by its
    /// suffix rules (``NgramPredictor/derivedForms(of:limit:excluding:)``).
    public var order: Int

    public var probability: Double { pow(10, log10Probability) }
    public var description: String { "\(word) (\(String(format: "%.3f", log10Probability)), order \(order))" }
}

/// Language-model queries on a store: next words, completions, probabilities, starting words.
///
/// ```swift
/// let predictor = try NgramPredictor(store: TrainedStore(path: "Artifacts/dorian-gray.sqlite"))
/// try predictor.nextWords(after: ["I", "think"], limit: 3)         // that, it, he ...
/// try predictor.completions(of: "th", after: ["I", "think"])       // that, the, there ...
/// try predictor.probability(of: "that", after: ["I", "think"])     // 0.08...
/// ```
/// Opening loads the vocabulary (text, unigram log-probabilities and backoffs) into memory: about
/// 65 bytes a word (11 MB for en_US's 169,000, the store's vocabulary and the byte-ordered
/// spellings included), 0.1 s for 100,000 words. Every query afterwards reads only the rows it needs.
///
/// Probabilities follow the ARPA back-off rule: p(w | h) is the stored probability of the longest
/// n-gram `h w` in the store, times the backoff weights of the longer contexts that were not
/// followed by w. Ranked queries walk each context's continuations in descending probability
/// (through the `_top` lists of busy contexts on large stores) and stop as soon as nothing further
/// down can enter the top `limit`; this is exact because an interpolated Kneser-Ney probability is
/// never below its backed-off value. Queries run on raw prepared SQLite statements (cached per
/// connection), with no transaction per query.
///
/// A store built with word classes (`ngrams --classes K`) is ranked and scored by the word model
/// interpolated with its class model, p = (1 − λ) p_word + λ p_class (see
/// ``StoreSchema/clusterCreationStatements``), still exactly; ``logProb(of:context:)`` stays the
/// word model's back-off probability, the one `export arpa` writes.
///
/// Bad input has defined answers: unknown context words cut the context (a context of unknown
/// words only gives the starting words; an unknown last word after known ones, the unigram
/// distribution, as the ARPA back-off rule gives), an empty prefix is the same as ``nextWords(after:limit:)``,
/// `limit` < 1 gives no predictions.
public final class NgramPredictor: Sendable {
    public let store: TrainedStore
    public let order: Int
    package let words: [String]
    let ids: WordIndex
    let unigramLogProb: [Int32]
    /// The largest of ``unigramLogProb`` (what a word no context level continues can get at most,
    /// before the back-off: ``ContextDistribution/maximumUncontinuedLog10Probability``).
    let maximumUnigramLogProb: Int32
    let unigramBackoff: [Int32]
    /// Word ids sorted by UTF-8 bytes, their spellings in that order, and each id's position
    /// there (prefix = contiguous range).
    let alphabetical: [Int32]
    let sortedBytes: WordBuffer
    package let alphabeticalPosition: [Int32]
    /// Suggestible word ids by descending unigram probability.
    let byProbability: [Int32]
    package let suggestible: [Bool]
    let sql: PredictorSQL
    let hasTopTables: Bool
    /// Sorted continuations of busy contexts read whole (at most 262,144 entries, 2 MB).
    let cache = ContinuationCache(capacity: 1 << 18)
    /// The class-based model interpolated with the word model, when the store has one.
    package let clusters: ClusterLM?
    /// The suffix rules for unseen forms, when the store has them and they are wanted.
    let forms: FormDeriver?

    /// `derivedForms`: whether completions are topped up with forms the store's suffix rules
    /// derive (when it has them, `ngrams --form-rules`) once its known words run out.
    /// - Throws: ``StoreError/noLanguageModel(_:)`` for a counts-only store.
    public init(store: TrainedStore, derivedForms: Bool = true) throws {
        guard store.hasLanguageModel else { throw StoreError.noLanguageModel(store.path) }
        self.store = store
        order = store.order
        sql = PredictorSQL(order: store.order)
        hasTopTables = try store.checked { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name = ?",
                             arguments: [store.order >= 2 ? StoreSchema.topTable(order: 2) : ""]) == 1
        }
        let vocabulary = try store.vocabulary()
        let words = vocabulary.texts, lp = vocabulary.logprobs
        let weight = Self.clusterWeight(store.meta)
        clusters = try store.checked { db in try ClusterLM(db, words: words.count, order: store.order, weight: weight) }
        forms = derivedForms ? try store.checked { db in try FormDeriver(db) } : nil
        self.words = words
        unigramLogProb = lp
        maximumUnigramLogProb = lp.max() ?? 0
        unigramBackoff = vocabulary.backoffs
        // The vocabulary's own index when every spelling is there once (it gives the first id of a
        // repeated spelling, this the last), rather than a second one.
        ids = vocabulary.index.distinct == words.count ? vocabulary.index : WordIndex(texts: words, keepingLast: true)
        // Byte order as the store's `word_order` holds it (read with the vocabulary), not sorted again.
        let alphabetical = vocabulary.alphabetical
        self.alphabetical = alphabetical
        sortedBytes = WordBuffer(alphabetical.map { words[Int($0)] })
        var position = [Int32](repeating: 0, count: words.count)
        for (i, id) in alphabetical.enumerated() { position[Int(id)] = Int32(i) }
        alphabeticalPosition = position
        let suggestible = words.enumerated().map { $0.offset >= Int(StoreSchema.ReservedID.firstWord) && TrainedStore.isSuggestible($0.element) }
        self.suggestible = suggestible
        byProbability = (0..<Int32(words.count)).filter { suggestible[Int($0)] }.sorted { lp[Int($0)] > lp[Int($1)] || (lp[Int($0)] == lp[Int($1)] && $0 < $1) }
        // The busiest contexts ("the", "of the": thousands of continuations) are read once now and
        // kept sorted, so no query pays for reading them: on gutenberg-11m 146 contexts, 219,000
        // continuations, 1.8 MB and a few tens of milliseconds at open.
        if hasTopTables {
            try store.checked { db in
                for n in 2...order {
                    let table = StoreSchema.topTable(order: n)
                    let context = (1..<n).map { "w\($0)" }.joined(separator: ", ")
                    let rows = try Row.fetchAll(db, sql: "SELECT \(context) FROM \(table) WHERE continuations > ?",
                                                arguments: [Self.residentContinuations])
                    for row in rows {
                        let key = try (0..<(n - 1)).map { Int32(try row.wordID($0, table, "w\($0 + 1)", words: words.count)) }
                        cache.pin(key, try readSorted(db, key[...]))
                    }
                }
            }
        }
    }

    /// Contexts with more continuations than this are held in memory, sorted, from the start.
    public static let residentContinuations = 512

    /// The id of `word`, or nil when the store never saw it.
    public func id(of word: String) -> Int32? { ids[word] }

    /// The most likely next words after `context` (tokens typed so far), best first.
    /// - Complexity: a few indexed range reads; walks stop once the top `limit` is settled.
    /// `excluding`: words not to offer (say, those the user already passed over for this word).
    public func nextWords(after context: [String], limit: Int = 3, excluding: Set<String> = []) throws -> [Prediction] {
        try ranked(context: suggestionContext(context), prefix: nil, limit: limit, excluding: excluding)
    }

    /// The most likely words starting with `prefix` after `context`, ranked by probability (not by length).
    /// When fewer than `limit` known words start with `prefix` and the store has suffix rules
    /// (`ngrams --form-rules`), the list is topped up with forms of known words it never saw
    /// (``derivedForms(of:limit:excluding:)``, order 0), after the known words.
    public func completions(of prefix: String, after context: [String], limit: Int = 3,
                            excluding: Set<String> = []) throws -> [Prediction] {
        let h = suggestionContext(context)
        let known = try ranked(context: h, prefix: prefix.isEmpty ? nil : Array(prefix.utf8), limit: limit, excluding: excluding)
        return try withDerivedForms(known, prefix: prefix, context: h, limit: limit, excluding: excluding)
    }

    /// The most likely first words of a sentence.
    public func startingWords(limit: Int = 3) throws -> [Prediction] {
        try ranked(context: suggestionContext([]), prefix: nil, limit: limit)
    }

    /// p(word | context), interpolated with the store's class model when it has one (as the
    /// rankings are). Unknown words are `<unk>`; an empty context means the start of a sentence
    /// only when `sentenceStart` is set (then `<s>` is the context), otherwise none.
    public func probability(of word: String, after context: [String], sentenceStart: Bool = false) throws -> Double {
        let contextIDs = (sentenceStart ? [Int32(StoreSchema.ReservedID.sentenceStart)] : []) + context.map { ids[$0] ?? 0 }
        return pow(10, try interpolatedLogProb(of: ids[word] ?? 0, context: contextIDs).value)
    }

    /// log10 p(w | context) in store units (``StoreSchema/logScale``) and the order that matched,
    /// by the ARPA back-off rule. `context` holds ids, oldest first; only the last order − 1 count.
    /// Ids outside the vocabulary are taken as `<unk>`.
    public func logProb(of word: Int32, context: [Int32]) throws -> (value: Int, order: Int) {
        let known = 0..<Int32(words.count)
        let word = known.contains(word) ? word : Int32(StoreSchema.ReservedID.unknown)
        let h = context.suffix(max(order - 1, 0)).map { known.contains($0) ? $0 : Int32(StoreSchema.ReservedID.unknown) }
        return try store.checked { db in
            var backoff = 0
            var k = h.count
            while k >= 1 {
                let suffix = Array(h.suffix(k))
                if let lp = try entry(db, suffix + [word])?.logprob { return (lp + backoff, k + 1) }
                backoff += k == 1 ? Int(unigramBackoff[Int(suffix[0])]) : (try entry(db, suffix)?.backoff ?? 0)
                k -= 1
            }
            return (Int(unigramLogProb[Int(word)]) + backoff, 1)
        }
    }

    /// λ of the class model, from the `language_model` meta row (`cluster_weight`).
    public static func clusterWeight(_ meta: [String: String]) -> Double {
        LanguageModelRecord.read(meta)?.clusterWeight ?? 0
    }

    /// The ids of a typed context: the words after the last unknown one.
    /// - No context, or only unknown words: `<s>` (the starting words).
    /// - Known words, then an unknown last word: none, so the ranking is the unigram distribution,
    ///   as the ARPA back-off rule gives for `<unk>` (a word never seen before a word has no
    ///   n-grams of its own). Mid-sentence after a name or a rare word, the next word is "of",
    ///   "and", "to" far more often than a sentence opener. On the keystroke bench's development
    ///   texts (3 suggestions, presage protocol) this scored +0.57 points on sherlock-holmes and
    ///   −0.24 on pride-and-prejudice, all of that loss in its table of contents ("Chapter 5
    ///   Chapter 6": the digits are unknown, and "chapter" opens sentences in Dorian Gray).
    package func suggestionContext(_ context: [String]) -> [Int32] {
        var h: [Int32] = []
        for word in context.suffix(max(order - 1, 0)) {
            if let id = ids[word] { h.append(id) } else { h.removeAll() }
        }
        if h.isEmpty && order >= 2 && !context.contains(where: { ids[$0] != nil }) {
            h = [Int32(StoreSchema.ReservedID.sentenceStart)]
        }
        return h
    }

    /// The alphabetical positions of the words starting with `prefix`.
    package func prefixRange(_ prefix: [UInt8]) -> Range<Int> {
        func lowerBound(_ key: [UInt8], inclusive: Bool) -> Int {
            var lo = 0, hi = sortedBytes.count
            while lo < hi {
                let mid = (lo + hi) / 2
                let word = sortedBytes[mid]
                // Compare only the first key.count bytes when looking for the end of the prefix run.
                let before = inclusive ? word.lexicographicallyPrecedes(key) : !key.lexicographicallyPrecedes(word.prefix(key.count))
                if before { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        return lowerBound(prefix, inclusive: true)..<lowerBound(prefix, inclusive: false)
    }

    /// The stored logprob and backoff of one n-gram of order ≥ 2 (one b-tree seek, raw statement).
    func entry(_ db: Database, _ ngram: [Int32]) throws -> (logprob: Int, backoff: Int)? {
        let n = ngram.count
        guard n >= 2, n <= order else { return nil }
        let handle = try db.cachedStatement(sql: sql.entry[n]).sqliteStatement
        defer { sqlite3_reset(handle) }
        for (j, id) in ngram.enumerated() { sqlite3_bind_int64(handle, Int32(j + 1), Int64(id)) }
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            return (try RawColumn.logValue(handle, 0, "`\(StoreSchema.ngramTable(order: n))`.logprob"),
                    try RawColumn.logValue(handle, 1, "`\(StoreSchema.ngramTable(order: n))`.backoff"))
        case SQLITE_DONE: return nil
        case let status: throw RawColumn.error(db, status)
        }
    }

    /// Every continuation of `context` (k ids) at order k + 1, in id order: (word id, logprob).
    /// Word ids and logprobs are checked (``StoreDamage``) before `body` sees them.
    func scan(_ db: Database, _ context: ArraySlice<Int32>, _ body: (Int32, Int) -> Void) throws {
        let n = context.count + 1
        let handle = try db.cachedStatement(sql: sql.scan[n]).sqliteStatement
        defer { sqlite3_reset(handle) }
        for (j, id) in context.enumerated() { sqlite3_bind_int64(handle, Int32(j + 1), Int64(id)) }
        let vocabularySize = Int64(words.count)
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_ROW:
                let id = try RawColumn.integer(handle, 0, "`\(StoreSchema.ngramTable(order: n))`.w\(n)")
                guard id >= 0, id < vocabularySize else {
                    throw StoreDamage("`\(StoreSchema.ngramTable(order: n)).w\(n)` holds word id \(id), but the vocabulary has \(words.count) words")
                }
                body(Int32(id), try RawColumn.logValue(handle, 1, "`\(StoreSchema.ngramTable(order: n))`.logprob"))
            case SQLITE_DONE: return
            case let status: throw RawColumn.error(db, status)
            }
        }
    }

    /// The `_top` row of a busy context: its number of continuations and its best ones, best first.
    func topList(_ db: Database, _ context: ArraySlice<Int32>) throws -> (continuations: Int, best: [(id: Int32, logprob: Int)])? {
        let n = context.count + 1
        guard hasTopTables else { return nil }
        let handle = try db.cachedStatement(sql: sql.top[n]).sqliteStatement
        defer { sqlite3_reset(handle) }
        for (j, id) in context.enumerated() { sqlite3_bind_int64(handle, Int32(j + 1), Int64(id)) }
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            let bytes = Int(sqlite3_column_bytes(handle, 1))
            var best: [(id: Int32, logprob: Int)] = []
            if let blob = sqlite3_column_blob(handle, 1) {
                let raw = UnsafeRawBufferPointer(start: blob, count: bytes)
                best.reserveCapacity(bytes / StoreSchema.topEntryBytes)
                for at in stride(from: 0, to: bytes - StoreSchema.topEntryBytes + 1, by: StoreSchema.topEntryBytes) {
                    let id = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
                    let lp = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: at + 4, as: Int16.self))
                    guard id < UInt32(words.count) else {
                        throw StoreDamage("`\(StoreSchema.topTable(order: n)).top` lists word id \(id), but the vocabulary has \(words.count) words")
                    }
                    best.append((Int32(id), Int(lp)))
                }
            }
            let continuations = try RawColumn.integer(handle, 0, "`\(StoreSchema.topTable(order: n))`.continuations")
            guard continuations >= 0, continuations <= StoreSchema.maxCount else {
                throw StoreDamage("`\(StoreSchema.topTable(order: n)).continuations` holds \(continuations)")
            }
            return (Int(continuations), best)
        case SQLITE_DONE: return nil
        case let status: throw RawColumn.error(db, status)
        }
    }

    /// All continuations of a busy context, best first, from the cache or from one scan (then cached).
    func sortedContinuations(_ db: Database, _ context: ArraySlice<Int32>) throws -> [(id: Int32, logprob: Int32)] {
        let key = Array(context)
        if let cached = cache.get(key) { return cached }
        let all = try readSorted(db, context)
        cache.put(key, all)
        return all
    }

    /// All continuations of `context`, best first.
    func readSorted(_ db: Database, _ context: ArraySlice<Int32>) throws -> [(id: Int32, logprob: Int32)] {
        var all: [(id: Int32, logprob: Int32)] = []
        try scan(db, context) { all.append(($0, Int32($1))) }
        all.sort { $0.logprob > $1.logprob || ($0.logprob == $1.logprob && $0.id < $1.id) }
        return all
    }

    /// Top `limit` words by p(w | context) among suggestible words (with `prefix`, when given).
    ///
    /// Candidates come from the whole back-off distribution: each context level's continuations
    /// (longest context first; a word's first probability is its true one), then the unigrams.
    /// Busy contexts are read best first from their `_top` list and the walk stops as soon as
    /// nothing further down can enter the top `limit`; when the list does not settle it (a rare
    /// prefix), the context's continuations are read once, sorted and kept in a small cache.
    /// Quiet contexts (at most ``StoreSchema/busyContext`` rows) are read whole.
    func ranked(context h: [Int32], prefix: [UInt8]?, limit: Int, excluding: Set<String> = []) throws -> [Prediction] {
        if let clusters { return try rankedWithClusters(clusters, context: h, prefix: prefix, limit: limit, excluding: excluding) }
        return try rankedWords(context: h, prefix: prefix, limit: limit, excluding: excluding)
    }

    /// ``ranked(context:prefix:limit:excluding:)`` by the word model alone.
    func rankedWords(context h: [Int32], prefix: [UInt8]?, limit: Int, excluding: Set<String> = []) throws -> [Prediction] {
        let range = prefix.map(prefixRange)   // nil: every word
        guard limit >= 1, range?.isEmpty != true else { return [] }
        let lower = Int32(range?.lowerBound ?? 0), upper = Int32(range?.upperBound ?? words.count)
        func allowed(_ id: Int32) -> Bool {
            suggestible[Int(id)] && (range == nil || (lower..<upper).contains(alphabeticalPosition[Int(id)]))
        }
        var best: [(id: Int32, score: Int, order: Int)] = []   // sorted by score descending
        var seen = Set<Int32>(excluding.compactMap { ids[$0] })
        let excluded = seen
        func kth() -> Int? { best.count == limit ? best[limit - 1].score : nil }
        func offer(_ id: Int32, _ score: Int, _ order: Int) {
            if let at = best.firstIndex(where: { $0.id == id }) { best.remove(at: at) }
            if let floor = kth(), score <= floor { return }
            let at = best.firstIndex { $0.score < score } ?? best.count
            best.insert((id, score, order), at: at)
            if best.count > limit { best.removeLast() }
        }
        try store.checked { db in
            // multiplier[k]: the backoffs paid to reach level k (k context words) from the full context.
            var multiplier = [Int](repeating: 0, count: h.count + 1)
            for k in stride(from: h.count, through: 1, by: -1) {
                let context = Array(h.suffix(k))
                multiplier[k - 1] = multiplier[k] + (k == 1 ? Int(unigramBackoff[Int(context[0])]) : (try entry(db, context)?.backoff ?? 0))
            }
            // Seed with the best backed-off unigram values: lower bounds of the true scores (an
            // interpolated probability is never below its backed-off value), so the walks below
            // can stop early. A short prefix has many words: find its best in unigram order; a
            // long one has few: look at each.
            let seedLimit = limit + excluded.count
            if let range, range.count * range.count <= byProbability.count * seedLimit * 4 {
                for position in range {
                    let id = alphabetical[position]
                    guard suggestible[Int(id)], !excluded.contains(id) else { continue }
                    offer(id, multiplier[0] + Int(unigramLogProb[Int(id)]), 1)
                }
            } else {
                for id in byProbability {
                    let score = multiplier[0] + Int(unigramLogProb[Int(id)])
                    if let floor = kth(), score <= floor { break }
                    guard allowed(id), !excluded.contains(id) else { continue }
                    offer(id, score, 1)
                }
            }
            for k in stride(from: h.count, through: 1, by: -1) where k + 1 <= order {
                let n = k + 1
                let context = h.suffix(k)
                func visit(_ id: Int32, _ logprob: Int) {
                    guard seen.insert(id).inserted, allowed(id) else { return }
                    offer(id, multiplier[k] + logprob, n)
                }
                guard let top = try topList(db, context) else {
                    try scan(db, context, visit)   // a quiet context, or a small store: read it whole
                    continue
                }
                var settled = false
                for entry in top.best {
                    if let floor = kth(), multiplier[k] + entry.logprob <= floor { settled = true; break }
                    visit(entry.id, entry.logprob)
                }
                // Every unlisted continuation is at most the last listed one.
                if !settled, top.best.count < top.continuations, let last = top.best.last,
                   let floor = kth(), multiplier[k] + last.logprob <= floor { settled = true }
                if !settled && top.best.count < top.continuations {
                    for entry in try sortedContinuations(db, context) {
                        if let floor = kth(), multiplier[k] + Int(entry.logprob) <= floor { break }
                        visit(entry.id, Int(entry.logprob))
                    }
                }
            }
        }
        // Seeds never met in a walk may have a longer n-gram below where the walk stopped: score
        // them exactly (only raises them, so the membership of the top list stays right).
        if h.count >= 1 {
            for i in best.indices where best[i].order == 1 && !seen.contains(best[i].id) {
                let exact = try logProb(of: best[i].id, context: h)
                best[i].score = exact.value
                best[i].order = exact.order
            }
            best.sort { $0.score > $1.score || ($0.score == $1.score && $0.id < $1.id) }
        }
        return best.map { Prediction(word: words[Int($0.id)], log10Probability: Double($0.score) / StoreSchema.logScale, order: $0.order) }
    }
}

/// The SQL of the predictor's hot statements, per n-gram order (index = n).
struct PredictorSQL: Sendable {
    var entry: [String] = ["", ""]
    var scan: [String] = ["", ""]
    var top: [String] = ["", ""]

    init(order: Int) {
        guard order >= 2 else { return }
        for n in 2...order {
            let table = StoreSchema.ngramTable(order: n)
            let key = (1...n).map { "w\($0) = ?" }.joined(separator: " AND ")
            let context = (1..<n).map { "w\($0) = ?" }.joined(separator: " AND ")
            entry.append("SELECT logprob, \(n < order ? "backoff" : "0") FROM \(table) WHERE \(key)")
            scan.append("SELECT w\(n), logprob FROM \(table) WHERE \(context)")
            top.append("SELECT continuations, top FROM \(StoreSchema.topTable(order: n)) WHERE \(context)")
        }
    }
}

/// Sorted continuations of busy contexts that a `_top` list did not settle (rare prefixes),
/// kept so a keyboard that comes back to the same context ("of the") reads it once.
/// Bounded: holds at most ``capacity`` continuations in all (8 bytes each), then starts over.
final class ContinuationCache: @unchecked Sendable {
    let capacity: Int
    private var entries: [[Int32]: [(id: Int32, logprob: Int32)]] = [:]
    /// Pinned at open (the busiest contexts): never dropped, not counted in `capacity`.
    private var pinned: [[Int32]: [(id: Int32, logprob: Int32)]] = [:]
    private var held = 0
    private let lock = NSLock()

    init(capacity: Int) { self.capacity = capacity }

    func get(_ key: [Int32]) -> [(id: Int32, logprob: Int32)]? {
        lock.lock(); defer { lock.unlock() }
        return pinned[key] ?? entries[key]
    }

    func pin(_ key: [Int32], _ value: [(id: Int32, logprob: Int32)]) {
        lock.lock(); defer { lock.unlock() }
        pinned[key] = value
    }

    func put(_ key: [Int32], _ value: [(id: Int32, logprob: Int32)]) {
        lock.lock(); defer { lock.unlock() }
        if held + value.count > capacity { entries.removeAll(); held = 0 }
        guard value.count <= capacity else { return }
        entries[key] = value
        held += value.count
    }
}
