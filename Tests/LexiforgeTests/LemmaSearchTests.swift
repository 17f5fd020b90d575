import Foundation
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeTestSupport
import Testing

private let docs = Paths.fixture("search/docs")
private let queries = Paths.fixture("search/queries.tsv")
private let wordNetInstalled = FileManager.default.fileExists(atPath: "/usr/share/wordnet/verb.exc")

private func buildIndex(_ path: String, inputs: [String] = [docs], strict: Bool = false) throws -> SearchIndexReport {
    try SearchBuild.index(SearchIndexConfig(inputs: inputs, output: path, lemmatizer: LemmatizerSource(), strict: strict),
                          progress: StageProgress(quiet: true))
}

@Suite("Lemma search")
struct LemmaSearchTests {
    @Test("FTS5 syntax in a query is quoted text")
    func quoting() {
        #expect(LemmaSearch.matchExpression(["sing", "a\"b"], matchAll: true) == "\"sing\" AND \"a\"\"b\"")
        #expect(LemmaSearch.matchExpression(["near", "or"], matchAll: false) == "\"near\" OR \"or\"")
    }

    @Test("inflection candidates for words the documents lack")
    func candidates() {
        #expect(LemmaSearch.inflectionCandidates("sings").contains("sing"))
        #expect(LemmaSearch.inflectionCandidates("stopped").contains("stop"))
        #expect(LemmaSearch.inflectionCandidates("cities").first == "city")
    }

    @Test("index round trip: sing finds sang, sung, singing, sings and not sign; snippets mark the forms",
          .enabled(if: wordNetInstalled, "wordnet-base is not installed (make deps)"))
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        let store = folder.path + "/index.sqlite"
        let report = try buildIndex(store)
        #expect(report.documents == 7)
        let search = try LemmaSearch(path: store)
        #expect(try search.lemmas(of: "Sang") == ["sing"])
        let hits = try search.search("sing", limit: 10)
        #expect(Set(hits.map(\.name)) == ["sang.txt", "sung.txt", "singing.txt", "sings.txt"])
        let sang = try #require(hits.first { $0.name == "sang.txt" })
        #expect(sang.snippet == "She [sang] beautifully at the concert.")
        #expect(sang.matchedForms == ["sang"])
        // Snippet context: one word each side; a negative context reads as none (it trapped once).
        #expect(try search.search("sang", context: 1).first { $0.name == "sang.txt" }?.snippet == "She [sang] beautifully…")
        #expect(try search.search("sang", context: -3).first { $0.name == "sang.txt" }?.snippet == "…[sang]…")
        #expect(hits.allSatisfy { $0.score >= 0 })
        // FTS5 operators, quotes and column filters are searched as words, never run as syntax.
        for query in ["sing\" OR sign", "NEAR(sing sign)", "lemmas: sign*", "\"", "sign -sing", "^sing"] {
            _ = try search.search(query)
        }
        #expect(try search.search("sign OR sing").isEmpty)   // "or" is a word the documents lack
        #expect(try search.search("sign", limit: 10).map(\.name) == ["sign.txt"])
        #expect(try search.search("...").isEmpty)
        // A form no document has, reduced to a lemma the index holds.
        #expect(try search.lemmas(of: "geese") == ["goose"])
        #expect(try search.lemmas(of: "singer's") != [])
    }

    @Test("eval search: recall of the hand-made query set is 100%, nothing forbidden is found",
          .enabled(if: wordNetInstalled, "wordnet-base is not installed (make deps)"))
    func evaluation() throws {
        let folder = try TemporaryFolder()
        let store = folder.path + "/index.sqlite"
        _ = try buildIndex(store)
        let result = try SearchEval.run(store: store, queries: queries, passes: 2)
        #expect(result.expectedCount == 16)
        #expect(result.recall == 1)
        #expect(result.wronglyFound == 0)
        #expect(result.latencies.count == 12)
    }

    @Test("identical inputs give byte-identical indexes; empty documents warn, or fail under --strict",
          .enabled(if: wordNetInstalled, "wordnet-base is not installed (make deps)"))
    func determinismAndEmpty() throws {
        let folder = try TemporaryFolder()
        let a = folder.path + "/a.sqlite", b = folder.path + "/b.sqlite"
        _ = try buildIndex(a, inputs: [docs, Paths.fixture("search/empty.txt")])
        _ = try buildIndex(b, inputs: [docs, Paths.fixture("search/empty.txt")])
        #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
        #expect { try buildIndex(folder.path + "/c.sqlite", inputs: [docs, Paths.fixture("search/empty.txt")], strict: true) }
            throws: { "\($0)".contains("empty document") }
        // JSON Lines: bad lines are reported with file:line, all of them.
        let jsonl = folder.path + "/docs.jsonl"
        try Data("{\"id\": 1, \"text\": \"We sang.\"}\nnot json\n{\"text\": \"no id\"}\n".utf8).write(to: URL(fileURLWithPath: jsonl))
        #expect { try buildIndex(folder.path + "/d.sqlite", inputs: [jsonl]) }
            throws: { "\($0)".contains("docs.jsonl:2:") && "\($0)".contains("docs.jsonl:3:") }
        try Data("{\"id\": 1, \"text\": \"We sang.\"}\n{\"id\": \"two\", \"text\": \"They sing.\"}\n".utf8).write(to: URL(fileURLWithPath: jsonl))
        _ = try buildIndex(folder.path + "/e.sqlite", inputs: [jsonl])
        #expect(try LemmaSearch(path: folder.path + "/e.sqlite").search("singing").map(\.name).sorted() == ["1", "two"])
    }
}
