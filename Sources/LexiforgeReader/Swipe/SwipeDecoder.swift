import Foundation

/// The decoder's tunable thresholds; every length is in key widths.
///
/// Defaults are fitted to 20,000 real swipes of 856 people (the "How We Swipe" development set)
/// by `lexiforge swipe tune`: each filter keeps the swiped word in 99.9% of them (99.7% until
/// 2026-11-29: the shortlist's floor, not the filters, now bounds the work, so they can be loose;
/// docs/swipe.md, *The filters, loosened*), and the weights maximise top-1 + top-4 / 4,
/// cross-validated by user (README, Swipe).
public struct SwipeDecoderOptions: Sendable, Equatable {
    // Input simplification (thesis 2.3): point B between the last kept point A and the newest C is
    // kept when the swipe has travelled `simplifyMaxGap` since A (a long time without a point),
    // the triangle ABC is larger than `simplifyMinArea`, or the angle at B is below
    // `simplifyMaxAngle` degrees (a sharp turn).
    public var simplifyMaxGap = 0.6
    public var simplifyMinArea = 0.02
    public var simplifyMaxAngle = 120.0

    /// Start-point filter (2.1.1): first keys whose centre lies within this radius of the first point.
    public var startRadius = 4.05
    /// Start-direction filter (2.1.2): the direction is measured from the first point to the first
    /// point at least this far along the swipe; shorter swipes skip the filter.
    public var directionDistance = 1.0
    /// Words whose start angle deviates at most this many degrees pass.
    public var directionTolerance = 169.0
    /// Words whose second key is at most this far from the first pass regardless of direction
    /// (neighbouring keys: users make a tiny stroke and turn, thesis fig. 2.3).
    public var neighbourDistance = 1.7
    /// End-point filter (2.1.3): last keys whose centre lies within this radius of the last point.
    public var endRadius = 2.9
    /// Length filter (2.1.4): a word passes when A·ℓ − C ≤ ℓ(w) ≤ B·ℓ + C for the swipe length ℓ.
    public var lengthA = 0.0
    public var lengthB = 9.6
    public var lengthC = 1.2
    /// A tap (a swipe shorter than `tapLength`) says nothing of its word's length: people tap a
    /// key where a swipe was asked for, or their finger never moves for a short word ("you" as a
    /// touch on "y"). A tap's upper bound is at least `tapLengthBound` (default: none, taps skip
    /// the upper bound; the start and end filters still hold them to words near the touch).
    public var tapLength = 0.3
    public var tapLengthBound = Double.infinity

    /// Locality constraint (2.2.3): a point whose distance along the swipe is s may map to a segment
    /// of the perfect swipe spanning [a, b] along it only when low·a − slack ≤ s ≤ high·b + slack.
    public var localityLow = 0.5
    public var localityHigh = 1.9
    public var localitySlack = 1.5
    /// Whether the locality constraint bounds the DTW, a word no warping path reaches within it
    /// paying ``costCap`` (the thesis's rule, and this decoder's until 2026-11-28). Off by default:
    /// real swipes that loop at a double letter ("see", "good") or wander pass every key of their
    /// word yet fall outside it, so the DTW runs unconstrained and whether the word lies outside
    /// the constraint is reported instead (``SwipeCandidate/Terms-swift.struct/outsideLocality``),
    /// the last feature of every fitted reranker (docs/swipe.md, *The locality constraint*).
    public var localityCaps = false

    /// Points both the swipe and each word's perfect swipe are resampled to (equal spacing along
    /// the path) for the location and shape channels.
    public var resamplePoints = 32
    /// Location channel: mean squared distance (key widths²) between corresponding resampled points.
    public var locationWeight = 0.64
    /// Shape channel: the same after both paths are centred and scaled to a unit bounding box
    /// (at least ``shapeMinimumSize`` key widths across, so a tap is not blown up).
    public var shapeWeight = 23.8
    public var shapeMinimumSize = 1.0
    /// Words (best by the two channels and the prior) rescored with segment DTW. 200 since
    /// 2026-11-29 (thirtieth session; 160 before): the right word reaches the reranker's 64 in more
    /// real swipes (docs/swipe.md, *The shortlist of 200*).
    public var shortlist = 200

    /// Shortlisted words also pay for the squared distances of the swipe's start to their first key
    /// (`startWeight`) and of its end to their last key (`endWeight`: people aim the start far
    /// better than the end), the squared log ratio of the lengths (ln((ℓ + 1) / (ℓ(w) + 1)), key
    /// widths), and the squared distance from the swipe to the inner key it passes farthest from.
    public var startWeight = 9.83
    public var endWeight = 2.25
    public var lengthWeight = 0.2
    public var missWeight = 4.5
    /// DTW cost (mean squared distance) of a word no warping path reaches within the locality
    /// constraint, and the most any word pays.
    public var costCap = 2.0
    /// When positive, each point pays d²·r / (r + d²) instead of d² in the DTW cost (a heavy-tailed
    /// touch model: a point far off the path, a corner cut, costs at most r).
    public var costRobustness = 2.0

    /// Score = −locationWeight · location − shapeWeight · shape − costWeight · (DTW cost / points)
    ///         + frequencyWeight · ln p(word) [+ contextWeight · ln p(word | context)].
    public var costWeight = 40.0
    public var frequencyWeight = 1.0
    /// With a context (``SwipeDecoder/decode(_:context:)``): the weight of ln p(word | context)
    /// from the language model, and the lexicon prior's weight next to it.
    public var contextWeight = 1.16
    public var contextFrequencyWeight = 0.499
    /// When set, a context whose last word has log10 p below this after the words before it
    /// (``NgramPredictor/contextFit(of:)``: the words read like no sentence, as a list of unrelated
    /// words) is weighed by ``contextWeightLow`` instead of ``contextWeight``.
    public var contextGate: Double? = -4
    public var contextWeightLow = 0.41

    /// Touch model (fitted on the real swipes, docs/swipe.md): people touch below a key's centre
    /// (by 0.09 key widths at the start of a swipe, 0.14 at its end), so every point's y is read
    /// this many key widths higher before filtering and scoring.
    public var verticalOffset = 0.1

    /// Whether a decoding counts the words each filter keeps (``SwipeDecoding/afterFilter``). The
    /// decoder itself reads only the words whose end keys and frequency can still reach the
    /// shortlist, so counting costs a pass over every word the start filter keeps (about half a
    /// millisecond on real swipes); evaluations count with ``SwipeDecoder/filter(_:)`` instead.
    public var countsFilters = false

    /// Candidates returned.
    public var limit = 4

    /// Whether words whose wordlist marks them `possibly_offensive` (``SwipeDictionary/possiblyOffensive``)
    /// may be proposed. LatinIME blocks them unless the user allows them, and so do completions
    /// (``TrainedStore/completions(of:limit:allowOffensive:)``).
    public var allowOffensive = true

    /// The best this many shortlisted words (by ``selection``'s weights, else the linear score;
    /// DTW included) are reordered by ``SwipeReranker`` (its weights for decoding with or without
    /// a context); 0 keeps the linear order.
    /// The fitted rerankers were fitted on each swipe's best 64 (32 until 2026-11-27: the right
    /// word is among the best 64 in 96.7% of real in-dictionary swipes, the best 32 in 96.3%).
    public var rerank = 64
    /// When set (and the reranker runs), the ``rerank`` candidates are the shortlist's best by
    /// the linear score's terms under these weights instead of the score's own. The linear
    /// weights above were fitted for the right word's rank, and they still pick the shortlist;
    /// these were fitted for its recall among the best 64 (`Tests/Bench/swipe-rerank/selection.py`),
    /// since the reranker decides the rank. docs/swipe.md, *The reranker's candidates*.
    public var selection: Selection? = .fitted
    /// When set, the ``shortlist`` is the best words by the cheap stage's terms (the location and
    /// shape channels, the start, end and length terms and the priors) under these weights instead
    /// of the linear score's (their `cost` and `miss` are unused: that stage has no DTW). The
    /// linear weights were fitted for the right word's rank with the DTW cost beside them; these
    /// for its recall among the shortlist (`Tests/Bench/swipe-rerank/shortlist.py`). The words
    /// shortlisted are then scored by the linear score (or ``selection``) as before.
    /// docs/swipe.md, *The shortlist's own weights*.
    public var shortlistSelection: Selection? = .shortlist

    /// Weights of the terms of the linear score (each as the weight of the same name above) that
    /// choose words: the reranker's candidates (``selection``) or the shortlist
    /// (``shortlistSelection``).
    public struct Selection: Sendable, Equatable {
        public var location, shape, cost, start, end, length, miss: Double
        /// The lexicon prior's weight without a context, and beside one.
        public var frequency, contextFrequency: Double
        /// ln p(word | context)'s weight, and after a context below ``SwipeDecoderOptions/contextGate``.
        public var context, contextLow: Double

        public init(location: Double, shape: Double, cost: Double, start: Double, end: Double, length: Double, miss: Double,
                    frequency: Double, contextFrequency: Double, context: Double, contextLow: Double) {
            (self.location, self.shape, self.cost, self.start, self.end, self.length, self.miss) = (location, shape, cost, start, end, length, miss)
            (self.frequency, self.contextFrequency, self.context, self.contextLow) = (frequency, contextFrequency, context, contextLow)
        }

        /// Fitted on the 20,000 development swipes (`selection.py fit` on the tuner's dump of a
        /// 200-word shortlist, the right word among the best 64 with and without a context; scaled
        /// to the linear score's DTW weight, 40): against the linear score's, the priors and the
        /// length count about twice as much, the start point 1.3 times, the end point 0.6 times,
        /// the location, the shape channel and the missed key half as much (since 2026-11-29,
        /// thirtieth session; fitted on a 160-word shortlist before).
        public static let fitted = Selection(location: 0.32, shape: 11.9, cost: 40, start: 12.72, end: 1.339, length: 0.4,
                                             miss: 2.25, frequency: 1.835, contextFrequency: 0.998, context: 2.533, contextLow: 0.41)

        /// The shortlist's (``SwipeDecoderOptions/shortlistSelection``): fitted on the 20,000
        /// development swipes (`shortlist.py cv` on the tuner's dump of a 500-word shortlist, the
        /// right word among the best 200 with and without a context). Against the linear score's,
        /// the location counts twice as much, the shape channel half as much, the length ten times
        /// as much, and p(word | context) the same below the gate as above it (since 2026-11-30,
        /// thirty-first session). `cost` and `miss` are the linear score's and unused.
        public static let shortlist = Selection(location: 1.28, shape: 10.92, cost: 40, start: 9.83, end: 2.25, length: 1.904,
                                                miss: 4.5, frequency: 1, contextFrequency: 0.5913, context: 1.507, contextLow: 1.788)
    }

    /// The linear score's weights as a ``Selection``.
    var linear: Selection {
        Selection(location: locationWeight, shape: shapeWeight, cost: costWeight, start: startWeight, end: endWeight, length: lengthWeight,
                  miss: missWeight, frequency: frequencyWeight, contextFrequency: contextFrequencyWeight, context: contextWeight,
                  contextLow: contextWeightLow)
    }

    /// Whether the reranker runs: asked for, and with a DTW cost to rerank by.
    var reranks: Bool { rerank > 0 && costWeight > 0 }

    public init() {}
}

/// One decoded word.
public struct SwipeCandidate: Sendable, Equatable, CustomStringConvertible {
    public var word: String
    public var id: Int64
    /// Higher is better (a log-score).
    public var score: Double
    /// Mean squared distance (key widths²) of the swipe's points to the perfect swipe under DTW
    /// (+∞ when the word was not on the shortlist).
    public var cost: Double
    public var frequency: Int
    /// Location and shape channel distances (key widths², unit box²).
    public var location: Double = 0
    public var shape: Double = 0
    /// ln p(word | context) from the language model, nil without a context.
    public var contextLogProbability: Double? = nil
    /// The swipe's first point minus the word's first key's centre (`startX`, `startY`, key
    /// widths, y down), its last point minus the last key's, and the squared distance of each from
    /// where real swipes usually start (end) on that key, raw and with each axis divided by its
    /// variance there (``SwipeEndKeyOffsets``).
    public struct EndKeyOffsets: Sendable, Equatable {
        public var startX = 0.0, startY = 0.0, startMiss = 0.0, startMissStandardized = 0.0
        public var endX = 0.0, endY = 0.0, endMiss = 0.0, endMissStandardized = 0.0
        public init(startX: Double = 0, startY: Double = 0, startMiss: Double = 0, startMissStandardized: Double = 0,
                    endX: Double = 0, endY: Double = 0, endMiss: Double = 0, endMissStandardized: Double = 0) {
            self.startX = startX
            self.startY = startY
            self.startMiss = startMiss
            self.startMissStandardized = startMissStandardized
            self.endX = endX
            self.endY = endY
            self.endMiss = endMiss
            self.endMissStandardized = endMissStandardized
        }
    }
    /// The shortlist's further terms (``SwipeDecoderOptions/startWeight`` and the three after it).
    public struct Terms: Sendable, Equatable {
        public var endpoints = 0.0, lengthLogRatio = 0.0, missed = 0.0
        /// The two parts of `endpoints`: squared distances of the swipe's start to the first key
        /// and of its end to the last key.
        public var start = 0.0, end = 0.0
        /// Keys in the word's key path (repeats collapsed).
        public var keys = 0
        /// ``SwipeDwell/terms(keys:)`` of the word (reranked candidates of a swipe with times).
        public var dwell = 0.0, dwellWorst = 0.0, dwellCorners = 0.0
        /// ``SwipeKeyMatch/terms(keys:)`` of the word: its keys matched to the swipe's points in
        /// order, the mean and the largest squared distance (reranked candidates).
        public var keyMatch = 0.0, keyMatchWorst = 0.0
        /// ``SwipeTurns/terms(keys:)`` of the word: turns of the swipe against the word's corner
        /// keys (reranked candidates).
        public var turns = 0.0, turnsWorst = 0.0, turnCorners = 0.0
        /// ``SwipeTurns/ends(keys:)`` of the word: how far the swipe's start and end directions
        /// turn from the word's first and last steps, 1 − cos each (reranked candidates).
        public var startTurn = 0.0, endTurn = 0.0
        /// ``SwipeTurns/endOffsets(keys:)`` of the word: where the swipe's first and last points lie
        /// along and across the word's first and last steps (reranked candidates).
        public var startAlong = 0.0, startAcross = 0.0, endAlong = 0.0, endAcross = 0.0
        /// ``SwipeEndKeyOffsets/terms(start:end:first:last:)`` of the word: the swipe's first and
        /// last points against the word's first and last keys, and against where swipes usually
        /// start and end on those keys (reranked candidates).
        public var endKeyOffsets = EndKeyOffsets()
        /// Whether no warping path reaches the word within the locality constraint
        /// (``SwipeDecoderOptions/localityLow``, `localityHigh`, `localitySlack`): the words the
        /// constraint would cap (DTW-scored candidates).
        public var outsideLocality = false
        /// The shape network's log-likelihood of the word's key path (``SwipeShapeNetwork``), the
        /// same per key, and less the best of the swipe's shortlist (reranked candidates of a
        /// reranker that reads them, ``SwipeReranker/shapeColumns``; 0 otherwise).
        public var shapeLikelihood = 0.0, shapeLikelihoodPerKey = 0.0, shapeLikelihoodRelative = 0.0

        package init(endpoints: Double = 0.0, lengthLogRatio: Double = 0.0, missed: Double = 0.0,
                     start: Double = 0.0, end: Double = 0.0, keys: Int = 0,
                     dwell: Double = 0.0, dwellWorst: Double = 0.0, dwellCorners: Double = 0.0,
                     keyMatch: Double = 0.0, keyMatchWorst: Double = 0.0,
                     turns: Double = 0.0, turnsWorst: Double = 0.0, turnCorners: Double = 0.0,
                     startTurn: Double = 0.0, endTurn: Double = 0.0,
                     startAlong: Double = 0.0, startAcross: Double = 0.0, endAlong: Double = 0.0, endAcross: Double = 0.0,
                     outsideLocality: Bool = false) {
            self.endpoints = endpoints
            self.lengthLogRatio = lengthLogRatio
            self.missed = missed
            self.start = start
            self.end = end
            self.keys = keys
            self.dwell = dwell
            self.dwellWorst = dwellWorst
            self.dwellCorners = dwellCorners
            self.keyMatch = keyMatch
            self.keyMatchWorst = keyMatchWorst
            self.turns = turns
            self.turnsWorst = turnsWorst
            self.turnCorners = turnCorners
            self.startTurn = startTurn
            self.endTurn = endTurn
            self.startAlong = startAlong
            self.startAcross = startAcross
            self.endAlong = endAlong
            self.endAcross = endAcross
            self.outsideLocality = outsideLocality
        }
    }
    public var terms = Terms()

    package init(word: String, id: Int64, score: Double, cost: Double, frequency: Int, location: Double = 0, shape: Double = 0,
                 contextLogProbability: Double? = nil, terms: Terms = Terms()) {
        self.word = word
        self.id = id
        self.score = score
        self.cost = cost
        self.frequency = frequency
        self.location = location
        self.shape = shape
        self.contextLogProbability = contextLogProbability
        self.terms = terms
    }

    public var description: String { String(format: "%@ (score %.2f, cost %.3f, f=%d)", word, score, cost, frequency) }
}

/// The decoder's answer with the work it did.
public struct SwipeDecoding: Sendable {
    public var candidates: [SwipeCandidate]
    /// Points left after simplification.
    public var points: Int
    /// Words left after the start-point, start-direction, end-point and length filters, when the
    /// options ask for them (``SwipeDecoderOptions/countsFilters``); empty otherwise.
    public var afterFilter: [Int]
    /// The words the channels and the prior shortlisted for DTW, best first.
    public var shortlisted: [Int32] = []
    /// DTW columns computed and reused through the prefix cache.
    public var columnsComputed = 0
    public var columnsReused = 0
    /// Shortlisted words whose DTW stopped before its last column: their cost so far could no
    /// longer bring them into the candidates kept (early abandoning).
    public var wordsAbandoned = 0
    /// The context's fit the decode read (its `contextFit`; ``SwipeDecoder/decode(_:times:after:model:)``
    /// computes it): nil without one.
    public var contextFit: Double? = nil
}

/// The reference swipe decoder (thesis chapter 2): simplify the input, filter the dictionary with
/// four cheap tests, score the survivors with segment-based dynamic time warping (sharing work
/// between words with a common key-path prefix; the thesis's locality constraint is reported to
/// the reranker, not imposed: ``SwipeDecoderOptions/localityCaps``), add the frequency prior,
/// and return the best ``SwipeDecoderOptions/limit``.
///
/// ```swift
/// let store = try TrainedStore(path: "Artifacts/en_US-wordlist.sqlite")
/// let decoder = SwipeDecoder(dictionary: try store.swipeDictionary(layout: "qwerty"))
/// decoder.decode(points).candidates.map(\.word)   // ["hello", "hell", …]
/// ```
/// Points are in layout units (``SwipePoint``); `SwipeTrace` in LexiforgeSwipe maps pixel traces.
/// Fewer than two finite points give no candidates.
public struct SwipeDecoder: Sendable {
    public let dictionary: SwipeDictionary
    public var options: SwipeDecoderOptions
    /// The language model's unigram of each entry's word, in the dictionary's order, for the
    /// model the decoder last read a context of (shared by the decoder's copies).
    let entryUnigrams = EntryUnigrams()
    /// Where real swipes start and end on each key of the dictionary's layout (the timed context
    /// reranker reads each candidate's ends against it).
    public let endKeyOffsets: SwipeEndKeyOffsets

    public init(dictionary: SwipeDictionary, options: SwipeDecoderOptions = SwipeDecoderOptions()) {
        self.dictionary = dictionary
        self.options = options
        endKeyOffsets = SwipeEndKeyOffsets(layout: dictionary.layout)
    }

    /// Per dictionary entry, the unigram (store units) that ``ContextDistribution/log10Probability(of:)``
    /// backs off to for the entry's word: the cheap stage reads them one after the other, in the
    /// order it visits the entries, instead of at random in the model's table of every word (a
    /// cache miss per word: a tenth of a decode's time). Computed once per model table (about a
    /// millisecond for en_US); 4 bytes an entry.
    final class EntryUnigrams: @unchecked Sendable {
        private let lock = NSLock()
        private var table: [Int32] = []
        private var values: [Int32] = []

        /// The unigram of each entry of `wordIDs` in `unigrams` (a ``ContextDistribution``'s),
        /// words outside it reading `<unk>`'s, as ``ContextDistribution/log10Probability(of:)`` does.
        func values(for unigrams: [Int32], wordIDs: [Int64]) -> [Int32] {
            lock.lock()
            defer { lock.unlock() }
            // The same table: the same storage, which `table` keeps alive (an array's storage is
            // never changed in place while another array shares it).
            let same = table.count == unigrams.count && table.withUnsafeBufferPointer { a in
                unigrams.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
            }
            if !same {
                let unknown = Int(StoreSchema.ReservedID.unknown)
                values = wordIDs.map { id in unigrams[id >= 0 && id < Int64(unigrams.count) ? Int(id) : unknown] }
                table = unigrams
            }
            return values
        }
    }

    /// A swipe prepared for filtering and scoring.
    public struct PreparedSwipe: Sendable {
        public var points: [SwipePoint]
        /// Distance along the raw swipe of each kept point.
        public var along: [Double]
        public var length: Double
        /// Measured start direction (radians), nil when the swipe is shorter than the measuring distance.
        public var direction: Double?
    }

    /// Simplifies the raw points (thesis 2.3) and measures length and start direction.
    /// Returns nil for fewer than two finite points.
    public func prepare(_ raw: [SwipePoint]) -> PreparedSwipe? {
        let points = finite(raw)
        guard points.count >= 2 else { return nil }
        var cumulative = [0.0]
        cumulative.reserveCapacity(points.count)
        for i in 1 ..< points.count { cumulative.append(cumulative[i - 1] + points[i - 1].distance(to: points[i])) }
        var direction: Double?
        if let j = cumulative.firstIndex(where: { $0 >= options.directionDistance }) {
            direction = atan2(points[j].y - points[0].y, points[j].x - points[0].x)
        }
        var kept = [0]
        let maxCos = cos(options.simplifyMaxAngle * .pi / 180)
        for c in 2 ..< points.count + 1 where c < points.count {
            let a = points[kept.last!], b = points[c - 1], cc = points[c]
            let gap = cumulative[c - 1] - cumulative[kept.last!]
            let area = abs((b.x - a.x) * (cc.y - a.y) - (cc.x - a.x) * (b.y - a.y)) / 2
            let bax = a.x - b.x, bay = a.y - b.y, bcx = cc.x - b.x, bcy = cc.y - b.y
            let norms = (bax * bax + bay * bay).squareRoot() * (bcx * bcx + bcy * bcy).squareRoot()
            // Interior angle at B below the threshold ⇔ its cosine above cos(threshold).
            let sharp = norms > 1e-9 && (bax * bcx + bay * bcy) / norms > maxCos
            if gap >= options.simplifyMaxGap || area > options.simplifyMinArea || sharp { kept.append(c - 1) }
        }
        kept.append(points.count - 1)
        return PreparedSwipe(points: kept.map { points[$0] }, along: kept.map { cumulative[$0] },
                             length: cumulative[points.count - 1], direction: direction)
    }

    /// The finite points, read ``SwipeDecoderOptions/verticalOffset`` higher.
    func finite(_ raw: [SwipePoint]) -> [SwipePoint] {
        let offset = options.verticalOffset
        return raw.compactMap { $0.x.isFinite && $0.y.isFinite ? SwipePoint(x: $0.x, y: $0.y - offset) : nil }
    }

    // MARK: Filters

    /// Keys whose centre lies within `radius` of `point`.
    func keys(near point: SwipePoint, radius: Double) -> [Bool] {
        dictionary.layout.keys.map { $0.centre.distance(to: point) <= radius }
    }

    /// Whether each of the four filters (start point, start direction, end point, length) keeps
    /// entry `i`, each tested on its own (for evaluation).
    public func filterVerdicts(_ swipe: PreparedSwipe, entry i: Int) -> [Bool] {
        let starts = keys(near: swipe.points[0], radius: options.startRadius)
        let ends = keys(near: swipe.points[swipe.points.count - 1], radius: options.endRadius)
        let path = dictionary.path(i)
        return [starts[Int(path.first!)], directionKeeps(swipe, i), ends[Int(path.last!)], lengthKeeps(swipe, i)]
    }

    @inline(__always) func directionKeeps(_ swipe: PreparedSwipe, _ i: Int) -> Bool {
        guard let direction = swipe.direction, dictionary.secondDistance[i] > Float(options.neighbourDistance) else { return true }
        var d = abs(direction - Double(dictionary.startAngle[i]))
        if d >= 2 * .pi { d = d.truncatingRemainder(dividingBy: 2 * .pi) }   // the remainder of a smaller d is d
        if d > .pi { d = 2 * .pi - d }
        return d <= options.directionTolerance * .pi / 180
    }

    @inline(__always) func lengthKeeps(_ swipe: PreparedSwipe, _ i: Int) -> Bool {
        let l = Double(dictionary.length[i])
        var upper = options.lengthB * swipe.length + options.lengthC
        if swipe.length < options.tapLength { upper = max(upper, options.tapLengthBound) }
        return l >= options.lengthA * swipe.length - options.lengthC && l <= upper
    }

    /// The entries passing all four filters, grouped by first and last key, and the count after each.
    public func filter(_ swipe: PreparedSwipe) -> (entries: [Int32], afterFilter: [Int]) {
        let starts = keys(near: swipe.points[0], radius: options.startRadius)
        let ends = keys(near: swipe.points[swipe.points.count - 1], radius: options.endRadius)
        var counts = [0, 0, 0, 0]
        var result: [Int32] = []
        for key in starts.indices where starts[key] {
            let group = dictionary.entries(first: key)
            counts[0] += group.count
            for i in group {
                guard directionKeeps(swipe, i) else { continue }
                counts[1] += 1
                guard ends[Int(dictionary.keys[Int(dictionary.pathStart[i + 1]) - 1])] else { continue }
                counts[2] += 1
                guard lengthKeeps(swipe, i) else { continue }
                counts[3] += 1
                result.append(Int32(i))
            }
        }
        return (result, counts)
    }

    // MARK: Decoding

    /// Decodes one swipe (points in layout units) without context: the lexicon prior alone.
    public func decode(_ raw: [SwipePoint]) -> SwipeDecoding { decode(raw, context: nil) }

    /// Decodes one swipe after the words before it: the language model's p(word | context)
    /// joins the lexicon prior (``SwipeDecoderOptions/contextWeight``). `context` comes from
    /// ``NgramPredictor/distribution(after:)`` on a store with a language model; nil decodes
    /// without context. `contextFit` (``NgramPredictor/contextFit(of:)`` of the same words) lets
    /// ``SwipeDecoderOptions/contextGate`` weigh a context that reads like no sentence less, and
    /// the context rerankers read it (nil reads as "no word before"); the timed context reranker
    /// also reads `contextMeanFit` (``NgramPredictor/contextMeanFit(of:)``, nil as no word).
    /// ``decode(_:times:after:model:)`` computes both from the words before the swipe.
    ///
    /// Stages: simplify (thesis 2.3); the four filters; the words they keep scored by the prior,
    /// the end and length terms and the location and shape channels on resampled paths (O(points)
    /// each, no alignment), by pairs of first and last keys, the nearest pair first and the most
    /// frequent words of a pair first, each pair left as soon as its rest cannot reach the
    /// shortlist; the best ``SwipeDecoderOptions/shortlist`` rescored with segment DTW.
    /// - Complexity: O(F · P) for F filtered words and P resampled points at most, plus
    ///   O(S · N · K) DTW for the S shortlisted words, N kept points and K segments per word.
    ///
    /// `times` (milliseconds, one per point) let the reranker see where the swipe slows down
    /// (``SwipeDwell``: people slow at the keys they mean); without them it ranks by the path alone.
    public func decode(_ raw: [SwipePoint], times: [Double]? = nil, context: ContextDistribution?, contextFit: Double? = nil,
                       contextMeanFit: SwipeContextMeanFit? = nil) -> SwipeDecoding {
        var decoding: SwipeDecoding
        if let gate = options.contextGate, let contextFit, contextFit < gate {
            var decoder = self
            decoder.options.contextWeight = options.contextWeightLow
            decoder.options.selection?.context = options.selection?.contextLow ?? 0
            decoder.options.shortlistSelection?.context = options.shortlistSelection?.contextLow ?? 0
            decoding = decoder.decodeWeighted(raw, times: times, context: context, contextFit: contextFit,
                                              contextMeanFit: contextMeanFit)
        } else {
            decoding = decodeWeighted(raw, times: times, context: context, contextFit: contextFit,
                                      contextMeanFit: contextMeanFit)
        }
        decoding.contextFit = contextFit
        return decoding
    }

    /// Decodes one swipe with its points' times (milliseconds) and no context.
    public func decode(_ raw: [SwipePoint], times: [Double]) -> SwipeDecoding { decode(raw, times: times, context: nil) }

    func decodeWeighted(_ raw: [SwipePoint], times: [Double]?, context: ContextDistribution?, contextFit: Double?,
                        contextMeanFit: SwipeContextMeanFit?) -> SwipeDecoding {
        guard let swipe = prepare(raw) else { return SwipeDecoding(candidates: [], points: 0, afterFilter: options.countsFilters ? [0, 0, 0, 0] : []) }
        var decoding = SwipeDecoding(candidates: [], points: swipe.points.count, afterFilter: options.countsFilters ? filter(swipe).afterFilter : [])
        let channels = Channels(swipe: finite(raw), options: options)
        let centres = dictionary.layout.keys.map(\.centre)
        // Cheap stage: channels and prior for every word the filters keep, keeping the best `shortlist`.
        var shortlist: [Shortlisted] = []
        let size = max(options.shortlist, options.limit)
        var floor = -Double.infinity
        var template = [Double](repeating: 0, count: 2 * channels.n)
        var lengths = [Double](repeating: 0, count: 32)
        let head = swipe.points[0], tail = swipe.points[swipe.points.count - 1]
        // The weights that choose the shortlist: its own when set, else the linear score's.
        let pick = options.shortlistSelection ?? options.linear
        let startWeight = pick.start, endWeight = pick.end, lengthWeight = pick.length
        let locationWeight = pick.location, shapeWeight = pick.shape
        let frequencyWeight = pick.frequency, contextFrequencyWeight = pick.contextFrequency, contextWeight = pick.context
        // Squared distances of the swipe's ends to each key (a word's first and last keys).
        let startSquares = centres.map { $0.distance(to: head) * $0.distance(to: head) }
        let endSquares = centres.map { $0.distance(to: tail) * $0.distance(to: tail) }
        // The pairs of first and last keys the end filters keep: the words of a pair share the
        // ends' terms. Nearest first, so the shortlist's floor rises fast.
        let starts = keys(near: head, radius: options.startRadius), ends = keys(near: tail, radius: options.endRadius)
        var groups: [(entries: Range<Int>, start: Double, end: Double)] = []
        for f in starts.indices where starts[f] {
            for l in ends.indices where ends[l] {
                let entries = dictionary.entries(first: f, last: l)
                if !entries.isEmpty { groups.append((entries, startSquares[f], endSquares[l])) }
            }
        }
        groups.sort { a, b in
            let x = startWeight * a.start + endWeight * a.end, y = startWeight * b.start + endWeight * b.end
            return x != y ? x < y : a.entries.lowerBound < b.entries.lowerBound
        }
        // A group's words come most frequent first. Without a context the prior falls with the
        // frequency, so the first word whose prior cannot reach the shortlist ends the group; with
        // one, the priors of a group's words that pass the direction and length filters are
        // computed first, last to first (only words some context level continues pay a hash
        // lookup per level), and no later word's prior exceeds the greatest of the rest.
        let falls = context == nil ? frequencyWeight >= 0 : contextFrequencyWeight >= 0 && contextWeight >= 0
        // The bounds below also take the terms after the prior and the ends to lower a score only:
        // the length's, location's and shape's weights not negative (the fitted ones never are;
        // with one that is, the words those bounds would skip are all scored).
        let channelsLower = locationWeight >= 0 && shapeWeight >= 0
        let termsLower = lengthWeight >= 0 && channelsLower
        var priors: [Double] = [], lms: [Double] = [], rest: [Double] = []
        let unigrams = context.map { entryUnigrams.values(for: $0.unigrams, wordIDs: dictionary.wordIDs) } ?? []
        // Words the options do not allow are passed over like words the filters drop.
        let blocksOffensive = !options.allowOffensive
        let offensive = dictionary.possiblyOffensive
        for group in groups {
            let startSquared = group.start, endSquared = group.end
            let entries = group.entries
            if let context {
                // The whole group's best: its most frequent word with the context's best probability.
                let most = contextFrequencyWeight * Double(Int(dictionary.frequency[entries.lowerBound]) - 255) * Self.lnFrequencyStep
                    + contextWeight * context.maximumLog10Probability * M_LN10
                if falls && termsLower && shortlist.count >= size && most - startWeight * startSquared - endWeight * endSquared <= floor { continue }
                if priors.count < entries.count {
                    priors = [Double](repeating: 0, count: entries.count); lms = priors; rest = priors
                }
                // Every word of a group the filters keep passes here (tens of thousands a swipe):
                // the three arrays are written through their buffers, without a uniqueness check
                // per write.
                priors.withUnsafeMutableBufferPointer { priors in
                    lms.withUnsafeMutableBufferPointer { lms in
                        rest.withUnsafeMutableBufferPointer { rest in
                            var best = -Double.infinity
                            for j in stride(from: entries.count - 1, through: 0, by: -1) {
                                let i = entries.lowerBound + j
                                // A word the other two filters drop, or the options do not allow, gets no
                                // prior (-∞) and is passed over.
                                guard directionKeeps(swipe, i), lengthKeeps(swipe, i), !(blocksOffensive && offensive[i]) else {
                                    priors[j] = -.infinity; rest[j] = best; continue
                                }
                                // The lexicon prior plus ln p(word | context), each weighed.
                                let lexicon = Double(Int(dictionary.frequency[i]) - 255) * Self.lnFrequencyStep
                                let lm = context.log10Probability(of: dictionary.wordIDs[i], unigram: unigrams[i]) * M_LN10
                                let score = contextFrequencyWeight * lexicon + contextWeight * lm
                                priors[j] = score
                                lms[j] = lm
                                best = max(best, score)
                                rest[j] = best
                            }
                        }
                    }
                }
            }
            for i in entries {
                let j = i - entries.lowerBound
                let prior = context == nil ? frequencyWeight * Double(Int(dictionary.frequency[i]) - 255) * Self.lnFrequencyStep : priors[j]
                // Once the shortlist is full, `floor` (its `size`-th best score when it was last
                // trimmed) only rises, and a word scoring no more than it can never enter: the
                // best `size` are then all earlier words that score at least as much. The terms
                // only lower a score (`termsLower`, `channelsLower`), so each bound below skips the
                // rest of the work.
                let full = shortlist.count >= size
                if full && falls && termsLower && (context == nil ? prior : rest[j]) - startWeight * startSquared - endWeight * endSquared <= floor { break }
                guard context == nil ? directionKeeps(swipe, i) && lengthKeeps(swipe, i) && !(blocksOffensive && offensive[i]) : prior > -.infinity else { continue }
                // The ends alone often settle it, before the logarithm of the lengths is taken.
                if full && termsLower && prior - startWeight * startSquared - endWeight * endSquared <= floor { continue }
                let ratio = log((swipe.length + 1) / (Double(dictionary.length[i]) + 1))
                let quick = prior - startWeight * startSquared - endWeight * endSquared - lengthWeight * ratio * ratio
                if full && channelsLower && quick <= floor { continue }
                // The location distance only grows point by point: once what is summed already
                // puts the word at or below the floor, the rest of its template is not drawn.
                let abandonable = full && channelsLower
                guard let location = channels.templateLocation(of: dictionary.path(i), centres: centres, lengths: &lengths, into: &template,
                                                               abandons: { abandonable && quick - locationWeight * $0 <= floor }) else { continue }
                // The shape channel only lowers the score further (its distance is never negative): a
                // word the location channel already puts at or below the floor is done.
                let located = quick - locationWeight * location
                if full && shapeWeight >= 0 && located <= floor { continue }
                let shape = channels.shape(&template)
                let score = located - shapeWeight * shape
                if full && score <= floor { continue }
                shortlist.append(Shortlisted(entry: Int32(i), score: score, location: location, shape: shape, lm: context == nil ? nil : lms[j],
                                             start: startSquared, end: endSquared, lengthLogRatio: ratio))
                if shortlist.count == size && floor == -.infinity {
                    floor = shortlist.lazy.map(\.score).min() ?? floor
                } else if shortlist.count > 2 * size {
                    shortlist.sort { $0.score != $1.score ? $0.score > $1.score : $0.entry < $1.entry }
                    shortlist.removeLast(shortlist.count - size)
                    floor = shortlist[size - 1].score
                }
            }
        }
        shortlist.sort { $0.score != $1.score ? $0.score > $1.score : $0.entry < $1.entry }
        if shortlist.count > size { shortlist.removeLast(shortlist.count - size) }
        decoding.shortlisted = shortlist.map(\.entry)
        let byPath = shortlist.sorted { dictionary.path(Int($0.entry)).lexicographicallyPrecedes(dictionary.path(Int($1.entry))) }
        let scored = score(swipe, byPath[...])
        if options.reranks {
            let dwell = times.map { self.dwell(raw, times: $0) }.flatMap { $0.available ? $0 : nil }
            var top = addingRerankTerms(scored.top, entries: scored.entries, keyMatch: keyMatch(raw), dwell: dwell, turns: turns(raw))
            let reranker = SwipeReranker.fitted(context: context != nil, timed: dwell != nil)
            if reranker.shapeColumns {
                top = addingShapeTerms(top, entries: scored.entries, shortlist: decoding.shortlisted.map(Int.init),
                                       reading: shapeReading(raw, times: dwell != nil ? times : nil))
            }
            let profile = self.profile(raw, times: dwell != nil ? times : nil)
            let reranked = reranker.rerank(top, fit: contextFit ?? 0, meanFit: contextMeanFit, profile: profile, limit: options.limit)
            decoding.candidates = Array(reranked.prefix(options.limit))
        } else {
            decoding.candidates = scored.top
        }
        decoding.columnsComputed = scored.computed
        decoding.columnsReused = scored.reused
        decoding.wordsAbandoned = scored.abandoned
        return decoding
    }

    /// Where the swipe `raw` slows down, its points read as the decoder reads them
    /// (``SwipeDecoderOptions/verticalOffset`` higher).
    public func dwell(_ raw: [SwipePoint], times: [Double]) -> SwipeDwell {
        SwipeDwell(points: raw, times: times, verticalOffset: options.verticalOffset)
    }

    /// The swipe `raw` read as the decoder reads it, for matching words' keys to its points.
    public func keyMatch(_ raw: [SwipePoint]) -> SwipeKeyMatch { SwipeKeyMatch(points: finite(raw)) }

    /// Where the swipe `raw`, read as the decoder reads it, turns.
    public func turns(_ raw: [SwipePoint]) -> SwipeTurns { SwipeTurns(points: finite(raw)) }

    /// The swipe `raw` (read as the decoder reads it) in a few numbers, with its times when given
    /// (milliseconds, one per point).
    public func profile(_ raw: [SwipePoint], times: [Double]?) -> SwipeProfile {
        SwipeProfile(points: finite(raw), times: times.flatMap { $0.count == raw.count ? finiteTimes(raw, $0) : nil },
                     rowHeightRatio: dictionary.layout.rowHeightRatio)
    }

    /// The times of the finite points of `raw`.
    func finiteTimes(_ raw: [SwipePoint], _ times: [Double]) -> [Double] {
        zip(raw, times).compactMap { p, t in p.x.isFinite && p.y.isFinite ? t : nil }
    }

    /// The fitted shape network's reading (``SwipeShapeNetwork``) of the swipe `raw`, read as the
    /// decoder reads it, with its times (milliseconds, one per point; without them, or with times
    /// that do not rise, the points are taken as evenly spaced).
    public func shapeReading(_ raw: [SwipePoint], times: [Double]?) -> SwipeShapeNetwork.Reading {
        let points = finite(raw)
        let kept = times.flatMap { $0.count == raw.count ? finiteTimes(raw, $0) : nil } ?? points.indices.map(Double.init)
        return SwipeShapeNetwork.fitted.read(points: points, times: kept, keys: SwipeShapeNetwork.Keys(layout: dictionary.layout))
    }

    /// `candidates` (of dictionary `entries`) with the shape network's three terms: the
    /// log-likelihood of each word's key path, the same per key, and less the best over the
    /// `shortlist`'s words (the entries the decoder shortlisted for the swipe; the candidates' own
    /// when empty). A candidate without an entry keeps zeros.
    public func addingShapeTerms(_ candidates: [SwipeCandidate], entries: [Int?], shortlist: [Int],
                                 reading: SwipeShapeNetwork.Reading) -> [SwipeCandidate] {
        precondition(entries.count == candidates.count, "one entry per candidate")
        let keys = SwipeShapeNetwork.Keys(layout: dictionary.layout)
        var likelihood: [Int: (Double, Int)] = [:]
        func scored(_ i: Int) -> (Double, Int) {
            if let known = likelihood[i] { return known }
            let classes = keys.classes(dictionary.path(i))
            let value = (reading.logLikelihood(of: classes), min(classes.count, reading.maximumKeys))
            likelihood[i] = value
            return value
        }
        let pool = shortlist.isEmpty ? entries.compactMap { $0 } : shortlist
        let best = pool.map { scored($0).0 }.max() ?? 0
        return zip(candidates, entries).map { c, entry in
            guard let i = entry else { return c }
            var c = c
            let (ll, n) = scored(i)
            c.terms.shapeLikelihood = ll
            c.terms.shapeLikelihoodPerKey = ll / Double(max(n, 1))
            c.terms.shapeLikelihoodRelative = ll - best
            return c
        }
    }

    /// `candidates` with the terms the reranker reads from their words' key paths: the key match
    /// (``SwipeKeyMatch/terms(keys:)``), the turn terms (``SwipeTurns/terms(keys:)``) and, when
    /// given, the dwell terms (``SwipeDwell/terms(keys:)``).
    /// Each word's keys are looked up once for all of them (by spelling: a candidate of a word
    /// the dictionary lacks is returned as it is).
    public func addingRerankTerms(_ candidates: [SwipeCandidate], keyMatch match: SwipeKeyMatch, dwell: SwipeDwell?,
                                  turns: SwipeTurns) -> [SwipeCandidate] {
        addingRerankTerms(candidates, entries: candidates.map { dictionary.index(of: $0.word) }, keyMatch: match, dwell: dwell, turns: turns)
    }

    /// The same with each candidate's dictionary entry known (the decoder's own candidates:
    /// no lookup by spelling).
    func addingRerankTerms(_ candidates: [SwipeCandidate], entries: [Int?], keyMatch match: SwipeKeyMatch, dwell: SwipeDwell?,
                           turns: SwipeTurns) -> [SwipeCandidate] {
        precondition(entries.count == candidates.count, "one entry per candidate")
        let centres = dictionary.layout.keys.map(\.centre)
        return zip(candidates, entries).map { c, entry in
            guard let i = entry else { return c }
            var c = c
            let path = dictionary.path(i)
            let keys = path.map { centres[Int($0)] }
            if let f = path.first, let l = path.last, let a = turns.first, let b = turns.last {
                c.terms.endKeyOffsets = endKeyOffsets.terms(start: a, end: b, first: Int(f), last: Int(l))
            }
            (c.terms.keyMatch, c.terms.keyMatchWorst) = match.terms(keys: keys)
            (c.terms.turns, c.terms.turnsWorst, c.terms.turnCorners) = turns.terms(keys: keys)
            (c.terms.startTurn, c.terms.endTurn) = turns.ends(keys: keys)
            (c.terms.startAlong, c.terms.startAcross, c.terms.endAlong, c.terms.endAcross) = turns.endOffsets(keys: keys)
            if let d = dwell?.terms(keys: keys) { (c.terms.dwell, c.terms.dwellWorst, c.terms.dwellCorners) = (d.unexplained, d.worst, d.corners) }
            return c
        }
    }

    /// A word that passed the cheap stage, with the terms it was scored by there.
    struct Shortlisted {
        var entry: Int32
        var score: Double
        var location: Double, shape: Double
        var lm: Double?
        /// The cheap stage's terms (kept small: the shortlist is sorted as it grows).
        var start: Double, end: Double, lengthLogRatio: Double
        var terms: SwipeCandidate.Terms {
            SwipeCandidate.Terms(endpoints: start + end, lengthLogRatio: lengthLogRatio, start: start, end: end)
        }
    }

    /// ln of one lexicon frequency step (p ∝ 1.15^f, LatinIME's scale).
    static let lnFrequencyStep = log(1.15)

    /// The swipe resampled for the location and shape channels, and the per-word comparison.
    package struct Channels {
        let n: Int
        /// Resampled swipe (x0, y0, x1, y1, …) and its normalised copy.
        package var points: [Double]
        var normalised: [Double]
        let minimumSize: Double

        package init(swipe: [SwipePoint], options: SwipeDecoderOptions) {
            let n = max(2, options.resamplePoints)
            self.n = n
            minimumSize = options.shapeMinimumSize
            var points = [Double](repeating: 0, count: 2 * n)
            var lengths = [Double](repeating: 0, count: max(swipe.count, 1))
            lengths.withUnsafeMutableBufferPointer { lengths in
                points.withUnsafeMutableBufferPointer { out in
                    _ = Self.resample(count: swipe.count, x: { swipe[$0].x }, y: { swipe[$0].y }, n: n, lengths: lengths, into: out)
                }
            }
            self.points = points
            normalised = points
            Self.normalise(&normalised, n: n, minimumSize: minimumSize)
        }

        /// `n` points spaced equally along the polyline of `count` points. `lengths` has room for
        /// `count` segment lengths (each is measured once). `visit` sees each point as it is
        /// written (its index and coordinates) and may stop the resampling by returning false;
        /// `resample` then returns false.
        @inline(__always) static func resample(count: Int, x: (Int) -> Double, y: (Int) -> Double, n: Int,
                                               lengths: UnsafeMutableBufferPointer<Double>, into out: UnsafeMutableBufferPointer<Double>,
                                               visit: (Int, Double, Double) -> Bool = { _, _, _ in true }) -> Bool {
            var total = 0.0
            for k in 1 ..< max(count, 1) {
                let dx = x(k) - x(k - 1), dy = y(k) - y(k - 1)
                let length = (dx * dx + dy * dy).squareRoot()
                lengths[k] = length
                total += length
            }
            guard count > 1, total > 1e-9 else {
                for j in 0 ..< n {
                    out[2 * j] = x(0); out[2 * j + 1] = y(0)
                    guard visit(j, x(0), y(0)) else { return false }
                }
                return true
            }
            let step = total / Double(n - 1)
            var segment = 1, walked = 0.0
            var segmentLength = lengths[1]
            for j in 0 ..< n {
                let target = j == n - 1 ? total : Double(j) * step
                while walked + segmentLength < target && segment < count - 1 {
                    walked += segmentLength
                    segment += 1
                    segmentLength = lengths[segment]
                }
                let t = segmentLength > 1e-12 ? min(1, max(0, (target - walked) / segmentLength)) : 1
                let x0 = x(segment - 1), y0 = y(segment - 1)
                let px = x0 + t * (x(segment) - x0), py = y0 + t * (y(segment) - y0)
                out[2 * j] = px
                out[2 * j + 1] = py
                guard visit(j, px, py) else { return false }
            }
            return true
        }

        /// Centred on the centroid, scaled so the larger side of the bounding box is 1 (at least
        /// `minimumSize` key widths before scaling).
        @inline(__always) static func normalise(_ p: inout [Double], n: Int, minimumSize: Double) {
            p.withUnsafeMutableBufferPointer { p in
                var cx = 0.0, cy = 0.0, minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
                for j in 0 ..< n {
                    let x = p[2 * j], y = p[2 * j + 1]
                    cx += x; cy += y
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
                cx /= Double(n); cy /= Double(n)
                let scale = 1 / max(maxX - minX, maxY - minY, minimumSize)
                for j in 0 ..< n { p[2 * j] = (p[2 * j] - cx) * scale; p[2 * j + 1] = (p[2 * j + 1] - cy) * scale }
            }
        }

        /// The perfect swipe of a key path, resampled into `out` (`lengths` is scratch space for
        /// the path's segment lengths, grown when a path is longer), and the location channel: the
        /// mean squared distance of its points to the swipe's. Point after point: nil as soon as
        /// `abandons` holds for the mean over `n` of the squares summed so far (asked every eight
        /// points), which must then hold for every greater mean (the sum only grows). The squares
        /// are summed in one order, so a word drawn whole gets the same distance either way.
        @inline(__always) package func templateLocation(of path: ArraySlice<UInt8>, centres: [SwipePoint], lengths: inout [Double],
                                                        into out: inout [Double], abandons: (Double) -> Bool) -> Double? {
            if lengths.count < path.count { lengths = [Double](repeating: 0, count: path.count) }
            let n = self.n
            var sum = 0.0
            let whole = path.withUnsafeBufferPointer { keys in
                centres.withUnsafeBufferPointer { centres in
                    lengths.withUnsafeMutableBufferPointer { lengths in
                        out.withUnsafeMutableBufferPointer { out in
                            points.withUnsafeBufferPointer { swipe in
                                Self.resample(count: keys.count, x: { centres[Int(keys[$0])].x }, y: { centres[Int(keys[$0])].y },
                                              n: n, lengths: lengths, into: out) { j, px, py in
                                    let dx = swipe[2 * j] - px, dy = swipe[2 * j + 1] - py
                                    sum += dx * dx; sum += dy * dy
                                    return j & 7 != 7 || j == n - 1 || !abandons(sum / Double(n))
                                }
                            }
                        }
                    }
                }
            }
            return whole ? sum / Double(n) : nil
        }

        /// The shape channel: the same after both are normalised; normalises `template` in place
        /// (``templateLocation(of:centres:lengths:into:abandons:)`` rewrites it for the next word).
        @inline(__always) func shape(_ template: inout [Double]) -> Double {
            Self.normalise(&template, n: n, minimumSize: minimumSize)
            var shape = 0.0
            normalised.withUnsafeBufferPointer { normalised in
                template.withUnsafeBufferPointer { template in
                    for j in 0 ..< 2 * n { let d = normalised[j] - template[j]; shape += d * d }
                }
            }
            return shape / Double(n)
        }
    }

    /// Top candidates of one worker.
    struct Scored: Sendable {
        var top: [SwipeCandidate] = []
        /// The dictionary entry of each candidate of `top`, in its order.
        var entries: [Int] = []
        var computed = 0, reused = 0, abandoned = 0

        mutating func offer(_ c: SwipeCandidate, entry: Int, limit: Int) {
            if top.count == limit, let last = top.last, c.score <= last.score { return }
            let at = top.firstIndex { $0.score < c.score } ?? top.count
            top.insert(c, at: at)
            entries.insert(entry, at: at)
            if top.count > limit { top.removeLast(); entries.removeLast() }
        }
    }

    /// Whether no warping path of the segment DTW over `columns` columns (2 · keys − 1; column j
    /// is key j/2's centre for even j, else the segment to the next key) stays within the
    /// locality constraint, `perfectAlong[k]` being the distance along the word's perfect swipe at
    /// key k: exactly the words the constrained DTW cannot reach (``SwipeDecoderOptions/localityCaps``).
    /// The points a column allows are a run of consecutive points (`along` never decreases), a
    /// path enters a column at or after the first point it reached in the previous one and at
    /// most one point after that column's last, and it must end on the last point.
    /// - Complexity: O(columns · log points).
    func outsideLocality(along: [Double], perfectAlong: [Double], columns m: Int) -> Bool {
        let n = along.count
        guard n > 0, m > 0 else { return true }
        // How many points come first that satisfy `before` (true of a prefix: `along` never decreases).
        func leading(_ before: (Double) -> Bool) -> Int {
            var lo = 0, hi = n
            while lo < hi { let mid = (lo + hi) / 2; if before(along[mid]) { lo = mid + 1 } else { hi = mid } }
            return lo
        }
        var reachedFirst = 0, reachedLast = -1
        for j in 0 ..< m {
            let ka = j / 2, kb = (j + 1) / 2
            let low = options.localityLow * perfectAlong[ka] - options.localitySlack
            let high = options.localityHigh * perfectAlong[kb] + options.localitySlack
            let first = leading { $0 < low }, last = leading { $0 <= high } - 1
            let entry = j == 0 ? 0 : max(first, reachedFirst)
            if entry < first || entry > last || (j > 0 && entry > reachedLast + 1) { return true }
            reachedFirst = entry; reachedLast = last
        }
        return reachedLast != n - 1
    }

    /// Adds the segment-DTW term to shortlisted entries (sorted by key path, reusing the DTW
    /// columns of the common key-path prefix) and keeps the best ``SwipeDecoderOptions/limit``.
    func score(_ swipe: PreparedSwipe, _ entries: ArraySlice<Shortlisted>) -> Scored {
        let n = swipe.points.count
        let layout = dictionary.layout
        let centres = layout.keys.map(\.centre)
        let xs = swipe.points.map(\.x), ys = swipe.points.map(\.y), along = swipe.along
        // Each step of the swipe (from point p − 1 to p) as dx, dy and its squared length, at 3p.
        var segments = [Double](repeating: 0, count: 3 * max(n, 1))
        for p in 1 ..< max(n, 1) {
            let dx = xs[p] - xs[p - 1], dy = ys[p] - ys[p - 1]
            (segments[3 * p], segments[3 * p + 1], segments[3 * p + 2]) = (dx, dy, dx * dx + dy * dy)
        }
        var columns: [Double] = []          // column j at [j * n ..< (j + 1) * n]
        var positions: [Float] = []         // where on its segment each cell's point was mapped
        var perfectAlong: [Double] = [0]    // distance along the perfect swipe at key k
        var previous: ArraySlice<UInt8> = []
        var validColumns = 0
        var result = Scored()
        let keep = options.reranks ? max(options.limit, options.rerank) : options.limit   // the reranker's need their full DTW cost
        // The candidates kept (`result.top`) are the best by the linear score or, for the
        // reranker, by its selection weights.
        let w = (options.reranks ? options.selection : nil) ?? options.linear
        let costWeight = w.cost
        let robust = options.costRobustness
        for entry in entries {
            let i = Int(entry.entry), location = entry.location, shape = entry.shape, lm = entry.lm
            // The score but for the DTW cost's and the missed key's parts (each only lowers it),
            // summed in the order the full score below sums them.
            let lexicon = Double(Int(dictionary.frequency[i]) - 255) * Self.lnFrequencyStep
            let known = -w.location * location - w.shape * shape - w.start * entry.start - w.end * entry.end
                - w.length * entry.lengthLogRatio * entry.lengthLogRatio
            let priors = lm.map { w.contextFrequency * lexicon + w.context * $0 } ?? w.frequency * lexicon
            let missWeight = w.miss
            // A word that cannot beat the last kept candidate before those parts never will:
            // early abandoning would drop it after the first column, and this skips that column
            // and the missed key's pass over the swipe (the same candidates, byte for byte).
            let last = result.top.count == keep ? result.top[keep - 1].score : -Double.infinity
            let bounds = missWeight >= 0 && costWeight >= 0 && options.costWeight >= 0
            if bounds && known + priors < last { continue }
            let path = dictionary.path(i)
            // The inner key the swipe passes farthest from.
            var missed = 0.0
            let hopeless = xs.withUnsafeBufferPointer { xs in
                ys.withUnsafeBufferPointer { ys in
                    segments.withUnsafeBufferPointer { segments in
                        for k in path.indices.dropFirst().dropLast() {
                            let c = centres[Int(path[k])]
                            var nearest = Double.infinity
                            for p in 1 ..< n {
                                let ax = xs[p - 1], ay = ys[p - 1], dx = segments[3 * p], dy = segments[3 * p + 1], l2 = segments[3 * p + 2]
                                let t = l2 > 0 ? min(1, max(0, ((c.x - ax) * dx + (c.y - ay) * dy) / l2)) : 0
                                let ex = c.x - (ax + t * dx), ey = c.y - (ay + t * dy)
                                nearest = min(nearest, ex * ex + ey * ey)
                            }
                            missed = max(missed, nearest)
                            // The keys still to come only raise the miss.
                            if bounds && known - missWeight * missed + priors < last { return true }
                        }
                        return false
                    }
                }
            }
            if hopeless { continue }
            let m = 2 * path.count - 1
            var common = 0
            while common < path.count && common < previous.count
                    && path[path.startIndex + common] == previous[previous.startIndex + common] { common += 1 }
            // Columns 0 ... 2·common − 2 depend only on the first `common` keys.
            var start = min(validColumns, max(0, 2 * common - 1))
            result.reused += start
            if columns.count < m * n { columns += [Double](repeating: 0, count: m * n - columns.count); positions += [Float](repeating: 0, count: m * n - positions.count) }
            if perfectAlong.count < path.count { perfectAlong += [Double](repeating: 0, count: path.count - perfectAlong.count) }
            for k in max(1, common) ..< path.count {
                perfectAlong[k] = perfectAlong[k - 1] + layout.keys[Int(path[path.startIndex + k - 1])].centre.distance(to: layout.keys[Int(path[path.startIndex + k])].centre)
            }
            var columnMin = 0.0
            // The score but for the DTW cost's part.
            let prior = known - missWeight * missed + priors
            var terms = entry.terms
            terms.missed = missed
            terms.keys = path.count
            if options.costWeight == 0 {
                result.offer(SwipeCandidate(word: dictionary.words[i], id: dictionary.wordIDs[i], score: prior, cost: .infinity,
                                            frequency: Int(dictionary.frequency[i]), location: location, shape: shape,
                                            contextLogProbability: lm, terms: terms), entry: i, limit: keep)
                continue
            }
            var abandoned = false
            while start < m {
                let j = start
                let ka = j / 2, kb = (j + 1) / 2
                let a = centres[Int(path[path.startIndex + ka])], b = centres[Int(path[path.startIndex + kb])]
                let low = options.localityCaps ? options.localityLow * perfectAlong[ka] - options.localitySlack : -Double.infinity
                let high = options.localityCaps ? options.localityHigh * perfectAlong[kb] + options.localitySlack : Double.infinity
                let dx = b.x - a.x, dy = b.y - a.y
                let segmentSquared = dx * dx + dy * dy
                let base = j * n, prevBase = (j - 1) * n
                // The column's cells, through pointers: the loop runs for every cell of every
                // column of every shortlisted word, and its indices are in range by construction.
                columnMin = columns.withUnsafeMutableBufferPointer { columns in
                    positions.withUnsafeMutableBufferPointer { positions in
                        xs.withUnsafeBufferPointer { xs in
                            ys.withUnsafeBufferPointer { ys in
                                along.withUnsafeBufferPointer { along in
                                    var columnMin = Double.infinity
                                    for p in 0 ..< n {
                                        if along[p] < low || along[p] > high { columns[base + p] = .infinity; continue }
                                        let up = p > 0 ? columns[base + p - 1] : .infinity
                                        let left = j > 0 ? columns[prevBase + p] : .infinity
                                        let diagonal = p > 0 ? (j > 0 ? columns[prevBase + p - 1] : .infinity) : (j == 0 ? 0 : .infinity)
                                        let best = min(up, left, diagonal)
                                        if best == .infinity { columns[base + p] = .infinity; continue }
                                        var t = 0.0
                                        if segmentSquared > 0 {
                                            t = ((xs[p] - a.x) * dx + (ys[p] - a.y) * dy) / segmentSquared
                                            // Staying on the segment: never map behind the previous point (thesis 2.2.2).
                                            if best == up { t = max(t, Double(positions[base + p - 1])) }
                                            t = min(max(t, 0), 1)
                                        }
                                        positions[base + p] = Float(t)
                                        let ex = xs[p] - (a.x + t * dx), ey = ys[p] - (a.y + t * dy)
                                        let e2 = ex * ex + ey * ey
                                        let value = best + (robust > 0 ? e2 * robust / (robust + e2) : e2)
                                        columns[base + p] = value
                                        columnMin = min(columnMin, value)
                                    }
                                    return columnMin
                                }
                            }
                        }
                    }
                }
                result.computed += 1
                start += 1
                if columnMin == .infinity { break }   // no warping path within the locality constraint
                // Early abandoning: every warping path crosses every column and costs only grow, so
                // the final cost is at least this column's minimum.
                if result.top.count == keep,
                   -costWeight * columnMin / Double(n) + prior < result.top[result.top.count - 1].score {
                    abandoned = true
                    result.abandoned += 1
                    break
                }
            }
            validColumns = start
            previous = path
            if abandoned { continue }
            // Only for words that stay in the running (an abandoned word is never offered).
            terms.outsideLocality = outsideLocality(along: along, perfectAlong: perfectAlong, columns: m)
            // Outside the locality constraint (when it bounds the DTW) the word still competes, at the capped cost.
            let total = columnMin == .infinity || start < m ? Double.infinity : columns[(m - 1) * n + n - 1]
            let cost = min(total / Double(n), options.costCap)
            let frequency = Int(dictionary.frequency[i])
            let score = -costWeight * cost + prior
            result.offer(SwipeCandidate(word: dictionary.words[i], id: dictionary.wordIDs[i], score: score, cost: cost,
                                        frequency: frequency, location: location, shape: shape, contextLogProbability: lm,
                                        terms: terms),
                         entry: i, limit: keep)
        }
        return result
    }
}
