#if LEXIFORGE_FUZZ
import Foundation
import LexiforgeReader

/// (6) Store reading: the input as a .sqlite file, opened and queried the way apps do. Errors
/// (StoreError) are fine; crashes are not.
func fuzzStore(_ data: Data) {
    let path = scratchFile("input.sqlite", data)
    defer {
        for suffix in ["-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
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
}
#endif
