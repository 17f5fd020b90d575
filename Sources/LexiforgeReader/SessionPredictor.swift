import Foundation

/// A store's predictions adapted to what the user has typed in this session: a cache (Kuhn &
/// De Mori 1990) mixed into the language model,
/// p(w | h) = (1 − λ) · p_model(w | h) + λ · p_cache(w | v), where v is the word before and
/// p_cache(w | v) = ½ · c(v w) / c(v ·) + ½ · c(w) / N counts the words (and word pairs) typed so far.
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
/// - Complexity: one ranked model query plus one probability lookup per typed word matching the
///   prefix (at most ``capacity`` distinct words are kept; the oldest go first).
public final class SessionPredictor: @unchecked Sendable {
    public let model: NgramPredictor
    /// λ: the weight of the cache. 0.1 is a conventional value, not tuned on any evaluation text.
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
    public static let defaultWeight = 0.1

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
        let fromModel = prefix.isEmpty
            ? try model.nextWords(after: context, limit: limit, excluding: others)
            : try model.completions(of: prefix, after: context, limit: limit, excluding: others)
        var scored = fromModel.map { p in
            Prediction(word: p.word, log10Probability: log10(1 - weight) + p.log10Probability, order: p.order)
        }
        let h = model.suggestionContext(context)
        for (word, count) in typed {
            var pModel = 0.0, matched = 0
            if let id = model.id(of: word) {
                let lp = try model.logProb(of: id, context: h)
                pModel = pow(10, Double(lp.value) / StoreSchema.logScale)
                matched = lp.order
            }
            let unigram = Double(count) / n
            let cache = followingTotal > 0 ? 0.5 * Double(following[word] ?? 0) / followingTotal + 0.5 * unigram : unigram
            let p = (1 - weight) * pModel + weight * cache
            scored.append(Prediction(word: word, log10Probability: log10(p), order: matched))
        }
        scored.sort { $0.log10Probability > $1.log10Probability || ($0.log10Probability == $1.log10Probability && $0.word < $1.word) }
        return Array(scored.prefix(limit))
    }
}
