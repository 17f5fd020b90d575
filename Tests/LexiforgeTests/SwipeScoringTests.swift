import Foundation
import LexiforgeReader
import LexiforgeSwipe
import LexiforgeTestSupport
import Testing

/// The decoder's context gate.
@Suite("swipe scoring")
struct SwipeScoringTests {
    /// The tiny language model of ``SwipeContextTests``, a dictionary of in, on, the, bus on its
    /// ids, and a swipe from between i and o down to n (in and on fit about equally).
    /// The folder comes back too: the store lives there until it is released.
    static func inOrOn(_ folderName: String) throws -> (TemporaryFolder, NgramPredictor, SwipeDictionary, [SwipePoint]) {
        let folder = try TemporaryFolder(folderName)
        let predictor = try NgramPredictor(store: TrainedStore(path: try SwipeContextTests.store(in: folder)))
        var builder = SwipeDictionary.Builder(layout: .qwerty)
        for word in ["in", "on", "the", "bus"] { builder.add(word: word, id: Int64(predictor.id(of: word)!), frequency: 150) }
        let points = (0 ... 10).map { SwipePoint(x: 8.0 - 0.1 * Double($0), y: 0.75 + 0.3 * Double($0)) }
        return (folder, predictor, builder.build(), points)
    }

    @Test("the context gate weighs words that read like no sentence less")
    func gate() throws {
        let (folder, predictor, dictionary, points) = try Self.inOrOn("lexiforge-swipe-gate")
        #expect(try predictor.contextFit(of: []) == nil)
        let sentence = try #require(try predictor.contextFit(of: ["we", "sat"]))
        let noSentence = try #require(try predictor.contextFit(of: ["box", "zebra"]))
        #expect(sentence > noSentence, "\(sentence) \(noSentence)")
        // The same value the distribution after the words before gives the last word.
        for words in [["we", "sat"], ["box", "zebra"], ["zebra", "On"], ["We", "live", "in"], ["the"]] {
            let id = predictor.id(of: words.last!.lowercased()).map(Int64.init) ?? -1
            let expected = try predictor.distribution(after: Array(words.dropLast())).log10Probability(of: id)
            #expect(try predictor.contextFit(of: words) == expected, "\(words)")
        }
        let context = try predictor.distribution(after: ["we", "sat"])
        var options = SwipeDecoderOptions()
        options.rerank = 0   // the linear score's arithmetic
        options.contextWeight = 3
        options.contextWeightLow = 0.5
        options.contextGate = (sentence + noSentence) / 2
        let gated = SwipeDecoder(dictionary: dictionary, options: options)
        var low = options
        low.contextWeight = 0.5
        let scores = { (c: [SwipeCandidate]) in c.map { "\($0.word) \(String(format: "%.9f", $0.score))" } }
        #expect(scores(gated.decode(points, context: context, contextFit: sentence).candidates)
                == scores(gated.decode(points, context: context).candidates))
        #expect(scores(gated.decode(points, context: context, contextFit: noSentence).candidates)
                == scores(SwipeDecoder(dictionary: dictionary, options: low).decode(points, context: context).candidates))
        withExtendedLifetime(folder) {}
    }

    @Test("the whole context's fit is the mean log10 p of its words from the sentence start")
    func meanFit() throws {
        let (folder, predictor, _, _) = try Self.inOrOn("lexiforge-swipe-mean-fit")
        #expect(try predictor.contextMeanFit(of: []) == nil)
        let start = Int32(StoreSchema.ReservedID.sentenceStart)
        func id(_ w: String) -> Int32 { predictor.id(of: w) ?? -1 }   // -1: <unk>
        for words in [["we", "sat"], ["box", "zebra", "on"], ["We", "live", "in"], ["the"]] {
            let ids = words.map { predictor.id(of: $0) ?? predictor.id(of: $0.lowercased()) ?? -1 }
            var sum = 0
            for (k, w) in ids.enumerated() { sum += try predictor.logProb(of: w, context: [start] + ids[..<k]).value }
            let fit = try #require(try predictor.contextMeanFit(of: words))
            #expect(fit.words == words.count)
            #expect(abs(fit.mean - Double(sum) / StoreSchema.logScale / Double(words.count)) < 1e-12, "\(words)")
        }
        // The last word's term is the decoder's fit (`contextFit`) once two words come before it.
        let three = try #require(try predictor.contextMeanFit(of: ["we", "sat", "on"]))
        let two = try #require(try predictor.contextMeanFit(of: ["we", "sat"]))
        #expect(abs(3 * three.mean - 2 * two.mean - (try #require(try predictor.contextFit(of: ["we", "sat", "on"])))) < 1e-9)
        #expect(two.mean > (try #require(try predictor.contextMeanFit(of: ["box", "zebra"]))).mean)
        withExtendedLifetime(folder) {}
    }

    /// A dictionary of a few words and the straight swipe from "t" to "o" (rows 1.5 key widths tall).
    static func toSwipe() -> (SwipeDictionary, [SwipePoint]) {
        var builder = SwipeDictionary.Builder(layout: .qwerty)
        for word in ["to", "too", "go", "yo", "top"] { builder.add(word: word, frequency: 150) }
        let dictionary = builder.build()
        let t = dictionary.layout.keys[Int(dictionary.path(dictionary.index(of: "to")!).first!)].centre
        let o = dictionary.layout.keys[Int(dictionary.path(dictionary.index(of: "to")!).last!)].centre
        let points = (0 ... 12).map { k in
            SwipePoint(x: t.x + (o.x - t.x) * Double(k) / 12, y: t.y + (o.y - t.y) * Double(k) / 12)
        }
        return (dictionary, points)
    }

    @Test("the touch model: points read verticalOffset higher, start and end weighed apart")
    func touchModel() {
        let (dictionary, points) = Self.toSwipe()
        let scores = { (c: [SwipeCandidate]) in c.map { "\($0.word) \(String(format: "%.9f", $0.score))" } }
        var options = SwipeDecoderOptions()
        options.rerank = 0   // the linear score's arithmetic
        options.limit = 10
        options.verticalOffset = 0
        let plain = SwipeDecoder(dictionary: dictionary, options: options).decode(points).candidates
        #expect(plain.first?.word == "to")
        // The same swipe 0.25 key widths lower, read 0.25 higher: the same scores.
        options.verticalOffset = 0.25
        let lowered = points.map { SwipePoint(x: $0.x, y: $0.y + 0.25) }
        #expect(scores(SwipeDecoder(dictionary: dictionary, options: options).decode(lowered).candidates) == scores(plain))
        // The start and end terms are the squared distances to the first and last keys; each has its weight.
        options.verticalOffset = 0
        let shifted = points.map { SwipePoint(x: $0.x + 0.3, y: $0.y) }
        let base = SwipeDecoder(dictionary: dictionary, options: options).decode(shifted).candidates
        let to = base.first { $0.word == "to" }!
        #expect(abs(to.terms.start - 0.09) < 1e-9 && abs(to.terms.end - 0.09) < 1e-9)
        #expect(abs(to.terms.endpoints - to.terms.start - to.terms.end) < 1e-12)
        options.startWeight += 1
        let heavier = SwipeDecoder(dictionary: dictionary, options: options).decode(shifted).candidates.first { $0.word == "to" }!
        #expect(abs((to.score - heavier.score) - 0.09) < 1e-9)
    }

    @Test("a robust DTW cost bounds what one point far off the path pays")
    func robustCost() {
        let (dictionary, points) = Self.toSwipe()
        var wild = points
        wild[6].y += 1.5   // one point 1.5 key widths off
        var options = SwipeDecoderOptions()
        options.limit = 10
        options.costRobustness = 0
        let plain = SwipeDecoder(dictionary: dictionary, options: options).decode(wild).candidates.first { $0.word == "to" }!
        options.costRobustness = 0.5
        let robust = SwipeDecoder(dictionary: dictionary, options: options).decode(wild).candidates.first { $0.word == "to" }!
        #expect(plain.cost < options.costCap && robust.cost < plain.cost)
        #expect(robust.cost <= 0.5)
    }

    @Test("the locality constraint: reported by default, capping the cost when asked, the report the constrained DTW's reach")
    func locality() {
        let (dictionary, points) = Self.toSwipe()
        var options = SwipeDecoderOptions()
        options.rerank = 0
        options.limit = 10
        // "to" swiped with a loop: t to o, back to t and to o again, three times its length.
        let looped = points + points.reversed().dropFirst() + points.dropFirst()
        let free = SwipeDecoder(dictionary: dictionary, options: options).decode(looped).candidates.first { $0.word == "to" }!
        // The segment DTW never maps a point behind the one before it on a segment, so the way
        // back pays, but less than the cap.
        #expect(free.terms.outsideLocality && free.cost < options.costCap)
        options.localityCaps = true
        let capped = SwipeDecoder(dictionary: dictionary, options: options).decode(looped).candidates.first { $0.word == "to" }!
        #expect(capped.terms.outsideLocality && capped.cost == options.costCap)
        // The plain swipe lies within it either way.
        let plain = SwipeDecoder(dictionary: dictionary, options: options).decode(points).candidates.first { $0.word == "to" }!
        #expect(!plain.terms.outsideLocality && plain.cost < 0.05)

        // Made-up swipes against words of 1 to 6 keys, every filter open: with the constraint
        // bounding the DTW and no cap (a reachable word's cost can pass the cap: a warping path
        // can map a point to several columns), a word's cost is infinite exactly when it is
        // reported outside, and the report does not depend on whether the constraint bounds.
        var builder = SwipeDictionary.Builder(layout: .qwerty)
        let words = ["a", "to", "top", "type", "tripe", "typist", "go", "pot", "quiz", "plum", "mop", "zebra", "loop", "kiwi"]
        for word in words { builder.add(word: word, frequency: 150) }
        let many = builder.build()
        var open = SwipeDecoderOptions()
        open.rerank = 0
        open.limit = 100
        open.shortlist = 100
        open.startRadius = 100; open.endRadius = 100; open.directionTolerance = 360
        open.lengthA = 0; open.lengthB = 100; open.lengthC = 100
        var state: UInt64 = 2026
        func next() -> Double { state = state &* 6364136223846793005 &+ 1442695040888963407; return Double(state >> 11) / Double(1 << 53) }
        var outside = 0, inside = 0
        for _ in 0 ..< 60 {
            let count = 2 + Int(next() * 30)
            var x = next() * 10, y = next() * 4.5
            let swipe = (0 ..< count).map { _ -> SwipePoint in
                x = min(10, max(0, x + (next() - 0.5) * 2)); y = min(4.5, max(0, y + (next() - 0.5) * 1.2))
                return SwipePoint(x: x, y: y)
            }
            var bounded = open
            bounded.localityCaps = true
            bounded.costCap = .infinity
            let a = SwipeDecoder(dictionary: many, options: open).decode(swipe).candidates
            let b = SwipeDecoder(dictionary: many, options: bounded).decode(swipe).candidates
            #expect(Set(a.map(\.word)) == Set(b.map(\.word)))
            for c in b {
                #expect((c.cost == .infinity) == c.terms.outsideLocality, "\(c.word)")
                #expect(a.first { $0.word == c.word }?.terms.outsideLocality == c.terms.outsideLocality)
                if c.terms.outsideLocality { outside += 1 } else { inside += 1 }
            }
        }
        // Both kinds occur, so the comparison means something.
        #expect(outside > 20 && inside > 20)
    }

    /// 1,500 made-up words of 2-5 letters (distinct; the k-th made gets id `id(k)`), frequencies
    /// 100-200, from a linear congruential generator seeded `seed`; the dictionary and the words in
    /// the order made.
    static func madeUp(seed: UInt64, id: (Int) -> Int64) -> (SwipeDictionary, [String]) {
        var state = seed
        func next(_ n: Int) -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) % n }
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var builder = SwipeDictionary.Builder(layout: .qwerty)
        var made: [String] = [], seen: Set<String> = []
        while made.count < 1_500 {
            let word = String((0 ..< 2 + next(4)).map { _ in letters[next(26)] })
            guard seen.insert(word).inserted else { continue }
            builder.add(word: word, id: id(made.count), frequency: 100 + next(101))
            made.append(word)
        }
        return (builder.build(), made)
    }

    /// A swipe of each of the first 40 words of `made` (the generator seeded `seed`) and its context
    /// fit: with a context, after a sentence (no fit) and, every other one, after a list of unrelated
    /// words (a fit below the gate).
    static func swipes(of made: [String], seed: UInt64, withContext: Bool) -> [(word: String, points: [SwipePoint], fit: Double?)] {
        var generator = SwipeGenerator(layout: .qwerty, seed: seed)
        return made.prefix(40).enumerated().map { k, word in
            (word, generator.swipe(keys: SwipeLayout.qwerty.keyPath(of: word)!).points, withContext && k % 2 == 1 ? -10 : nil)
        }
    }

    /// The score of candidate `c` under the weights `w`, p(word | context) weighed `contextWeight`:
    /// with the DTW cost and the missed key (the reranker's candidates are chosen so) or without
    /// (the shortlist is).
    static func weighed(_ c: SwipeCandidate, by w: SwipeDecoderOptions.Selection, contextWeight: Double, dtw: Bool) -> Double {
        let lexicon = Double(c.frequency - 255) * log(1.15)
        return -w.location * c.location - w.shape * c.shape - (dtw ? w.cost * c.cost : 0) - w.start * c.terms.start - w.end * c.terms.end
            - w.length * c.terms.lengthLogRatio * c.terms.lengthLogRatio - (dtw ? w.miss * c.terms.missed : 0)
            + (c.contextLogProbability.map { w.contextFrequency * lexicon + contextWeight * $0 } ?? w.frequency * lexicon)
    }

    @Test("the linear score's best 4 are the first 4 of the whole shortlist's, DTW weight 40 or 0.5", arguments: [40.0, 0.5])
    func skipping(costWeight: Double) {
        // A swipe of each of 40 made-up words: the words skipped before their DTW (keeping 4) are
        // never among the best 4 of all 60 scored.
        let (dictionary, made) = Self.madeUp(seed: 31) { Int64($0 + 1) }
        var options = SwipeDecoderOptions()
        options.shortlist = 60; options.rerank = 0; options.limit = 4; options.costWeight = costWeight
        var all = options
        all.limit = 60
        var generator = SwipeGenerator(layout: .qwerty, seed: 9)
        for word in made.prefix(40) {
            let points = generator.swipe(keys: SwipeLayout.qwerty.keyPath(of: word)!).points
            let best = SwipeDecoder(dictionary: dictionary, options: options).decode(points).candidates
            let whole = SwipeDecoder(dictionary: dictionary, options: all).decode(points).candidates
            #expect(whole.count == 60, "\(word)")
            #expect(best.map(\.word) == whole.prefix(4).map(\.word) && best.map(\.score) == whole.prefix(4).map(\.score), "\(word)")
        }
    }

    @Test("the shortlist is the best words by its own weights, then scored by the linear score", arguments: [false, true])
    func shortlistWeights(withContext: Bool) throws {
        let folder = try TemporaryFolder("lexiforge-swipe-shortlist-weights")
        let predictor = try NgramPredictor(store: TrainedStore(path: try SwipeContextTests.store(in: folder)))
        let ids = try ["on", "the", "a", "in", "bus"].map { try #require(predictor.id(of: $0)) }
        let (dictionary, made) = Self.madeUp(seed: 37) { Int64(ids[$0 % ids.count]) }
        let context = withContext ? try predictor.distribution(after: ["we", "sat"]) : nil
        // Weights unlike the linear score's, so the two choose differently.
        let w = SwipeDecoderOptions.Selection(location: 2, shape: 6, cost: 40, start: 4, end: 6, length: 3, miss: 4.5,
                                              frequency: 2.5, contextFrequency: 1.5, context: 0.5, contextLow: 3)
        var options = SwipeDecoderOptions()
        options.shortlistSelection = w
        options.shortlist = 15; options.rerank = 0; options.limit = 15
        // Every word the filters keep, shortlisted by the same weights and by the linear score's.
        var every = options
        every.shortlist = 100_000; every.limit = 100_000
        var linear = every
        linear.shortlistSelection = nil
        func chosenBy(_ c: SwipeCandidate, contextWeight: Double) -> Double { Self.weighed(c, by: w, contextWeight: contextWeight, dtw: false) }
        var differs = 0
        for (word, points, fit) in Self.swipes(of: made, seed: 12, withContext: withContext) {
            let weight = fit == nil ? w.context : w.contextLow
            let all = SwipeDecoder(dictionary: dictionary, options: every).decode(points, context: context, contextFit: fit).candidates
            let byLinear = SwipeDecoder(dictionary: dictionary, options: linear).decode(points, context: context, contextFit: fit).candidates
            let chosen = SwipeDecoder(dictionary: dictionary, options: options).decode(points, context: context, contextFit: fit).candidates
            var small = options
            small.shortlistSelection = nil
            let linearChosen = SwipeDecoder(dictionary: dictionary, options: small).decode(points, context: context, contextFit: fit).candidates
            #expect(all.count > 100 && all.count == byLinear.count && chosen.count == 15, "\(word)")
            let expected = all.sorted { chosenBy($0, contextWeight: weight) > chosenBy($1, contextWeight: weight) }.prefix(15).map(\.word)
            #expect(Set(chosen.map(\.word)) == Set(expected), "\(word)")
            // Each chosen word scores as the linear score scores it (not by the shortlist's weights),
            // and they come in that order.
            let linearScore = Dictionary(byLinear.map { ($0.word, $0.score) }, uniquingKeysWith: { a, _ in a })
            for c in chosen { #expect(abs(c.score - (linearScore[c.word] ?? .nan)) < 1e-9, "\(word): \(c.word)") }
            #expect(chosen.map(\.score) == chosen.map(\.score).sorted(by: >), "\(word)")
            if Set(linearChosen.map(\.word)) != Set(expected) { differs += 1 }
        }
        #expect(differs >= 20)   // the weights chose other words than the linear score in most swipes
        withExtendedLifetime(folder) {}
    }

    /// With a DTW weight of 0.5 the DTW cost hardly moves a score, so a word passed over before
    /// its DTW (its score without it already below the last kept) is one that could have entered
    /// had the bound been any looser: a bound that skips too much shows here.
    @Test("the reranker's candidates are the shortlist's best by the selection weights", arguments: [false, true], [10.0, 0.5])
    func selection(withContext: Bool, costWeight: Double) throws {
        // 1,500 made-up words of 2-5 letters (distinct), frequencies 100-200; a swipe of each of 40.
        let folder = try TemporaryFolder("lexiforge-swipe-selection")
        let predictor = try NgramPredictor(store: TrainedStore(path: try SwipeContextTests.store(in: folder)))
        let ids = try ["on", "the", "a", "in", "bus"].map { try #require(predictor.id(of: $0)) }
        let (dictionary, made) = Self.madeUp(seed: 29) { Int64(ids[$0 % ids.count]) }
        let context = withContext ? try predictor.distribution(after: ["we", "sat"]) : nil
        // Weights unlike the linear score's, so the two choose differently.
        let w = SwipeDecoderOptions.Selection(location: 0.05, shape: 40, cost: costWeight, start: 30, end: 0.5, length: 2, miss: 8,
                                              frequency: 3, contextFrequency: 2, context: 4, contextLow: 1)
        var options = SwipeDecoderOptions()
        options.shortlist = 40; options.rerank = 12; options.limit = 12
        options.selection = w
        // Every shortlisted word in the linear score's order, with the terms it was chosen by.
        var linear = options
        linear.rerank = 0; linear.limit = 40
        func chosenBy(_ c: SwipeCandidate, contextWeight: Double) -> Double { Self.weighed(c, by: w, contextWeight: contextWeight, dtw: true) }
        var differs = 0
        for (word, points, fit) in Self.swipes(of: made, seed: 8, withContext: withContext) {
            let all = SwipeDecoder(dictionary: dictionary, options: linear).decode(points, context: context, contextFit: fit).candidates
            let chosen = SwipeDecoder(dictionary: dictionary, options: options).decode(points, context: context, contextFit: fit).candidates
            let weight = fit == nil ? w.context : w.contextLow
            let expected = all.sorted { chosenBy($0, contextWeight: weight) > chosenBy($1, contextWeight: weight) }.prefix(12).map(\.word)
            #expect(all.count == 40 && chosen.count == 12, "\(word)")
            #expect(Set(chosen.map(\.word)) == Set(expected), "\(word)")
            if Set(all.prefix(12).map(\.word)) != Set(expected) { differs += 1 }
        }
        #expect(differs >= 20)   // the weights chose other candidates than the linear score in most swipes
        withExtendedLifetime(folder) {}
    }
}
