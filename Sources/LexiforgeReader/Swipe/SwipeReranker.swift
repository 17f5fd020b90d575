import Foundation

/// The second stage of ``SwipeDecoder``: the best ``SwipeDecoderOptions/rerank`` candidates of the
/// linear score, reordered by a score of the same measurements and a few more.
///
/// The linear score weighs each channel with one number; real swipes say the weights depend on the
/// word (a long word's DTW cost means less than a short one's) and on the swipe (a long, fast or
/// wobbly swipe against a short, careful one), and that small distances matter more than squares
/// make them. The features (``features(of:lm:fit:meanFit:timed:shape:profile:)``) are the candidate's
/// channel distances, DTW cost, end distances and prior, their square roots and products with the
/// key count, its ``SwipeKeyMatch`` and ``SwipeTurns`` terms (and ``SwipeDwell`` terms for a swipe
/// with times), with a context six terms of p(word | context), then the swipe's ``SwipeProfile``
/// and, with a context, its fit and the word's ``Spelling``; last, how far the swipe's two ends
/// turn from the word's first and last steps (``SwipeTurns/ends(keys:)``) and, with a context,
/// where they lie along and across those steps (``SwipeTurns/endOffsets(keys:)``) and, with times
/// too, against where real swipes start and end on the word's first and last keys
/// (``SwipeEndKeyOffsets``); with a context and times, last of all, how all the words before the
/// swipe read (``SwipeContextMeanFit``); and for the timed context forest, after them, the learned
/// shape model's log-likelihood of the word's keys (``SwipeShapeNetwork``, ``shapeColumns``: the
/// decoder runs the network once a swipe and scores each shortlisted word's key path). Every other
/// feature is O(1) from what the candidate carries.
///
/// A score is the features' weighted sum, plus a hidden layer of tanh units over them, plus a
/// ``SwipeForest`` of boosted trees over them, each part optional. The fitted rerankers
/// (``fitted(context:timed:)``) are forests alone since 2026-11-27: LambdaMART, trees of 31
/// leaves, each the average of two forests (LightGBM seeds 1 and 2, since 2026-11-28) of 300
/// trees without a context and 600 with one, fitted on the top 64 of each of the 20,000 real
/// swipes of the development set
/// (`Tests/Bench/swipe-rerank/forest.py`). By nested cross-validation by user they rank better than
/// the network of 16 tanh units over the top 32 they replace (docs/swipe.md): without context
/// 88.44% / 95.30% top-1 / top-4 in the dictionary against 87.34% / 94.58%, with context 90.00% /
/// 95.64% against 88.35% / 94.81% (the context's fit among the features and 600 trees since the
/// seventeenth session, the spelling since the eighteenth, two seeds since the nineteenth, the DTW
/// without its locality constraint and the flag of it since the twentieth, the ends' turns since
/// the twenty-third, the ends' offsets along the word's steps since the forty-second, the ends
/// against their keys' usual offsets since the forty-fifth (timed) and forty-sixth (untimed), how
/// the whole context reads since the forty-seventh (timed), the shape network since the
/// fifty-first (timed); 89.21% / 95.27% before).
public struct SwipeReranker: Sendable, Equatable {
    /// One weight per feature of ``features(of:lm:fit:meanFit:timed:shape:profile:)``, in its order: 36
    /// without a context, 59 with one; five more when ``timed`` (seven with a context).
    public var weights: [Double]
    /// A layer of tanh units over the same features whose weighted sum joins the linear score
    /// (nil: linear only).
    public var hidden: HiddenLayer?
    /// Boosted trees over the same features whose leaves join the score (nil: none).
    public var forest: SwipeForest?
    /// Whether the features end with the three ``SwipeDwell`` terms (a swipe with times).
    public var timed: Bool
    /// Whether the features end with the shape network's three columns
    /// (``SwipeCandidate/Terms-swift.struct/shapeLikelihood`` and the two after it), which the
    /// decoder then computes for the swipe's shortlist (``SwipeShapeNetwork``).
    public var shapeColumns = false
    /// When a reranker scored by its forest alone may stop scoring hopeless candidates
    /// (``rerank(_:fit:meanFit:profile:limit:)``; nil: never).
    public var pruning: Pruning?

    /// After the forest's first `checkpoint` trees, a candidate whose sum lies more than `margin`
    /// below that of the `limit`-th best is not scored by the rest, and it ranks after every
    /// candidate that is.
    ///
    /// The fitted forests are two forests of LightGBM seeds 1 and 2 in one, the first seed's trees
    /// first and every leaf halved: their first half is a whole ranker at half scale. The seeds
    /// agree so well that the first half never put one of a swipe's final top 4 more than 0.56
    /// below the 4th best, on the development set nor on held-out users (fitted on other folds;
    /// `forest.py fit` checks it for every refit); the fitted margin, ``fittedMargin``, is about four times that, and the second half then
    /// scores about 40% of the candidates (`Tests/Bench/swipe-rerank/README.md`). A rule of
    /// thumb, not a bound: a forest of one's own needs its own margin.
    public struct Pruning: Sendable, Equatable {
        public var checkpoint: Int
        public var margin: Double
        /// The fitted rerankers' margin (in their score's units, which are half the first seed's).
        public static let fittedMargin = 2.0
        public init(checkpoint: Int, margin: Double) {
            self.checkpoint = checkpoint
            self.margin = margin
        }
    }

    /// Hidden units: unit h scores `output[h] · tanh(biases[h] + Σ weights[h][i] · feature[i])`.
    public struct HiddenLayer: Sendable, Equatable {
        /// One row per unit, one weight per feature (on the raw features: the standardisation
        /// of the fit is folded in).
        public var weights: [[Double]]
        public var biases: [Double]
        public var output: [Double]
        public init(weights: [[Double]], biases: [Double], output: [Double]) {
            precondition(weights.count == biases.count && biases.count == output.count, "one row, bias and output weight per unit")
            self.weights = weights
            self.biases = biases
            self.output = output
        }
    }

    public init(weights: [Double], hidden: HiddenLayer? = nil, forest: SwipeForest? = nil, timed: Bool = false) {
        precondition(hidden?.weights.allSatisfy { $0.count == weights.count } ?? true, "a hidden unit weighs every feature")
        precondition(forest.map { $0.featureCount == weights.count } ?? true, "the forest reads every feature")
        self.weights = weights
        self.hidden = hidden
        self.forest = forest
        self.timed = timed
    }

    /// A reranker that scores by `forest` alone.
    public init(forest: SwipeForest, timed: Bool) {
        self.init(weights: [Double](repeating: 0, count: forest.featureCount), forest: forest, timed: timed)
    }

    /// A fitted reranker: its forest, two seeds' forests in one (the first seed's trees first),
    /// pruned after the first seed's trees (``Pruning``).
    static func fitted(_ base64: String, timed: Bool, shape: Bool = false) -> SwipeReranker {
        var reranker = SwipeReranker(forest: .compiledIn(base64), timed: timed)
        reranker.shapeColumns = shape
        reranker.pruning = Pruning(checkpoint: (reranker.forest?.treeCount ?? 0) / 2, margin: Pruning.fittedMargin)
        return reranker
    }

    /// The fitted reranker for a swipe with or without a context, and with or without times.
    public static func fitted(context: Bool, timed: Bool) -> SwipeReranker {
        switch (context, timed) {
        case (false, false): withoutContext
        case (true, false): withContext
        case (false, true): withoutContextTimed
        case (true, true): withContextTimed
        }
    }

    /// Fitted without context on every swipe of the development set (`forest.py fit nl setA6`).
    public static let withoutContext = fitted(SwipeForest.withoutContext, timed: false)
    /// Fitted with each swipe's sentence before it as context (`forest.py fit ctx+nl setC21`).
    public static let withContext = fitted(SwipeForest.withContext, timed: false)
    /// Fitted without context on swipes with times (`forest.py fit nl setD6`).
    public static let withoutContextTimed = fitted(SwipeForest.withoutContextTimed, timed: true)
    /// Fitted with context on swipes with times (`forest.py fit ctx+nl setC23`), with the shape
    /// network's three columns.
    public static let withContextTimed = fitted(SwipeForest.withContextTimed, timed: true, shape: true)

    /// The features of a candidate: its channel distances, DTW cost, end distances, squared log
    /// length ratio and inner-key miss (negated), ln p(word) (`lex`), the key count, square roots
    /// of the distances, and products with the key count and the prior; with `lm` (ln p(word |
    /// context)) and `fit` (log10 context fit) six context features follow; then the key-match
    /// mean and worst (``SwipeKeyMatch``), negated, their square roots and their products with the
    /// key count; `timed`, the three dwell terms (negated); then the three turn terms
    /// (``SwipeTurns``, negated); then the swipe's ``SwipeProfile`` (the same for every candidate);
    /// with `lm`, the fit itself, 1 when it is 0 (no word before: the decoder's context fit of
    /// a prompt's first word, and of a front end that passes none) else 0, and the three
    /// ``Spelling`` flags of the candidate's word (1 or 0); then 1 when the word lies outside the
    /// DTW's locality constraint (``SwipeCandidate/Terms-swift.struct/outsideLocality``) else 0;
    /// then the turns of the swipe's start and end from the word's first and last steps
    /// (``SwipeTurns/ends(keys:)``), negated; last, with `lm`, where the swipe's first and last
    /// points lie along and across those steps (``SwipeTurns/endOffsets(keys:)``: start along,
    /// start across, end along, end across) and the same points against the word's first and last
    /// keys (``SwipeCandidate/EndKeyOffsets``: x, y, and the squared miss from where swipes usually
    /// start on that key, raw and standardized, both negated; the same at the end; read by the
    /// timed context forest since the forty-fifth session, by the untimed one since the
    /// forty-sixth); and with `lm` and `timed`, how all the words before the swipe read
    /// (`meanFit`, ``NgramPredictor/contextMeanFit(of:)``: the mean fit, then the number of
    /// words; 0 and 0 for none), read by the timed context forest since the forty-seventh session.
    public static func features(of c: SwipeCandidate, lm: Double?, fit: Double, meanFit: SwipeContextMeanFit? = nil,
                                timed: Bool = false, shape: Bool = false, profile: SwipeProfile) -> [Double] {
        let lex = Double(c.frequency - 255) * SwipeDecoder.lnFrequencyStep
        let keys = Double(c.terms.keys)
        let t = c.terms
        let length = t.lengthLogRatio * t.lengthLogRatio
        var f = [-c.location, -c.shape, -c.cost, -t.start, -t.end, -length, -t.missed, lex,
                 -c.cost * keys, -c.location * keys, lex * lex, lex * keys, keys,
                 -t.missed.squareRoot(), -t.start.squareRoot(), -t.end.squareRoot(), -c.cost.squareRoot(),
                 -c.shape.squareRoot(), -abs(t.lengthLogRatio), lex * c.cost]
        if let lm {
            f += [lm, fit < -4 ? lm : 0, lm * lex, lm * lm, lm * fit, lm * c.cost]
        }
        let m = t.keyMatch, w = t.keyMatchWorst
        f += [-m, -m.squareRoot(), -w, -w.squareRoot(), -m * keys, -w * keys]
        if timed { f += [-t.dwell, -t.dwellWorst, -t.dwellCorners] }
        f += [-t.turns, -t.turnsWorst, -t.turnCorners]
        f += profile.features(timed: timed)
        if lm != nil {
            let spelling = Spelling(c.word)
            f += [fit, fit == 0 ? 1 : 0, spelling.capitalized ? 1 : 0, spelling.allCapitals ? 1 : 0, spelling.nonLetter ? 1 : 0]
        }
        f.append(t.outsideLocality ? 1 : 0)
        f += [-t.startTurn, -t.endTurn]
        if lm != nil {
            let o = t.endKeyOffsets
            f += [t.startAlong, t.startAcross, t.endAlong, t.endAcross,
                  o.startX, o.startY, -o.startMiss, -o.startMissStandardized, o.endX, o.endY, -o.endMiss, -o.endMissStandardized]
        }
        if lm != nil && timed { f += [meanFit?.mean ?? 0, Double(meanFit?.words ?? 0)] }
        if shape { f += [t.shapeLikelihood, t.shapeLikelihoodPerKey, t.shapeLikelihoodRelative] }
        return f
    }

    /// How the dictionary spells a candidate: the context forests' last three features. A swipe
    /// carries no case, but the spelling says what kind of word it is, and how likely each kind
    /// is depends on what came before: names and acronyms are rare after words that read like a
    /// sentence and far more common in a list of unrelated words (docs/swipe.md).
    public struct Spelling: Sendable, Equatable {
        /// Starts with an uppercase letter and is not ``allCapitals`` ("Portland", "McDonald's").
        public var capitalized: Bool
        /// Two letters or more, all uppercase ("TCO", "U.S.").
        public var allCapitals: Bool
        /// Has a character that is not a letter ("don't", "S.", "3D").
        public var nonLetter: Bool

        public init(_ word: String) {
            var letters = 0, upper = 0
            nonLetter = false
            // ASCII (nearly every word) byte by byte: the same answers as the characters' properties.
            if word.utf8.allSatisfy({ $0 < 0x80 }) {
                for b in word.utf8 {
                    if (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) {
                        letters += 1
                        if b <= 0x5A { upper += 1 }
                    } else {
                        nonLetter = true
                    }
                }
                allCapitals = letters >= 2 && upper == letters
                capitalized = !allCapitals && word.utf8.first.map { $0 >= 0x41 && $0 <= 0x5A } ?? false
                return
            }
            for ch in word {
                if ch.isLetter {
                    letters += 1
                    if ch.isUppercase { upper += 1 }
                } else {
                    nonLetter = true
                }
            }
            allCapitals = letters >= 2 && upper == letters
            capitalized = !allCapitals && (word.first?.isUppercase ?? false)
        }
    }

    /// The reranked score of a candidate of a swipe with this profile (higher is better); its
    /// dwell terms and the profile's times count when ``timed``.
    public func score(_ c: SwipeCandidate, lm: Double?, fit: Double, meanFit: SwipeContextMeanFit? = nil,
                      profile: SwipeProfile) -> Double {
        let f = Self.features(of: c, lm: lm, fit: fit, meanFit: meanFit, timed: timed, shape: shapeColumns, profile: profile)
        var s = weighted(f)
        if let forest { s += forest.score(f) }
        return s
    }

    /// The weighted sum and the hidden units' part of a score.
    func weighted(_ f: [Double]) -> Double {
        precondition(f.count == weights.count, "the reranker has \(weights.count) weights for \(f.count) features")
        var s = 0.0
        for (w, x) in zip(weights, f) { s += w * x }
        if let hidden {
            for h in hidden.biases.indices {
                var a = hidden.biases[h]
                for (w, x) in zip(hidden.weights[h], f) { a += w * x }
                s += hidden.output[h] * tanh(a)
            }
        }
        return s
    }

    /// `candidates` (best first by the linear score) of a swipe with this profile, reordered by
    /// ``score(_:lm:fit:meanFit:profile:)``, ties kept in their order; each candidate's `score` becomes the
    /// reranked one. The forest scores all candidates tree by tree (``SwipeForest/scores(_:)``),
    /// to the same sums.
    ///
    /// With a `limit` (the candidates a front end shows) and ``pruning``, a reranker scored by its
    /// forest alone stops scoring the candidates that cannot reach the best `limit` (see
    /// ``Pruning``); they follow the others, in the order of their partial scores.
    public func rerank(_ candidates: [SwipeCandidate], fit: Double, meanFit: SwipeContextMeanFit? = nil, profile: SwipeProfile,
                       limit: Int? = nil) -> [SwipeCandidate] {
        let rows = candidates.map {
            Self.features(of: $0, lm: $0.contextLogProbability, fit: fit, meanFit: meanFit, timed: timed, shape: shapeColumns, profile: profile)
        }
        var trees: [Double]?, complete: [Bool]?
        if let limit, limit >= 1, candidates.count > limit, let pruning, let forest, hidden == nil, weights.allSatisfy({ $0 == 0 }) {
            (trees, complete) = forest.scores(rows, best: limit, checkpoint: pruning.checkpoint, margin: pruning.margin)
        } else {
            trees = forest?.scores(rows)
        }
        let scored = candidates.enumerated().map { k, c -> (Int, SwipeCandidate) in
            var c = c
            c.score = weighted(rows[k])
            if let trees { c.score += trees[k] }
            return (k, c)
        }
        // Candidates the forest stopped scoring (`complete` false) follow the others.
        return scored.sorted { a, b in
            if let complete, complete[a.0] != complete[b.0] { return complete[a.0] }
            return a.1.score != b.1.score ? a.1.score > b.1.score : a.0 < b.0
        }.map(\.1)
    }
}
