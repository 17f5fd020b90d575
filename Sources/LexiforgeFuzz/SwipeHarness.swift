#if LEXIFORGE_FUZZ
import Foundation
import LexiforgeReader
import LexiforgeSwipe

/// (4) Swipe trace JSON Lines: the file reader (plain or gzip) and the one-line parser.
func fuzzSwipeTraces(_ data: Data) {
    let path = scratchFile("input.jsonl", data)
    _ = try? SwipeTraceReader.read(path: path, layout: .qwerty)
    let text = String(decoding: data, as: UTF8.self)
    _ = try? SwipeTraceReader.parse(text, line: 1, layout: .azerty)
}
#endif
