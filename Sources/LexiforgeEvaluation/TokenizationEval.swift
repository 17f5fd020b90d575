import Foundation
import LexiforgeBuild
import LexiforgeCorpus
import LexiforgeText

/// Precision, recall and F1 of one unit (tokens or words).
public struct PRF: Sendable, Equatable {
    public var gold = 0
    public var system = 0
    public var matched = 0
    public var precision: Double { system == 0 ? 0 : Double(matched) / Double(system) }
    public var recall: Double { gold == 0 ? 0 : Double(matched) / Double(gold) }
    public var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }
    public var line: String {
        String(format: "precision %.4f, recall %.4f, F1 %.4f (gold %d, system %d, matched %d)",
               precision, recall, f1, gold, system, matched)
    }
}

/// What `lexiforge eval tokenize` measured.
public struct TokenizationEvalReport: Sendable {
    public var sentences = 0
    /// Written tokens (multiword tokens as written: "don't" is one).
    public var tokens = PRF()
    /// Syntactic words ("do", "n't"): a word counts when its written token matched and the
    /// token's words are the gold words, in order.
    public var words = PRF()
    /// Sentences whose gold forms do not spell the `# text` line (spans may drift there).
    public var textMismatches = 0
    /// Sentences without a `# text` line (skipped).
    public var missingText = 0
    public var seconds = 0.0
    /// The first mismatches, `gold | system`, for error analysis.
    public var examples: [String] = []
    public var problems: [String] = []
}

/// Scores the tokenizer against a CoNLL-U treebank.
///
/// In: a gold CoNLL-U file and a ``TokenizerMode`` (treebank for UD gold). Each sentence's
/// `# text =` line is tokenized on its own (no sentence splitting) and the written tokens are
/// compared with the gold ones as character spans over the text without whitespace, so one
/// wrong split costs one token of precision and one of recall, not the rest of the sentence.
/// Out: ``TokenizationEvalReport``.
/// - Throws: ``CorpusError`` when the file cannot be read.
public enum TokenizationEval {
    public static func run(gold path: String, mode: TokenizerMode = .treebank, examples: Int = 0) throws -> TokenizationEvalReport {
        var report = TokenizationEvalReport()
        let tokenizer = Tokenizer(mode: mode)
        var tokens: [Token] = []
        let clock = ContinuousClock.now
        report.problems = try TreebankReader.read(path: path) { sentence in
            guard let text = sentence.text else { report.missingText += 1; return }
            report.sentences += 1
            var bytes = Array(text.utf8)
            tokens.removeAll(keepingCapacity: true)
            bytes.withUnsafeMutableBufferPointer { tokenizer.tokenize(UnsafeBufferPointer($0), into: &tokens) }
            // Offsets counted over non-whitespace bytes.
            var compact = [Int](repeating: 0, count: bytes.count + 1)
            var count = 0
            var i = 0
            for scalar in text.unicodeScalars {
                let length = UTF8.width(scalar)
                let isSpace = scalar.properties.isWhitespace || scalar.value == 0
                for k in 0..<length { compact[i + k] = count + (isSpace ? 0 : k) }
                if !isSpace { count += length }
                i += length
            }
            compact[bytes.count] = count
            // System written tokens: spans and word lists.
            var system: [(Int, Int, [String])] = []
            for token in tokens {
                let form = String(decoding: bytes[token.start..<token.end], as: UTF8.self)
                if token.continuesToken, !system.isEmpty {
                    system[system.count - 1].1 = compact[token.end]
                    system[system.count - 1].2.append(form)
                } else {
                    system.append((compact[token.start], compact[token.end], [form]))
                }
            }
            var gold: [(Int, Int, [String])] = []
            var offset = 0
            var spelled = ""
            for token in sentence.tokens {
                let length = token.form.utf8.count
                gold.append((offset, offset + length, sentence.words[token.words].map(\.form)))
                offset += length
                spelled += token.form
            }
            if spelled != String(text.unicodeScalars.filter { !$0.properties.isWhitespace }.map(Character.init)) {
                report.textMismatches += 1
            }
            report.tokens.gold += gold.count
            report.tokens.system += system.count
            report.words.gold += gold.reduce(0) { $0 + $1.2.count }
            report.words.system += system.reduce(0) { $0 + $1.2.count }
            var g = 0
            var s = 0
            var wrong = false
            while g < gold.count && s < system.count {
                if gold[g].0 == system[s].0 && gold[g].1 == system[s].1 {
                    report.tokens.matched += 1
                    if gold[g].2 == system[s].2 { report.words.matched += gold[g].2.count }
                    else if gold[g].2.count == 1 && system[s].2.count == 1 { report.words.matched += 1 }
                    else { wrong = true }
                    g += 1; s += 1
                } else {
                    wrong = true
                    if gold[g].1 <= system[s].1 { g += 1 } else { s += 1 }
                }
            }
            if g < gold.count || s < system.count { wrong = true }
            if wrong && report.examples.count < examples {
                report.examples.append(gold.map { $0.2.joined(separator: "+") }.joined(separator: " ")
                    + "\n    " + system.map { $0.2.joined(separator: "+") }.joined(separator: " "))
            }
        }
        let elapsed = ContinuousClock.now - clock
        report.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return report
    }
}
