import Foundation
import GRDB
import LexiforgeText

/// One document found by ``LemmaSearch``.
public struct SearchHit: Sendable, Equatable {
    /// The document's name (its path under the indexed folder, or its JSON Lines `id`).
    public var name: String
    /// BM25 relevance, higher is better (SQLite's `bm25()` negated).
    public var score: Double
    /// A stretch of the document around its first match, matched forms between the markers.
    public var snippet: String
    /// The document's word forms whose lemma matched, in order of first appearance.
    public var matchedForms: [String]
}

/// Searches a lemma index (`lexiforge index`) so that "sing" finds "sang", "sung" and "singing".
///
/// ```swift
/// let search = try LemmaSearch(path: "Artifacts/reviews-index.sqlite")
/// for hit in try search.search("sing", limit: 5) { print(hit.name, hit.snippet) }
/// ```
/// The query is tokenized as the documents were (treebank tokenizer, words only) and each word
/// lemmatized with the index's own table: a form the documents contain takes its most frequent
/// lemma there; another word is taken as a lemma when the index has it, else reduced by English
/// inflection rules (-s, -es, -ies, -ed, -ing, doubled consonants) to a lemma the index has.
/// Each lemma goes to FTS5 as a quoted string, so FTS5 syntax in the query (`AND`, `*`, `"`,
/// `NEAR`, `:`) is text, never syntax. Documents must contain every lemma (or any, with
/// `matchAll: false`), ranked by BM25.
public final class LemmaSearch: Sendable {
    public let store: TrainedStore
    private let tokenizer = Tokenizer(mode: .treebank)

    public init(store: TrainedStore) throws {
        guard store.meta[StoreSchema.MetaKey.search] != nil else {
            throw StoreError.notAStore(store.path, "it holds no search index (no `search` meta row); build one with `lexiforge index DOCS -o \(store.path)`")
        }
        self.store = store
    }

    public convenience init(path: String) throws { try self.init(store: TrainedStore(path: path)) }

    /// The lemmas a query searches for, in order, without repeats.
    public func lemmas(of query: String) throws -> [String] {
        let words = tokenizer.tokens(of: query).filter { $0.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil } }
        var out: [String] = []
        for word in words {
            let lemma = try lemma(of: word)
            if !out.contains(lemma) { out.append(lemma) }
        }
        return out
    }

    /// One query word's lemma (see the type's documentation).
    public func lemma(of word: String) throws -> String {
        let vocabulary = try store.vocabulary()
        let lower = word.lowercased()
        for form in [word, lower] {
            if let id = vocabulary.id(of: form), id >= StoreSchema.ReservedID.firstWord {
                let lemma = try store.checked { db in
                    try String.fetchOne(db, sql: "SELECT lemma FROM word_class WHERE word = ?", arguments: [id])
                }
                return lemma ?? lower
            }
        }
        if try isTerm(lower) { return lower }
        for candidate in Self.inflectionCandidates(lower) where try isTerm(candidate) { return candidate }
        return lower
    }

    /// Whether the index holds `term` (one FTS5 token).
    func isTerm(_ term: String) throws -> Bool {
        try store.checked { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM search_terms WHERE term = ?", arguments: [term]) ?? false
        }
    }

    /// Base forms an English inflected form may come from, most likely first (Morphy's
    /// detachment rules plus doubled consonants).
    public static func inflectionCandidates(_ word: String) -> [String] {
        var out: [String] = []
        func strip(_ suffix: String, _ append: String = "") {
            guard word.hasSuffix(suffix), word.count > suffix.count + 1 else { return }
            out.append(String(word.dropLast(suffix.count)) + append)
        }
        strip("ies", "y"); strip("es"); strip("s"); strip("ied", "y"); strip("ed", "e"); strip("ed"); strip("ing", "e"); strip("ing")
        strip("er"); strip("est"); strip("er", "e"); strip("est", "e")
        for suffix in ["ed", "ing", "er", "est"] where word.hasSuffix(suffix) {
            let stem = Array(word.dropLast(suffix.count))
            if stem.count >= 3, stem[stem.count - 1] == stem[stem.count - 2] { out.append(String(stem.dropLast())) }
        }
        return out
    }

    /// The FTS5 query for `lemmas`: each one a quoted string (inner quotes doubled).
    public static func matchExpression(_ lemmas: [String], matchAll: Bool) -> String {
        lemmas.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            .joined(separator: matchAll ? " AND " : " OR ")
    }

    /// The best documents for `query`, most relevant first, each with a snippet of `context` words
    /// each side of its first match (a negative `context` reads as 0).
    public func search(_ query: String, limit: Int = 10, matchAll: Bool = true,
                       markers: (String, String) = ("[", "]"), context: Int = 8) throws -> [SearchHit] {
        let lemmas = try lemmas(of: query)
        guard !lemmas.isEmpty, limit > 0 else { return [] }
        let expression = Self.matchExpression(lemmas, matchAll: matchAll)
        let wanted = Set(lemmas)
        return try store.checked { db in
            let ranked = try Row.fetchAll(db, sql: "SELECT rowid, rank FROM search_fts WHERE search_fts MATCH ? ORDER BY rank LIMIT ?",
                                          arguments: [expression, limit])
            return try ranked.map { row in
                let id = try row.integer(0, "search_fts", "rowid")
                let score = -(try row.real(1, "search_fts", "rank", finite: true))
                guard let document = try Row.fetchOne(db, sql: "SELECT name, text, lemmas FROM search_document WHERE id = ?", arguments: [id]) else {
                    throw StoreDamage("search_fts holds document \(id), which search_document does not")
                }
                let name = try document.text(0, "search_document", "name")
                let text = try document.text(1, "search_document", "text")
                let lemmaText = try document.text(2, "search_document", "lemmas")
                let (snippet, forms) = Self.snippet(text: text, lemmas: lemmaText, wanted: wanted, tokenizer: tokenizer,
                                                    markers: markers, context: context)
                return SearchHit(name: name, score: score, snippet: snippet, matchedForms: forms)
            }
        }
    }

    /// The words of `text` around the first whose lemma is wanted (`context` words each side,
    /// within its line), matched forms between `markers`; and every matched form. Works on UTF-8
    /// bytes (splitting Strings by Character cost most of a query's time).
    static func snippet(text: String, lemmas: String, wanted: Set<String>, tokenizer: Tokenizer,
                        markers: (String, String), context: Int) -> (String, [String]) {
        let wantedBytes = wanted.map { Array($0.utf8) }
        let lemmaBytes = Array(lemmas.utf8)
        var lemmaStart = 0   // where the next word's lemma entry starts in lemmaBytes
        /// Whether the next lemma entry (alternatives separated by `|`) holds a wanted lemma; advances past it.
        func nextEntryMatches() -> Bool {
            var end = lemmaStart
            while end < lemmaBytes.count && lemmaBytes[end] != 0x20 { end += 1 }
            var hit = false
            var from = lemmaStart
            while from <= end && !hit {
                var to = from
                while to < end && lemmaBytes[to] != 0x7C { to += 1 }
                let piece = lemmaBytes[from..<to]
                hit = wantedBytes.contains { $0.elementsEqual(piece) }
                from = to + 1
            }
            lemmaStart = end + 1
            return hit
        }
        var forms: [String] = []
        var snippet = ""
        var tokens: [Token] = []
        var bytes = Array(text.utf8)
        var lineStart = 0
        while lineStart <= bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            tokens.removeAll(keepingCapacity: true)
            bytes.withUnsafeMutableBufferPointer { all in
                tokenizer.tokenize(UnsafeBufferPointer(rebasing: all[lineStart..<lineEnd]), into: &tokens)
            }
            let words = tokens.filter { $0.kind == .word }
            var hits: [Bool] = []
            hits.reserveCapacity(words.count)
            for token in words {
                let hit = lemmaStart < lemmaBytes.count && nextEntryMatches()
                hits.append(hit)
                if hit {
                    let form = String(decoding: bytes[(lineStart + token.start)..<(lineStart + token.end)], as: UTF8.self)
                    if !forms.contains(form) { forms.append(form) }
                }
            }
            if snippet.isEmpty, let first = hits.firstIndex(of: true) {
                let context = max(0, context)
                let from = max(0, first - context), to = min(words.count - 1, first + context)
                var out = from > 0 ? "…" : ""
                var position = lineStart + words[from].start
                for w in from...to {
                    let start = lineStart + words[w].start, end = lineStart + words[w].end
                    out += String(decoding: bytes[position..<start], as: UTF8.self)
                    let form = String(decoding: bytes[start..<end], as: UTF8.self)
                    out += hits[w] ? markers.0 + form + markers.1 : form
                    position = end
                }
                if to < words.count - 1 { out += "…" } else { out += String(decoding: bytes[position..<lineEnd], as: UTF8.self) }
                snippet = out.trimmingCharacters(in: .whitespaces)
            }
            lineStart = lineEnd + 1
        }
        return (snippet, forms)
    }
}
