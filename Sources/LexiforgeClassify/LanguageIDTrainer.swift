import Foundation
import LexiforgeFormat

/// Everything that decides a language identifier, each field with why it exists.
public struct LanguageIDOptions: Sendable, Equatable {
    public enum Algorithm: String, CaseIterable, Sendable {
        /// Multinomial naive Bayes over bucket counts (add-α).
        case nb
        /// Multinomial logistic regression by stochastic gradient descent (discriminative: learns
        /// which n-grams tell close languages apart, instead of modelling every n-gram).
        case logistic
    }
    public var algorithm: Algorithm = .logistic
    /// Character n-grams of 1 to this many characters.
    public var maxOrder = 5
    /// 2^bucketBits hashed buckets: 2^16 × 16 languages × 2 bytes = 2 MiB of weights.
    public var bucketBits = 16
    /// Whole words as features too (``LanguageIDFeatures/words``).
    public var words = true
    /// Passes over the training sentences (logistic).
    public var epochs = 12
    /// Initial SGD step, decayed linearly to a tenth.
    public var learningRate = 0.2
    /// Naive Bayes smoothing.
    public var alpha = 0.1
    /// Also train on short pieces of each sentence of 8 to 30 characters (lengths and places
    /// random, seeded): ``prefixSamples`` prefixes and ``substringSamples`` substrings from
    /// anywhere in it. Short inputs, where a front end starts guessing, then look like something
    /// seen in training, and every part of a sentence counts on its own, not only beside the
    /// rest (5-fold CV on langid-train: 98.50% → 98.70%, first 20 characters 94.11% → 95.62%).
    public var prefixes = true
    /// Prefixes of each sentence as extra samples (with ``prefixes``).
    public var prefixSamples = 2
    /// Substrings of each sentence as extra samples (with ``prefixes``).
    public var substringSamples = 2
    /// Weight the sentences of each language so every language counts as much in training
    /// (the data run from 200 to 3,000 sentences a language).
    public var balance = true
    /// Count the script patterns of the training sentences per language (``WritingSystems``), so
    /// that the recognizer weighs a text's scripts: a text without Hangul is hardly Korean.
    public var scripts = true
    /// Weight of the character trigram models' log-likelihood beside the logistic scores
    /// (``LanguageCharModel``); 0: no such models. Chosen by 5-fold cross-validation on
    /// langid-train (docs/classify.md).
    public var charWeight = 0.2
    /// Weight of the alphabet evidence (``LanguageAlphabets``: which letters each language
    /// writes) beside the other scores; 0: none.
    public var alphabetWeight = 1.0
    public var seed: UInt64 = 1

    public init() {}

    public var dictionary: [String: Any] {
        ["algorithm": algorithm.rawValue, "max_order": maxOrder, "bucket_bits": bucketBits, "words": words, "epochs": epochs,
         "learning_rate": learningRate, "alpha": alpha, "prefixes": prefixes, "prefix_samples": prefixSamples,
         "substring_samples": substringSamples, "balance": balance, "scripts": scripts, "char_weight": charWeight, "alphabet_weight": alphabetWeight, "seed": seed]
    }
}

/// One labeled sentence.
public struct LanguageSample: Sendable, Equatable {
    public var language: String
    public var text: String
    public init(language: String, text: String) {
        self.language = language
        self.text = text
    }
}

/// Accuracy of a language identifier on labeled sentences.
public struct LanguageIDScore: Sendable {
    public var sentences = 0
    public var correct = 0
    /// On the first ``shortLength`` characters of each sentence.
    public var shortCorrect = 0
    public static let shortLength = 20
    public var accuracy: Double { sentences == 0 ? 0 : Double(correct) / Double(sentences) }
    public var shortAccuracy: Double { sentences == 0 ? 0 : Double(shortCorrect) / Double(sentences) }
}

/// Trains language identifiers on hashed character n-grams (``LanguageIDFeatures``).
///
/// In: samples and options. Out: a ``LanguageIDModel`` (languages in code order). Deterministic.
/// - Complexity: O(characters · max order · languages · epochs).
public enum LanguageIDTrainer {
    /// The first `n` characters of `text`.
    public static func prefix(_ text: String, characters n: Int) -> String { String(text.prefix(n)) }

    public static func train(_ samples: [LanguageSample], options: LanguageIDOptions) -> LanguageIDModel {
        let languages = Array(Set(samples.map(\.language))).sorted()
        let id = Dictionary(uniqueKeysWithValues: languages.enumerated().map { ($1, $0) })
        let features = LanguageIDFeatures(maxOrder: options.maxOrder, bucketBits: options.bucketBits, words: options.words)
        var labels: [Int] = [], texts: [String] = []
        var rng = SplitMix64(seed: options.seed)
        for s in samples {
            labels.append(id[s.language]!); texts.append(s.text)
        }
        if options.prefixes {
            for s in samples where s.text.count > 8 {
                let characters = Array(s.text)
                for _ in 0..<options.prefixSamples {
                    let n = 8 + Int(rng.next() % 23)
                    labels.append(id[s.language]!); texts.append(String(characters.prefix(n)))
                }
                for _ in 0..<options.substringSamples where characters.count > 16 {
                    let n = min(characters.count, 8 + Int(rng.next() % 23))
                    let start = Int(rng.next() % UInt64(characters.count - n + 1))
                    labels.append(id[s.language]!); texts.append(String(characters[start..<(start + n)]))
                }
            }
        }
        // Buckets of every sample, flat.
        var offsets = [0], buckets: [Int32] = []
        for t in texts {
            features.forEachBucket(of: t) { buckets.append(Int32($0)) }
            offsets.append(buckets.count)
        }
        let L = languages.count, B = features.buckets
        let perLanguage = (0..<L).map { l in samples.filter { id[$0.language]! == l }.count }
        let sampleWeight: [Float] = labels.map { l in
            options.balance ? Float(Double(samples.count) / Double(L * perLanguage[l])) : 1
        }
        var weights = [Float](repeating: 0, count: B * L)
        var bias = [Float](repeating: 0, count: L)
        switch options.algorithm {
        case .nb:
            var counts = [Double](repeating: 0, count: B * L)
            for i in texts.indices {
                for k in offsets[i]..<offsets[i + 1] { counts[Int(buckets[k]) * L + labels[i]] += Double(sampleWeight[i]) }
            }
            for l in 0..<L {
                var total = 0.0
                for b in 0..<B { total += counts[b * L + l] }
                let denominator = total + options.alpha * Double(B)
                for b in 0..<B { weights[b * L + l] = Float(Foundation.log((counts[b * L + l] + options.alpha) / denominator)) }
                bias[l] = options.balance ? 0 : Float(Foundation.log(Double(perLanguage[l]) / Double(samples.count)))
            }
        case .logistic:
            var order = Array(texts.indices)
            let steps = Double(options.epochs * texts.count)
            var step = 0.0
            var scores = [Float](repeating: 0, count: L)
            weights.withUnsafeMutableBufferPointer { w in
                for _ in 0..<options.epochs {
                    order.shuffle(using: &rng)
                    for i in order {
                        for l in 0..<L { scores[l] = bias[l] }
                        let range = offsets[i]..<offsets[i + 1]
                        for k in range {
                            let row = Int(buckets[k]) * L
                            for l in 0..<L { scores[l] += w[row + l] }
                        }
                        let top = scores.max()!
                        var sum: Float = 0
                        for l in 0..<L { scores[l] = Foundation.exp(scores[l] - top); sum += scores[l] }
                        let eta = Float(options.learningRate * (1 - 0.9 * step / steps)) * sampleWeight[i]
                        step += 1
                        // Gradient of the log loss: p − onehot, spread over the sample's n-grams.
                        let perBucket = eta / Float(max(1, range.count)).squareRoot()
                        for l in 0..<L {
                            let g = (scores[l] / sum - (l == labels[i] ? 1 : 0))
                            scores[l] = g * perBucket
                            bias[l] -= g * eta * 0.1
                        }
                        for k in range {
                            let row = Int(buckets[k]) * L
                            for l in 0..<L { w[row + l] -= scores[l] }
                        }
                    }
                }
            }
        }
        var scripts: [UInt16: [Int]] = [:]
        if options.scripts {
            for s in samples {
                let pattern = WritingSystems.pattern(of: s.text)
                guard pattern != 0 else { continue }
                scripts[pattern, default: [Int](repeating: 0, count: L)][id[s.language]!] += 1
            }
        }
        var byLanguage = [[String]](repeating: [], count: L)
        for s in samples { byLanguage[id[s.language]!].append(s.text) }
        var charModel: LanguageCharModel?
        if options.charWeight > 0 { charModel = LanguageCharModel.train(byLanguage, weight: Float(options.charWeight)) }
        var alphabets: LanguageAlphabets?
        if options.alphabetWeight > 0 { alphabets = LanguageAlphabets.train(codes: languages, texts: byLanguage, weight: Float(options.alphabetWeight)) }
        return LanguageIDModel(languages: languages, sentences: perLanguage, bias: bias, weights: weights,
                               features: features, algorithm: options.algorithm.rawValue, scripts: scripts, charModel: charModel,
                               alphabets: alphabets)
    }

    /// Scores a model on samples: whole sentences and their first 20 characters.
    public static func score(_ recognizer: LanguageRecognizer, on samples: [LanguageSample]) -> LanguageIDScore {
        var score = LanguageIDScore()
        for s in samples {
            score.sentences += 1
            if recognizer.dominantLanguage(for: s.text) == s.language { score.correct += 1 }
            if recognizer.dominantLanguage(for: prefix(s.text, characters: LanguageIDScore.shortLength)) == s.language { score.shortCorrect += 1 }
        }
        return score
    }

    /// k-fold cross-validation, stratified by language (each language's sentences in file order
    /// cut into k contiguous runs, so neighbouring sentences of a document stay together).
    public static func crossValidate(_ samples: [LanguageSample], options: LanguageIDOptions, folds k: Int) -> LanguageIDScore {
        var fold = [Int](repeating: 0, count: samples.count)
        for language in Set(samples.map(\.language)) {
            let members = samples.indices.filter { samples[$0].language == language }
            for (rank, i) in members.enumerated() { fold[i] = rank * k / members.count }
        }
        var total = LanguageIDScore()
        for f in 0..<k {
            let train = samples.indices.filter { fold[$0] != f }.map { samples[$0] }
            let test = samples.indices.filter { fold[$0] == f }.map { samples[$0] }
            let recognizer = LanguageRecognizer(model: Self.train(train, options: options).quantized())
            let s = score(recognizer, on: test)
            total.sentences += s.sentences; total.correct += s.correct; total.shortCorrect += s.shortCorrect
        }
        return total
    }
}
