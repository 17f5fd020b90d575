#if LEXIFORGE_FUZZ
import Foundation
import LexiforgeCorpus

/// (1) The corpus reader: plain text and gzip (ByteSource detects gzip by its magic bytes), with
/// and without replacement of invalid UTF-8 (the input's length picks).
func fuzzCorpusReader(_ data: Data) {
    let path = scratchFile("input.txt", data)
    let options = CorpusReadOptions(replaceInvalidUTF8: data.count % 2 == 0, stripGutenberg: true)
    var bytes = 0
    _ = try? CorpusReader.readLines(of: path, options: options) { line in bytes &+= line.count }
}
#endif
