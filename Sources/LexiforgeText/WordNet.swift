import Foundation

/// WordNet's lemma lists and exception lists, and its morphological rules (Morphy).
///
/// In: the dictionary folder of a WordNet 3.x installation (Debian `wordnet-base`:
/// `/usr/share/wordnet`), of which only `index.{noun,verb,adj,adv}` (the lemmas) and
/// `{noun,verb,adj,adv}.exc` (irregular forms: `geese goose`, `ran run`) are read.
/// Out: ``baseForms(of:pos:)``, what WordNet's `morphy` gives.
///
/// ```swift
/// let wordNet = try WordNet(directory: WordNet.defaultDirectory)
/// wordNet.baseForms(of: "geese", pos: .noun)   // ["goose"]
/// wordNet.baseForms(of: "boxes", pos: .noun)   // ["box"]
/// ```
/// - Complexity: loading reads about 6 MB once; a lookup is a few hash lookups.
public struct WordNet: Sendable {
    /// WordNet's four parts of speech.
    public enum POS: Int, Sendable, CaseIterable {
        case noun, verb, adj, adv
        var fileName: String { ["noun", "verb", "adj", "adv"][rawValue] }

        /// The WordNet part of speech of a Universal POS tag (nil for tags WordNet does not cover).
        public init?(upos: String) {
            switch upos {
            case "NOUN": self = .noun
            case "VERB", "AUX": self = .verb
            case "ADJ": self = .adj
            case "ADV": self = .adv
            default: return nil
            }
        }
    }

    /// Where Debian's `wordnet-base` installs the dictionary.
    public static let defaultDirectory = "/usr/share/wordnet"

    /// Lemmas per part of speech (lowercase; multiword lemmas use `_` and are skipped).
    public private(set) var lemmas: [Set<String>]
    /// Irregular form → base forms, per part of speech.
    public private(set) var exceptions: [[String: [String]]]

    /// Morphy's detachment rules: (suffix, replacement) per part of speech.
    static let rules: [[(String, String)]] = [
        [("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"), ("ies", "y")],
        [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")],
        [("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
        [],
    ]

    /// An empty WordNet (no lemmas, no exceptions): for tests and machines without `wordnet-base`.
    public init() {
        lemmas = Array(repeating: [], count: 4)
        exceptions = Array(repeating: [:], count: 4)
    }

    /// Loads the index and exception files of `directory`.
    /// - Throws: ``TextError/wordNetMissing`` naming the file that is absent and the package to install.
    public init(directory: String) throws(TextError) {
        self.init()
        for pos in POS.allCases {
            let index = directory + "/index." + pos.fileName
            guard let data = FileManager.default.contents(atPath: index) else {
                throw .wordNetMissing(index)
            }
            var set = Set<String>()
            set.reserveCapacity(pos == .noun ? 120_000 : 30_000)
            data.withUnsafeBytes { raw in
                let b = raw.bindMemory(to: UInt8.self)
                var i = 0
                while i < b.count {
                    var end = i
                    while end < b.count && b[end] != 0x0A { end += 1 }
                    if end > i && b[i] != 0x20 {
                        var space = i
                        while space < end && b[space] != 0x20 { space += 1 }
                        let word = UnsafeBufferPointer(rebasing: b[i..<space])
                        if !word.contains(UInt8(ascii: "_")) { set.insert(String(decoding: word, as: UTF8.self)) }
                    }
                    i = end + 1
                }
            }
            lemmas[pos.rawValue] = set
            let exc = directory + "/" + pos.fileName + ".exc"
            if let text = try? String(contentsOfFile: exc, encoding: .utf8) {
                var table: [String: [String]] = [:]
                for line in text.split(separator: "\n") {
                    let fields = line.split(separator: " ").map(String.init)
                    guard fields.count >= 2, !fields[0].contains("_") else { continue }
                    table[fields[0], default: []].append(contentsOf: fields.dropFirst().filter { !$0.contains("_") })
                }
                exceptions[pos.rawValue] = table
            }
        }
    }

    public var isEmpty: Bool { lemmas.allSatisfy(\.isEmpty) }

    /// Whether `lemma` (lowercase) is a WordNet lemma of `pos` (of any part of speech when nil).
    public func contains(_ lemma: String, pos: POS?) -> Bool {
        if let pos { return lemmas[pos.rawValue].contains(lemma) }
        return lemmas.contains { $0.contains(lemma) }
    }

    /// Morphy: the base forms of a lowercase `form`, best first. Exceptions first, then the form
    /// itself if it is a lemma, then the detachment rules whose result is a lemma.
    public func baseForms(of form: String, pos: POS) -> [String] {
        if let irregular = exceptions[pos.rawValue][form] { return irregular }
        let set = lemmas[pos.rawValue]
        if set.contains(form) { return [form] }
        var result: [String] = []
        for (suffix, replacement) in Self.rules[pos.rawValue] where form.hasSuffix(suffix) && form.count > suffix.count {
            let base = String(form.dropLast(suffix.count)) + replacement
            if set.contains(base) && !result.contains(base) { result.append(base) }
        }
        return result
    }
}

/// Problems of the text stage, each described for a person.
public enum TextError: Error, CustomStringConvertible, Sendable, Equatable {
    case wordNetMissing(String)

    public var description: String {
        switch self {
        case .wordNetMissing(let path):
            return "\(path): WordNet file not found; install Debian's wordnet-base (`make deps`) or pass --wordnet DIR"
        }
    }
}
