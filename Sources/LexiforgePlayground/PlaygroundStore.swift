import Foundation
import LexiforgeReader
import LexiforgeText

// MARK: Requests (the OpenAPI file, Page/openapi.yaml, documents each)

struct PredictRequest: Decodable {
    var text: String
    var limit: Int?
}

struct SwipeRequest: Decodable {
    /// The trace in layout units (key widths; y grows downward), oldest first.
    var points: [SwipePoint]
    /// Optional: each point's time in milliseconds (the decoder reads where the swipe slows down).
    var times: [Double]?
    /// The text before the swipe: its last sentence is the decoder's context.
    var text: String?
    var limit: Int?
}

struct TagRequest: Decodable {
    var text: String
}

// MARK: Answers

struct Offer: Encodable {
    var word: String
    /// p(word | context): the language model's, or count / context total for a counts-only store.
    var probability: Double
    /// The order of the n-gram that matched (0: a form derived by suffix rules).
    var order: Int
    /// How often the word followed the context (counts-only stores).
    var count: Int64?
}

struct PredictAnswer: Encodable {
    var context: [String]
    var prefix: String
    /// Completions of `prefix` after `context` (empty when there is no prefix).
    var completions: [Offer]
    /// Next words after the text with its last word taken as complete (after `context` and `prefix`).
    var next: [Offer]
    /// "language model" or "counts".
    var source: String
    var micros: Int
}

struct SwipeAnswer: Encodable {
    struct Candidate: Encodable {
        var word: String
        var score: Double
        var cost: Double
        var frequency: Int
        var contextLogProbability: Double?
    }

    var layout: String
    var context: [String]
    var candidates: [Candidate]
    /// Points kept after simplification, and words left after the four filters.
    var simplifiedPoints: Int
    var afterFilter: Int
    var micros: Int
}

struct TagAnswer: Encodable {
    struct Token: Encodable {
        var word: String
        var tag: String?
        var lemma: String?
    }

    var sentences: [[Token]]
    var tagger: Bool
    var lemmas: Bool
    var micros: Int
}

struct LayoutAnswer: Encodable {
    struct Key: Encodable {
        var letter: String
        var x: Double, y: Double, width: Double, height: Double
    }

    var name: String
    var rowHeightRatio: Double
    var keys: [Key]
    var minX: Double, minY: Double, maxX: Double, maxY: Double
}

/// One store opened for the playground: the reader objects a front end would keep.
///
/// `TrainedStore` serializes its queries on one GRDB queue, so the store is opened once per core
/// (``replicas``, each with its own connection and predictor) and requests take them in turn: two
/// queries run at once on two cores. The swipe dictionary, decoder and tagger are plain values in
/// memory, shared.
public final class PlaygroundStore: Sendable {
    /// One connection to the store and the predictor on it.
    struct Replica: Sendable {
        let store: TrainedStore
        let predictor: NgramPredictor?
    }

    public struct Info: Sendable, Codable, Equatable {
        public var id: Int
        /// The file's name (not its path).
        public var name: String
        public var model: String?
        public var order: Int
        public var vocabulary: Int
        public var languageModel: Bool
        public var tagger: Bool
        public var lemmas: Bool
        public var swipeLayouts: [String]
    }

    public let store: TrainedStore
    public let info: Info
    let predictor: NgramPredictor?
    let replicas: [Replica]
    let turn = Turn()
    let decoder: SwipeDecoder?
    let tagger: HMMTagger?
    let lemmas: Bool
    let summaryJSON: [UInt8]
    let layoutJSON: [UInt8]?
    let noSwipeReason: String

    init(path: String, id: Int, replicas count: Int = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))) throws {
        store = try TrainedStore(path: path)
        predictor = store.hasLanguageModel ? try NgramPredictor(store: store) : nil
        var replicas = [Replica(store: store, predictor: predictor)]
        for _ in 1..<max(1, count) {
            let copy = try TrainedStore(path: path)
            replicas.append(Replica(store: copy, predictor: copy.hasLanguageModel ? try NgramPredictor(store: copy) : nil))
        }
        self.replicas = replicas
        let layouts = try store.swipeLayouts()
        if let first = layouts.first {
            decoder = SwipeDecoder(dictionary: try store.swipeDictionary(layout: first))
        } else {
            decoder = nil
        }
        tagger = store.hasHMM ? try store.hmmTagger() : nil
        lemmas = store.hasWordClasses
        let summary = try StoreSummary(store: store)
        summaryJSON = JSON.encode(summary)
        let name = URL(fileURLWithPath: path).lastPathComponent
        info = Info(id: id, name: name, model: store.meta[StoreSchema.MetaKey.model], order: store.order,
                    vocabulary: summary.vocabulary, languageModel: predictor != nil, tagger: tagger != nil, lemmas: lemmas,
                    swipeLayouts: layouts)
        noSwipeReason = "store \(id) (\(name)) has no swipe features; add them with `lexiforge swipe features STORE --layout qwerty`"
        layoutJSON = decoder.map { decoder in
            let layout = decoder.dictionary.layout
            let b = layout.bounds
            return JSON.encode(LayoutAnswer(
                name: layout.name, rowHeightRatio: layout.rowHeightRatio,
                keys: layout.keys.map { .init(letter: String($0.letter), x: $0.centre.x, y: $0.centre.y, width: $0.width, height: $0.height) },
                minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY))
        }
    }

    // MARK: Queries

    /// The next replica in turn.
    func replica() -> (store: TrainedStore, predictor: NgramPredictor?) {
        let r = replicas[turn.next() % replicas.count]
        return (r.store, r.predictor)
    }

    func checkedText(_ text: String, _ limits: PlaygroundLimits) throws -> String {
        let count = text.count
        guard count <= limits.maxTextCharacters else {
            throw RequestError(413, "`text` has \(count) characters, over the limit of \(limits.maxTextCharacters)")
        }
        return text
    }

    func checkedLimit(_ limit: Int?, default value: Int, _ limits: PlaygroundLimits) throws -> Int {
        guard let limit else { return value }
        guard (1...limits.maxResults).contains(limit) else {
            throw RequestError(400, "`limit` must be from 1 to \(limits.maxResults), not \(limit)")
        }
        return limit
    }

    /// Next words and completions for typed text, through the reader's typed-text entry point
    /// (``TrainedStore/typedInput(_:lastWordComplete:)``), as `lexiforge predict` and `suggest` do.
    func predict(_ request: PredictRequest, limits: PlaygroundLimits) throws -> PredictAnswer {
        let start = DispatchTime.now().uptimeNanoseconds
        let text = try checkedText(request.text, limits)
        let limit = try checkedLimit(request.limit, default: 3, limits)
        let (store, predictor) = replica()
        let input = store.typedInput(text)
        // The text with its last word taken as complete: the prefix joins the context (the same
        // as `typedInput(text, lastWordComplete: true)`: a text ending in a letter ends no sentence).
        let complete = input.context + (input.prefix.isEmpty ? [] : [input.prefix])
        var answer = PredictAnswer(context: input.context, prefix: input.prefix, completions: [], next: [],
                                   source: predictor == nil ? "counts" : "language model", micros: 0)
        func offer(_ p: Prediction) -> Offer { Offer(word: p.word, probability: p.probability, order: p.order) }
        if let predictor {
            if !input.prefix.isEmpty {
                answer.completions = try predictor.completions(of: input.prefix, after: input.context, limit: limit).map(offer)
            }
            answer.next = try predictor.nextWords(after: complete, limit: limit).map(offer)
        } else {
            answer.next = try store.nextWords(after: complete, limit: limit).map {
                Offer(word: $0.word, probability: $0.relativeFrequency, order: $0.order, count: $0.count)
            }
            if !input.prefix.isEmpty, store.hasLexicon {
                answer.completions = try store.completions(of: input.prefix, limit: limit).map {
                    Offer(word: $0.word, probability: 0, order: 1, count: Int64($0.frequency))
                }
            }
        }
        answer.micros = Int((DispatchTime.now().uptimeNanoseconds - start) / 1000)
        return answer
    }

    /// Decodes a swipe after the words typed before it (the decoder's context, as `swipe decode`
    /// uses a trace's sentence).
    func swipe(_ request: SwipeRequest, limits: PlaygroundLimits) throws -> SwipeAnswer {
        let start = DispatchTime.now().uptimeNanoseconds
        guard var decoder else { throw RequestError(422, noSwipeReason) }
        guard request.points.count <= limits.maxTracePoints else {
            throw RequestError(413, "the trace has \(request.points.count) points, over the limit of \(limits.maxTracePoints)")
        }
        guard request.points.count >= 2 else {
            throw RequestError(400, "a swipe needs at least 2 points, got \(request.points.count)")
        }
        if let bad = request.points.firstIndex(where: { !(abs($0.x) <= limits.maxCoordinate && abs($0.y) <= limits.maxCoordinate) }) {
            throw RequestError(400, "`points[\(bad)]` is outside ±\(limits.maxCoordinate) key widths")
        }
        if let times = request.times {
            guard times.count == request.points.count else {
                throw RequestError(400, "`times` has \(times.count) values for \(request.points.count) points; give one time per point or none")
            }
            if let bad = times.indices.first(where: { !times[$0].isFinite || ($0 > 0 && times[$0] < times[$0 - 1]) }) {
                throw RequestError(400, "`times[\(bad)]` is not a finite time at or after the one before it")
            }
        }
        decoder.options.limit = try checkedLimit(request.limit, default: 4, limits)
        let (store, predictor) = replica()
        let context = try request.text.map { store.typedInput(try checkedText($0, limits), lastWordComplete: true).context } ?? []
        // With a language model, every swipe decodes after the words before it, none at the start
        // of the text (as `eval swipe` measures it: the reranker knows a prompt's first word).
        let result = try predictor.map { try decoder.decode(request.points, times: request.times, after: context, model: $0) }
            ?? decoder.decode(request.points, times: request.times, context: nil)
        let micros = Int((DispatchTime.now().uptimeNanoseconds - start) / 1000)
        // Counted after the timing, as `eval swipe` counts: the decoder does not count by default.
        let afterFilter = decoder.prepare(request.points).map { decoder.filter($0).afterFilter[3] } ?? 0
        return SwipeAnswer(
            layout: decoder.dictionary.layout.name, context: predictor == nil ? [] : context,
            candidates: result.candidates.map {
                .init(word: $0.word, score: $0.score, cost: $0.cost, frequency: $0.frequency, contextLogProbability: $0.contextLogProbability)
            },
            simplifiedPoints: result.points, afterFilter: afterFilter, micros: micros)
    }

    /// Part-of-speech tags (the store's hidden Markov tagger, as `lexiforge tag`) and lemmas (the
    /// store's `word_class` table) of each sentence of the text.
    func tag(_ request: TagRequest, limits: PlaygroundLimits) throws -> TagAnswer {
        let start = DispatchTime.now().uptimeNanoseconds
        let text = try checkedText(request.text, limits)
        guard tagger != nil || lemmas else {
            throw RequestError(422, "store \(info.id) (\(info.name)) has neither a tagger nor lemmas; train one with `hmm_tagged` or `word_columns` in its model file")
        }
        let store = replica().store
        var sentences: [[TagAnswer.Token]] = []
        for tokens in SentenceSplitter.sentences(in: text, options: TextOptions(lowercase: false, keepPunctuation: true)) {
            let words = tagger.map { t in tokens.flatMap(t.splitClitic) } ?? tokens
            let tags = tagger?.tag(words).map(\.tag)
            sentences.append(try words.enumerated().map { i, word in
                let lemma = lemmas ? try store.lemma(of: word) ?? store.lemma(of: word.lowercased()) : nil
                return .init(word: word, tag: tags.flatMap { i < $0.count ? $0[i] : nil }, lemma: lemma)
            })
        }
        return TagAnswer(sentences: sentences, tagger: tagger != nil, lemmas: lemmas,
                         micros: Int((DispatchTime.now().uptimeNanoseconds - start) / 1000))
    }
}

/// A counter shared by the request threads.
final class Turn: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value = value == Int.max ? 0 : value + 1
        return value
    }
}
