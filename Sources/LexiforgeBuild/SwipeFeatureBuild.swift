import Foundation
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeSwipe

/// `lexiforge swipe features`: adds one layout's per-word swipe features to a store.
///
/// In: a store with a lexicon (or a vocabulary) and a layout. Out: the same store, replaced
/// atomically, with `swipe_layout`/`swipe_feature` rows for that layout.
public enum SwipeFeatureBuild {
    public static func run(storePath: String, layout: SwipeLayout) throws -> SwipeFeatureWriteReport {
        try StoreWriter.addSwipeFeatures(storePath: storePath, layout: layout) { words in
            words.map { SwipeFeatures(word: $0, layout: layout) }
        }
    }

    public static func render(_ r: SwipeFeatureWriteReport) -> String {
        var s = String(format: "swipe features %@: %d words, %d without a key path; store %d → %d bytes (+%.2f MB); %.2f s (features %.2f s, copying, writing and repacking the store %.2f s)",
                       r.layout, r.words, r.skipped, r.bytesBefore, r.bytesAfter,
                       Double(r.bytesAfter - r.bytesBefore) / 1_048_576, r.seconds, r.computeSeconds, r.seconds - r.computeSeconds)
        if !r.skippedExamples.isEmpty { s += "\n  without a key path, e.g. " + r.skippedExamples.joined(separator: ", ") }
        return s
    }
}
