import Foundation
import LexiforgeBuild
import LexiforgeCorpus

/// A user's own words for the swipe decoder (``SwipeDictionary/adding(_:id:)``), read from a text
/// file: one word a line, optionally a TAB and a frequency on the wordlist's 0-255 scale (default
/// ``defaultFrequency``); blank lines and lines starting with `#` are skipped (UTF-8, a BOM and
/// CRLF line ends are accepted). Every bad line is reported, each as `FILE:LINE: what is wrong`.
public enum SwipeUserWords {
    /// The middle of the scale, where the real swipes' words that en_US lacks, added, decoded best
    /// (docs/swipe.md, *A user's own words*; Android's "add to dictionary" gives 250).
    public static let defaultFrequency = 128

    public static func read(path: String) throws -> [(word: String, frequency: Int)] {
        if let problem = NgramBuild.checkInput(path) { throw PipelineError(problem) }
        var words: [(word: String, frequency: Int)] = []
        var errors: [String] = []
        var number = 0
        _ = try CorpusReader.readLines(of: path, options: CorpusReadOptions(stripGutenberg: false)) { bytes in
            number += 1
            let line = String(decoding: bytes, as: UTF8.self)
            guard !line.hasPrefix("#"), !line.allSatisfy(\.isWhitespace) else { return }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            let word = String(columns[0])
            guard columns.count <= 2, !word.isEmpty, !word.contains(where: \.isWhitespace) else {
                errors.append("\(path):\(number): expected WORD or WORD<TAB>FREQUENCY, one word without spaces")
                return
            }
            var frequency = defaultFrequency
            if columns.count == 2 {
                guard let f = Int(columns[1]), (0...255).contains(f) else {
                    errors.append("\(path):\(number): frequency \"\(columns[1])\" is not a whole number from 0 to 255")
                    return
                }
                frequency = f
            }
            words.append((word, frequency))
        }
        if !errors.isEmpty { throw PipelineError(errors) }
        return words
    }
}
