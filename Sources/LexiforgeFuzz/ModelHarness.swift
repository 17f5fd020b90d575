#if LEXIFORGE_FUZZ
import Foundation
import LexiforgeBuild

/// (5) Model files (`*.model.json`).
func fuzzModelFile(_ data: Data) {
    let path = scratchFile("input.model.json", data)
    _ = try? ModelSpec.load(path: path)
}
#endif
