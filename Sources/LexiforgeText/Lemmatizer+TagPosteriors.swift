/// A tag a tagger considers for one word, with its probability given the sentence.
public struct WeightedTag: Sendable, Equatable {
    public var tag: String
    public var probability: Double
    public init(_ tag: String, _ probability: Double) {
        self.tag = tag
        self.probability = probability
    }
}

extension PartOfSpeechTagger {
    /// Default for taggers that only pick one tag: that tag, with probability 1.
    public func tagPosteriors(for words: [String]) -> [[WeightedTag]] {
        tags(for: words).map { [WeightedTag($0, 1)] }
    }
}

extension Lemmatizer {
    /// Posteriors below this are ignored when lemmas are voted over a tag distribution
    /// (they rarely change the vote and each costs a lookup).
    public static let minimumTagProbability = 0.01

    /// The lemma of `form` when its tag is uncertain: the lemma with the highest expected
    /// correctness Σ_t P(t | sentence) · [lemma(form, t) = l], over the tags a tagger gives with
    /// their posteriors (``PartOfSpeechTagger/tagPosteriors(for:)``), each lemma made as with a
    /// predicted tag (``lemma(of:tag:position:predicted:)``). When the likely tags agree on the
    /// lemma ("Applause" as PROPN or NOUN, "saw" as NOUN or PROPN) the tagger's doubt costs
    /// nothing; when they disagree the more probable lemma wins even if no single tag is sure.
    /// Ties go to the lemma of the more probable tag; no tags at all is the tag-free lemma.
    public func lemma(of form: String, tags: [WeightedTag], position: Int = 1, next: String? = nil) -> String {
        Self.vote(tags) { lemma(of: form, tag: $0, position: position, predicted: true, next: next) }
            ?? lemma(of: form, tag: nil, position: position)
    }

    /// Lemmas of one sentence from per-word tag distributions (one list per word); the next
    /// word's most probable tag is its context (`next` of ``lemma(of:tag:position:predicted:next:)``).
    public func lemmatize(_ words: [String], tagPosteriors: [[WeightedTag]]) -> [String] {
        words.indices.map { lemma(of: words[$0], tags: tagPosteriors[$0], position: $0, next: Self.nextTag(tagPosteriors, after: $0)) }
    }

    /// The most probable tag of the word after `index`, or ``sentenceEndTag``.
    static func nextTag(_ posteriors: [[WeightedTag]], after index: Int) -> String {
        guard index + 1 < posteriors.count else { return sentenceEndTag }
        return posteriors[index + 1].max { $0.probability < $1.probability }?.tag ?? sentenceEndTag
    }

    /// The lemma with the largest summed tag probability; `lemmaFor` makes the lemma of one tag.
    /// Ties keep the lemma of the more probable tag. Tags are visited most probable first and
    /// the vote stops once the leading lemma cannot be caught by the probability left, so most
    /// words cost one lemma and no allocation (an unseen word's guess is the expensive part).
    static func vote(_ tags: [WeightedTag], lemmaFor: (String) -> String) -> String? {
        guard var top = tags.first else { return nil }
        var total = 0.0
        for tag in tags {
            total += tag.probability
            if tag.probability > top.probability { top = tag }
        }
        // A tag holding more than half the probability wins whatever the others say.
        if tags.count == 1 || top.probability * 2 > total { return lemmaFor(top.tag) }
        let ordered = zip(tags, tags.dropFirst()).allSatisfy { $0.probability >= $1.probability }
            ? tags : tags.sorted { $0.probability > $1.probability }
        var votes: [(lemma: String, weight: Double)] = []
        var remaining = total
        for tag in ordered {
            if !votes.isEmpty {
                let leader = votes.max { $0.weight < $1.weight }!.weight
                let runnerUp = votes.count > 1 ? votes.map(\.weight).sorted(by: >)[1] : 0
                if tag.probability < minimumTagProbability || leader > runnerUp + remaining { break }
            }
            remaining -= tag.probability
            let lemma = lemmaFor(tag.tag)
            if let k = votes.firstIndex(where: { $0.lemma == lemma }) { votes[k].weight += tag.probability } else {
                votes.append((lemma, tag.probability))
            }
        }
        // The first lemma reaching the top weight came from the more probable tag.
        var winner = votes[0]
        for vote in votes.dropFirst() where vote.weight > winner.weight { winner = vote }
        return winner.lemma
    }
}

extension LemmaCache {
    /// ``Lemmatizer/lemma(of:tags:position:)``, each tag's lemma cached.
    public mutating func lemma(of form: String, tags: [WeightedTag], position: Int, next: String? = nil,
                               _ lemmatizer: Lemmatizer) -> String {
        Lemmatizer.vote(tags) { lemma(of: form, tag: $0, position: position, predicted: true, next: next, lemmatizer) }
            ?? lemma(of: form, tag: nil, position: position, lemmatizer)
    }

    /// Lemmas of one sentence from per-word tag distributions, cached
    /// (see ``Lemmatizer/lemmatize(_:tagPosteriors:)``).
    public mutating func lemmatize(_ words: [String], tagPosteriors: [[WeightedTag]], _ lemmatizer: Lemmatizer) -> [String] {
        words.indices.map {
            lemma(of: words[$0], tags: tagPosteriors[$0], position: $0, next: Lemmatizer.nextTag(tagPosteriors, after: $0), lemmatizer)
        }
    }
}
