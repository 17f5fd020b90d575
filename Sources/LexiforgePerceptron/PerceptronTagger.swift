import Foundation
import LexiforgeFormat

/// A greedy left-to-right averaged-perceptron part-of-speech tagger (Collins 2002; the design of
/// Honnibal's "A good part-of-speech tagger in about 200 lines of Python"), trained by
/// ``PerceptronTrainer``.
///
/// Each word is tagged from hashed features of itself (form, normalized lowercase, suffixes of
/// 1–4 and prefixes of 1–3 characters, shape, sentence-initial shape), its neighbours i-2…i+2
/// (lowercase, suffix, shape), the two tags already predicted before it, the ambiguity classes
/// (tags seen in training) of the word, of its lowercase form and of the next word, and whether
/// the sentence is title case. Frequent words that
/// training saw with one tag almost always (the tag dictionary) take that tag without scoring.
///
/// ```swift
/// let trainer = PerceptronTrainer()
/// trainer.add(words: ["I", "saw", "her"], tags: ["PRON", "VERB", "PRON"])
/// let tagger = trainer.finish()
/// tagger.tag(["I", "saw", "her"])   // ["PRON", "VERB", "PRON"]
/// ```
/// - Complexity: O(words · features · tags) per sentence.
public struct PerceptronTagger: Sendable {
    /// The tags, numbered as in the weight rows.
    public let tagNames: [String]
    let features: FeatureMap
    /// Averaged weights, `row * tagCount + tag`.
    let weights: [Float]
    /// Frequent unambiguous words → their tag number.
    let tagDictionary: [String: Int32]
    /// The training words, for known/unknown statistics.
    let vocabulary: Set<String>
    /// Words seen at least ``PerceptronConfig/classMinCount`` times → hash of their ambiguity class.
    let classes: [String: UInt64]
    /// Posteriors are softmax(score / temperature); 0 gives the best tag probability 1.
    public var temperature: Double

    public var tagCount: Int { tagNames.count }
    /// How many distinct features carry weights.
    public var featureCount: Int { features.count }

    /// Whether training saw `word` (as written).
    public func isKnown(_ word: String) -> Bool { vocabulary.contains(word) }

    /// The best tag of every word, greedily left to right.
    public func tag(_ words: [String]) -> [String] { tagIndices(words).map { tagNames[Int($0)] } }

    /// Tag numbers (into ``tagNames``).
    public func tagIndices(_ words: [String]) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(words.count)
        decode(words) { _, best, _ in out.append(best) }
        return out
    }

    /// Per word, its tags with probability softmax(score / ``temperature``) (those of at least
    /// `minimum`), most probable first; a tag-dictionary word or temperature 0 gives one tag.
    /// The decoding is greedy: each word's context is the best tags before it.
    public func posteriors(_ words: [String], minimum: Double = 0.001) -> [[(tag: String, probability: Double)]] {
        var out: [[(tag: String, probability: Double)]] = []
        out.reserveCapacity(words.count)
        var probabilities = [Double](repeating: 0, count: tagCount)
        decode(words) { _, best, scores in
            guard let scores, temperature > 0 else { out.append([(tagNames[Int(best)], 1)]); return }
            let top = Double(scores[Int(best)])
            var z = 0.0
            for t in scores.indices {
                probabilities[t] = exp((Double(scores[t]) - top) / temperature)
                z += probabilities[t]
            }
            var tags: [(tag: String, probability: Double)] = [(tagNames[Int(best)], probabilities[Int(best)] / z)]
            for t in scores.indices where t != Int(best) && probabilities[t] / z >= minimum {
                tags.append((tagNames[t], probabilities[t] / z))
            }
            tags[1...].sort { $0.probability > $1.probability }
            out.append(tags)
        }
        return out
    }

    /// Tags left to right; `body(i, best tag, scores or nil for a tag-dictionary word)`.
    func decode(_ words: [String], _ body: (Int, Int32, UnsafeBufferPointer<Float>?) -> Void) {
        let padded = WordKeys.padded(words, classes: classes)
        var keys: [UInt64] = []
        keys.reserveCapacity(32)
        var scores = [Float](repeating: 0, count: tagCount)
        var prev = -1, prev2 = -2
        for i in words.indices {
            let best: Int32
            if let known = tagDictionary[words[i]] {
                best = known
                body(i, best, nil)
            } else {
                PerceptronFeatures.keys(padded, i, prev: prev, prev2: prev2, into: &keys)
                best = Self.score(keys, features, weights, tagCount, into: &scores)
                scores.withUnsafeBufferPointer { body(i, best, $0) }
            }
            prev2 = prev
            prev = Int(best)
        }
    }

    /// Sums the rows of `keys` into `scores` and returns the best tag (the first on ties).
    @inline(__always)
    static func score(_ keys: [UInt64], _ features: FeatureMap, _ weights: [Float], _ tagCount: Int,
                      into scores: inout [Float]) -> Int32 {
        for t in 0..<tagCount { scores[t] = 0 }
        weights.withUnsafeBufferPointer { w in
            for key in keys {
                let row = features.row(key)
                guard row >= 0 else { continue }
                let base = Int(row) * tagCount
                for t in 0..<tagCount { scores[t] += w[base + t] }
            }
        }
        var best = 0
        for t in 1..<max(tagCount, 1) where scores[t] > scores[best] { best = t }
        return Int32(best)
    }
}

/// What ``PerceptronTrainer`` does; the defaults were chosen by cross-validation on EWT train.
public struct PerceptronConfig: Sendable, Equatable {
    /// Passes over the training sentences (shuffled before each). Five-fold CV on EWT train:
    /// 5 → UPOS 94.66%, lemmas 97.299%; 10 → 94.73%, 97.317%.
    public var epochs = 10
    /// Seed of the shuffles: the same seed and sentences give the same tagger.
    public var seed: UInt64 = 1
    /// A word seen at least this often with one tag in at least ``tagDictionaryShare`` of its
    /// occurrences is tagged by lookup.
    public var tagDictionaryMinCount = 20
    public var tagDictionaryShare = 0.97
    /// Words seen at least this often have an ambiguity class: the tags of at least
    /// ``classShare`` of their occurrences (a feature of the word and its neighbours).
    public var classMinCount = 2
    public var classShare = 0.1
    /// ``PerceptronTagger/temperature`` of the trained tagger. Five-fold CV on EWT train, lemmas
    /// voted over the posteriors: 0 (one-hot) 97.316%, 1 97.317%, 2 97.318%, 4 97.319%,
    /// 8 97.323%, 16 97.289%, 32 96.577%.
    public var temperature = 8.0
    public init() {}
}

/// Trains a ``PerceptronTagger`` on tagged sentences.
///
/// In: sentences (``add(words:tags:)``). Out (``finish()``): the tagger with averaged weights.
/// Training decodes greedily as tagging does (the previous tags are the predicted ones) and on a
/// wrong tag adds 1 to the right tag's weight of every feature and subtracts 1 from the guess's;
/// the final weights are the averages over every step (lazily, by timestamps).
public final class PerceptronTrainer {
    public let config: PerceptronConfig
    private var tagIndex: [String: Int32] = [:]
    private var tagNames: [String] = []
    private var sentences: [(words: [String], tags: [Int32])] = []
    private var wordTagCounts: [String: [Int32: Int]] = [:]

    public init(config: PerceptronConfig = .init()) { self.config = config }

    /// Tokens added so far.
    public private(set) var tokens = 0

    /// Adds one tagged sentence (`words.count == tags.count`; empty ones are ignored).
    public func add(words: [String], tags: [String]) {
        precondition(words.count == tags.count, "one tag per word")
        guard !words.isEmpty else { return }
        let numbers = tags.map { tag -> Int32 in
            if let n = tagIndex[tag] { return n }
            let n = Int32(tagNames.count)
            tagIndex[tag] = n
            tagNames.append(tag)
            return n
        }
        for (word, tag) in zip(words, numbers) { wordTagCounts[word, default: [:]][tag, default: 0] += 1 }
        sentences.append((words, numbers))
        tokens += words.count
    }

    public func finish() -> PerceptronTagger {
        let tagCount = tagNames.count
        var dictionary: [String: Int32] = [:]
        for (word, counts) in wordTagCounts {
            let total = counts.values.reduce(0, +)
            guard total >= config.tagDictionaryMinCount else { continue }
            // The most frequent tag, ties to the lower number (deterministic).
            let (tag, n) = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }!
            if Double(n) >= config.tagDictionaryShare * Double(total) { dictionary[word] = tag }
        }
        var classes: [String: UInt64] = [:]
        for (word, counts) in wordTagCounts {
            let total = counts.values.reduce(0, +)
            guard total >= config.classMinCount else { continue }
            let tags = counts.filter { Double($0.value) >= config.classShare * Double(total) }.keys.sorted()
            classes[word] = tags.reduce(UInt64(3)) { mix($0 &+ UInt64($1)) }
        }
        var features = FeatureMap(capacity: 1 << 18)
        var weights: [Float] = [], totals: [Double] = [], stamps: [Int32] = []
        var step: Int32 = 0
        var keys: [UInt64] = [], rows: [Int] = []
        var scores = [Float](repeating: 0, count: tagCount)
        let padded = sentences.map { WordKeys.padded($0.words, classes: classes) }
        var order = Array(sentences.indices)
        var random = SplitMix64(seed: config.seed)
        for _ in 0..<config.epochs {
            // Fisher–Yates with our own generator: the same order on every platform.
            for k in stride(from: order.count - 1, to: 0, by: -1) {
                order.swapAt(k, Int(random.next() % UInt64(k + 1)))
            }
            for s in order {
                let (words, gold) = sentences[s]
                var prev = -1, prev2 = -2
                for i in words.indices {
                    var guess: Int32
                    if let known = dictionary[words[i]] { guess = known } else {
                        step += 1
                        PerceptronFeatures.keys(padded[s], i, prev: prev, prev2: prev2, into: &keys)
                        guess = PerceptronTagger.score(keys, features, weights, tagCount, into: &scores)
                        if guess != gold[i] {
                            rows.removeAll(keepingCapacity: true)
                            for key in keys {
                                let row = Int(features.insert(key))
                                if row * tagCount >= weights.count {
                                    weights.append(contentsOf: repeatElement(0, count: tagCount))
                                    totals.append(contentsOf: repeatElement(0, count: tagCount))
                                    stamps.append(contentsOf: repeatElement(0, count: tagCount))
                                }
                                rows.append(row)
                            }
                            func update(_ j: Int, by delta: Float) {
                                totals[j] += Double(step - stamps[j]) * Double(weights[j])
                                stamps[j] = step
                                weights[j] += delta
                            }
                            for row in rows {
                                update(row * tagCount + Int(gold[i]), by: 1)
                                update(row * tagCount + Int(guess), by: -1)
                            }
                        }
                    }
                    prev2 = prev
                    prev = Int(guess)
                }
            }
        }
        let steps = Double(max(step, 1))
        var averaged = [Float](repeating: 0, count: weights.count)
        for j in weights.indices {
            averaged[j] = Float((totals[j] + Double(step - stamps[j]) * Double(weights[j])) / steps)
        }
        return PerceptronTagger(tagNames: tagNames, features: features, weights: averaged, tagDictionary: dictionary,
                                vocabulary: Set(wordTagCounts.keys), classes: classes, temperature: config.temperature)
    }
}
