import Foundation
import LexiforgeFormat
import LexiforgePlayground
import LexiforgeReader
import LexiforgeTestSupport
import Testing

/// The playground's API without sockets: ``Playground/respond(method:path:body:)`` on stores trained
/// from the hand-written fixture (``PlaygroundFixtures``).
@Suite("playground API")
struct PlaygroundAPITests {
    let playground: Playground
    let stores: PlaygroundFixtures.Stores

    init() throws {
        playground = try PlaygroundFixtures.playground.get()
        stores = try PlaygroundFixtures.stores()
    }

    func post(_ path: String, _ object: Any) throws -> PlaygroundResponse {
        playground.respond(method: "POST", path: path, body: try Body.json(object))
    }

    func layoutKeys(store: Int = 0) throws -> [String: (x: Double, y: Double)] {
        let layout = try Body.object(playground.respond(method: "GET", path: "/api/stores/\(store)/layout", body: []))
        var keys: [String: (x: Double, y: Double)] = [:]
        for key in try #require(layout["keys"] as? [[String: Any]]) {
            keys[try #require(key["letter"] as? String)] = (try #require(key["x"] as? Double), try #require(key["y"] as? Double))
        }
        return keys
    }

    @Test("the store list names both stores, what each can do, and the limits")
    func storeList() throws {
        let response = playground.respond(method: "GET", path: "/api/stores", body: [])
        #expect(response.status == 200)
        #expect(response.contentType.hasPrefix("application/json"))
        let object = try Body.object(response)
        let list = try #require(object["stores"] as? [[String: Any]])
        #expect(list.count == 2)
        #expect(list[0]["name"] as? String == "playground.sqlite")
        #expect(list[0]["languageModel"] as? Bool == true)
        #expect(list[0]["tagger"] as? Bool == true)
        #expect(list[0]["lemmas"] as? Bool == true)
        #expect(list[0]["swipeLayouts"] as? [String] == ["qwerty"])
        #expect(list[1]["languageModel"] as? Bool == false)
        #expect(list[1]["swipeLayouts"] as? [String] == [])
        let limits = try #require(object["limits"] as? [String: Any])
        #expect(limits["maxBodyBytes"] as? Int == PlaygroundLimits().maxBodyBytes)
    }

    @Test("\"said Lord\" offers Henry first, then Fermor; a prefix is completed after its context")
    func predict() throws {
        let response = try post("/api/stores/0/predict", ["text": "said Lord", "limit": 3])
        #expect(response.status == 200, "\(response.text)")
        let object = try Body.object(response)
        #expect(object["context"] as? [String] == ["said"])
        #expect(object["prefix"] as? String == "Lord")
        #expect(object["source"] as? String == "language model")
        let next = try #require(object["next"] as? [[String: Any]]).compactMap { $0["word"] as? String }
        #expect(next.first == "Henry")
        #expect(next.contains("Fermor"))
        // The same as the reader gives a front end for the typed text.
        let predictor = try NgramPredictor(store: TrainedStore(path: stores.main))
        let input = predictor.store.typedInput("said Lord", lastWordComplete: true)
        #expect(try predictor.nextWords(after: input.context, limit: 3).map(\.word) == next)

        let completion = try Body.object(try post("/api/stores/0/predict", ["text": "said Lord He"]))
        #expect(completion["prefix"] as? String == "He")
        let words = try #require(completion["completions"] as? [[String: Any]]).compactMap { $0["word"] as? String }
        #expect(words.first == "Henry")
        #expect(try predictor.completions(of: "He", after: ["said", "Lord"], limit: 3).map(\.word) == words)
    }

    @Test("a counts-only store answers by counts")
    func predictCounts() throws {
        let object = try Body.object(try post("/api/stores/1/predict", ["text": "said Lord "]))
        #expect(object["source"] as? String == "counts")
        let next = try #require(object["next"] as? [[String: Any]])
        #expect(next.first?["word"] as? String == "Henry")
        #expect(next.first?["count"] as? Int == 3)
        #expect(next.first?["order"] as? Int == 2)
    }

    @Test("a perfect swipe of a word decodes to it, with the text before as context")
    func swipe() throws {
        let keys = try layoutKeys()
        for word in ["garden", "painter", "picture"] {
            let response = try post("/api/stores/0/swipe", ["points": PlaygroundFixtures.perfectSwipe(word, keys: keys), "text": "into the", "limit": 4])
            #expect(response.status == 200, "\(response.text)")
            let object = try Body.object(response)
            let candidates = try #require(object["candidates"] as? [[String: Any]])
            #expect(candidates.first?["word"] as? String == word, "\(word): \(response.text)")
            #expect(object["context"] as? [String] == ["into", "the"])
            #expect(candidates.count <= 4)
            // With a time per point (16 ms apart, as a browser's pointer events): the same word.
            let points = PlaygroundFixtures.perfectSwipe(word, keys: keys)
            let timed = try post("/api/stores/0/swipe", ["points": points, "times": points.indices.map { Double($0) * 16 }, "text": "into the"])
            #expect(timed.status == 200, "\(timed.text)")
            #expect((try Body.object(timed)["candidates"] as? [[String: Any]])?.first?["word"] as? String == word, "\(word): \(timed.text)")
            // At the start of a text: decoded after no words (the model's first-word case), with
            // the language model's probability on every candidate.
            let first = try post("/api/stores/0/swipe", ["points": points, "limit": 4])
            #expect(first.status == 200, "\(first.text)")
            let firstCandidates = try #require(try Body.object(first)["candidates"] as? [[String: Any]])
            #expect(firstCandidates.first?["word"] as? String == word, "\(word): \(first.text)")
            #expect(firstCandidates.allSatisfy { $0["contextLogProbability"] is Double }, "\(first.text)")
            #expect(try Body.object(first)["context"] as? [String] == [])
        }
    }

    @Test("tags and lemmas of each sentence")
    func tag() throws {
        let response = try post("/api/stores/0/tag", ["text": "I don't swim. The painter smiled."])
        #expect(response.status == 200, "\(response.text)")
        let sentences = try #require(try Body.object(response)["sentences"] as? [[[String: Any]]])
        #expect(sentences.count == 2)
        // The clitic is split as `lexiforge tag` splits it, and every token gets a tag.
        #expect(sentences[0].compactMap { $0["word"] as? String } == ["I", "do", "n't", "swim", "."])
        #expect(sentences[0].allSatisfy { ($0["tag"] as? String)?.isEmpty == false })
        #expect(sentences[0][3]["tag"] as? String == "VERB")
        // Lemmas as the store's word columns hold them.
        let store = try TrainedStore(path: stores.main)
        for token in sentences[1] {
            let word = try #require(token["word"] as? String)
            guard word != "." else { continue }
            #expect(token["lemma"] as? String == (try store.lemma(of: word)), "\(word)")
        }
    }

    @Test("the summary is the one `inspect` renders, as JSON")
    func summary() throws {
        let response = playground.respond(method: "GET", path: "/api/stores/0/summary", body: [])
        #expect(response.status == 200)
        let served = try JSONDecoder().decode(StoreSummary.self, from: Data(response.body))
        #expect(served == (try StoreSummary(store: TrainedStore(path: stores.main))))
        #expect(served.meta["model"] == "playground")
        #expect(served.hmm != nil)
        #expect(served.swipeLayouts == ["qwerty"])
        #expect(served.topContinuations.contains { $0.word == "Lord" && $0.next.first?.word == "Henry" })
        // And inspect prints the same figures.
        let inspect = try CLI.run(["inspect", stores.main])
        #expect(inspect.status == 0)
        #expect(inspect.stdoutLines.contains("vocabulary: \(served.vocabulary) words (view `word`), packed \(served.wordBlockSize) to a row in word_block and word_order"))
        #expect(inspect.stdoutLines.contains { $0.hasPrefix("  total ") && $0.hasSuffix(" \(served.totalBytes)") })
    }

    @Test("the page and the OpenAPI file are served from memory")
    func page() throws {
        for (path, type, needle) in [("/", "text/html", "<svg id=\"keyboard\""), ("/playground.js", "text/javascript", "pointermove"),
                                     ("/playground.css", "text/css", "#keyboard"), ("/openapi.yaml", "application/yaml", "/api/stores/{id}/swipe")] {
            let response = playground.respond(method: "GET", path: path, body: [])
            #expect(response.status == 200, "\(path)")
            #expect(response.contentType.hasPrefix(type), "\(path)")
            #expect(response.text.contains(needle), "\(path)")
        }
        // Nothing links outside this server (works without network access).
        let html = playground.respond(method: "GET", path: "/", body: []).text
        #expect(!html.contains("http://") && !html.contains("https://"))
    }

    /// One bad request each, and the words its answer must contain.
    static let badRequests: [(method: String, path: String, body: String?, status: Int, says: String)] = [
        ("POST", "/api/stores/0/predict", "{\"text\": ", 400, "malformed JSON: Unexpected end of file"),
        ("POST", "/api/stores/0/predict", "{\"text\" 3}", 400, "malformed JSON: Invalid value around character 8"),
        ("POST", "/api/stores/0/predict", "[1, 2]", 400, "expected an object"),
        ("POST", "/api/stores/0/predict", "{}", 400, "missing field `text`"),
        ("POST", "/api/stores/0/predict", "{\"text\": 3}", 400, "`text` has the wrong type: expected a string"),
        ("POST", "/api/stores/0/predict", "", 400, "empty request body"),
        ("POST", "/api/stores/0/predict", "{\"text\": \"a\", \"limit\": 0}", 400, "`limit` must be from 1 to 20"),
        ("POST", "/api/stores/0/predict", "{\"text\": \"\(String(repeating: "a", count: 2001))\"}", 413, "over the limit of 2000"),
        ("POST", "/api/stores/0/swipe", "{\"points\": [{\"x\": 1}]}", 400, "missing field `points[0].y`"),
        ("POST", "/api/stores/0/swipe", "{\"points\": [{\"x\": \"a\", \"y\": 1}]}", 400, "`points[0].x` has the wrong type: expected a number"),
        ("POST", "/api/stores/0/swipe", "{\"points\": [{\"x\": 1, \"y\": 1}]}", 400, "at least 2 points"),
        ("POST", "/api/stores/0/swipe", "{\"points\": [{\"x\": 1, \"y\": 1}, {\"x\": 2, \"y\": 1}], \"times\": [0]}", 400, "`times` has 1 values for 2 points"),
        ("POST", "/api/stores/0/swipe", "{\"points\": [{\"x\": 1, \"y\": 1}, {\"x\": 2, \"y\": 1}], \"times\": [5, 3]}", 400, "`times[1]` is not a finite time"),
        ("POST", "/api/stores/0/swipe", "{\"points\": [{\"x\": 1, \"y\": 1}, {\"x\": 1e300, \"y\": 1}]}", 400, "`points[1]` is outside"),
        ("POST", "/api/stores/0/swipe", "{\"points\": [" + Array(repeating: "{\"x\": 1, \"y\": 1}", count: 2001).joined(separator: ",") + "]}", 413, "2001 points, over the limit of 2000"),
        ("POST", "/api/stores/1/swipe", "{\"points\": [{\"x\": 1, \"y\": 1}, {\"x\": 2, \"y\": 1}]}", 422, "no swipe features"),
        ("GET", "/api/stores/1/layout", nil, 422, "no swipe features"),
        ("POST", "/api/stores/1/tag", "{\"text\": \"a\"}", 422, "neither a tagger nor lemmas"),
        ("POST", "/api/stores/2/predict", "{\"text\": \"a\"}", 404, "no store 2"),
        ("POST", "/api/stores/-1/predict", "{\"text\": \"a\"}", 404, "no store -1"),
        ("GET", "/api/stores/0/nothing", nil, 404, "no such endpoint"),
        ("GET", "/../../etc/passwd", nil, 404, "no such page"),
        ("GET", "/api/stores/0/../../../etc/passwd", nil, 404, "no such endpoint"),
        ("GET", "/playground.js/..", nil, 404, "no such page"),
        ("GET", "/api/stores/0/predict", nil, 405, "use POST"),
        ("POST", "/", "{}", 405, "use GET"),
    ]

    @Test("bad requests get one clear 4xx answer each", arguments: badRequests.indices)
    func badRequest(_ index: Int) throws {
        let bad = Self.badRequests[index]
        let response = playground.respond(method: bad.method, path: bad.path, body: Array((bad.body ?? "").utf8))
        #expect(response.status == bad.status, "\(bad.method) \(bad.path): \(response.text)")
        let message = try #require(try Body.object(response)["error"] as? String)
        #expect(message.contains(bad.says), "\(bad.method) \(bad.path): \(message)")
    }

    @Test("a body over the limit is refused before it is parsed")
    func bodyLimit() throws {
        let body = Array(repeating: UInt8(ascii: " "), count: playground.limits.maxBodyBytes + 1)
        let response = playground.respond(method: "POST", path: "/api/stores/0/predict", body: body)
        #expect(response.status == 413)
        #expect(response.text.contains("over the limit of \(playground.limits.maxBodyBytes)"))
    }

    @Test("random bodies and paths never crash it: each gets a 4xx")
    func randomInput() throws {
        var random = SplitMix64(seed: 21)
        let alphabet = Array("{}[]\":,0123456789.eE+-xytextpointslimit nul\\u\u{00e9}\u{1F600}".utf8)
        for i in 0..<600 {
            let length = Int(random.next() % 200)
            var body = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            if i % 3 == 0 { body = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
            let endpoint = ["predict", "swipe", "tag", "summary", "layout", "x"][i % 6]
            let response = playground.respond(method: i % 7 == 0 ? "GET" : "POST", path: "/api/stores/\(i % 3)/\(endpoint)", body: body)
            #expect(response.status < 500, "\(endpoint): \(response.text)")
            if response.status >= 400 { #expect((try? Body.object(response))?["error"] is String) }
        }
    }
}
