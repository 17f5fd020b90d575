/// BIO labels: `O` (0), then `B-T` and `I-T` for each type T.
public struct EntityLabels: Sendable, Equatable {
    public let types: [String]
    public init(types: [String]) { self.types = types }
    @inlinable public var count: Int { 1 + 2 * types.count }
    public var names: [String] { ["O"] + types.flatMap { ["B-\($0)", "I-\($0)"] } }
    /// The label number of `B-type` (`inside` false) or `I-type`.
    public func label(type: Int, inside: Bool) -> Int { 1 + 2 * type + (inside ? 1 : 0) }
    /// The type of a label (nil for `O`) and whether it is an `I-`.
    @inlinable
    public func decompose(_ label: Int) -> (type: Int, inside: Bool)? {
        label == 0 ? nil : ((label - 1) / 2, (label - 1) % 2 == 1)
    }
    /// Whether `label` may follow `previous` (−1: the sentence start): `I-T` only after `B-T` or `I-T`.
    @inlinable
    public func allowed(_ previous: Int, _ label: Int) -> Bool {
        guard let (type, inside) = decompose(label), inside else { return true }
        guard previous >= 0, let (before, _) = decompose(previous) else { return false }
        return before == type
    }
}

/// A linear-chain named-entity model: the structured averaged perceptron's weights, decoded with
/// Viterbi over BIO labels (an `I-T` only after `B-T` or `I-T`).
///
/// A sentence's score for labels y₁…yₙ is Σᵢ (Σ_f w[f, yᵢ] + t[yᵢ₋₁, yᵢ]) over the hashed
/// features f of word i (``EntityFeatures``) and the transition weights t (y₀ the start).
public struct EntityModel: Sendable {
    public let labels: EntityLabels
    /// Every feature's key with its weight per label.
    public let table: EntityWeightTable
    /// `(previous + 1) * labels.count + label`; previous −1 is the start.
    public let transitions: [Float]
    public let gazetteer: EntityGazetteer
    /// The part-of-speech tagger whose tags are features, if the model was trained with one.
    public let tagging: EntityTagging?
    /// Typed name lists from outside the training data (WordNet), empty for none.
    public let lexicon: EntityLexicon
    /// Word classes learnt from unlabelled text, empty for none.
    public let clusters: EntityClusters

    public init(labels: EntityLabels, table: EntityWeightTable, transitions: [Float],
                gazetteer: EntityGazetteer, tagging: EntityTagging? = nil, lexicon: EntityLexicon = EntityLexicon(),
                clusters: EntityClusters = EntityClusters()) {
        precondition(table.labels == labels.count)
        precondition(transitions.count == (labels.count + 1) * labels.count)
        self.labels = labels
        self.table = table
        self.transitions = transitions
        self.gazetteer = gazetteer
        self.tagging = tagging
        self.lexicon = lexicon
        self.clusters = clusters
    }

    /// The features of a sentence (``EntityFeatures``) with this model's gazetteer, tagger,
    /// lexicon and clusters; `excluding` as in ``EntityGazetteer/match(_:excluding:)``.
    public static func features(_ words: [String], gazetteer: EntityGazetteer?, tagging: EntityTagging?,
                                lexicon: EntityLexicon? = nil, clusters: EntityClusters? = nil,
                                excluding: [String: [Int32]]? = nil) -> [UInt64] {
        let lowered = EntityFeatures.lowered(words)
        let codes = gazetteer?.match(lowered, excluding: excluding) ?? [UInt8](repeating: 0, count: words.count)
        let names = lexicon.flatMap { $0.isEmpty ? nil : $0.match(lowered) }   // nil: no lexicon features
        return EntityFeatures.extract(words, lowered: lowered, gazetteer: codes, tags: tagging?.tags(words), lexicon: names,
                                      clusters: clusters.flatMap { $0.isEmpty ? nil : $0.lookup(lowered) })
    }

    /// The best label of every word (numbers into ``EntityLabels/names``).
    public func decode(_ words: [String]) -> [Int] {
        guard !words.isEmpty else { return [] }
        let keys = Self.features(words, gazetteer: gazetteer, tagging: tagging, lexicon: lexicon, clusters: clusters)
        var emission = [Float](repeating: 0, count: words.count * labels.count)
        table.accumulate(keys, perWord: EntityFeatures.perWord, into: &emission)
        return transitions.withUnsafeBufferPointer { t in
            let L = labels.count
            return Self.viterbi(emission: emission, count: words.count, labels: labels) { t[($0 + 1) * L + $1] }
        }
    }

    /// The best labels of every sentence of a document: each decoded alone, then
    /// ``propagatingNames(_:labels:)`` (a name tagged in one sentence tags its other mentions).
    public func decode(document sentences: [[String]]) -> [[Int]] {
        propagatingNames(sentences, labels: sentences.map { decode($0) })
    }

    /// Document-level consistency: a capitalized name tagged somewhere in a document tags its
    /// other mentions. Every span of `labels` (one label list per sentence of the document) whose
    /// first word is capitalized is a name (its words, case kept, with its most frequent type),
    /// and so is every capitalized word (two letters or more) of a `PER` name of several words
    /// ("Cook" after "Tim Cook"); then, left to right, every run of `O` words that spells a name (longest first, up to six
    /// words) gets that name's labels. Spans already tagged are never changed.
    public func propagatingNames(_ sentences: [[String]], labels: [[Int]]) -> [[Int]] {
        var counts: [[String]: [Int]] = [:]
        var longest: [String: Int] = [:]   // first word → the longest name it starts
        for (words, tags) in zip(sentences, labels) {
            var i = 0
            while i < tags.count {
                guard let (type, _) = self.labels.decompose(tags[i]) else { i += 1; continue }
                var end = i + 1
                while end < tags.count, let (t, inside) = self.labels.decompose(tags[end]), inside, t == type { end += 1 }
                if let first = words[i].unicodeScalars.first, first.properties.isUppercase, end - i <= 6 {
                    counts[Array(words[i..<end]), default: [Int](repeating: 0, count: self.labels.types.count)][type] += 1
                    longest[words[i]] = max(longest[words[i]] ?? 0, end - i)
                    if end - i > 1, self.labels.types[type] == "PER" {
                        for word in words[i..<end] where word.unicodeScalars.first?.properties.isUppercase == true && word.count > 1 {
                            counts[[word], default: [Int](repeating: 0, count: self.labels.types.count)][type] += 1
                            longest[word] = max(longest[word] ?? 0, 1)
                        }
                    }
                }
                i = end
            }
        }
        guard !longest.isEmpty else { return labels }
        var out = labels
        for (k, words) in sentences.enumerated() {
            var tags = out[k]
            matchLongestFirst(count: words.count, longest: { tags[$0] == 0 ? longest[words[$0]] : nil }) { i, length in
                guard (i..<(i + length)).allSatisfy({ tags[$0] == 0 }), let row = counts[Array(words[i..<(i + length)])] else { return false }
                var best = 0
                for t in row.indices where row[t] > row[best] { best = t }
                tags[i] = self.labels.label(type: best, inside: false)
                for j in (i + 1)..<(i + length) { tags[j] = self.labels.label(type: best, inside: true) }
                return true
            }
            out[k] = tags
        }
        return out
    }

    /// Viterbi over `count` words with features `keys` (``EntityFeatures/perWord`` per word),
    /// `row(key)` giving a feature's weight per label (nil: unknown) and `transition(prev, label)`.
    @inlinable
    public static func viterbi(_ keys: [UInt64], count n: Int, labels: EntityLabels,
                               row: (UInt64) -> UnsafeBufferPointer<Float>?,
                               transition: (Int, Int) -> Float) -> [Int] {
        let L = labels.count
        var emission = [Float](repeating: 0, count: n * L)
        for i in 0..<n {
            for k in (i * EntityFeatures.perWord)..<((i + 1) * EntityFeatures.perWord) {
                guard keys[k] != 0, let w = row(keys[k]) else { continue }
                for y in 0..<L { emission[i * L + y] += w[y] }
            }
        }
        return viterbi(emission: emission, count: n, labels: labels, transition: transition)
    }

    /// Viterbi over `count` words whose label scores are `emission` (`labels.count` per word),
    /// with `transition(prev, label)`.
    @inlinable
    public static func viterbi(emission: [Float], count n: Int, labels: EntityLabels,
                               transition: (Int, Int) -> Float) -> [Int] {
        let L = labels.count
        var score = [Float](repeating: 0, count: n * L)
        var back = [Int32](repeating: 0, count: n * L)
        for y in 0..<L {
            score[y] = labels.allowed(-1, y) ? emission[y] + transition(-1, y) : -.infinity
        }
        if n > 1 {
            for i in 1..<n {
                for y in 0..<L {
                    var best = -Float.infinity, arg = 0
                    for p in 0..<L where labels.allowed(p, y) {
                        let s = score[(i - 1) * L + p] + transition(p, y)
                        if s > best { best = s; arg = p }
                    }
                    score[i * L + y] = best + emission[i * L + y]
                    back[i * L + y] = Int32(arg)
                }
            }
        }
        var out = [Int](repeating: 0, count: n)
        var last = 0
        for y in 1..<L where score[(n - 1) * L + y] > score[(n - 1) * L + last] { last = y }
        out[n - 1] = last
        if n > 1 {
            for i in stride(from: n - 1, to: 0, by: -1) { out[i - 1] = Int(back[i * L + out[i]]) }
        }
        return out
    }
}

/// The UPOS tagger of an entity model (a hidden Markov tagger trained on a treebank), whose
/// predicted tags are features. (Tried and dropped, five-fold CV on UNER EWT dev: buckets of how
/// often the tagger's training text capitalized each form, 62.62 F1 against 62.77 without.)
public struct EntityTagging: Sendable {
    public let tagger: HMMTagger

    public init(tables: HMMTables) { tagger = HMMTagger(tables: tables) }

    /// The words' UPOS tags as feature values.
    public func tags(_ words: [String]) -> [UInt64] {
        tagger.tagStates(words).map { EntityFeatures.tagKey(tagger.stateNames[Int($0)]) }
    }
}

/// A named-entity span over words `start..<end`.
public struct EntitySpan: Sendable, Hashable {
    public var start: Int
    public var end: Int
    public var type: String
    public init(start: Int, end: Int, type: String) {
        self.start = start
        self.end = end
        self.type = type
    }

    /// The spans of a BIO label sequence (`names` per label number); an `I-T` that does not
    /// continue a `T` span starts one, as CoNLL's scorer reads it.
    public static func spans(_ labels: [String]) -> [EntitySpan] {
        var out: [EntitySpan] = []
        var open: EntitySpan?
        for (i, label) in labels.enumerated() {
            let type = label.count > 2 ? String(label.dropFirst(2)) : ""
            if label.hasPrefix("I-"), var span = open, span.type == type {
                span.end = i + 1
                open = span
                continue
            }
            if let span = open { out.append(span) }
            open = label.hasPrefix("B-") || label.hasPrefix("I-") ? EntitySpan(start: i, end: i + 1, type: type) : nil
        }
        if let span = open { out.append(span) }
        return out
    }
}
