#if LEXIFORGE_FUZZ
import Foundation
import LexiforgeReader

/// (6) Store reading: the input as a .sqlite file, opened and queried the way apps do, by every
/// reader a front end links: n-grams, swipe, lexicon, tagger, classifier, language ID, entity
/// tagger, lemma search, vocabulary. Errors (StoreError and each reader's own) are fine; crashes
/// are not.
func fuzzStore(_ data: Data) {
    let path = scratchFile("input.sqlite", data)
    defer {
        for suffix in ["-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    // A vocabulary store has no n-gram tables, which `TrainedStore` requires: opened on its own.
    if let vocabulary = try? VocabularyStore(path: path) {
        _ = try? vocabulary.summary()
        _ = try? vocabulary.count(matching: .prefix("た"))
        var generator = SplitMix64(seed: 1)
        for test in VocabTest.allCases { _ = try? vocabulary.question(test, using: &generator) }
    }
    guard let store = try? TrainedStore(path: path) else { return }
    _ = try? store.topWords(limit: 5)
    _ = try? store.vocabulary()
    _ = try? store.nextWords(after: ["the"], limit: 3)
    if let predictor = try? NgramPredictor(store: store) {
        _ = try? predictor.nextWords(after: ["the"], limit: 3)
        _ = try? predictor.nextWords(after: ["of", "the"], limit: 3)
        _ = try? predictor.startingWords(limit: 3)
    }
    if let layouts = try? store.swipeLayouts() {
        for layout in layouts.prefix(2) { _ = try? store.swipeDictionary(layout: layout) }
    }
    _ = try? store.lexicon()
    _ = try? store.completions(of: "th", limit: 3)
    _ = try? store.hmmTagger().tag(["The", "dogs", "ran", "."])
    _ = try? TextClassifier(store: store).probabilities(for: "not a good film at all")
    _ = try? LanguageRecognizer(store: store).hypotheses(for: "the quick brown fox", maximum: 3)
    _ = try? EntityTagger(path: path).entities(in: "Ann Lee flew to Paris on Monday.")
    _ = try? LemmaSearch(store: store).search("singing geese", limit: 3)
}
#endif
