import Foundation
import GRDB

/// The class-based model of a store built with word classes (``StoreSchema/clusterCreationStatements``),
/// held in memory: K classes, a few hundred thousand class n-grams at most.
package final class ClusterLM: @unchecked Sendable {
    /// λ in p = (1 − λ) p_word + λ p_class.
    let weight: Double
    let order: Int
    /// Class of each word id, −1 for none (`<s>`).
    let classOf: [Int32]
    /// p(w | class(w)) by word id.
    let memberProb: [Double]
    /// Word ids of each class by descending p(w | class), ties by id.
    let members: [[Int32]]
    var classCount: Int { members.count }
    /// The log10 backoff of each class n-gram that has one (``key(_:)``).
    let backoffs: [UInt64: Float]
    /// Each class context's explicit continuations (context ``key(_:)`` → class and log10 probability).
    let continuations: [UInt64: [(cluster: Int32, logprob: Float)]]
    private var distributions: [UInt64: [Double]] = [:]
    private let lock = NSLock()

    /// Reads the class tables, or nil when the store has none.
    init?(_ db: Database, words: Int, order: Int, weight: Double) throws {
        guard try db.tableExists(StoreSchema.clusterTables[0]) else { return nil }
        self.weight = weight
        self.order = order
        var classOf = [Int32](repeating: -1, count: words)
        var memberProb = [Double](repeating: 0, count: words)
        var classCount = 3
        let classes = Int64(0)...Int64(StoreSchema.maxClusters + 2)   // the real classes and the three reserved ones
        let rows = try Row.fetchCursor(db, sql: "SELECT word, cluster, logprob FROM cluster_member")
        while let row = try rows.next() {
            let word = try row.wordID(0, "cluster_member", "word", words: words)
            let cluster = try row.int(1, "cluster_member", "cluster", in: classes)
            let logprob = try row.logValue(2, "cluster_member", "logprob")
            classOf[word] = Int32(cluster)
            memberProb[word] = pow(10, Double(logprob) / StoreSchema.logScale)
            classCount = max(classCount, cluster + 1)
        }
        var backoffs: [UInt64: Float] = [:]
        var continuations: [UInt64: [(cluster: Int32, logprob: Float)]] = [:]
        let grams = try Row.fetchCursor(db, sql: "SELECT context, cluster, logprob, backoff FROM cluster_ngram")
        while let row = try grams.next() {
            let context = try row.text(0, "cluster_ngram", "context")
            let cluster = try row.int(1, "cluster_ngram", "cluster", in: classes)
            let logprob = try row.logValue(2, "cluster_ngram", "logprob"), backoff = try row.logValue(3, "cluster_ngram", "backoff")
            var ids: [Int32] = []
            for part in context.split(separator: " ") {
                guard let id = Int32(part), classes.contains(Int64(id)) else {
                    throw StoreDamage("`cluster_ngram.context` holds \(context.debugDescription), not class ids")
                }
                ids.append(id)
            }
            guard ids.count < max(order, 1) else {
                throw StoreDamage("`cluster_ngram.context` holds \(ids.count) classes in an order-\(order) store")
            }
            let contextKey = Self.key(ids[...])
            ids.append(Int32(cluster))
            classCount = max(classCount, cluster + 1)
            if backoff != 0 { backoffs[Self.key(ids[...])] = Float(Double(backoff) / StoreSchema.logScale) }
            continuations[contextKey, default: []].append((Int32(cluster), Float(Double(logprob) / StoreSchema.logScale)))
        }
        self.continuations = continuations
        var members = [[Int32]](repeating: [], count: classCount)
        for (word, c) in classOf.enumerated() where c >= 0 { members[Int(c)].append(Int32(word)) }
        for c in members.indices {
            members[c].sort { memberProb[Int($0)] > memberProb[Int($1)] || (memberProb[Int($0)] == memberProb[Int($1)] && $0 < $1) }
        }
        self.classOf = classOf
        self.memberProb = memberProb
        self.members = members
        self.backoffs = backoffs
    }

    /// A class n-gram as one integer: 12 bits per id (``StoreSchema/maxClusters``), then the length.
    static func key(_ ids: ArraySlice<Int32>) -> UInt64 {
        var key: UInt64 = 0
        for id in ids { key = key << 12 | UInt64(id & 0xFFF) }
        return key << 3 | UInt64(ids.count)
    }

    /// The class context of a word context (word ids, as ``NgramPredictor/suggestionContext(_:)``
    /// gives it): the classes of its words, cut after a word without one.
    package func classContext(_ h: [Int32]) -> [Int32] {
        var context: [Int32] = []
        for id in h.suffix(max(order - 1, 0)) {
            let c = id == Int32(StoreSchema.ReservedID.sentenceStart) ? 1 : classOf[Int(id)]
            if c < 0 { context.removeAll() } else { context.append(c) }
        }
        return context
    }

    /// p(c | context) for every class id c, computed once per context and kept: the shorter
    /// context's distribution times the context's backoff, with its own continuations put in
    /// (the ARPA rule, one context at a time).
    package func distribution(_ context: [Int32]) -> [Double] {
        let key = Self.key(context[...])
        lock.lock()
        if let known = distributions[key] { lock.unlock(); return known }
        lock.unlock()
        var p: [Double]
        if context.isEmpty {
            p = [Double](repeating: 0, count: classCount)
        } else {
            p = distribution(Array(context.dropFirst()))
            if let backoff = backoffs[key] {
                let weight = pow(10, Double(backoff))
                for i in p.indices { p[i] *= weight }
            }
        }
        for (cluster, logprob) in continuations[key] ?? [] { p[Int(cluster)] = pow(10, Double(logprob)) }
        lock.lock()
        if distributions.count > 100_000 { distributions.removeAll() }
        distributions[key] = p
        lock.unlock()
        return p
    }

    /// p_class(w | context) = p(class(w) | context) p(w | class(w)).
    func probability(of word: Int32, _ distribution: [Double]) -> Double {
        let c = classOf[Int(word)]
        return c < 0 ? 0 : distribution[Int(c)] * memberProb[Int(word)]
    }
}

extension NgramPredictor {
    /// Whether the store carries a class model (built with `--classes`).
    public var hasClusters: Bool { clusters != nil }

    /// log10 p(word | context) as the word model gives it (the ARPA value), and as the predictions
    /// score it, interpolated with the class model (nil when the store has none). `context` holds
    /// ids, oldest first (`<s>` first at a sentence start).
    public func log10Probabilities(of word: Int32, context: [Int32]) throws -> (word: Double, interpolated: Double?) {
        let lp = try interpolatedLogProb(of: word, context: context)
        return (Double(lp.wordValue) / StoreSchema.logScale, clusters == nil ? nil : lp.value)
    }

    /// p(w | h) = (1 − λ) p_word(w | h) + λ p_class(w | h) with the store's class model, or the
    /// word model's back-off probability when it has none; log10, the word n-gram order matched,
    /// and the word model's own value (store units).
    package func interpolatedLogProb(of word: Int32, context h: [Int32]) throws -> (value: Double, order: Int, wordValue: Int) {
        let lp = try logProb(of: word, context: h)
        let pWord = pow(10, Double(lp.value) / StoreSchema.logScale)
        guard let clusters else { return (log10(pWord), lp.order, lp.value) }
        let pClass = clusters.probability(of: word, clusters.distribution(clusters.classContext(h)))
        return (log10((1 - clusters.weight) * pWord + clusters.weight * pClass), lp.order, lp.value)
    }

    /// The top `limit` by the interpolated probability: the word model's best `m` and the class
    /// model's best `m` are scored exactly; any other word is below (1 − λ) × the word model's
    /// m-th + λ × the class model's m-th, so once the `limit`-th is at least that, the answer is
    /// exact; otherwise `m` grows (four times, up to 4,096). m starts at 2 × `limit` (6 at least):
    /// on gutenberg-11m that was the fastest start (4 × `limit` took 1.5–2 × as long).
    func rankedWithClusters(_ clusters: ClusterLM, context h: [Int32], prefix: [UInt8]?, limit: Int,
                            excluding: Set<String>) throws -> [Prediction] {
        let range = prefix.map(prefixRange)   // nil: every word
        guard limit >= 1, range?.isEmpty != true else { return [] }
        let excluded = Set(excluding.compactMap { ids[$0] })
        func allowed(_ id: Int32) -> Bool {
            suggestible[Int(id)] && !excluded.contains(id) && (range?.contains(Int(alphabeticalPosition[Int(id)])) ?? true)
        }
        let λ = clusters.weight
        let distribution = clusters.distribution(clusters.classContext(h))
        var m = max(2 * limit, 6)
        while true {
            let words = try rankedWords(context: h, prefix: prefix, limit: m, excluding: excluding)
            let byClass = bestByClass(clusters, distribution, range: range, limit: m,  allowed: allowed)
            var scored: [Int32: (p: Double, order: Int)] = [:]
            for w in words {
                guard let id = ids[w.word] else { continue }
                scored[id] = ((1 - λ) * w.probability + λ * clusters.probability(of: id, distribution), w.order)
            }
            // Every word the word model did not list has p_word at most its m-th (0 when it listed all).
            let wordFloor = words.count == m ? words[m - 1].probability : 0
            var top = scored.values.map(\.p).sorted(by: >).prefix(limit)
            func kth() -> Double { top.count == limit ? top[top.startIndex + limit - 1] : 0 }
            for (id, pClass) in byClass where scored[id] == nil {
                guard (1 - λ) * wordFloor + λ * pClass > kth() else { continue }
                let lp = try logProb(of: id, context: h)
                let p = (1 - λ) * pow(10, Double(lp.value) / StoreSchema.logScale) + λ * pClass
                scored[id] = (p, lp.order)
                top = (Array(top) + [p]).sorted(by: >).prefix(limit)
            }
            let classFloor = byClass.count == m ? byClass[m - 1].p : 0
            let complete = words.count < m && byClass.count < m
            if complete || kth() >= (1 - λ) * wordFloor + λ * classFloor || m >= 4096 {
                let ordered: [(id: Int32, p: Double, order: Int)] = scored.map { ($0.key, $0.value.p, $0.value.order) }
                    .sorted { (a: (id: Int32, p: Double, order: Int), b: (id: Int32, p: Double, order: Int)) -> Bool in
                        a.p > b.p || (a.p == b.p && a.id < b.id)
                    }
                return ordered.prefix(limit).map { entry -> Prediction in
                    Prediction(word: self.words[Int(entry.id)], log10Probability: log10(entry.p), order: entry.order)
                }
            }
            m *= 4
        }
    }

    /// The `limit` allowed words with the highest p_class, best first: a short prefix range is
    /// scored word by word; otherwise each class's members are read best first until they cannot
    /// enter the list (`directScan` forces one way, for tests).
    package func bestByClass(_ clusters: ClusterLM, _ distribution: [Double], range: Range<Int>?, limit: Int,
                             directScan: Bool? = nil, allowed: (Int32) -> Bool) -> [(id: Int32, p: Double)] {
        var best: [(id: Int32, p: Double)] = []
        func offer(_ id: Int32, _ p: Double) {
            if best.count == limit, let last = best.last, p < last.p || (p == last.p && id > last.id) { return }
            let at = best.firstIndex { p > $0.p || (p == $0.p && id < $0.id) } ?? best.count
            best.insert((id, p), at: at)
            if best.count > limit { best.removeLast() }
        }
        // Scoring the range costs its length; reading classes best first costs about `limit` ×
        // (vocabulary ÷ range length) words before `limit` of them match: the cheaper one.
        if let range, directScan ?? (range.count * range.count <= 4 * limit * clusters.classOf.count) {
            for position in range {
                let id = alphabetical[position]
                guard allowed(id) else { continue }
                offer(id, clusters.probability(of: id, distribution))
            }
            return best
        }
        for c in 0..<clusters.classCount where distribution[c] > 0 {
            for id in clusters.members[c] {
                let p = distribution[c] * clusters.memberProb[Int(id)]
                if best.count == limit, p < best[limit - 1].p { break }
                if allowed(id) { offer(id, p) }
            }
        }
        return best
    }
}

extension TrainedStore {
    /// The class model's size, or nil for a store built without `--classes`: real classes in use,
    /// words with a class, class n-grams.
    public func clusterSummary() throws -> (classes: Int, words: Int, ngrams: Int)? {
        try checked { db in
            guard try db.tableExists(StoreSchema.clusterTables[0]) else { return nil }
            return (try Int.fetchOne(db, sql: "SELECT count(DISTINCT cluster) FROM cluster_member WHERE cluster >= 3") ?? 0,
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM cluster_member") ?? 0,
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM cluster_ngram") ?? 0)
        }
    }

    /// The rows of the optional model tables (``StoreSchema/optionalModelTables``: class model,
    /// suffix rules) in key order, each as the table name and its values separated by spaces;
    /// empty when the store has none (for `diff`).
    public func optionalModelRows() throws -> [String] {
        try checked { db in
            var rows: [String] = []
            for table in StoreSchema.optionalModelTables where try db.tableExists(table) {
                rows += try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1, 2").map { row in
                    ([table] + row.databaseValues.map(\.description)).joined(separator: " ")
                }
            }
            return rows
        }
    }
}
