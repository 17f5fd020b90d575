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

    var table: [Key: String] = [:]
    /// Entries kept before the cache is emptied.
    public var capacity: Int

    public init(capacity: Int = 1 << 20) { self.capacity = capacity }

    /// ``Lemmatizer/lemma(of:tag:position:predicted:next:)``, cached. Only whether `position` is 0
    /// matters to the lemmatizer, so that is what the key holds; the next tag only for the few
    /// forms whose lemma depends on it.
    public mutating func lemma(of form: String, tag: String?, position: Int, predicted: Bool = false,
                               next: String? = nil, _ lemmatizer: Lemmatizer) -> String {
        let context = next != nil && tag != nil && lemmatizer.dependsOnNextTag(form) ? next : nil
        let key = Key(form: form, tag: tag, initial: position == 0, predicted: predicted, next: context)
        if let lemma = table[key] { return lemma }
        let lemma = lemmatizer.lemma(of: form, tag: tag, position: position, predicted: predicted, next: context)
        if table.count >= capacity { table.removeAll(keepingCapacity: true) }
        table[key] = lemma
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
