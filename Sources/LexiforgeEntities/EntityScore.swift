import Foundation
import LexiforgeFormat

/// Exact-span scores: a predicted entity is right when its first word, last word and type all
/// match a gold entity (CoNLL's measure); precision, recall and F1 per type and micro-averaged.
public struct EntityScore: Sendable, Equatable {
    public struct Counts: Sendable, Equatable {
        public var truePositives = 0, predicted = 0, gold = 0
        public var precision: Double { predicted > 0 ? Double(truePositives) / Double(predicted) : 0 }
        public var recall: Double { gold > 0 ? Double(truePositives) / Double(gold) : 0 }
        public var f1: Double { precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0 }
        mutating func add(_ other: Counts) {
            truePositives += other.truePositives
            predicted += other.predicted
            gold += other.gold
        }
    }

    public var byType: [String: Counts] = [:]
    public var sentences = 0
    public var tokens = 0
    /// CPU seconds of the tagging thread spent decoding (features and Viterbi).
    public var taggingCPUSeconds = 0.0
    /// A timing pass tagged otherwise than the first (never expected).
    public var nondeterministic = false

    public init() {}

    /// All types together (micro average).
    public var overall: Counts {
        var all = Counts()
        for counts in byType.values { all.add(counts) }
        return all
    }

    public var tokensPerCPUSecond: Double { taggingCPUSeconds > 0 ? Double(tokens) / taggingCPUSeconds : 0 }

    /// Adds one sentence's gold and predicted labels.
    public mutating func add(gold: [String], predicted: [String]) {
        sentences += 1
        tokens += gold.count
        let goldSpans = Set(EntitySpan.spans(gold)), predictedSpans = Set(EntitySpan.spans(predicted))
        for span in goldSpans { byType[span.type, default: Counts()].gold += 1 }
        for span in predictedSpans {
            byType[span.type, default: Counts()].predicted += 1
            if goldSpans.contains(span) { byType[span.type, default: Counts()].truePositives += 1 }
        }
    }

    public mutating func add(_ other: EntityScore) {
        for (type, counts) in other.byType { byType[type, default: Counts()].add(counts) }
        sentences += other.sentences
        tokens += other.tokens
        taggingCPUSeconds += other.taggingCPUSeconds
    }

    /// The table `eval ner` prints: one row per type, then the micro average.
    public func render() -> String {
        func row(_ name: String, _ c: Counts) -> String {
            String(format: "%-8@ %9.2f %9.2f %9.2f %7d %7d %7d", name as NSString, 100 * c.precision, 100 * c.recall, 100 * c.f1,
                   c.gold, c.predicted, c.truePositives)
        }
        var lines = ["sentences: \(sentences), tokens: \(tokens)",
                     "type     precision    recall        F1    gold    pred correct"]
        for type in byType.keys.sorted() { lines.append(row(type, byType[type]!)) }
        lines.append(row("overall", overall))
        if taggingCPUSeconds > 0 {
            lines.append(String(format: "tagging speed: %.0f tokens per CPU second (one core)", tokensPerCPUSecond))
        }
        return lines.joined(separator: "\n")
    }
}

/// Scores a model on gold sentences, timing the decoding (CPU time of this thread).
public enum EntityEvaluation {
    /// The exact-span scores of `model` on `gold`, each document decoded whole.
    /// `timingPasses` > 1 tags everything that many times: the speed is the mean per pass, and a
    /// pass that tags otherwise than the first sets ``EntityScore/nondeterministic``.
    public static func score(_ model: EntityModel, on gold: [LabeledSentence], timingPasses: Int = 1) -> EntityScore {
        var score = EntityScore()
        let names = model.labels.names
        // Documents (runs of sentences with the same document number) are decoded whole, so a name
        // tagged in one sentence tags its other mentions (EntityModel.decode(document:)).
        var documents: [[[String]]] = []
        var start = 0
        while start < gold.count {
            var end = start + 1
            while end < gold.count && gold[end].document == gold[start].document { end += 1 }
            documents.append(gold[start..<end].map(\.words))
            start = end
        }
        func tagAll() -> [[Int]] {
            var predicted: [[Int]] = []
            predicted.reserveCapacity(gold.count)
            for document in documents { predicted += model.decode(document: document) }
            return predicted
        }
        let started = threadCPUSeconds()
        let predicted = tagAll()
        for _ in 1..<max(timingPasses, 1) where tagAll() != predicted { score.nondeterministic = true }
        score.taggingCPUSeconds = (threadCPUSeconds() - started) / Double(max(timingPasses, 1))
        for (sentence, labels) in zip(gold, predicted) {
            score.add(gold: sentence.labels, predicted: labels.map { names[$0] })
        }
        return score
    }

    /// K-fold cross-validation on `gold`: folds are contiguous runs of whole documents of about
    /// equal sentence counts; each fold is scored with a model trained on the other folds plus
    /// `extra` (sentences with their update weights). Returns the pooled score and one per fold.
    public static func crossValidate(_ gold: [LabeledSentence], folds: Int, extra: [(LabeledSentence, Float)],
                                     goldWeight: Float = 1, config: EntityTrainerConfig, tagging: EntityTagging? = nil,
                                     lexicon: EntityLexicon = EntityLexicon(), clusters: EntityClusters = EntityClusters(),
                                     progress: (String) -> Void = { _ in }) -> (pooled: EntityScore, folds: [EntityScore]) {
        let fold = foldNumbers(gold, folds: folds)
        var pooled = EntityScore(), scores: [EntityScore] = []
        for k in 0..<folds {
            let trainer = EntityTrainer(config: config, tagging: tagging, lexicon: lexicon, clusters: clusters)
            for (sentence, weight) in extra { trainer.add(sentence, weight: weight) }
            for (i, sentence) in gold.enumerated() where fold[i] != k { trainer.add(sentence, weight: goldWeight) }
            let model = trainer.finish()
            let score = score(model, on: gold.indices.filter { fold[$0] == k }.map { gold[$0] })
            progress(String(format: "fold %d/%d: %d sentences, F1 %.2f", k + 1, folds, score.sentences, 100 * score.overall.f1))
            pooled.add(score)
            scores.append(score)
        }
        return (pooled, scores)
    }

    /// The fold of each sentence: documents in order, a new fold once the running sentence count
    /// passes the next k/folds share.
    static func foldNumbers(_ sentences: [LabeledSentence], folds: Int) -> [Int] {
        var out = [Int](repeating: 0, count: sentences.count)
        var k = 0
        for i in sentences.indices {
            if i > 0, sentences[i].document != sentences[i - 1].document, k < folds - 1,
               i * folds >= (k + 1) * sentences.count {
                k += 1
            }
            out[i] = k
        }
        return out
    }
}

/// CPU time of the calling thread, in seconds.
func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
