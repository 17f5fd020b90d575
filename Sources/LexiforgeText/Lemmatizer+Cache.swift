/// Remembers lemmas per (form, tag, sentence-initial), so running text pays the lemmatizer's
/// cost once per distinct word: a repeated unseen form skips the suffix rules and WordNet.
///
/// ```swift
/// var cache = LemmaCache()
/// for (k, word) in words.enumerated() { print(cache.lemma(of: word, tag: nil, position: k, lemmatizer)) }
/// ```
/// - Complexity: one hash lookup per hit; memory bounded by ``capacity`` entries (the cache
///   starts over when full).
public struct LemmaCache {
    struct Key: Hashable {
        var form: String
        var tag: String?
        var initial: Bool
        var predicted: Bool
        var next: String?
    }

    /// Key without a next tag → the lemma, and whether the form's lemma depends on the next
    /// tag (then the entry under the key with the next tag holds the answer).
    var table: [Key: (lemma: String, dependsOnNext: Bool)] = [:]
    /// The last unseen form's tag-free rule scores, shared by its candidate tags.
    var memo = Lemmatizer.GuessMemo()
    /// Entries kept before the cache is emptied.
    public var capacity: Int

    public init(capacity: Int = 1 << 20) { self.capacity = capacity }

    /// ``Lemmatizer/lemma(of:tag:position:predicted:next:)``, cached. Only whether `position` is 0
    /// matters to the lemmatizer, so that is what the key holds; the next tag only for the few
    /// forms whose lemma depends on it (a second lookup for those alone).
    public mutating func lemma(of form: String, tag: String?, position: Int, predicted: Bool = false,
                               next: String? = nil, _ lemmatizer: Lemmatizer) -> String {
        var key = Key(form: form, tag: tag, initial: position == 0, predicted: predicted, next: nil)
        if let hit = table[key] {
            guard hit.dependsOnNext, tag != nil, let next else { return hit.lemma }
            key.next = next
            if let lemma = table[key]?.lemma { return lemma }
        }
        if table.count >= capacity { table.removeAll(keepingCapacity: true) }
        let dependsOnNext = tag != nil && lemmatizer.dependsOnNextTag(form)
        key.next = nil
        if table[key] == nil {
            table[key] = (lemmatizer.lemma(of: form, tag: tag, position: position, predicted: predicted, next: nil, memo: &memo), dependsOnNext)
        }
        guard dependsOnNext, let next else { return table[key]!.lemma }
        key.next = next
        let lemma = lemmatizer.lemma(of: form, tag: tag, position: position, predicted: predicted, next: next, memo: &memo)
        table[key] = (lemma, true)
        return lemma
    }

    /// Lemmas of one sentence, cached (see ``Lemmatizer/lemmatize(_:tags:predicted:)``).
    public mutating func lemmatize(_ words: [String], tags: [String]?, predicted: Bool = false,
                                   _ lemmatizer: Lemmatizer) -> [String] {
        words.indices.map { i in
            lemma(of: words[i], tag: tags?[i], position: i, predicted: predicted,
                  next: tags.map { Lemmatizer.nextTag($0, after: i) }, lemmatizer)
        }
    }
}
