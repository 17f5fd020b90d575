import Foundation
import LexiforgeFormat

extension EntityLexicon {
    /// The capitalized noun lemmas of WordNet's `data.noun` in `directory` (Debian's
    /// `wordnet-base`: /usr/share/wordnet) as typed name lists, by lexicographer file:
    /// noun.person (18) ``Category/person``, noun.location (15) and instances of noun.object (17)
    /// ``Category/location``, noun.group (14) ``Category/organization``, every other capitalized
    /// noun ``Category/other``; each an instance when its synset has an instance hypernym (`@i`).
    /// Multiword lemmas (`New_York`) become space-separated words; lemmas are lowercased.
    /// - Throws: ``EntityLexiconError`` when `data.noun` cannot be read or holds no names.
    public static func wordNet(directory: String) throws -> EntityLexicon {
        let path = (directory as NSString).appendingPathComponent("data.noun")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EntityLexiconError("\(path): cannot read WordNet's noun data (install wordnet-base, or give --wordnet DIR or --no-wordnet)")
        }
        var lexicon = EntityLexicon()
        // Lines: offset lex_filenum ss_type w_cnt(hex) (word lex_id)… p_cnt (ptr offset pos src/tgt)… | gloss
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                defer { start = end + 1 }
                guard end > start, bytes[start] != 0x20 else { continue }   // licence header lines start with spaces
                let bar = (start..<end).first { bytes[$0] == UInt8(ascii: "|") } ?? end
                let fields = String(decoding: bytes[start..<bar], as: UTF8.self).split(separator: " ")
                guard fields.count > 4, let lexFile = Int(fields[1]), let wordCount = Int(fields[3], radix: 16),
                      fields.count > 4 + 2 * wordCount, let pointerCount = Int(fields[4 + 2 * wordCount]) else { continue }
                var instance = false
                for p in 0..<pointerCount where 5 + 2 * wordCount + 4 * p < fields.count && fields[5 + 2 * wordCount + 4 * p] == "@i" {
                    instance = true
                }
                let category: Category
                switch lexFile {
                case 18: category = .person
                case 15: category = .location
                case 17 where instance: category = .location
                case 14: category = .organization
                default: category = .other
                }
                for w in 0..<wordCount {
                    var lemma = Substring(fields[4 + 2 * w])
                    if let paren = lemma.firstIndex(of: "(") { lemma = lemma[..<paren] }
                    guard let first = lemma.unicodeScalars.first, first.properties.isUppercase else { continue }
                    lexicon.add(lemma.replacingOccurrences(of: "_", with: " ").lowercased(), mask: category.bit(instance: instance))
                }
            }
        }
        guard !lexicon.isEmpty else { throw EntityLexiconError("\(path): no capitalized nouns (is it WordNet's data.noun?)") }
        return lexicon
    }
}

/// A lexicon that could not be read.
public struct EntityLexiconError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
