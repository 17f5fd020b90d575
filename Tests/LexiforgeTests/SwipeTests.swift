import Foundation
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeSwipe
import LexiforgeTestSupport
import Testing

/// Fixtures of Fixtures/swipe/ (see the README there).
enum SwipeFixture {
    static func path(_ name: String) -> String { Paths.fixture("swipe/" + name) }

    /// Letters of a key path on a layout.
    static func letters(_ path: [UInt8]?, _ layout: SwipeLayout = .qwerty) -> String? {
        path.map { String($0.map { layout.keys[Int($0)].letter }) }
    }

    /// A dictionary of hand-picked words and frequencies.
    static func dictionary(_ words: [(String, Int)], layout: SwipeLayout = .qwerty) -> SwipeDictionary {
        var builder = SwipeDictionary.Builder(layout: layout)
        for (i, (w, f)) in words.enumerated() { builder.add(word: w, id: Int64(i), frequency: f) }
        return builder.build()
    }

    /// Points along the perfect swipe of `word`, `perSegment` per segment.
    static func perfect(_ word: String, layout: SwipeLayout = .qwerty, perSegment: Int = 6) -> [SwipePoint] {
        let centres = layout.keyPath(of: word)!.map { layout.keys[Int($0)].centre }
        guard centres.count > 1 else { return [centres[0], SwipePoint(x: centres[0].x + 0.1, y: centres[0].y)] }
        var points: [SwipePoint] = []
        for i in 0 ..< centres.count - 1 {
            for s in 0 ..< perSegment {
                let t = Double(s) / Double(perSegment)
                points.append(SwipePoint(x: centres[i].x + t * (centres[i + 1].x - centres[i].x),
                                         y: centres[i].y + t * (centres[i + 1].y - centres[i].y)))
            }
        }
        points.append(centres.last!)
        return points
    }
}

@Suite("swipe layouts")
struct SwipeLayoutTests {
    @Test("letter mapping", arguments: [
        ("plain", "hello", "helo"),
        ("doubled letters collapse", "off", "of"),
        ("apostrophe skipped", "it's", "its"),
        ("hyphen skipped", "e-mail", "email"),
        ("acute accent to base", "café", "caf" + "e"),
        ("umlaut to base", "über", "uber"),
        ("sharp s to s", "Straße", "strase"),
        ("diaeresis in the middle", "naïve", "naive"),
        ("capitals fold", "USA", "usa"),
        ("doubled after mapping", "aä", "a"),
    ])
    func mapping(_ id: String, _ word: String, _ expected: String) {
        #expect(SwipeFixture.letters(SwipeLayout.qwerty.keyPath(of: word)) == expected, "\(id)")
    }

    @Test("words without a key path", arguments: ["MP3", "US$", "--", "'", "日本", ""])
    func noPath(_ word: String) {
        #expect(SwipeLayout.qwerty.keyPath(of: word) == nil)
    }

    @Test("QWERTZ keeps ü as its own key; AZERTY places a top left")
    func builtIns() throws {
        let qwertz = SwipeLayout.qwertz
        #expect(SwipeFixture.letters(qwertz.keyPath(of: "über"), qwertz) == "über")
        #expect(SwipeFixture.letters(qwertz.keyPath(of: "Straße"), qwertz) == "strase")
        let a = SwipeLayout.azerty.keys[Int(SwipeLayout.azerty.index(of: "a")!)]
        #expect(a.centre == SwipePoint(x: 0.5, y: 0.75))
        #expect(throws: SwipeLayoutError.unknownLayout("dvorak")) { try SwipeLayout.named("dvorak") }
    }

    @Test("row-height ratio moves rows, not columns")
    func rowHeight() throws {
        let tall = try SwipeLayout.qwerty.withRowHeightRatio(1.71)
        let z = tall.keys[Int(tall.index(of: "z")!)]
        #expect(z.centre.x == 2.0)
        #expect(abs(z.centre.y - 2.5 * 1.71) < 1e-12)
        #expect(throws: SwipeLayoutError.self) { try SwipeLayout.qwerty.withRowHeightRatio(0.1) }
    }

    @Test("custom JSON layout and its stored definition round-trip")
    func custom() throws {
        let layout = try SwipeLayout.named(SwipeFixture.path("abc-layout.json"))
        #expect(layout.name == "abc" && layout.keys.count == 26 && layout.rowHeightRatio == 1.3)
        let s = layout.keys[Int(layout.index(of: "s")!)]
        #expect(s.centre == SwipePoint(x: 1.5, y: 2.5 * 1.3))
        let back = try SwipeLayout.fromJSON(Data(layout.jsonDefinition().utf8))
        #expect(back == layout)
        #expect(throws: SwipeLayoutError.self) { try SwipeLayout.fromJSON(Data("{\"rows\": [{\"keys\": \"aa\"}]}".utf8)) }
        #expect(throws: SwipeLayoutError.self) { try SwipeLayout.fromJSON(Data("not json".utf8)) }
    }
}

@Suite("swipe features")
struct SwipeFeatureTests {
    @Test("hello: h→e→l→o, checked by hand")
    func hello() throws {
        // h (6, 2.25), e (2.5, 0.75), l (9, 2.25), o (8.5, 0.75) with rows 1.5 key widths tall.
        let f = try #require(SwipeFeatures(word: "hello", layout: .qwerty))
        #expect(SwipeFixture.letters(f.keys) == "helo")
        #expect(abs(f.length - (14.5.squareRoot() + 44.5.squareRoot() + 2.5.squareRoot())) < 1e-9)
        #expect(abs(f.secondDistance - 14.5.squareRoot()) < 1e-9)
        #expect(abs(f.startAngle * 180 / .pi - (-156.801)) < 0.01)
        #expect(f.storedLength == 1206 && f.storedSecondDistance == 38)
        #expect(abs(SwipeFeatures.startAngle(stored: f.storedStartAngle) - f.startAngle) < 2 * .pi / 512 + 1e-9)
    }

    @Test("one-key words have length 0")
    func oneKey() throws {
        let f = try #require(SwipeFeatures(word: "a", layout: .qwerty))
        #expect(f.keys.count == 1 && f.length == 0 && f.secondDistance == 0)
    }

    @Test("packed key paths round-trip", arguments: [0, 1, 2, 3, 5, 8, 13, 30])
    func pack(_ n: Int) {
        let keys = (0 ..< n).map { UInt8(($0 * 7) % 29) }
        let packed = SwipeFeatures.pack(keys[...], keyCount: 29)
        #expect(packed.count == (n * 5 + 7) / 8)
        #expect(SwipeFeatures.unpack(packed, keyCount: 29) == keys)
        #expect(SwipeFeatures.unpack(SwipeFeatures.pack(keys[...], keyCount: 40), keyCount: 40) == keys)
    }
}

@Suite("swipe decoder")
struct SwipeDecoderTests {
    static let words: [(String, Int)] = [
        ("hello", 180), ("help", 190), ("jello", 90), ("world", 185), ("word", 186), ("the", 222),
        ("to", 215), ("of", 214), ("still", 170), ("salt", 140), ("quick", 160), ("a", 200),
    ]

    @Test("perfect swipes decode to their word", arguments: ["world", "still", "salt", "quick", "the", "to"])
    func perfect(_ word: String) {
        let decoder = SwipeDecoder(dictionary: SwipeFixture.dictionary(Self.words))
        let result = decoder.decode(SwipeFixture.perfect(word))
        #expect(result.candidates.first?.word == word, "\(result.candidates)")
        #expect(result.candidates.count <= 4)
    }

    @Test("the prior decides between near paths: a perfect hello is second to the more frequent help")
    func prior() {
        // h-e-l-o and h-e-l-p end on neighbouring keys: the DTW costs differ by about 1.5, the
        // prior by 10 frequency steps (1.4 in ln p), so the two words come out close.
        let decoder = SwipeDecoder(dictionary: SwipeFixture.dictionary(Self.words))
        let words = decoder.decode(SwipeFixture.perfect("hello")).candidates.map(\.word)
        #expect(Array(words.prefix(2)).sorted() == ["hello", "help"])
        var rare = Self.words
        rare[1] = ("help", 150)
        #expect(SwipeDecoder(dictionary: SwipeFixture.dictionary(rare)).decode(SwipeFixture.perfect("hello")).candidates.first?.word == "hello")
    }

    @Test("a hand-made wobbly swipe of help beats hello; prefix cache reuses columns; hopeless words stop early")
    func handMade() {
        // h → e → l → p with points off the straight lines.
        let points = [(6.1, 2.4), (5.0, 1.9), (3.8, 1.3), (2.6, 0.8), (4.4, 1.3), (6.5, 1.7), (8.9, 2.3), (9.2, 1.6), (9.4, 0.9)]
            .map { SwipePoint(x: $0.0, y: $0.1) }
        let decoder = SwipeDecoder(dictionary: SwipeFixture.dictionary(Self.words))
        let result = decoder.decode(points)
        #expect(result.candidates.first?.word == "help", "\(result.candidates)")
        #expect(result.columnsReused > 0)
        #expect(result.wordsAbandoned == 0, "the reranker needs every shortlisted word's full cost: 64 kept, 12 words")

        // Keeping one candidate (no reranker), words whose DTW cost passes the best's stop early.
        var options = SwipeDecoderOptions()
        options.rerank = 0; options.limit = 1
        let many = SwipeGeneratorTests.words.map { ($0, 150) } + Self.words
        let decoder1 = SwipeDecoder(dictionary: SwipeFixture.dictionary(many), options: options)
        var abandoned = 0, shortlisted = 0
        for word in SwipeGeneratorTests.words {
            let single = decoder1.decode(SwipeFixture.perfect(word))
            #expect(single.candidates.map(\.word) == [word])
            abandoned += single.wordsAbandoned; shortlisted += single.shortlisted.count
        }
        #expect(abandoned > 0 && abandoned < shortlisted, "\(abandoned) of \(shortlisted)")
    }

    @Test("filters: start point, direction, end point, length")
    func filters() throws {
        let dictionary = SwipeFixture.dictionary(Self.words)
        // Thresholds as tight as the thesis's (the defaults, fitted to real swipes, are looser).
        var options = SwipeDecoderOptions()
        options.startRadius = 1.4; options.endRadius = 2.6; options.directionTolerance = 60; options.lengthA = 0.55; options.lengthB = 1.3
        let decoder = SwipeDecoder(dictionary: dictionary, options: options)
        let swipe = try #require(decoder.prepare(SwipeFixture.perfect("hello")))
        let verdicts = { (w: String) in decoder.filterVerdicts(swipe, entry: dictionary.index(of: w)!) }
        #expect(verdicts("hello") == [true, true, true, true])
        #expect(verdicts("quick")[0] == false)           // starts at q, far from h
        #expect(verdicts("jello")[0] == true)            // j neighbours h
        #expect(verdicts("world")[2] == false)           // ends at d, far from o
        #expect(verdicts("to")[3] == false)              // far shorter than the swipe
        let (kept, counts) = decoder.filter(swipe)
        #expect(kept.contains(Int32(dictionary.index(of: "hello")!)))
        #expect(counts[0] >= counts[1] && counts[1] >= counts[2] && counts[2] >= counts[3])
    }

    @Test("a tap skips the length filter's upper bound; a short stroke does not")
    func taps() throws {
        // y→o→u is 3 + 2 = 5 key widths; a touch on y that never moves can still mean "you".
        let dictionary = SwipeFixture.dictionary([("you", 230), ("yo", 120)])
        let you = try #require(dictionary.index(of: "you"))
        var decoder = SwipeDecoder(dictionary: dictionary)
        let tap = try #require(decoder.prepare(SwipeFixture.perfect("y")))    // 0.1 key widths on y
        #expect(tap.length < decoder.options.tapLength)
        #expect(decoder.filterVerdicts(tap, entry: you) == [true, true, true, true])
        #expect(decoder.decode(SwipeFixture.perfect("y")).candidates.map(\.word).contains("you"))
        // A stroke of 0.35 key widths is no tap: at most 9.6 · 0.35 + 1.2 = 4.56 < 5 key widths.
        let centre = SwipeFixture.perfect("y")[0]
        let stroke = try #require(decoder.prepare([centre, SwipePoint(x: centre.x + 0.35, y: centre.y)]))
        #expect(stroke.length >= decoder.options.tapLength)
        #expect(decoder.options.lengthB * stroke.length + decoder.options.lengthC < 5)
        #expect(decoder.filterVerdicts(stroke, entry: you)[3] == false)
        // With the bound set to 0 a tap is measured like any swipe: 9.6 · 0.1 + 1.2 = 2.16 < 5.
        decoder.options.tapLengthBound = 0
        #expect(decoder.filterVerdicts(tap, entry: you)[3] == false)
        decoder.options.tapLengthBound = 5
        #expect(decoder.filterVerdicts(tap, entry: you)[3])
    }

    @Test("fewer than two points: no candidates")
    func tooShort() {
        let decoder = SwipeDecoder(dictionary: SwipeFixture.dictionary(Self.words))
        #expect(decoder.decode([]).candidates.isEmpty)
        #expect(decoder.decode([SwipePoint(x: 1, y: 1)]).candidates.isEmpty)
        #expect(decoder.decode([SwipePoint(x: .nan, y: 1), SwipePoint(x: 2, y: 2)]).candidates.isEmpty)
    }

    @Test("case variants fold into one entry that proposes the most frequent spelling")
    func caseFolding() {
        let dictionary = SwipeFixture.dictionary([("portland", 90), ("Portland", 150), ("US", 200), ("us", 180), ("hello", 100)])
        #expect(dictionary.count == 3)
        let portland = try! #require(dictionary.index(of: "PORTLAND"))
        #expect(dictionary.words[portland] == "Portland" && dictionary.frequency[portland] == 150)
        let us = try! #require(dictionary.index(of: "us"))
        #expect(dictionary.words[us] == "US" && dictionary.frequency[us] == 200)
        let decoded = SwipeDecoder(dictionary: dictionary).decode(SwipeFixture.perfect("portland")).candidates.map(\.word)
        #expect(decoded.first == "Portland" && decoded.filter { $0.lowercased() == "portland" }.count == 1)
    }

    @Test("a user's words join the dictionary; the other entries decode as before")
    func userWords() throws {
        let words = [("hello", 120), ("help", 150), ("jello", 60), ("still", 100), ("salt", 90), ("world", 140)]
        let dictionary = SwipeFixture.dictionary(words)
        // "lexiforge" is new; "Salt" joins "salt" and, more frequent, is proposed; "MP3" has no key path.
        let added = dictionary.adding([("lexiforge", 128), ("Salt", 200), ("MP3", 200)]) { $0 == "lexiforge" ? 77 : nil }
        #expect(added.count == dictionary.count + 1)
        let lexiforge = try #require(added.index(of: "LEXIFORGE"))
        #expect(added.words[lexiforge] == "lexiforge" && added.frequency[lexiforge] == 128 && added.wordIDs[lexiforge] == 77)
        let salt = try #require(added.index(of: "salt"))
        #expect(added.words[salt] == "Salt" && added.frequency[salt] == 200)
        #expect(SwipeDecoder(dictionary: dictionary).decode(SwipeFixture.perfect("lexiforge")).candidates.first?.word != "lexiforge")
        #expect(SwipeDecoder(dictionary: added).decode(SwipeFixture.perfect("lexiforge")).candidates.first?.word == "lexiforge")
        // Entries keep their features and group order: with a word of other end keys added, the
        // same decodes for the words already there ("Salt" above changes salt's frequency, which
        // decides between "still" and "salt").
        let unrelated = dictionary.adding([("lexiforge", 128)])
        for word in ["hello", "help", "still", "salt", "world"] {
            let before = SwipeDecoder(dictionary: dictionary).decode(SwipeFixture.perfect(word)).candidates
            let after = SwipeDecoder(dictionary: unrelated).decode(SwipeFixture.perfect(word)).candidates
            #expect(before.map(\.word) == after.map(\.word) && before.map(\.score) == after.map(\.score), "\(word)")
        }
        let i = try #require(dictionary.index(of: "world")), j = try #require(added.index(of: "world"))
        #expect(Array(dictionary.path(i)) == Array(added.path(j)) && dictionary.length[i] == added.length[j])
    }

    @Test("a user's words file: words and frequencies; every bad line reported with its number")
    func userWordsFile() throws {
        let folder = try TemporaryFolder("lexiforge-swipe-user-words")
        let good = folder.file("good.txt"), bad = folder.file("bad.txt")
        try "\u{FEFF}# my words\r\nLexiforge\r\n\r\nDynegy\t200\r\n".write(toFile: good, atomically: true, encoding: .utf8)
        let words = try SwipeUserWords.read(path: good)
        #expect(words.map(\.word) == ["Lexiforge", "Dynegy"] && words.map(\.frequency) == [SwipeUserWords.defaultFrequency, 200])
        try "ok\nnew york\nbig\t256\nsmall\tmany\nfine\t0\ta\tb\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let error = try #require(throws: PipelineError.self) { try SwipeUserWords.read(path: bad) }
        #expect(error.problems.map { $0.components(separatedBy: ": ")[0] } == ["\(bad):2", "\(bad):3", "\(bad):4", "\(bad):5"], "\(error)")
        #expect(throws: PipelineError.self) { try SwipeUserWords.read(path: folder.file("absent.txt")) }
    }

    @Test("a dictionary adapted to another row height keeps paths and recomputes lengths")
    func adapted() throws {
        let dictionary = SwipeFixture.dictionary(Self.words)
        let tall = dictionary.adapted(to: try SwipeLayout.qwerty.withRowHeightRatio(1.7))
        let i = try #require(tall.index(of: "quick"))
        #expect(Array(tall.path(i)) == Array(dictionary.path(i)))
        let expected = SwipeFeatures(word: "quick", layout: try SwipeLayout.qwerty.withRowHeightRatio(1.7))!.length
        #expect(abs(Double(tall.length[i]) - expected) < 1e-4 && tall.length[i] > dictionary.length[i])
        // Every entry (a one-key word among them) reads exactly what its features measure on the
        // new geometry: the table of key pairs sums the same distances in the same order.
        for ratio in [0.6, 1.7, 2.35] {
            let layout = try SwipeLayout.qwerty.withRowHeightRatio(ratio), adapted = dictionary.adapted(to: layout)
            for e in 0 ..< adapted.count {
                let f = SwipeFeatures(keys: Array(adapted.path(e)), layout: layout)
                #expect(adapted.length[e] == Float(f.length) && adapted.startAngle[e] == Float(f.startAngle)
                        && adapted.secondDistance[e] == Float(f.secondDistance), "\(adapted.words[e]) at \(ratio)")
            }
        }
    }

    @Test("synthetic swipes of a small lexicon decode", arguments: [UInt64(3), 11])
    func synthetic(seed: UInt64) {
        let decoder = SwipeDecoder(dictionary: SwipeFixture.dictionary(Self.words))
        var generator = SwipeGenerator(layout: .qwerty, seed: seed)
        var top1 = 0, top4 = 0
        let rounds = 10
        for _ in 0 ..< rounds {
            for (word, _) in Self.words {
                let swipe = generator.swipe(keys: SwipeLayout.qwerty.keyPath(of: word)!)
                let got = decoder.decode(swipe.points).candidates.map(\.word)
                if got.first == word { top1 += 1 }
                if got.contains(word) { top4 += 1 }
            }
        }
        let total = rounds * Self.words.count
        // Drawn uniformly over deliberately confusable pairs (hello/help/jello, word/world, to/the),
        // so top-1 is lower here than on words drawn by frequency (97% on en_US).
        #expect(Double(top1) / Double(total) >= 0.8, "top-1 \(top1)/\(total)")
        #expect(Double(top4) / Double(total) >= 0.95, "top-4 \(top4)/\(total)")
    }
}

@Suite("synthetic swipes and trace files")
struct SwipeGeneratorTests {
    static let words = ["hello", "world", "still", "salt", "quick", "keyboard", "swipe", "the", "of", "typing",
                        "because", "people", "through", "would", "water", "again", "under", "never", "think", "where"]

    @Test("generator statistics match the real-swipe figures", arguments: [UInt64(1), 2, 3])
    func statistics(seed: UInt64) {
        var generator = SwipeGenerator(layout: .qwerty, seed: seed)
        var swipes: [(keys: [UInt8], points: [SwipePoint], times: [Double])] = []
        for i in 0 ..< 600 {
            let keys = SwipeLayout.qwerty.keyPath(of: Self.words[i % Self.words.count])!
            let s = generator.swipe(keys: keys)
            swipes.append((keys, s.points, s.times))
        }
        let stats = SwipeStatistics(swipes: swipes, layout: .qwerty).summaries
        let expected: [(Double, Double)] = [(1.13, 0.05), (0.28, 0.07), (0.44, 0.1), (9.8, 4), (0.1, 0.05), (60, 3)]
        for (s, (median, tolerance)) in zip(stats, expected) {
            #expect(abs(s.median - median) <= tolerance, "\(s.name): \(s.median) vs \(median)")
        }
        // These test words are longer than the average swiped word (about a second each).
        #expect((0.5 ... 2.0).contains(stats[6].median), "duration \(stats[6].median)")
        // One slowdown per inner key, as real swipes have (none without the generator's dwell).
        #expect(stats[7].name == "slowdowns per inner key" && (0.5 ... 1.5).contains(stats[7].median), "\(stats[7])")
        // The keys pass close by, in order (real swipes: 0.26 kw median, 0.11-0.79).
        #expect(stats[9].name == "keys matched in order, rms (kw)" && (0.2 ... 0.5).contains(stats[9].median), "\(stats[9])")
    }

    @Test("the per-swipe factor on inner offsets makes some swipes careful and some sloppy")
    func perSwipeCare() {
        func spread(_ sigma: Double) -> Double {
            var parameters = SwipeGenerator.Parameters()
            parameters.innerSwipeSigma = sigma
            var generator = SwipeGenerator(layout: .qwerty, seed: 7, parameters: parameters)
            let swipes = (0 ..< 400).map { i -> (keys: [UInt8], points: [SwipePoint], times: [Double]) in
                let keys = SwipeLayout.qwerty.keyPath(of: Self.words[i % Self.words.count])!
                let s = generator.swipe(keys: keys)
                return (keys, s.points, s.times)
            }
            let match = SwipeStatistics(swipes: swipes, layout: .qwerty).summaries[9]
            return match.p95 / match.p5
        }
        #expect(spread(1.2) > 1.2 * spread(0))
    }

    @Test("the same seed gives the same swipe")
    func seeded() {
        var a = SwipeGenerator(layout: .qwerty, seed: 42), b = SwipeGenerator(layout: .qwerty, seed: 42)
        let keys = SwipeLayout.qwerty.keyPath(of: "hello")!
        #expect(a.swipe(keys: keys).points == b.swipe(keys: keys).points)
    }

    @Test("trace lines round-trip through pixels")
    func roundTrip() throws {
        var generator = SwipeGenerator(layout: .qwerty, seed: 5)
        let s = generator.swipe(keys: SwipeLayout.qwerty.keyPath(of: "world")!)
        let line = SwipeTraceWriter.line(word: "world", layout: .qwerty, points: s.points, times: s.times)
        let trace = try SwipeTraceReader.parse(line, line: 1, layout: .qwerty)
        #expect(trace.word == "world" && trace.points.count == s.points.count)
        for (a, b) in zip(trace.points, s.points) { #expect(a.distance(to: b) < 0.01) }
    }

    @Test("a trace's keys are fitted in letter order, whatever order the JSON object gives them")
    func keyOrder() throws {
        // The pixel-to-layout fit sums over the keys; in a dictionary's order those sums (and every
        // score after them) changed in their last bits from process to process.
        let line = SwipeTraceWriter.line(word: "hi", layout: .qwerty, points: [SwipePoint(x: 5.5, y: 1.5), SwipePoint(x: 7.5, y: 0.5)], times: [0, 80])
        let keys = try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["keys"] as? [String: Any])
        let (centres, malformed) = SwipeTraceReader.keyCentres(keys, layout: .qwerty)
        #expect(malformed == nil)
        #expect(centres.map(\.letter) == keys.keys.sorted())
        #expect(centres.count == 26)
        var broken = keys
        broken["k"] = [1, 2]
        #expect(SwipeTraceReader.keyCentres(broken, layout: .qwerty).malformed == "k")
    }

    @Test("bad trace lines: messages with line numbers or a defined answer")
    func badInput() throws {
        let (traces, errors) = try SwipeTraceReader.read(path: SwipeFixture.path("bad-traces.jsonl"), layout: .qwerty)
        #expect(errors.map(\.line) == [2, 5])
        #expect(errors[0].description.contains("bad-traces.jsonl:2: malformed JSON"))
        #expect(errors[1].reason.contains("missing \"keys\""))
        #expect(traces.map(\.line) == [1, 3, 4])
        let nearest = { (p: SwipePoint) in SwipeLayout.qwerty.keys.min { $0.centre.distance(to: p) < $1.centre.distance(to: p) }!.letter }
        #expect(traces[0].points.map(nearest) == ["t", "o"])
        #expect(traces[1].points.count == 1)
        let decoder = SwipeDecoder(dictionary: SwipeFixture.dictionary(SwipeDecoderTests.words))
        #expect(decoder.decode(traces[1].points).candidates.isEmpty)
        #expect(traces[2].points.count == 2)
        #expect(traces[2].warnings.count == 2)
        #expect(throws: SwipeTraceError.self) { try SwipeTraceReader.read(path: "/nonexistent.jsonl", layout: .qwerty) }
    }
}

@Suite("swipe features in a store")
struct SwipeStoreTests {
    /// A store of the wordlist `fixture` with qwerty features, in `folder`.
    static func store(_ fixture: String, in folder: TemporaryFolder) throws -> String {
        let store = folder.file("tiny.sqlite")
        _ = try WordlistImport.run(WordlistImportConfig(inputs: [fixture], output: store), progress: StageProgress(quiet: true))
        _ = try SwipeFeatureBuild.run(storePath: store, layout: .qwerty)
        return store
    }

    @Test("features round-trip through the store; words without a path are skipped")
    func roundTrip() throws {
        let folder = try TemporaryFolder("lexiforge-swipe")
        let store = folder.file("tiny.sqlite")
        _ = try WordlistImport.run(WordlistImportConfig(inputs: [SwipeFixture.path("tiny.combined")], output: store),
                                   progress: StageProgress(quiet: true))
        let report = try SwipeFeatureBuild.run(storePath: store, layout: .qwerty)
        #expect(report.words == 15 && report.skipped == 1 && report.skippedExamples == ["MP3"])
        // Again: replaces, does not duplicate.
        _ = try SwipeFeatureBuild.run(storePath: store, layout: .qwerty)
        let opened = try TrainedStore(path: store)
        #expect(try opened.swipeLayouts() == ["qwerty"])
        let dictionary = try opened.swipeDictionary(layout: "qwerty")
        #expect(dictionary.count == 15)
        for word in ["hello", "still", "café", "it's", "off", "of", "to", "quick"] {
            let i = try #require(dictionary.index(of: word))
            let f = SwipeFeatures(word: word, layout: .qwerty)!
            #expect(Array(dictionary.path(i)) == f.keys, "\(word)")
        }
        let decoder = SwipeDecoder(dictionary: dictionary)
        #expect(decoder.decode(SwipeFixture.perfect("still")).candidates.first?.word == "still")
        #expect(throws: SwipeStoreError.self) { try opened.swipeDictionary(layout: "azerty") }
    }

    @Test("the store's possibly_offensive words are flagged, not_a_word ones left out")
    func offensiveFlags() throws {
        // Fixtures/wordlist/tiny.combined: "thug" possibly_offensive=true, "thx" not_a_word=true.
        let folder = try TemporaryFolder("lexiforge-swipe-flags")
        let store = try Self.store(Paths.fixture("wordlist/tiny.combined"), in: folder)
        let dictionary = try TrainedStore(path: store).swipeDictionary(layout: "qwerty")
        let thug = try #require(dictionary.index(of: "thug")), the = try #require(dictionary.index(of: "the"))
        #expect(dictionary.possiblyOffensive[thug] && !dictionary.possiblyOffensive[the])
        #expect(dictionary.index(of: "thx") == nil)
        #expect(dictionary.possiblyOffensive.filter { $0 }.count == 1)
    }

    @Test("eval swipe counts the swipes that proposed a marked word; blocked, none")
    func offensiveReport() throws {
        let folder = try TemporaryFolder("lexiforge-swipe-flags-eval")
        let store = try Self.store(Paths.fixture("wordlist/tiny.combined"), in: folder)
        // Two perfect swipes of "thug" (marked), the first labelled "thud" (no such word here): that
        // one proposes a marked word that is not the swiped one, first.
        let traces = folder.file("swipes.jsonl")
        let points = SwipeFixture.perfect("thug")
        let lines = ["thud", "thug"].map { word in
            SwipeTraceWriter.line(word: word, layout: .qwerty, points: points, times: points.indices.map { Double($0) * 20 })
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: traces, atomically: true, encoding: .utf8)
        let allowed = try SwipeEval.run(storePath: store, tracesPath: traces, layout: nil, options: SwipeDecoderOptions())[0]
        #expect(allowed.marksOffensive && allowed.offensiveShown == 1 && allowed.offensiveFirst == 1 && allowed.top1InDictionary == 1,
                "\(allowed.render())")
        #expect(allowed.render().contains("possibly_offensive (not the swiped one) among the top 4: 50.00% of swipes, first in 50.00%"))
        var blocking = SwipeDecoderOptions()
        blocking.allowOffensive = false
        let blocked = try SwipeEval.run(storePath: store, tracesPath: traces, layout: nil, options: blocking)[0]
        #expect(blocked.offensiveShown == 0 && blocked.top4 == 0 && blocked.inDictionary == 1, "\(blocked.render())")
    }

    @Test("eval swipe with a user's words: their swipes are counted apart from the store's words")
    func userWordsReport() throws {
        let folder = try TemporaryFolder("lexiforge-swipe-user-eval")
        let store = try Self.store(Paths.fixture("wordlist/tiny.combined"), in: folder)
        let traces = folder.file("swipes.jsonl"), user = folder.file("user.txt")
        let lines = ["quiz", "the"].map { word in
            let points = SwipeFixture.perfect(word)
            return SwipeTraceWriter.line(word: word, layout: .qwerty, points: points, times: points.indices.map { Double($0) * 20 })
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: traces, atomically: true, encoding: .utf8)
        try "quiz\nthe\n".write(toFile: user, atomically: true, encoding: .utf8)   // "the" is the store's already
        let without = try SwipeEval.run(storePath: store, tracesPath: traces, layout: nil, options: SwipeDecoderOptions())[0]
        #expect(without.top1 == 1 && without.inDictionary == 1 && !without.addsUserWords)
        let with = try SwipeEval.run(storePath: store, tracesPath: traces, layout: nil, options: SwipeDecoderOptions(),
                                     userWords: try SwipeUserWords.read(path: user))[0]
        #expect(with.top1 == 2 && with.inDictionary == 1 && with.userWords == 1 && with.top1UserWords == 1, "\(with.render())")
        #expect(with.render().contains("word among the user's words only (1): top-1 100.00%"))
    }

    /// The load reads the rows with raw SQLite calls (no `Row` per word); each damage must still
    /// be an error naming the file, the column and what is wrong, never a crash or a decoder
    /// indexing past the layout. Fixture: tiny.combined's store as in `roundTrip`, damaged with
    /// plain SQL (checks off, as a hand edit would be).
    @Test("damaged swipe features give an error naming the file and what is wrong", arguments: [
        ("UPDATE swipe_feature SET first_key = 'x'", "`swipe_feature.first_key` holds text \"x\" where an integer belongs"),
        ("UPDATE swipe_feature SET length = -3", "`swipe_feature.length` holds -3, outside 0...2147483647"),
        ("UPDATE swipe_feature SET start_angle = 500", "`swipe_feature.start_angle` holds 500, outside -128...127"),
        ("UPDATE swipe_feature SET second_distance = 1.5", "`swipe_feature.second_distance` holds 1.5 where an integer belongs"),
        ("UPDATE swipe_feature SET path = 42 WHERE path IS NOT NULL", "`swipe_feature.path` holds 42 where a blob belongs"),
        ("UPDATE swipe_feature SET word_id = 99999 + word_id", "names a key or word the store does not have"),
        ("UPDATE swipe_feature SET last_key = 200", "names a key or word the store does not have"),
        // 0x1E: a first inner key of 30, past qwerty's 26.
        ("UPDATE swipe_feature SET path = X'1E' WHERE path IS NOT NULL", "names a key or word the store does not have"),
    ])
    func damaged(_ damage: (sql: String, message: String)) throws {
        let folder = try TemporaryFolder("lexiforge-swipe")
        let store = try Self.store(SwipeFixture.path("tiny.combined"), in: folder)
        let copy = try ClassifyTests.damagedCopy(of: store, in: folder, damage.sql)
        let error = try #require(throws: (any Error).self) { try TrainedStore(path: copy).swipeDictionary(layout: "qwerty") }
        #expect("\(error)".contains(copy) && "\(error)".contains(damage.message), "\(error)")
    }
}

@Suite("swipe tune")
struct SwipeTuneTests {
    @Test("swipe tune decodes after each swipe's words, or without them (--no-context): its dump says which")
    func context() throws {
        // The tiny corpus of SwipeContextTests with swipe features; 60 synthetic swipes of its
        // words, each after "we sat" (its sentence "we_sat_WORD"), of 6 made-up users.
        let folder = try TemporaryFolder("lexiforge-swipe-tune")
        let store = try SwipeContextTests.store(in: folder)
        _ = try SwipeFeatureBuild.run(storePath: store, layout: .qwerty)
        let words = Array(repeating: ["on", "the", "bus", "in", "city", "house", "table", "chair", "wall", "box"], count: 6).flatMap { $0 }
        let traces = try Self.traceFile(in: folder, words: words, seed: 4) { i, word in ["user": "user\(i % 6)", "sentence": "we_sat_" + word] }
        #expect(try String(contentsOfFile: traces, encoding: .utf8).split(separator: "\n").count == 60)
        func tune(context: Bool) throws -> (report: String, rows: [[String: Double]]) {
            var config = SwipeTune.Config(storePath: store, tracesPath: traces)
            config.folds = 2; config.wideShortlist = 10
            config.dumpPath = folder.file("dump-\(context).tsv")
            config.useContext = context
            let report = try SwipeTune.run(config) { _ in }
            let text = try String(contentsOfFile: folder.file("dump-\(context).tsv"), encoding: .utf8)
            let table = text.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
            let header = try #require(table.first)
            return (report, table.dropFirst().map { row in Dictionary(uniqueKeysWithValues: zip(header, row.map { Double($0) ?? .nan })) })
        }
        let with = try tune(context: true), without = try tune(context: false)
        #expect(with.rows.count >= 60 && without.rows.count >= 60)
        // With the words before it, every swipe's context reads like a sentence and its words have
        // p(word | context); without, neither.
        #expect(with.rows.allSatisfy { $0["fit"]! < 0 } && with.rows.contains { $0["lm"]! < 0 })
        #expect(without.rows.allSatisfy { $0["fit"]! == 0 && $0["lm"]! == 0 })
        #expect(with.report.contains("; context top-1") && with.report.contains("; context: "))
        #expect(!without.report.contains("; context top-1") && !without.report.contains("; context: "))
        #expect(without.report.contains("no context top-1"))
    }

    /// A trace file (traces.jsonl in `folder`) of synthetic swipes of `words`, each line with the
    /// fields `annotate(index, word)` gives (say "user" and "sentence").
    static func traceFile(in folder: TemporaryFolder, words: [String], seed: UInt64 = 1,
                          annotate: (Int, String) -> [String: String]) throws -> String {
        var generate = SwipeGenerate.Config(storePath: nil, layout: .qwerty)
        generate.words = words
        generate.seed = seed
        let path = folder.file("traces.jsonl")
        let lines = try SwipeGenerate.run(generate).lines.enumerated().map { i, line in
            var trace = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            for (key, value) in annotate(i, trace["word"] as? String ?? "") { trace[key] = value }
            return String(decoding: try JSONSerialization.data(withJSONObject: trace), as: UTF8.self)
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

@Suite("swipe on ../shared/data", .enabled(if: WordlistFixtureSwipe.available, "../shared/data/wordlists/en_US_wordlist.combined.gz is absent"))
struct SwipeIntegrationTests {
    @Test("en_US: every word but a handful has features; synthetic swipes decode")
    func enUS() throws {
        let folder = try TemporaryFolder("lexiforge-swipe-en")
        let store = folder.file("en_US.sqlite")
        _ = try WordlistImport.run(WordlistImportConfig(inputs: [WordlistFixtureSwipe.list], output: store), progress: StageProgress(quiet: true))
        let report = try SwipeFeatureBuild.run(storePath: store, layout: .qwerty)
        #expect(report.words + report.skipped == 160_715 && report.skipped < 20)
        #expect(report.bytesAfter - report.bytesBefore <= 4 * 1_048_576)
        var config = SwipeGenerate.Config(storePath: store, layout: .qwerty)
        config.count = 100
        config.seed = 9
        let (lines, _, _) = try SwipeGenerate.run(config)
        let traces = folder.file("t.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: traces, atomically: true, encoding: .utf8)
        let eval = try SwipeEval.run(storePath: store, tracesPath: traces, layout: nil, options: SwipeDecoderOptions())[0]
        #expect(eval.swipes == 100 && eval.top4 >= 90)
    }
}

@Suite("swipe on real swipes (../shared/data/swipe)", .enabled(if: WordlistFixtureSwipe.available && WordlistFixtureSwipe.realAvailable,
                                                              "../shared/data/swipe/hws-dev-20000.jsonl.gz or the en_US wordlist is absent"))
struct SwipeRealTests {
    @Test("real swipes of people decode; the filters keep the word; folds never split a user")
    func real() throws {
        let folder = try TemporaryFolder("lexiforge-swipe-real")
        let store = folder.file("en_US.sqlite")
        _ = try WordlistImport.run(WordlistImportConfig(inputs: [WordlistFixtureSwipe.list], output: store), progress: StageProgress(quiet: true))
        _ = try SwipeFeatureBuild.run(storePath: store, layout: .qwerty)
        let all = try SwipeTraceReader.read(path: WordlistFixtureSwipe.real, layout: .qwerty)
        #expect(all.errors.isEmpty && all.traces.count == 20_000)
        #expect(all.traces.allSatisfy { $0.user != nil && $0.context != nil })
        // Devices differ (landscape keyboards too); most rows are about 1.58 key widths tall.
        let ratios = all.traces.map(\.rowHeightRatio).sorted()
        #expect((1.5 ... 1.65).contains(ratios[ratios.count / 2]) && ratios.first! > 0.5 && ratios.last! < 3)
        var users: [String: Int] = [:]
        for t in all.traces { let f = SwipeEval.fold(of: t.user!, folds: 5); #expect(users[t.user!, default: f] == f); users[t.user!] = f }
        // One fold of 50 (about 400 swipes of 17 people), decoded as `eval swipe` does.
        let session = try SwipeEval.Session(storePath: store, layout: nil, options: SwipeDecoderOptions())
        var r = SwipeEval.Report()
        for t in all.traces where SwipeEval.fold(of: t.user!, folds: 50) == 0 { try SwipeEval.evaluate(t, session: session, into: &r) }
        #expect(r.swipes > 200 && r.inDictionary > 0)
        // Without a language model: the context-free figures (by-user CV on the whole set: README, Swipe).
        #expect(Double(r.top1InDictionary) / Double(r.inDictionary) >= 0.70, "\(r.render(listMisses: 0))")
        #expect(Double(r.top4InDictionary) / Double(r.inDictionary) >= 0.82, "\(r.render(listMisses: 0))")
        #expect(Double(r.allFiltersKept) / Double(r.filterTested) >= 0.97, "\(r.render(listMisses: 0))")
        withExtendedLifetime(folder) {}   // the store lives in it until the end
    }
}

enum WordlistFixtureSwipe {
    static let list = Paths.sharedData.appendingPathComponent("wordlists/en_US_wordlist.combined.gz").path
    static var available: Bool { FileManager.default.fileExists(atPath: list) }
    static let real = Paths.sharedData.appendingPathComponent("swipe/hws-dev-20000.jsonl.gz").path
    static var realAvailable: Bool { FileManager.default.fileExists(atPath: real) }
}

@Suite("swipe with sentence context")
struct SwipeContextTests {
    /// A tiny corpus where "on" follows "sat" and "in" follows "live" (hand-written for this test).
    static let corpus = """
        We sat on the bus. They sat on the wall. I sat on a chair. She sat on the step.
        We live in the city. They live in a house. I live in the north. You live in town.
        It is in the box. It is on the table.
        """

    /// A trigram store with a language model of `text` (by default ``corpus``, lowercased).
    static func store(in folder: TemporaryFolder, text: String = corpus, lowercase: Bool = true) throws -> String {
        let file = folder.file("corpus.txt"), output = folder.file("lm.sqlite")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        var config = NgramBuildConfig(inputs: [file], output: output)
        config.order = 3
        config.text.lowercase = lowercase
        config.languageModel = true
        _ = try NgramBuild.run(config, progress: StageProgress(quiet: true))
        return output
    }

    @Test("the context distribution agrees with probability(of:after:), unknown words back off")
    func distribution() throws {
        let folder = try TemporaryFolder("lexiforge-swipe-context")
        let predictor = try NgramPredictor(store: TrainedStore(path: try Self.store(in: folder)))
        // Only unknown words before: the start of a sentence, as nextWords(after:) ranks.
        for (context, equivalent) in [(["sat"], ["sat"]), (["we", "live"], ["we", "live"]), (["Sat"], ["sat"]), (["zebra"], []),
                                      (["we", "zebra"], ["we", "zebra"]), ([], [])] {
            let d = try predictor.distribution(after: context)
            for word in ["on", "in", "the", "bus", "city"] {
                let expected = try predictor.probability(of: word, after: equivalent, sentenceStart: equivalent.isEmpty)
                let id = try #require(predictor.id(of: word))
                #expect(abs(pow(10, d.log10Probability(of: Int64(id))) - expected) < 1e-3 * expected, "\(word) after \(context)")
            }
            // The decoder's bounds: the most any word of the vocabulary gets, and the most a word
            // no level continues gets (ids outside the vocabulary read as <unk>).
            for id in Int64(-1) ... Int64(predictor.words.count) {
                let lp = d.log10Probability(of: id)
                if id >= 0 && id < predictor.words.count && predictor.suggestible[Int(id)] {
                    #expect(lp <= d.maximumLog10Probability, "id \(id) after \(context)")
                }
                if !d.isContinued(id: id) { #expect(lp <= d.maximumUncontinuedLog10Probability, "id \(id) after \(context)") }
            }
            // After "we", "live" the model continues with a few words far likelier than any other.
            if context == ["we", "live"] { #expect(d.maximumUncontinuedLog10Probability < d.maximumLog10Probability - 0.5) }
        }
    }

    @Test("between `in` and `on`, the words before decide")
    func decides() throws {
        let folder = try TemporaryFolder("lexiforge-swipe-context-decode")
        let predictor = try NgramPredictor(store: TrainedStore(path: try Self.store(in: folder)))
        var builder = SwipeDictionary.Builder(layout: .qwerty)
        for word in ["in", "on", "the", "bus"] { builder.add(word: word, id: Int64(predictor.id(of: word)!), frequency: 150) }
        var options = SwipeDecoderOptions()
        options.contextWeight = 3
        let decoder = SwipeDecoder(dictionary: builder.build(), options: options)
        // From between i and o straight down to n: both words fit the shape about as well.
        let points = (0 ... 10).map { SwipePoint(x: 8.0 - 0.1 * Double($0), y: 0.75 + 0.3 * Double($0)) }
        let afterSat = decoder.decode(points, context: try predictor.distribution(after: ["we", "sat"])).candidates.map(\.word)
        let afterLive = decoder.decode(points, context: try predictor.distribution(after: ["we", "live"])).candidates.map(\.word)
        #expect(afterSat.first == "on", "\(afterSat)")
        #expect(afterLive.first == "in", "\(afterLive)")
        let withContext = decoder.decode(points, context: try predictor.distribution(after: ["we", "sat"])).candidates[0]
        #expect(withContext.contextLogProbability != nil)
        #expect(decoder.decode(points).candidates[0].contextLogProbability == nil)
    }

    @Test("words marked possibly offensive are proposed only when allowed, with a context and without")
    func offensive() throws {
        let folder = try TemporaryFolder("lexiforge-swipe-offensive")
        let predictor = try NgramPredictor(store: TrainedStore(path: try Self.store(in: folder)))
        var builder = SwipeDictionary.Builder(layout: .qwerty)
        // "bus" is marked here (no list marks it): the corpus knows it after "the".
        for (word, marked) in [("bus", true), ("bud", false), ("bust", false), ("the", false), ("on", false)] {
            builder.add(word: word, id: Int64(predictor.id(of: word) ?? 0), frequency: 150, possiblyOffensive: marked)
        }
        // Case variants: the entry is marked as the spelling it proposes is.
        builder.add(word: "john", id: 0, frequency: 120, possiblyOffensive: true)
        builder.add(word: "John", id: 0, frequency: 180)
        let dictionary = builder.build()
        var blocking = SwipeDecoderOptions()
        blocking.allowOffensive = false
        for context in [nil, try predictor.distribution(after: ["we", "sat", "on", "the"])] {
            let allowed = SwipeDecoder(dictionary: dictionary).decode(SwipeFixture.perfect("bus"), context: context).candidates.map(\.word)
            let blocked = SwipeDecoder(dictionary: dictionary, options: blocking).decode(SwipeFixture.perfect("bus"), context: context)
                .candidates.map(\.word)
            #expect(allowed.first == "bus", "\(allowed)")
            #expect(!blocked.contains("bus") && !blocked.isEmpty, "\(blocked)")
        }
        let john = try #require(dictionary.index(of: "john"))
        #expect(dictionary.words[john] == "John" && !dictionary.possiblyOffensive[john])
        #expect(SwipeDecoder(dictionary: dictionary, options: blocking).decode(SwipeFixture.perfect("john")).candidates.first?.word == "John")
    }

    /// A store of a hand-written corpus where "I'm", "It's", "What's" and "I'll" open sentences,
    /// "its" follows a verb and "ill" follows "am"; case kept, as in the en_US-keyboard store.
    static func committedStore(in folder: TemporaryFolder) throws -> String {
        try store(in: folder, text: """
            I'm going home. I'm going to class. I'm here. What's up? What's that? I'll call. I'll go.
            It's late. It's cold. The dog wagged its tail. The cat licked its paw. I am ill today.
            """, lowercase: false)
    }

    @Test("the words before a swipe are spelled as a keyboard commits them: im → I'm, its by what comes before")
    func committedSpelling() throws {
        let folder = try TemporaryFolder("lexiforge-swipe-committed")
        let model = try NgramPredictor(store: TrainedStore(path: try Self.committedStore(in: folder)))
        var builder = SwipeDictionary.Builder(layout: .qwerty)
        // "im" and "whats" are not dictionary words; "its" and "ill" are, beside "it's" and "I'll".
        for word in ["I'm", "going", "what's", "up", "its", "it's", "ill", "I'll", "am", "I", "tail", "wagged"] {
            builder.add(word: word, id: Int64(try #require(model.id(of: word) ?? model.id(of: word.capitalized))), frequency: 150)
        }
        let spelling = SwipeCommittedSpelling(dictionary: builder.build())
        #expect(try spelling.spell(["im", "going"], model: model) == ["I'm", "going"])
        #expect(try spelling.spell(["whats", "up"], model: model) == ["what's", "up"])
        // The model decides between two dictionary words of the same letters.
        #expect(try spelling.spell(["its"], model: model) == ["it's"])
        #expect(try spelling.spell(["wagged", "its"], model: model) == ["wagged", "its"])
        #expect(try spelling.spell(["ill"], model: model) == ["I'll"])
        #expect(try spelling.spell(["i", "am", "ill"], model: model) == ["i", "am", "ill"])
        // Words already spelled with an apostrophe, words without one in the dictionary and
        // unknown words stay as they are.
        #expect(try spelling.spell(["It's", "going", "zebra", ""], model: model) == ["It's", "going", "zebra", ""])
        #expect(try spelling.spell([], model: model) == [])
        #expect(SwipeCommittedSpelling.letters("I’M") == "im")
    }

    @Test("the evaluation session (eval swipe, swipe tune) spells a prompt's words as committed: im_going_home → I'm going")
    func evaluationSpellsPrompts() throws {
        let folder = try TemporaryFolder("lexiforge-swipe-committed-eval")
        let store = try Self.committedStore(in: folder)
        _ = try SwipeFeatureBuild.run(storePath: store, layout: .qwerty)
        // Synthetic swipes of "home", "tail" and "home" (the trace format needs key rectangles),
        // the first two with a prompt.
        let sentences = ["im_going_home", "the_dog_wagged_its_tail"]
        let traces = try SwipeTuneTests.traceFile(in: folder, words: ["home", "tail", "home"]) { i, _ in
            i < sentences.count ? ["sentence": sentences[i]] : [:]
        }
        for useContext in [true, false] {
            let session = try SwipeEval.Session(storePath: store, layout: nil, options: SwipeDecoderOptions(), useContext: useContext)
            let (read, errors) = try SwipeTraceReader.read(path: traces, layout: session.base.layout)
            #expect(errors.isEmpty && read.count == 3)
            #expect(read.map(\.context) == [["im", "going"], ["the", "dog", "wagged", "its"], nil])
            // Without context the words still tell which swipes come after a sentence.
            #expect(try session.committed(read).map(\.context) == [["I'm", "going"], ["the", "dog", "wagged", "its"], nil])
        }
    }

    @Test("decoding after words computes the context and its fit, with or without a gate",
          arguments: [["we", "sat"], ["zebra", "the"], []])
    func decodesAfterWords(before: [String]) throws {
        let folder = try TemporaryFolder("lexiforge-swipe-context-after")
        let predictor = try NgramPredictor(store: TrainedStore(path: try Self.store(in: folder)))
        var builder = SwipeDictionary.Builder(layout: .qwerty)
        for word in ["in", "on", "the", "bus", "Bus", "ON"] { builder.add(word: word, id: Int64(predictor.id(of: word.lowercased())!), frequency: 150) }
        let points = (0 ... 10).map { SwipePoint(x: 8.0 - 0.1 * Double($0), y: 0.75 + 0.3 * Double($0)) }
        for gate in [-4.0, nil] {
            var options = SwipeDecoderOptions()
            options.contextGate = gate
            let decoder = SwipeDecoder(dictionary: builder.build(), options: options)
            let fit = try predictor.contextFit(of: before)
            #expect((fit == nil) == before.isEmpty)
            let expected = decoder.decode(points, context: try predictor.distribution(after: before), contextFit: fit)
            let decoded = try decoder.decode(points, after: before, model: predictor)
            #expect(decoded.candidates == expected.candidates && !decoded.candidates.isEmpty)
            #expect(decoded.candidates.allSatisfy { $0.contextLogProbability != nil })
            #expect(decoded.contextFit == fit && expected.contextFit == fit)
            // Without a fit the context rerankers read "no word before": after words, that is
            // another reranking (scores differ), which `eval swipe` no longer gives without a gate.
            if !before.isEmpty {
                let unfitted = decoder.decode(points, context: try predictor.distribution(after: before), contextFit: nil)
                #expect(unfitted.candidates.map(\.score) != decoded.candidates.map(\.score))
            }
        }
    }

    @Test("the cheap stage's bounds never drop a word the shortlist would keep", arguments: [false, true], [false, true])
    func boundsAreExact(withContext: Bool, ownWeights: Bool) throws {
        // 3,000 made-up words of 2-5 letters with frequencies drawn from 120-160 (many ties, so
        // many words share each frequency bucket); a fifth are "on" to the model, the word it
        // expects after "we sat" (the context's maximum), the others words it expects less.
        let folder = try TemporaryFolder("lexiforge-swipe-bounds")
        let predictor = try NgramPredictor(store: TrainedStore(path: try Self.store(in: folder)))
        let context = withContext ? try predictor.distribution(after: ["we", "sat"]) : nil
        var state: UInt64 = 2026
        func next(_ n: Int) -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) % n }
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var builder = SwipeDictionary.Builder(layout: .qwerty)
        let ids = try ["on", "the", "a", "in", "bus"].map { try #require(predictor.id(of: $0)) }
        var made: [String] = []
        for i in 0 ..< 3_000 {
            let word = String((0 ..< 2 + next(4)).map { _ in letters[next(26)] })
            made.append(word)
            builder.add(word: word, id: Int64(ids[i % ids.count]), frequency: 120 + next(41))
        }
        let dictionary = builder.build()
        // Channels weighed lightly, so many words score close to the shortlist's floor; the
        // location weighed heavily, so the location channel stops words part-way; and the shape
        // weighed negatively, so that no channel bound may hold. The linear score's weights, or
        // the shortlist's own (`shortlistSelection`), unlike them.
        for (location, shape) in [(0.05, 1.0), (2.0, 1.0), (2.0, -4.0)] {
            var wide = SwipeDecoderOptions()
            if ownWeights {
                wide.shortlistSelection = .init(location: location, shape: shape, cost: 40, start: 20, end: 1, length: 3, miss: 4.5,
                                                frequency: 1.5, contextFrequency: 0.3, context: 2, contextLow: 0.4)
            } else {
                wide.shortlistSelection = nil
                wide.locationWeight = location; wide.shapeWeight = shape
            }
            var narrow = wide
            wide.shortlist = 100_000
            narrow.shortlist = 7
            var generator = SwipeGenerator(layout: .qwerty, seed: 5)
            var compared = 0
            for word in made.prefix(100) {
                let points = generator.swipe(keys: SwipeLayout.qwerty.keyPath(of: word)!).points
                let all = SwipeDecoder(dictionary: dictionary, options: wide).decode(points, context: context)
                let pruned = SwipeDecoder(dictionary: dictionary, options: narrow).decode(points, context: context)
                // The wide run scores every word that passes the filters; the narrow one must keep
                // exactly its best 7, in the same order, whatever it skipped.
                #expect(pruned.shortlisted == Array(all.shortlisted.prefix(7)), "\(word), location \(location), shape \(shape)")
                if all.shortlisted.count > 2 * 7 { compared += 1 }
            }
            #expect(compared >= 90)   // the bounds had words to skip in most swipes
        }
    }

    @Test("the location channel stops drawing a word once its distance so far reaches the bound, and no sooner")
    func locationAbandons() {
        var options = SwipeDecoderOptions()
        options.resamplePoints = 32
        let swipe = (0 ..< 40).map { SwipePoint(x: 0.5 + 0.2 * Double($0), y: 0.5 + 0.02 * Double($0 % 7)) }   // q to o along the top row
        let channels = SwipeDecoder.Channels(swipe: swipe, options: options)
        let centres = SwipeLayout.qwerty.keys.map(\.centre)
        var lengths = [Double](repeating: 0, count: 2), template = [Double](repeating: 0, count: 64)
        for word in ["qwertyuio", "qo", "zxcvbnm", "poiuytrewq", "q"] {
            let path = ArraySlice(SwipeLayout.qwerty.keyPath(of: word)!)
            // The reference: the whole template, then the mean squared distance of its points.
            let whole = channels.templateLocation(of: path, centres: centres, lengths: &lengths, into: &template) { _ in false }
            let drawn = template
            var sum = 0.0
            for j in 0 ..< 64 { let d = channels.points[j] - drawn[j]; sum += d * d }
            #expect(whole == sum / 32, "\(word)")
            // A bound at or above the whole distance never stops the drawing, and the distance is
            // the same; a bound of zero stops it at the first check.
            let full = sum / 32
            #expect(channels.templateLocation(of: path, centres: centres, lengths: &lengths, into: &template) { $0 > full } == full, "\(word)")
            #expect(full > 0)
            #expect(channels.templateLocation(of: path, centres: centres, lengths: &lengths, into: &template) { $0 > 0 } == nil, "\(word)")
        }
    }
}
