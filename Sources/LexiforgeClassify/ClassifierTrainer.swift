import Foundation
import LexiforgeFormat

/// The learning algorithms of `classify train`.
public enum ClassifierAlgorithm: String, CaseIterable, Sendable {
    /// Multinomial naive Bayes with add-α smoothing: weights are log P(feature | label), biases log P(label).
    case nb
    /// Multinomial logistic regression, L2-regularized, trained by AdaGrad over shuffled documents.
    case logistic
    /// NB-SVM (Wang & Manning 2012): a linear SVM (L2 loss, dual coordinate descent as in
    /// LIBLINEAR) over features scaled by their naive-Bayes log-count ratio, interpolated with
    /// the scaled naive Bayes weights by β; one-versus-rest for more than two labels.
    case nbsvm
}

/// Everything that decides a classifier, each field with why it exists. The defaults are the best
/// of a small grid searched by 10-fold cross-validation on polarity-train (docs/classify.md).
public struct ClassifierOptions: Sendable, Equatable {
    public var algorithm: ClassifierAlgorithm = .nbsvm
    /// Longest word n-gram (1 = bag of words). Bigrams carry "not good".
    public var maxOrder = 2
    /// Feature values are presence (1) instead of counts: a review saying "bad" five times is
    /// not five times as negative (binarized features win on sentiment, Wang & Manning).
    public var binary = true
    /// Scale each document's feature values to unit length, so long texts do not get extreme scores.
    public var normalize = false
    public var lowercase = true
    /// Mark tokens in a negation's scope ("not ¬good"), as Das & Chen (2001) and Pang et al. (2002).
    public var negation = true
    /// n-grams of the last this many lines are features of their own too (0: none): reviews
    /// state their verdict at the end (Pang & Lee 2004 find the last sentences the most telling).
    public var ending = 15
    /// Add-α smoothing of the naive Bayes counts (and of NB-SVM's log-count ratios).
    public var alpha = 2.0
    /// SVM cost C (larger: fit the training data more closely).
    public var cost = 0.2
    /// NB-SVM interpolation: w' = (1 − β)·mean|w| + β·w (β = 1: plain SVM on scaled features).
    public var beta = 0.25
    /// Logistic regression: L2 penalty per document and AdaGrad step.
    public var l2 = 1e-5
    public var learningRate = 0.5
    /// Passes over the data (logistic) or the most dual coordinate descent passes (NB-SVM).
    public var epochs = 30
    /// Features used (and stored): those in at least this many training documents. Features of
    /// one review only let the SVM memorize that review instead of learning.
    public var minDocuments = 1
    /// Features kept in the stored model after training: those in at least this many training
    /// documents. A feature of one review seldom occurs in another, but it is most of the
    /// model's size and of a reader's cache misses (2: a third of the features, 3x the speed).
    public var keepMinDocuments = 2
    /// Shuffling seed (logistic regression, SVM coordinate order).
    public var seed: UInt64 = 1
    /// Features are n-grams of lemmas ("sang" → "sing"), from a lemma table the trainer's caller
    /// builds (``FeaturizedCorpus/lemmas``) and the store keeps: a review's "loved" and "loves"
    /// count as one word, and a reader meets inflections the training texts did not have.
    public var lemmas = false

    public init() {}

    /// The options as a JSON-able dictionary, for provenance.
    public var dictionary: [String: Any] {
        ["algorithm": algorithm.rawValue, "max_order": maxOrder, "binary": binary, "normalize": normalize,
         "lowercase": lowercase, "negation": negation, "ending": ending, "alpha": alpha, "cost": cost, "beta": beta, "l2": l2, "learning_rate": learningRate,
         "epochs": epochs, "min_documents": minDocuments, "keep_min_documents": keepMinDocuments, "seed": seed, "lemmas": lemmas]
    }
}

/// A linear model over a ``FeaturizedCorpus``'s feature ids.
public struct LinearWeights: Sendable {
    public var bias: [Double]
    /// Feature-major: `weights[f * labels + l]`.
    public var weights: [Double]
}

/// Cross-validation results.
public struct CrossValidation: Sendable {
    public var folds: Int
    public var accuracy: Double
    public var foldAccuracies: [Double]
    /// Out-of-fold predicted label per document.
    public var predictions: [Int]
    /// Out-of-fold scores per document.
    public var scores: [[Double]]
}

/// Trains text classifiers on a ``FeaturizedCorpus``.
///
/// In: the corpus, the documents to learn from (indices) and the options. Out: ``LinearWeights``
/// over the corpus's feature ids; features absent from those documents get weight 0 and are
/// ignored when scoring. Deterministic: the same input and options give the same weights.
public enum ClassifierTrainer {
    /// Feature values of document `d` (binary or counts, optionally unit length), restricted to `known`.
    static func values(_ corpus: FeaturizedCorpus, _ d: Int, _ options: ClassifierOptions,
                       known: (Int32) -> Bool = { _ in true }) -> (ids: [Int32], values: [Double]) {
        var ids: [Int32] = [], values: [Double] = []
        for (k, f) in corpus.documentFeatures[d].enumerated() where known(f) {
            ids.append(f)
            values.append(options.binary ? 1 : Double(corpus.documentCounts[d][k]))
        }
        if options.normalize {
            let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
            if norm > 0 { values = values.map { $0 / norm } }
        }
        return (ids, values)
    }

    /// Fits the model on `documents`, over the features in at least `minDocuments` of them.
    public static func fit(_ corpus: FeaturizedCorpus, documents: [Int], options: ClassifierOptions) -> LinearWeights {
        var frequency = [Int32](repeating: 0, count: corpus.features.count)
        for d in documents { for f in corpus.documentFeatures[d] { frequency[Int(f)] += 1 } }
        let usable = frequency.map { Int($0) >= options.minDocuments }
        var weights: LinearWeights
        switch options.algorithm {
        case .nb: weights = naiveBayes(corpus, documents: documents, options: options, usable: usable)
        case .logistic: weights = logistic(corpus, documents: documents, options: options, usable: usable)
        case .nbsvm: weights = nbsvm(corpus, documents: documents, options: options, usable: usable)
        }
        // Pruned after training, so cross-validation measures exactly what is stored.
        if options.keepMinDocuments > 1 {
            let L = corpus.labels.count
            for f in frequency.indices where Int(frequency[f]) < options.keepMinDocuments {
                for l in 0..<L { weights.weights[f * L + l] = 0 }
            }
        }
        return weights
    }

    /// Scores of document `d`.
    public static func scores(_ corpus: FeaturizedCorpus, document d: Int, weights: LinearWeights, options: ClassifierOptions) -> [Double] {
        let L = corpus.labels.count
        var s = weights.bias
        let (ids, values) = Self.values(corpus, d, options) { f in (0..<L).contains { weights.weights[Int(f) * L + $0] != 0 } }
        for (f, v) in zip(ids, values) {
            for l in 0..<L { s[l] += v * weights.weights[Int(f) * L + l] }
        }
        return s
    }

    // MARK: - Naive Bayes

    static func naiveBayes(_ corpus: FeaturizedCorpus, documents: [Int], options: ClassifierOptions, usable: [Bool]) -> LinearWeights {
        let L = corpus.labels.count, F = corpus.features.count
        var counts = [Double](repeating: 0, count: F * L)
        var seen = [Bool](repeating: false, count: F)
        var perLabel = [Double](repeating: 0, count: L)
        for d in documents {
            let l = corpus.documentLabels[d]
            perLabel[l] += 1
            let (ids, values) = Self.values(corpus, d, options) { usable[Int($0)] }
            for (f, v) in zip(ids, values) { counts[Int(f) * L + l] += v; seen[Int(f)] = true }
        }
        let vocabulary = Double(seen.filter { $0 }.count)
        var totals = [Double](repeating: 0, count: L)
        for f in 0..<F where seen[f] { for l in 0..<L { totals[l] += counts[f * L + l] } }
        var weights = [Double](repeating: 0, count: F * L)
        for f in 0..<F where seen[f] {
            for l in 0..<L {
                weights[f * L + l] = Foundation.log((counts[f * L + l] + options.alpha) / (totals[l] + options.alpha * vocabulary))
            }
        }
        let n = Double(documents.count)
        // A label absent from the training documents gets a tiny prior, never −∞.
        let bias = perLabel.map { Foundation.log(max($0, 0.5) / n) }
        return LinearWeights(bias: bias, weights: weights)
    }

    // MARK: - Logistic regression

    static func logistic(_ corpus: FeaturizedCorpus, documents: [Int], options: ClassifierOptions, usable: [Bool]) -> LinearWeights {
        let L = corpus.labels.count, F = corpus.features.count
        var w = [Double](repeating: 0, count: F * L)
        var g2 = [Double](repeating: 1e-8, count: F * L)
        var b = [Double](repeating: 0, count: L), gb = [Double](repeating: 1e-8, count: L)
        let cached = documents.map { Self.values(corpus, $0, options) { usable[Int($0)] } }
        var order = Array(documents.indices)
        var rng = SplitMix64(seed: options.seed)
        let eta = options.learningRate
        for _ in 0..<options.epochs {
            order.shuffle(using: &rng)
            for i in order {
                let (ids, values) = cached[i]
                var s = b
                for (f, v) in zip(ids, values) { for l in 0..<L { s[l] += v * w[Int(f) * L + l] } }
                let p = TextClassifier.softmax(s)
                let y = corpus.documentLabels[documents[i]]
                for l in 0..<L {
                    let err = p[l] - (l == y ? 1 : 0)
                    gb[l] += err * err
                    b[l] -= eta * err / gb[l].squareRoot()
                    for (f, v) in zip(ids, values) {
                        let k = Int(f) * L + l
                        let grad = err * v + options.l2 * w[k]
                        g2[k] += grad * grad
                        w[k] -= eta * grad / g2[k].squareRoot()
                    }
                }
            }
        }
        return LinearWeights(bias: b, weights: w)
    }

    // MARK: - NB-SVM

    static func nbsvm(_ corpus: FeaturizedCorpus, documents: [Int], options: ClassifierOptions, usable: [Bool]) -> LinearWeights {
        let L = corpus.labels.count, F = corpus.features.count
        var weights = [Double](repeating: 0, count: F * L)
        var bias = [Double](repeating: 0, count: L)
        // Values as the reader computes them (binary or counts, unit length over the usable features), then scaled by r.
        let raw = documents.map { Self.values(corpus, $0, options) { usable[Int($0)] } }
        // Two labels: the label-0 problem is the label-1 problem negated; solve once.
        let solved = L == 2 ? [1] : Array(0..<L)
        for target in solved {
            var p = [Double](repeating: options.alpha, count: F), q = p
            var seen = [Bool](repeating: false, count: F)
            for (i, d) in documents.enumerated() {
                let positive = corpus.documentLabels[d] == target
                for (f, v) in zip(raw[i].ids, raw[i].values) {
                    if positive { p[Int(f)] += v } else { q[Int(f)] += v }
                    seen[Int(f)] = true
                }
            }
            let pSum = zip(p, seen).reduce(0) { $0 + ($1.1 ? $1.0 : 0) }
            let qSum = zip(q, seen).reduce(0) { $0 + ($1.1 ? $1.0 : 0) }
            let r = (0..<F).map { seen[$0] ? Foundation.log((p[$0] / pSum) / (q[$0] / qSum)) : 0 }
            // Scaled (and optionally unit-length) vectors.
            let xs: [(ids: [Int32], values: [Double])] = raw.map { doc in
                (doc.ids, zip(doc.ids, doc.values).map { $1 * r[Int($0)] })
            }
            let y = documents.map { corpus.documentLabels[$0] == target ? 1.0 : -1.0 }
            let (w, b) = dualCoordinateDescent(xs, y: y, features: F, cost: options.cost, passes: options.epochs * 3, seed: options.seed)
            let mean = w.enumerated().reduce(0) { $0 + (seen[$1.offset] ? abs($1.element) : 0) } / Double(max(1, seen.filter { $0 }.count))
            for f in 0..<F where seen[f] {
                let interpolated = (1 - options.beta) * mean + options.beta * w[f]
                weights[f * L + target] = interpolated * r[f]
            }
            bias[target] = b
        }
        if L == 2 {
            for f in 0..<F { weights[f * L] = -weights[f * L + 1] }
            bias[0] = -bias[1]
        }
        return LinearWeights(bias: bias, weights: weights)
    }

    /// L2-regularized L2-loss linear SVM by dual coordinate descent (Hsieh et al. 2008, LIBLINEAR
    /// `-s 1`), with a bias feature of value 1. Returns (w, b).
    static func dualCoordinateDescent(_ xs: [(ids: [Int32], values: [Double])], y: [Double], features: Int,
                                      cost: Double, passes: Int, seed: UInt64) -> ([Double], Double) {
        var w = [Double](repeating: 0, count: features)
        var b = 0.0
        var alpha = [Double](repeating: 0, count: xs.count)
        let diagonal = 1 / (2 * cost)
        let qii = xs.map { $0.values.reduce(0) { $0 + $1 * $1 } + 1 + diagonal }
        var order = Array(xs.indices)
        var rng = SplitMix64(seed: seed)
        for _ in 0..<passes {
            order.shuffle(using: &rng)
            var largest = 0.0
            for i in order {
                let (ids, values) = xs[i]
                var margin = b
                for (f, v) in zip(ids, values) { margin += w[Int(f)] * v }
                let g = y[i] * margin - 1 + diagonal * alpha[i]
                let projected = alpha[i] == 0 ? min(g, 0) : g
                largest = max(largest, abs(projected))
                if projected != 0 {
                    let old = alpha[i]
                    alpha[i] = max(alpha[i] - g / qii[i], 0)
                    let step = (alpha[i] - old) * y[i]
                    for (f, v) in zip(ids, values) { w[Int(f)] += step * v }
                    b += step
                }
            }
            if largest < 1e-3 { break }
        }
        return (w, b)
    }

    // MARK: - Cross-validation and the final model

    /// k-fold cross-validation (stratified contiguous folds, ``FeaturizedCorpus/folds(_:)``).
    public static func crossValidate(_ corpus: FeaturizedCorpus, options: ClassifierOptions, folds k: Int) -> CrossValidation {
        let fold = corpus.folds(k)
        var predictions = [Int](repeating: 0, count: corpus.documentCount)
        var scores = [[Double]](repeating: [], count: corpus.documentCount)
        var foldAccuracies: [Double] = []
        for f in 0..<k {
            let train = fold.indices.filter { fold[$0] != f }
            let test = fold.indices.filter { fold[$0] == f }
            let weights = fit(corpus, documents: train, options: options)
            var right = 0
            for d in test {
                let s = Self.scores(corpus, document: d, weights: weights, options: options)
                scores[d] = s
                predictions[d] = argmax(s)
                if predictions[d] == corpus.documentLabels[d] { right += 1 }
            }
            foldAccuracies.append(test.isEmpty ? 0 : Double(right) / Double(test.count))
        }
        let right = zip(predictions, corpus.documentLabels).filter { $0 == $1 }.count
        return CrossValidation(folds: k, accuracy: Double(right) / Double(max(1, corpus.documentCount)),
                               foldAccuracies: foldAccuracies, predictions: predictions, scores: scores)
    }

    /// The softmax scale that best fits out-of-fold scores (least log loss; golden-section search
    /// over log10 scale in −4...2).
    public static func probabilityScale(_ cv: CrossValidation, labels: [Int]) -> Double {
        func loss(_ logScale: Double) -> Double {
            let a = Foundation.pow(10, logScale)
            var total = 0.0
            for (s, y) in zip(cv.scores, labels) where !s.isEmpty {
                let top = s.max()!
                let z = s.reduce(0) { $0 + Foundation.exp(a * ($1 - top)) }
                total -= a * (s[y] - top) - Foundation.log(z)
            }
            return total
        }
        var lo = -4.0, hi = 2.0
        let ratio = (5.0.squareRoot() - 1) / 2
        for _ in 0..<60 {
            let m1 = hi - ratio * (hi - lo), m2 = lo + ratio * (hi - lo)
            if loss(m1) < loss(m2) { hi = m2 } else { lo = m1 }
        }
        return Foundation.pow(10, (lo + hi) / 2)
    }

    static func argmax(_ s: [Double]) -> Int {
        var best = 0
        for l in s.indices where s[l] > s[best] { best = l }
        return best
    }

    /// Trains on every document and packs the result for a store: features with a weight (those
    /// in at least `minDocuments` documents); the probability scale fitted on `calibration` (naive Bayes: 1).
    public static func model(_ corpus: FeaturizedCorpus, options: ClassifierOptions, calibration: CrossValidation?) -> TextClassifierModel {
        let weights = fit(corpus, documents: Array(0..<corpus.documentCount), options: options)
        let L = corpus.labels.count
        var keptFeatures: [String] = [], keptDocuments: [Int] = [], kept: [Double] = []
        for f in corpus.features.indices {
            let row = weights.weights[(f * L)..<(f * L + L)]
            if row.allSatisfy({ $0 == 0 }) { continue }
            keptFeatures.append(corpus.features[f])
            keptDocuments.append(corpus.featureDocuments[f])
            kept.append(contentsOf: row)
        }
        let scale = options.algorithm == .nb ? 1 : calibration.map { probabilityScale($0, labels: corpus.documentLabels) } ?? 1
        // Lemmas that no stored feature holds change nothing: only the others are stored.
        var used = Set<Substring>()
        for text in keptFeatures {
            for token in text.split(separator: " ") { used.insert(token.hasPrefix("¬") ? token.dropFirst() : token) }
        }
        let lemmas = corpus.lemmas.filter { used.contains(Substring($0.value)) }
        return TextClassifierModel(
            labels: corpus.labels, labelDocuments: corpus.labels.indices.map { l in corpus.documentLabels.filter { $0 == l }.count },
            bias: weights.bias, features: keptFeatures, featureDocuments: keptDocuments, weights: kept,
            maxOrder: corpus.maxOrder, binary: options.binary, normalize: options.normalize, lowercase: corpus.lowercase, negation: corpus.negation, ending: corpus.ending,
            lemmas: lemmas, probabilityScale: scale, algorithm: options.algorithm.rawValue)
    }
}
