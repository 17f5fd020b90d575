#if LEXIFORGE_FUZZ
import Foundation
import LexiforgeWordlist

/// (2) The Android "combined" wordlist parser, and the lexicon built from what it read.
func fuzzWordlistReader(_ data: Data) {
    let path = scratchFile("input.combined", data)
    let result = WordlistReader.read(paths: [path])
    _ = try? result.lexicon(strict: false)
}
#endif
