import Foundation
import LexiforgeBuild
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeSwipe

/// `lexiforge swipe generate`: synthetic swipes of words drawn by frequency (or given words).
public enum SwipeGenerate {
    public struct Config: Sendable {
        public var storePath: String?
        public var layout: SwipeLayout
        public var words: [String] = []
        public var count = 1000
        public var seed: UInt64 = 1
        public init(storePath: String?, layout: SwipeLayout) { self.storePath = storePath; self.layout = layout }
    }

    /// The words of a trace file, in order (for synthetic swipes of the same words).
    public static func words(of tracesPath: String, layout: SwipeLayout) throws -> [String] {
        try SwipeTraceReader.read(path: tracesPath, layout: layout).traces.compactMap(\.word)
    }

    /// The generator's statistics next to those measured on real traces.
    public static func compare(_ statistics: SwipeStatistics, tracesPath: String, layout: SwipeLayout) throws -> String {
        let real = try SwipeTraceReader.read(path: tracesPath, layout: layout)
        return statistics.render(against: SwipeStatistics(traces: real.traces, layout: layout))
    }

    /// JSON lines and the generator's statistics.
    public static func run(_ config: Config) throws -> (lines: [String], statistics: SwipeStatistics, skipped: [String]) {
        var rng = SplitMix64(seed: config.seed ^ 0x5157_4950_4557_4F52)
        var words = config.words
        if words.isEmpty {
            guard let path = config.storePath else { throw SwipeStoreError.noFeatures("(no store)", config.layout.name) }
            let store = try TrainedStore(path: path)
            let lexicon = try store.lexicon()
            // Draw by frequency: p ∝ 1.15^(f − 255), words with a key path and not marked not_a_word.
            var pool: [(String, Double)] = []
            for e in lexicon.entries where !e.attributes.contains(.notAWord) && e.frequency > 0 {
                guard config.layout.keyPath(of: e.word) != nil else { continue }
                pool.append((e.word, LexiconEntry.probability(ofFrequency: e.frequency)))
            }
            var cumulative: [Double] = []
            var sum = 0.0
            for (_, p) in pool { sum += p; cumulative.append(sum) }
            for _ in 0 ..< config.count {
                let u = Double.random(in: 0 ..< sum, using: &rng)
                var lo = 0, hi = cumulative.count - 1
                while lo < hi { let mid = (lo + hi) / 2; if cumulative[mid] <= u { lo = mid + 1 } else { hi = mid } }
                words.append(pool[lo].0)
            }
        }
        var generator = SwipeGenerator(layout: config.layout, seed: config.seed)
        var lines: [String] = [], skipped: [String] = []
        var swipes: [(keys: [UInt8], points: [SwipePoint], times: [Double])] = []
        for word in words {
            guard let keys = config.layout.keyPath(of: word) else { skipped.append(word); continue }
            let s = generator.swipe(keys: keys)
            swipes.append((keys, s.points, s.times))
            lines.append(SwipeTraceWriter.line(word: word, layout: config.layout, points: s.points, times: s.times))
        }
        return (lines, SwipeStatistics(swipes: swipes, layout: config.layout), skipped)
    }
}

/// `lexiforge eval swipe`: accuracy, filter recall and latency of the reference decoder on traces.
///
/// Words are compared case-insensitively and without apostrophes (``matchKey(_:)``). Each trace decodes on the
/// geometry of its own keyboard (its key rectangles' row height), and, when the store has a
/// language model and the trace a `"sentence"`, after the words before it (`useContext`).
public enum SwipeEval {
    public struct Report: Sendable {
        public var swipes = 0, top1 = 0, top4 = 0
        /// Swipes whose word (case-folded) the dictionary has, and their hits.
        public var inDictionary = 0, top1InDictionary = 0, top4InDictionary = 0
        public var filterKept = [0, 0, 0, 0], allFiltersKept = 0, filterTested = 0
        /// Of ``filterTested``: taps (a path shorter than ``tapLength`` key widths), and the length
        /// filter's keeps among them. A tap for a longer word cannot be decoded by its shape; real
        /// swipe logs have some (a tap where a swipe was asked for), and they are most of what the
        /// length filter drops, so the report separates them.
        public var tapsTested = 0, lengthKeptOnTaps = 0
        /// In-dictionary swipes with words of their prompt before them (whether or not they were
        /// decoded with them), and their hits: the swipes a context can help.
        public var afterWords = 0, top1AfterWords = 0, top4AfterWords = 0
        /// Of those, the ones whose words read like a sentence to the store's language model
        /// (context fit at least the decoder's `contextGate`; the real-swipe prompts mix sentences
        /// with random word lists), and their hits.
        public var afterSentence = 0, top1AfterSentence = 0, top4AfterSentence = 0
        /// In-dictionary swipes whose word passed the filters and made the DTW shortlist.
        public var shortlistKept = 0
        public var withContext = 0
        /// Swipes with a word the wordlist marks `possibly_offensive` (``SwipeDictionary/possiblyOffensive``),
        /// other than the swiped one, among the top 4, and first; counted when the dictionary marks
        /// any word (``marksOffensive``).
        public var offensiveShown = 0, offensiveFirst = 0
        public var marksOffensive = false
        /// Swipes whose word only the user's words add (``SwipeDictionary/adding(_:id:)``: not
        /// counted in ``inDictionary``, which stays the store's words), and their hits.
        public var userWords = 0, top1UserWords = 0, top4UserWords = 0
        public var addsUserWords = false
        public var latenciesMs: [Double] = []
        /// The decoding thread's CPU time per swipe: the latency on a core of its own, without the
        /// waits of a machine shared with other work.
        public var cpuMs: [Double] = []
        public var candidatesAfterFilters: [Int] = []
        public var errors: [SwipeTraceError] = []
        public var warnings: [String] = []
        public var misses: [(word: String, got: [String])] = []
        public var loadSeconds = 0.0
        public var title = ""

        public init() {}

        /// Shorter paths are taps (key widths).
        public static let tapLength = SwipeDecoderOptions().tapLength

        static func pct(_ a: Int, _ b: Int) -> String { b == 0 ? "-" : String(format: "%.2f%%", 100 * Double(a) / Double(b)) }

        public func quantile(_ p: Double) -> Double { Self.quantile(p, of: latenciesMs) }

        static func quantile(_ p: Double, of values: [Double]) -> Double {
            let l = values.sorted()
            guard !l.isEmpty else { return .nan }
            return l[min(l.count - 1, max(0, Int((p * Double(l.count)).rounded(.up)) - 1))]
        }

        public func render(listMisses: Int = 10) -> String {
            let pct = Self.pct
            let c = candidatesAfterFilters.sorted()
            var lines = [
                "swipes \(swipes) (\(errors.count) unreadable lines; \(inDictionary) with the word in the dictionary, \(withContext) decoded with context)",
                "all swipes: top-1 \(pct(top1, swipes))  top-4 \(pct(top4, swipes))",
                "word in the dictionary: top-1 \(pct(top1InDictionary, inDictionary))  top-4 \(pct(top4InDictionary, inDictionary))",
                "word in the dictionary, after words of its prompt (\(afterWords)): top-1 \(pct(top1AfterWords, afterWords))  top-4 \(pct(top4AfterWords, afterWords))",
                "word in the dictionary, after words that read like a sentence (\(afterSentence)): top-1 \(pct(top1AfterSentence, afterSentence))  top-4 \(pct(top4AfterSentence, afterSentence))",
                "filters kept the word: start point \(pct(filterKept[0], filterTested)), start direction \(pct(filterKept[1], filterTested)), end point \(pct(filterKept[2], filterTested)), length \(pct(filterKept[3], filterTested)); all four \(pct(allFiltersKept, filterTested)); shortlist \(pct(shortlistKept, filterTested))",
                "length filter on strokes of \(Self.tapLength) key widths or more: \(pct(filterKept[3] - lengthKeptOnTaps, filterTested - tapsTested)); on the \(tapsTested) shorter ones (taps): \(pct(lengthKeptOnTaps, tapsTested))",
                String(format: "latency ms: p50 %.2f  p95 %.2f  p99 %.2f  max %.2f", quantile(0.5), quantile(0.95), quantile(0.99), latenciesMs.max() ?? .nan),
                String(format: "cpu ms (decoding thread): p50 %.2f  p95 %.2f  p99 %.2f  max %.2f", Self.quantile(0.5, of: cpuMs),
                       Self.quantile(0.95, of: cpuMs), Self.quantile(0.99, of: cpuMs), cpuMs.max() ?? .nan),
                "words after the filters: median \(c.isEmpty ? 0 : c[c.count / 2]), max \(c.last ?? 0)",
                String(format: "dictionary load %.2f s", loadSeconds),
            ]
            if addsUserWords {
                lines.insert("word among the user's words only (\(userWords)): top-1 \(pct(top1UserWords, userWords))  top-4 \(pct(top4UserWords, userWords))",
                             at: 5)
            }
            if marksOffensive {
                lines.insert("a word marked possibly_offensive (not the swiped one) among the top 4: \(pct(offensiveShown, swipes)) of swipes, first in \(pct(offensiveFirst, swipes))",
                             at: lines.count - 1)
            }
            if !title.isEmpty { lines.insert(title, at: 0) }
            for m in misses.prefix(listMisses) { lines.append("  miss: \(m.word) → \(m.got.joined(separator: ", "))") }
            return lines.joined(separator: "\n")
        }

        /// Sums another report into this one (folds into a total).
        public mutating func add(_ o: Report) {
            swipes += o.swipes; top1 += o.top1; top4 += o.top4
            inDictionary += o.inDictionary; top1InDictionary += o.top1InDictionary; top4InDictionary += o.top4InDictionary
            for k in 0 ..< 4 { filterKept[k] += o.filterKept[k] }
            allFiltersKept += o.allFiltersKept; filterTested += o.filterTested; shortlistKept += o.shortlistKept
            tapsTested += o.tapsTested; lengthKeptOnTaps += o.lengthKeptOnTaps
            afterWords += o.afterWords; top1AfterWords += o.top1AfterWords; top4AfterWords += o.top4AfterWords
            afterSentence += o.afterSentence; top1AfterSentence += o.top1AfterSentence; top4AfterSentence += o.top4AfterSentence
            withContext += o.withContext
            offensiveShown += o.offensiveShown; offensiveFirst += o.offensiveFirst; marksOffensive = marksOffensive || o.marksOffensive
            userWords += o.userWords; top1UserWords += o.top1UserWords; top4UserWords += o.top4UserWords
            addsUserWords = addsUserWords || o.addsUserWords
            latenciesMs += o.latenciesMs; cpuMs += o.cpuMs; candidatesAfterFilters += o.candidatesAfterFilters
            misses += o.misses
        }
    }

    /// A store opened for decoding traces: decoders per device geometry and the language model.
    public final class Session {
        public let store: TrainedStore
        public let base: SwipeDictionary
        public var options: SwipeDecoderOptions
        /// The store's language model, for decoding (nil with `useContext` false) ...
        public let predictor: NgramPredictor?
        /// ... and for telling which swipes come after words that read like a sentence (always).
        let model: NgramPredictor?
        var decoders: [Int: SwipeDecoder] = [:]
        /// Entry by ``matchKey(_:)`` (the same on every geometry).
        public let matchIndex: [String: Int]
        /// The prompts' words as a keyboard would have committed them (nil without a model).
        let spelling: SwipeCommittedSpelling?
        /// Whether the dictionary marks any word possibly offensive (the report then counts how
        /// often the decoder proposes one).
        let marksOffensive: Bool
        /// The match keys of the words only the user's words add (empty without them).
        let userOnly: Set<String>
        let addsUserWords: Bool

        /// `userWords`: a user's own words and their frequencies, added to the store's
        /// (``SwipeDictionary/adding(_:id:)``, with the language model's id when it has the word).
        public init(storePath: String, layout: String?, options: SwipeDecoderOptions, useContext: Bool = true,
                    userWords: [(word: String, frequency: Int)] = []) throws {
            store = try TrainedStore(path: storePath)
            let layoutName = try layout ?? store.swipeLayouts().first ?? "qwerty"
            let stored = try store.swipeDictionary(layout: layoutName)
            self.options = options
            let model = store.hasLanguageModel ? try NgramPredictor(store: store, derivedForms: false) : nil
            self.model = model
            predictor = useContext ? model : nil
            spelling = model == nil ? nil : SwipeCommittedSpelling(dictionary: stored)
            // The store's words by match key, only to tell the user's words apart (a pass over every word).
            let storedKeys = userWords.isEmpty ? [] : Set(stored.words.map(SwipeEval.matchKey))
            userOnly = Set(userWords.map { SwipeEval.matchKey($0.word) }).subtracting(storedKeys)
            addsUserWords = !userWords.isEmpty
            let vocabulary = try store.vocabulary()
            base = userWords.isEmpty ? stored : stored.adding(userWords) { vocabulary.id(of: $0) }
            matchIndex = SwipeEval.matchIndex(base)
            marksOffensive = base.possiblyOffensive.contains(true)
        }

        /// `traces` with the words before each swipe spelled as a keyboard would have committed
        /// them (``SwipeCommittedSpelling``: the prompts write "im", "whats"; a keyboard commits
        /// "I'm", "what's"), so the context reads as it would in a front end. Unchanged without a model.
        public func committed(_ traces: [SwipeTrace]) throws -> [SwipeTrace] {
            guard let spelling, let model else { return traces }
            return try SwipeEval.committed(traces, spelling: spelling, model: model)
        }

        /// The decoder for a device whose rows are `ratio` key widths tall.
        public func decoder(rowHeightRatio ratio: Double) throws -> SwipeDecoder {
            let key = Int((ratio * 100).rounded())
            if var d = decoders[key] { d.options = options; return d }
            let layout = try base.layout.withRowHeightRatio(Double(key) / 100)
            let d = SwipeDecoder(dictionary: base.adapted(to: layout), options: options)
            decoders[key] = d
            return d
        }

        /// log10 p of the context's last word after the words before it (how much the context reads
        /// like a sentence to the model); nil without a model or a context word.
        public func contextFit(_ words: [String]) throws -> Double? { try predictor?.contextFit(of: words) }

        /// Decodes one trace (after its sentence's earlier words when there is a model and a sentence).
        /// Also returns whether it decoded with a context, and the context fit it gated it with.
        public func decode(_ trace: SwipeTrace) throws -> (SwipeDecoder, SwipeDecoding, Bool, fit: Double?) {
            let decoder = try decoder(rowHeightRatio: trace.rowHeightRatio)
            let (result, withContext, fit) = try SwipeEval.decode(trace, with: decoder, predictor: predictor)
            return (decoder, result, withContext, fit)
        }
    }

    /// Decodes one trace with `decoder`, after its sentence's earlier words when there is a
    /// `predictor` and a sentence (``SwipeDecoder/decode(_:times:after:model:)``: the fit gates the
    /// context when the options have a gate, and the context forests read it either way). Also
    /// returns whether it decoded with a context, and the fit.
    static func decode(_ trace: SwipeTrace, with decoder: SwipeDecoder, predictor: NgramPredictor?) throws
        -> (SwipeDecoding, withContext: Bool, fit: Double?) {
        guard let words = trace.context, let predictor else {
            return (decoder.decode(trace.points, times: trace.times, context: nil), false, nil)
        }
        let decoding = try decoder.decode(trace.points, times: trace.times, after: words, model: predictor)
        return (decoding, true, decoding.contextFit)
    }

    public static func run(storePath: String, tracesPath: String, layout: String?, options: SwipeDecoderOptions,
                           useContext: Bool = true, folds: Int = 1, userWords: [(word: String, frequency: Int)] = []) throws -> [Report] {
        let started = Date()
        let session = try Session(storePath: storePath, layout: layout, options: options, useContext: useContext, userWords: userWords)
        let load = Date().timeIntervalSince(started)
        let (read, errors) = try SwipeTraceReader.read(path: tracesPath, layout: session.base.layout)
        let traces = try session.committed(read)
        var reports = [Report](repeating: Report(), count: max(1, folds))
        for trace in traces {
            guard trace.word != nil else { continue }
            let fold = folds > 1 ? Self.fold(of: trace.user ?? "", folds: folds) : 0
            try evaluate(trace, session: session, into: &reports[fold])
        }
        for k in reports.indices {
            reports[k].loadSeconds = load
            if folds > 1 { reports[k].title = "fold \(k + 1) of \(folds) (by user)" }
        }
        reports[0].errors = errors
        return reports
    }

    /// `traces` with their contexts respelled by `spelling` after `model` (each distinct context once).
    static func committed(_ traces: [SwipeTrace], spelling: SwipeCommittedSpelling, model: NgramPredictor) throws -> [SwipeTrace] {
        var done: [[String]: [String]] = [:]
        return try traces.map { trace in
            guard let words = trace.context, !words.isEmpty else { return trace }
            var trace = trace
            if let spelled = done[words] {
                trace.context = spelled
            } else {
                let spelled = try spelling.spell(words, model: model)
                done[words] = spelled
                trace.context = spelled
            }
            return trace
        }
    }

    /// How a decoded word is compared with the swiped one: case-insensitively and without
    /// apostrophes, which a swipe does not carry either (the real-swipe prompts write "im", "ill",
    /// "whats"; a keyboard proposes "I'm", "I'll", "what's"): the word's letters as
    /// ``SwipeCommittedSpelling/letters(_:)`` reads them.
    public static func matchKey(_ word: String) -> String { SwipeCommittedSpelling.letters(word) }

    /// The first dictionary entry of each match key.
    static func matchIndex(_ dictionary: SwipeDictionary) -> [String: Int] {
        var index: [String: Int] = [:]
        for (i, w) in dictionary.words.enumerated() where index[matchKey(w)] == nil { index[matchKey(w)] = i }
        return index
    }

    /// CPU time of the calling thread.
    static func threadCPUNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    /// The fold of a user: a stable hash of the id (FNV-1a), so folds never split a person.
    public static func fold(of user: String, folds: Int) -> Int {
        Int(StableHash.fnv1a(user) % UInt64(max(1, folds)))
    }

    /// Decodes one trace and counts it.
    public static func evaluate(_ trace: SwipeTrace, session: Session, into report: inout Report) throws {
        guard let word = trace.word else { return }
        report.warnings += trace.warnings
        report.swipes += 1
        let t0 = DispatchTime.now().uptimeNanoseconds, c0 = threadCPUNanoseconds()
        let (decoder, result, withContext, usedFit) = try session.decode(trace)
        report.latenciesMs.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        report.cpuMs.append(Double(threadCPUNanoseconds() - c0) / 1e6)
        if withContext { report.withContext += 1 }
        if let prepared = decoder.prepare(trace.points) {   // outside the timing: the decoder does not count
            report.candidatesAfterFilters.append(decoder.filter(prepared).afterFilter[3])
        } else {
            report.candidatesAfterFilters.append(0)
        }
        let got = result.candidates.map(\.word)
        let key = matchKey(word)
        if session.marksOffensive {   // outside the timing: four look-ups by spelling
            report.marksOffensive = true
            let shown = got.map { w in matchKey(w) != key && decoder.dictionary.index(of: w).map { decoder.dictionary.possiblyOffensive[$0] } == true }
            if shown.contains(true) { report.offensiveShown += 1 }
            if shown.first == true { report.offensiveFirst += 1 }
        }
        let hit1 = got.first.map(matchKey) == key, hit4 = got.contains(where: { matchKey($0) == key })
        if hit1 { report.top1 += 1 }
        if hit4 { report.top4 += 1 } else { report.misses.append((word, got)) }
        report.addsUserWords = session.addsUserWords
        if session.userOnly.contains(key) {
            report.userWords += 1
            if hit1 { report.top1UserWords += 1 }
            if hit4 { report.top4UserWords += 1 }
            return
        }
        guard let i = session.matchIndex[key] else { return }
        report.inDictionary += 1
        if hit1 { report.top1InDictionary += 1 }
        if hit4 { report.top4InDictionary += 1 }
        if let before = trace.context, !before.isEmpty {
            report.afterWords += 1
            if hit1 { report.top1AfterWords += 1 }
            if hit4 { report.top4AfterWords += 1 }
            // The fit the decoder gated with, or (without context, outside the timing) the model's.
            if let gate = session.options.contextGate, let fit = try usedFit ?? session.model?.contextFit(of: before), fit >= gate {
                report.afterSentence += 1
                if hit1 { report.top1AfterSentence += 1 }
                if hit4 { report.top4AfterSentence += 1 }
            }
        }
        if let prepared = decoder.prepare(trace.points) {
            let verdicts = decoder.filterVerdicts(prepared, entry: i)
            report.filterTested += 1
            for (k, v) in verdicts.enumerated() where v { report.filterKept[k] += 1 }
            if prepared.length < Report.tapLength {
                report.tapsTested += 1
                if verdicts[3] { report.lengthKeptOnTaps += 1 }
            }
            if !verdicts.contains(false) { report.allFiltersKept += 1 }
            if result.shortlisted.contains(Int32(i)) { report.shortlistKept += 1 }
        }
    }
}

/// `lexiforge swipe decode`: the top candidates of every swipe in a trace file.
public enum SwipeDecode {
    /// `frontEnd`: decode as a keyboard front end does, for measuring its memory: the store's
    /// dictionary adapted once, to the first trace's keyboard, and the language model, nothing
    /// else (no per-geometry cache, no evaluation index). Each trace's points are still mapped
    /// with its own key rectangles; only the dictionary's row height is the first trace's.
    public static func run(storePath: String, tracePath: String, layout: String?, options: SwipeDecoderOptions,
                           useContext: Bool = true, frontEnd: Bool = false,
                           userWords: [(word: String, frequency: Int)] = []) throws -> (lines: [String], errors: [SwipeTraceError], warnings: [String]) {
        if frontEnd {
            return try runAsFrontEnd(storePath: storePath, tracePath: tracePath, layout: layout, options: options, useContext: useContext, userWords: userWords)
        }
        let session = try SwipeEval.Session(storePath: storePath, layout: layout, options: options, useContext: useContext, userWords: userWords)
        let (traces, errors) = try SwipeTraceReader.read(path: tracePath, layout: session.base.layout)
        var lines: [String] = [], warnings: [String] = []
        for trace in traces {
            warnings += trace.warnings
            let (_, result, _, _) = try session.decode(trace)
            lines.append(line(trace, result))
        }
        return (lines, errors, warnings)
    }

    static func line(_ trace: SwipeTrace, _ result: SwipeDecoding) -> String {
        let words = result.candidates.map { String(format: "%@ %.2f", $0.word, $0.score) }
        let expected = trace.word.map { " (\($0))" } ?? ""
        return "line \(trace.line)\(expected): " + (words.isEmpty ? "no candidates" : words.joined(separator: ", "))
    }

    static func runAsFrontEnd(storePath: String, tracePath: String, layout: String?, options: SwipeDecoderOptions,
                              useContext: Bool, userWords: [(word: String, frequency: Int)]) throws -> (lines: [String], errors: [SwipeTraceError], warnings: [String]) {
        let store = try TrainedStore(path: storePath)
        let layoutName = try layout ?? store.swipeLayouts().first ?? "qwerty"
        // The stored dictionary lives only until it is adapted, as in `swipeDictionary(layout:).adapted(to:)`.
        let (decoder, traces, errors) = try { () throws -> (SwipeDecoder, [SwipeTrace], [SwipeTraceError]) in
            let stored = try store.swipeDictionary(layout: layoutName)
            let vocabulary = try store.vocabulary()
            let base = userWords.isEmpty ? stored : stored.adding(userWords) { vocabulary.id(of: $0) }
            let (traces, errors) = try SwipeTraceReader.read(path: tracePath, layout: base.layout)
            let ratio = ((traces.first?.rowHeightRatio ?? base.layout.rowHeightRatio) * 100).rounded() / 100
            let dictionary = base.adapted(to: try base.layout.withRowHeightRatio(ratio))
            return (SwipeDecoder(dictionary: dictionary, options: options), traces, errors)
        }()
        let predictor = useContext && store.hasLanguageModel ? try NgramPredictor(store: store) : nil
        // The words before each swipe as the front end would have committed them.
        let committed = try predictor.map { model in
            try SwipeEval.committed(traces, spelling: SwipeCommittedSpelling(dictionary: decoder.dictionary), model: model)
        } ?? traces
        var lines: [String] = [], warnings: [String] = []
        for trace in committed {
            warnings += trace.warnings
            lines.append(line(trace, try SwipeEval.decode(trace, with: decoder, predictor: predictor).0))
        }
        return (lines, errors, warnings)
    }
}
