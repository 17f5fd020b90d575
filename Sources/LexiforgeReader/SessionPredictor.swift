import Foundation

/// A store's predictions adapted to what the user has typed in this session: a cache (Kuhn &
/// De Mori 1990) mixed into the language model,
/// p(w | h) = (1 − λ) · p_model(w | h) + λ · p_cache(w | v), where v is the word before and
/// p_cache(w | v) = ½ · c(v w) / c(v ·) + ½ · c(w) / N counts the words (and word pairs) typed so far.
/// (A trigram cache, each order smoothed towards the one below with one pseudo-count, did no
/// better on the development texts: −0.2 to +0.1 points.)
///
/// A keyboard calls ``learn(_:)`` with each word the user finishes; names and topic words of the
/// text being written (OOV for the store, or rare in it) then come up after one or two uses, as
/// Presage's recency predictor and Tally's per-sentence learning make them come up.
///
/// ```swift
/// let session = SessionPredictor(model: try NgramPredictor(store: store))
/// session.learn("alice")
/// try session.completions(of: "al", after: ["said"])   // alice, ...
/// ```
/// Ranking stays exact: a word the user has not typed scores (1 − λ) · p_model, so the best of
/// those are the model's best with the typed words left out; each typed word is scored exactly.
/// - Complexity: two ranked model queries (with and without the typed words) plus one
///   probability lookup per typed word matching the prefix whose cache share could still bring it
///   into the list (typed words are tried by cache share, and the first that cannot ends the
///   search); at most ``capacity`` distinct words are kept, the oldest go first.
public final class SessionPredictor: @unchecked Sendable {
    public let model: NgramPredictor
    /// λ: the weight of the cache. 0.3, chosen on the development texts of the keystroke bench
    /// (pride-and-prejudice, sherlock-holmes, presage protocol): 0.1, the conventional value,
    /// was 0.2-0.9 points lower on both texts and both list sizes.
    public let weight: Double
    /// How many distinct typed words are remembered.
    public let capacity: Int
    private var counts: [String: Int] = [:]
    /// c(v w) by v, then w; and c(v ·).
    private var pairs: [String: [String: Int]] = [:]
    private var pairTotals: [String: Int] = [:]
    private var order: [String] = []
    /// How the user writes words whose case differs from the store's, inside a sentence.
    private var spellings: [String: String] = [:]
    private var total = 0
    private let lock = NSLock()

    /// The default λ (see ``weight``).
    public static let defaultWeight = 0.3

    public init(model: NgramPredictor, weight: Double = SessionPredictor.defaultWeight, capacity: Int = 2_000) {
        self.model = model
        self.weight = weight
        self.capacity = capacity
    }

    /// Records a word the user typed (in the store's spelling: lowercased for a lowercased store).
    /// `previous` is the word typed before it in the same sentence, if any. `written` is how the
    /// user wrote it where its case means something (inside a sentence, not after an opening
    /// quote): a lowercased store's "i" written "I", "victor" written "Victor" are then shown so
    /// (``spelling(of:)``) until the user writes them otherwise.
    public func learn(_ word: String, after previous: String? = nil, written: String? = nil) {
        guard TrainedStore.isSuggestible(word) else { return }
        lock.lock(); defer { lock.unlock() }
        if let written {
            spellings[word] = written == word ? nil : written
        }
        if let previous, counts[previous] != nil {
            pairs[previous, default: [:]][word, default: 0] += 1
            pairTotals[previous, default: 0] += 1
        }
        if counts[word] == nil {
            order.append(word)
            if order.count > capacity {
                let oldest = order.removeFirst()
                total -= counts.removeValue(forKey: oldest) ?? 0
                pairs[oldest] = nil
                pairTotals[oldest] = nil
                spellings[oldest] = nil
            }
        }
        counts[word, default: 0] += 1
        total += 1
    }

    /// How the user writes `word` inside a sentence, when it differs from the store's spelling
    /// ("I" for a lowercased store's "i"); nil otherwise. A keyboard passes it to
    /// ``SuggestionStyle/display(_:typed:atSentenceStart:written:)``.
    public func spelling(of word: String) -> String? {
        lock.lock(); defer { lock.unlock() }
        return spellings[word]
    }

    /// The best next words after `context`, with the session mixed in.
    public func nextWords(after context: [String], limit: Int = 3, excluding: Set<String> = []) throws -> [Prediction] {
        try ranked(prefix: "", after: context, limit: limit, excluding: excluding)
    }

    /// The best completions of `prefix` after `context`, with the session mixed in.
    public func completions(of prefix: String, after context: [String], limit: Int = 3,
                            excluding: Set<String> = []) throws -> [Prediction] {
        try ranked(prefix: prefix, after: context, limit: limit, excluding: excluding)
    }

    func ranked(prefix: String, after context: [String], limit: Int, excluding: Set<String>) throws -> [Prediction] {
        guard limit >= 1 else { return [] }
        lock.lock()
        let typed = counts.filter { $0.key.hasPrefix(prefix) && !excluding.contains($0.key) }
        let n = Double(total)
        let previous = context.last
        let following = previous.flatMap { pairs[$0] } ?? [:]
        let followingTotal = Double(previous.flatMap { pairTotals[$0] } ?? 0)
        lock.unlock()
        let others = excluding.union(typed.keys)
        func modelRanked(_ excluded: Set<String>) throws -> [Prediction] {
            prefix.isEmpty ? try model.nextWords(after: context, limit: limit, excluding: excluded)
                : try model.completions(of: prefix, after: context, limit: limit, excluding: excluded)
        }
        var scored = try modelRanked(others).map { p in
            Prediction(word: p.word, log10Probability: log10(1 - weight) + p.log10Probability, order: p.order)
        }
        guard !typed.isEmpty else { return scored }
        // The model's best `limit` with the typed words in: a typed word listed there has its
        // probability; one that is not has at most the last listed one's (none when the list is short).
        let best = try modelRanked(excluding)
        let listed = Dictionary(best.map { ($0.word, $0) }, uniquingKeysWith: { a, _ in a })
        let ceiling = best.count == limit ? best[limit - 1].probability : 0
        var candidates: [(word: String, cache: Double)] = typed.map { word, count in
            let unigram = Double(count) / n
            return (word, followingTotal > 0 ? 0.5 * Double(following[word] ?? 0) / followingTotal + 0.5 * unigram : unigram)
        }
        // Listed words first (exact at no cost), then the others by cache share.
        candidates.sort { a, b in
            let (x, y) = (listed[a.word] != nil, listed[b.word] != nil)
            return x != y ? x : a.cache > b.cache || (a.cache == b.cache && a.word < b.word)
        }
        let h = model.suggestionContext(context)
        func kth() -> Double { scored.count >= limit ? scored.map(\.log10Probability).sorted(by: >)[limit - 1] : -.infinity }
        for (word, cache) in candidates {
            var pModel = 0.0, matched = 0
            if let known = listed[word] {
                pModel = known.probability
                matched = known.order
            } else {
                // Best case for this word; the candidates come by cache share, so once that cannot
                // reach the top `limit`, no later one can either.
                if log10((1 - weight) * ceiling + weight * cache) < kth() { break }
                if let id = model.id(of: word) {
                    let lp = try model.interpolatedLogProb(of: id, context: h)
                    pModel = pow(10, lp.value)
                    matched = lp.order
                }
            }
            scored.append(Prediction(word: word, log10Probability: log10((1 - weight) * pModel + weight * cache), order: matched))
        }
        scored.sort { $0.log10Probability > $1.log10Probability || ($0.log10Probability == $1.log10Probability && $0.word < $1.word) }
        return Array(scored.prefix(limit))
    }
}
