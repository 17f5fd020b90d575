import Foundation
import LexiforgeBuild
import LexiforgeReader
import LexiforgeSwipe

/// `lexiforge swipe tune`: fits the decoder's filter thresholds and score weights to real swipes,
/// by cross-validation split by user.
///
/// 1. Filters: for every swipe whose word is in the dictionary, how far the word's first and last
///    keys lie from the swipe's ends, how far its start direction deviates and how its length
///    compares; each threshold is set to keep the word in `filterRecall` of the training swipes.
/// 2. Weights: each swipe is decoded once with a wide shortlist, keeping every shortlisted word's
///    channel distances, DTW cost, lexicon prior and ln p(word | context); the weights are then
///    fitted on these by coordinate ascent of top-1 + top-4 / 4 (fast: no decoding per step).
/// 3. Each fold's weights and thresholds are fitted on the other folds' users and measured on its
///    own; the report gives every fold and the options fitted on all swipes.
public enum SwipeTune {
    public struct Config: Sendable {
        public var storePath: String
        public var tracesPath: String
        public var layout: String?
        public var folds = 5
        public var filterRecall = 0.999
        /// The shortlist kept per swipe (the decoder's by default, so a dump is what it reranks).
        public var wideShortlist = SwipeDecoderOptions().shortlist
        /// Where to write one row per shortlisted word (the terms of ``Term``, for the reranker's
        /// scripts in Tests/Bench/swipe-rerank), and the rows' spellings beside it (`.words`).
        public var dumpPath: String? = nil
        /// Stop after the dump, before fitting the weights (a dump of augmented swipes is for the
        /// reranker alone).
        public var dumpOnly = false
        /// Decode after the words before each swipe (its trace's sentence) when the store has a
        /// language model. Without (`--no-context`), the shortlists and a dump are the context-free
        /// decoder's, and only the weights without a context are fitted.
        public var useContext = true
        public var options = SwipeDecoderOptions()
        public init(storePath: String, tracesPath: String) { self.storePath = storePath; self.tracesPath = tracesPath }
    }

    /// One shortlisted word of one swipe: the terms of its score.
    struct Term {
        var location, shape, cost, lexicon, lm, start, end, length, missed: Double; var truth: Bool
        /// Keys in the word's path (for the offline dump).
        var keys = 0
        /// ``SwipeDwell`` terms (for the offline dump).
        var dwell = (unexplained: 0.0, worst: 0.0, corners: 0.0)
        /// ``SwipeKeyMatch`` terms (for the offline dump).
        var keyMatch = (mean: 0.0, worst: 0.0)
        /// ``SwipeTurns`` terms (for the offline dump).
        var turns = (unexplained: 0.0, worst: 0.0, corners: 0.0)
        /// The dictionary's spelling (for the offline dump's side file of words).
        var word = ""
        /// Outside the DTW's locality constraint (for the offline dump).
        var outside = false
        /// ``SwipeTurns/ends(keys:)`` (for the offline dump).
        var ends = (start: 0.0, end: 0.0)
        /// ``SwipeTurns/endOffsets(keys:)`` (for the offline dump).
        var offsets = (startAlong: 0.0, startAcross: 0.0, endAlong: 0.0, endAcross: 0.0)
        /// The word's first and last keys' indices in the layout (for the offline dump).
        var endKeys = (first: -1, last: -1)
        /// ``SwipeCandidate/Terms-swift.struct/endKeyOffsets`` (for the offline dump).
        var endKeyOffsets = SwipeCandidate.EndKeyOffsets()
    }
    struct Sample {
        var fold: Int; var terms: [Term]; var hasTruth: Bool
        /// log10 p of the context's last word after the words before it (nil: no context word).
        var contextFit: Double? = nil
        /// How all the words before the swipe read (``NgramPredictor/contextMeanFit(of:)``; nil: none).
        var contextMeanFit: SwipeContextMeanFit? = nil
        /// The swipe's ``SwipeProfile`` (with its times when the dwell terms have them).
        var profile: SwipeProfile
    }

    /// Filter statistics of one swipe's true word.
    struct FilterNeed { var fold: Int; var start, end, direction, lengthLow, lengthHigh: Double }

    public struct Weights: Sendable, CustomStringConvertible {
        public var location, shape, cost, frequency, context, start, end, length, missed: Double
        /// The context weight used instead of `context` when the context's last word has log10 p
        /// below `gate` after the words before it (``SwipeDecoderOptions/contextGate``).
        public var gate: Double? = nil
        public var contextLow = 0.0
        public var description: String {
            String(format: "location %.3g, shape %.3g, cost %.3g, start %.3g, end %.3g, length %.3g, missed %.3g, frequency %.3g, context %.3g",
                   location, shape, cost, start, end, length, missed, frequency, context)
                + (gate.map { String(format: ", gate %.1f (context weight below it %.3g)", $0, contextLow) } ?? "")
        }
    }

    public static func run(_ config: Config, progress: (String) -> Void) throws -> String {
        var options = config.options
        let session = try SwipeEval.Session(storePath: config.storePath, layout: config.layout, options: options, useContext: config.useContext)
        let (read, errors) = try SwipeTraceReader.read(path: config.tracesPath, layout: session.base.layout)
        let traces = try session.committed(read)
        var lines = ["swipes: \(traces.count) (\(errors.count) unreadable), folds by user: \(config.folds)"]
        func fold(_ t: SwipeTrace) -> Int { SwipeEval.fold(of: t.user ?? "", folds: config.folds) }

        // 1. Filter needs.
        var needs: [FilterNeed] = []
        for t in traces {
            guard let word = t.word else { continue }
            let decoder = try session.decoder(rowHeightRatio: t.rowHeightRatio)
            guard let i = session.matchIndex[SwipeEval.matchKey(word)], let swipe = decoder.prepare(t.points) else { continue }
            let d = decoder.dictionary, path = d.path(i), keys = d.layout.keys
            let start = keys[Int(path.first!)].centre.distance(to: swipe.points[0])
            let end = keys[Int(path.last!)].centre.distance(to: swipe.points[swipe.points.count - 1])
            var direction = 0.0
            if let measured = swipe.direction, d.secondDistance[i] > Float(options.neighbourDistance) {
                var a = abs(measured - Double(d.startAngle[i])).truncatingRemainder(dividingBy: 2 * .pi)
                if a > .pi { a = 2 * .pi - a }
                direction = a * 180 / .pi
            }
            let l = Double(d.length[i])
            // Length filter: A·ℓ − C ≤ ℓ(w) ≤ B·ℓ + C with C fixed: the A and B each swipe needs.
            let low = swipe.length > 0 ? (l + options.lengthC) / swipe.length : 0
            // A tap whose bound (`tapLengthBound`) covers its word needs no B.
            let tapKept = swipe.length < options.tapLength && l <= options.tapLengthBound
            let high = swipe.length > 0 && !tapKept ? (l - options.lengthC) / swipe.length : 0
            needs.append(FilterNeed(fold: fold(t), start: start, end: end, direction: direction, lengthLow: low, lengthHigh: high))
        }
        func thresholds(_ sample: [FilterNeed]) -> SwipeDecoderOptions {
            var o = options
            func q(_ values: [Double], _ p: Double) -> Double {
                let s = values.sorted(); return s.isEmpty ? 0 : s[min(s.count - 1, Int(p * Double(s.count)))]
            }
            o.startRadius = q(sample.map(\.start), config.filterRecall)
            o.endRadius = q(sample.map(\.end), config.filterRecall)
            o.directionTolerance = q(sample.map(\.direction), config.filterRecall)
            o.lengthA = q(sample.map(\.lengthLow), 1 - config.filterRecall)
            o.lengthB = q(sample.map(\.lengthHigh), config.filterRecall)
            return o
        }
        let all = thresholds(needs)
        lines.append(String(format: "filters on all swipes (keep %.1f%% each): startRadius %.2f, endRadius %.2f, directionTolerance %.1f, lengthA %.3f, lengthB %.3f",
                            100 * config.filterRecall, all.startRadius, all.endRadius, all.directionTolerance, all.lengthA, all.lengthB))
        for k in 0 ..< config.folds {
            let train = thresholds(needs.filter { $0.fold != k }), test = needs.filter { $0.fold == k }
            func kept(_ f: (FilterNeed) -> Bool) -> String { String(format: "%.2f%%", 100 * Double(test.filter(f).count) / Double(max(1, test.count))) }
            lines.append("  fold \(k + 1): fitted on the others, kept on this fold: start \(kept { $0.start <= train.startRadius }), direction \(kept { $0.direction <= train.directionTolerance }), end \(kept { $0.end <= train.endRadius }), length \(kept { $0.lengthLow >= train.lengthA && $0.lengthHigh <= train.lengthB })")
        }
        progress(lines.joined(separator: "\n"))
        options.startRadius = all.startRadius; options.endRadius = all.endRadius
        options.directionTolerance = all.directionTolerance; options.lengthA = all.lengthA; options.lengthB = all.lengthB

        // 2. Terms of a wide shortlist per swipe.
        var wide = options
        wide.shortlist = config.wideShortlist
        wide.limit = config.wideShortlist
        wide.rerank = 0   // the linear weights are fitted here; the reranker's on the dump (docs/swipe.md)
        wide.costWeight = max(options.costWeight, 1e-3)
        session.options = wide
        // `dumpPath` (or LEXIFORGE_SWIPE_TUNE_DUMP=FILE): one row per shortlisted word (offline analysis of the
        // cached terms, Tests/Bench/swipe-rerank), and the rows' spellings in FILE.words, a line
        // each in the same order. Written as each swipe is decoded: a wide shortlist makes
        // gigabytes.
        let dumpPath = config.dumpPath ?? ProcessInfo.processInfo.environment["LEXIFORGE_SWIPE_TUNE_DUMP"]
        let dumpFile = try dumpPath.map { try Self.create($0) }
        let dumpWords = try dumpPath.map { try Self.create($0 + ".words") }
        dumpFile?.write(Data("sample\tfold\ttruth\tlocation\tshape\tcost\tlexicon\tlm\tfit\tstart\tend\tlength\tmissed\tkeys\tdwell\tdwellworst\tdwellcorners\tkeymatch\tkeymatchworst\tturns\tturnsworst\tturncorners\tplength\tstraightness\tturning\trowratio\tpduration\tspeed\tcap\tallcaps\tnonalpha\toutside\tstartturn\tendturn\tstartalong\tstartacross\tendalong\tendacross\tsdx\tsdy\tedx\tedy\tfkey\tlkey\tmeanfit\tnctx\n".utf8))
        func spelling(_ word: String) -> String {
            let s = SwipeReranker.Spelling(word)
            return "\(s.capitalized ? 1 : 0)\t\(s.allCapitals ? 1 : 0)\t\(s.nonLetter ? 1 : 0)"
        }
        func dump(_ s: Sample, _ n: Int) {
            guard let dumpFile, let dumpWords else { return }
            let p = s.profile
            let profile = "\(p.logLength)\t\(p.straightness)\t\(p.turning)\t\(p.rowHeightRatio)\t\(p.logDuration ?? 0)\t\(p.speed ?? 0)"
            var text = ""
            for t in s.terms {
                text += "\(n)\t\(s.fold)\t\(t.truth ? 1 : 0)\t\(t.location)\t\(t.shape)\t\(t.cost)\t\(t.lexicon)\t\(t.lm)\t\(s.contextFit ?? 0)\t\(t.start)\t\(t.end)\t\(t.length)\t\(t.missed)\t\(t.keys)\t\(t.dwell.unexplained)\t\(t.dwell.worst)\t\(t.dwell.corners)\t\(t.keyMatch.mean)\t\(t.keyMatch.worst)\t\(t.turns.unexplained)\t\(t.turns.worst)\t\(t.turns.corners)\t\(profile)\t\(spelling(t.word))\t\(t.outside ? 1 : 0)\t\(t.ends.start)\t\(t.ends.end)\t\(t.offsets.startAlong)\t\(t.offsets.startAcross)\t\(t.offsets.endAlong)\t\(t.offsets.endAcross)\t\(t.endKeyOffsets.startX)\t\(t.endKeyOffsets.startY)\t\(t.endKeyOffsets.endX)\t\(t.endKeyOffsets.endY)\t\(t.endKeys.first)\t\(t.endKeys.last)\t\(s.contextMeanFit?.mean ?? 0)\t\(s.contextMeanFit?.words ?? 0)\n"
            }
            dumpFile.write(Data(text.utf8))
            dumpWords.write(Data(s.terms.map { $0.word + "\n" }.joined().utf8))
        }
        var samples: [Sample] = []
        for (n, t) in traces.enumerated() {
            guard let word = t.word else { continue }
            if n % 2000 == 0 { progress("decoding \(n) of \(traces.count)") }
            guard session.matchIndex[SwipeEval.matchKey(word)] != nil else { continue }
            let (decoder, result, _, _) = try session.decode(t)
            let key = SwipeEval.matchKey(word)
            // The reranker is off here; the dump carries the key-match, turn and dwell terms it would read.
            let dwell = decoder.dwell(t.points, times: t.times)
            let candidates = decoder.addingRerankTerms(result.candidates, keyMatch: decoder.keyMatch(t.points),
                                                       dwell: dwell, turns: decoder.turns(t.points))
            // The first and last keys of each word (keyoffsets.py fits SwipeEndKeyOffsets on them).
            func endKeys(_ word: String) -> (first: Int, last: Int) {
                guard let i = decoder.dictionary.index(of: word), let f = decoder.dictionary.path(i).first,
                      let l = decoder.dictionary.path(i).last else { return (-1, -1) }
                return (Int(f), Int(l))
            }
            let terms = candidates.map { c in
                Term(location: c.location, shape: c.shape, cost: c.cost.isFinite ? c.cost : 1e3,
                     lexicon: Double(c.frequency - 255) * log(1.15), lm: c.contextLogProbability ?? 0,
                     start: c.terms.start, end: c.terms.end, length: c.terms.lengthLogRatio * c.terms.lengthLogRatio,
                     missed: c.terms.missed, truth: SwipeEval.matchKey(c.word) == key,
                     keys: session.base.index(of: c.word).map { session.base.path($0).count } ?? 0,
                     dwell: (c.terms.dwell, c.terms.dwellWorst, c.terms.dwellCorners),
                     keyMatch: (c.terms.keyMatch, c.terms.keyMatchWorst), turns: (c.terms.turns, c.terms.turnsWorst, c.terms.turnCorners),
                     word: c.word, outside: c.terms.outsideLocality, ends: (c.terms.startTurn, c.terms.endTurn),
                     offsets: (c.terms.startAlong, c.terms.startAcross, c.terms.endAlong, c.terms.endAcross), endKeys: endKeys(c.word), endKeyOffsets: c.terms.endKeyOffsets)
            }
            samples.append(Sample(fold: fold(t), terms: terms, hasTruth: terms.contains { $0.truth },
                                  contextFit: try t.context.flatMap { try session.contextFit($0) },
                                  contextMeanFit: try t.context.flatMap { try session.predictor?.contextMeanFit(of: $0) },
                                  profile: decoder.profile(t.points, times: dwell.available ? t.times : nil)))
            dump(samples[samples.count - 1], samples.count - 1)
        }
        try dumpFile?.close()
        try dumpWords?.close()
        if config.dumpOnly {
            lines.append("in-dictionary swipes: \(samples.count), dumped to \(dumpPath ?? "nowhere")")
            return lines.joined(separator: "\n")
        }
        lines.append("in-dictionary swipes: \(samples.count); the word on the wide shortlist (\(config.wideShortlist)): \(String(format: "%.2f%%", 100 * Double(samples.filter(\.hasTruth).count) / Double(max(1, samples.count))))")

        // 3. Weights by coordinate ascent, nested by fold.
        let start = Weights(location: options.locationWeight, shape: options.shapeWeight, cost: options.costWeight,
                            frequency: options.frequencyWeight, context: 0, start: options.startWeight, end: options.endWeight,
                            length: options.lengthWeight, missed: options.missWeight)
        // With context the channels keep the weights fitted without it; the two prior weights are fitted.
        func contextStart(_ w: Weights) -> Weights {
            var c = w; c.frequency = options.contextFrequencyWeight; c.context = options.contextWeight
            c.gate = nil; c.contextLow = options.contextWeightLow
            return c
        }
        var rows: [String] = []
        var sums = [0.0, 0.0, 0.0, 0.0]
        for k in 0 ..< config.folds {
            let train = samples.filter { $0.fold != k }, test = samples.filter { $0.fold == k }
            let plain = fit(train, from: start, context: false)
            let a = accuracy(test, plain, context: false)
            sums[0] += a.top1; sums[1] += a.top4
            var row = String(format: "  fold %d (%d swipes): no context top-1 %.2f%% top-4 %.2f%%", k + 1, test.count, 100 * a.top1, 100 * a.top4)
            if config.useContext {
                let b = accuracy(test, fitContext(train, from: contextStart(plain)), context: true)
                sums[2] += b.top1; sums[3] += b.top4
                row += String(format: "; context top-1 %.2f%% top-4 %.2f%%", 100 * b.top1, 100 * b.top4)
            }
            rows.append(row)
        }
        let f = Double(config.folds)
        lines.append("weights fitted on the other folds, measured on each (in-dictionary swipes, filters and shortlist as fitted on all):")
        lines += rows
        lines.append(String(format: "  mean: no context top-1 %.2f%% top-4 %.2f%%", 100 * sums[0] / f, 100 * sums[1] / f)
            + (config.useContext ? String(format: "; context top-1 %.2f%% top-4 %.2f%%", 100 * sums[2] / f, 100 * sums[3] / f) : ""))
        let plain = fit(samples, from: start, context: false)
        lines.append("fitted on all swipes: no context: \(plain)" + (config.useContext ? "; context: \(fitContext(samples, from: contextStart(plain)))" : ""))
        return lines.joined(separator: "\n")
    }

    /// A new, empty file at `path` (an existing one is replaced), open for writing.
    static func create(_ path: String) throws -> FileHandle {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    static func score(_ t: Term, _ w: Weights, context: Bool, fit: Double? = nil) -> Double {
        let low = if let gate = w.gate, let fit { fit < gate } else { false }
        return -w.location * t.location - w.shape * t.shape - w.cost * t.cost - w.start * t.start - w.end * t.end - w.length * t.length
            - w.missed * t.missed
            + w.frequency * t.lexicon + (context ? (low ? w.contextLow : w.context) * t.lm : 0)
    }

    static func accuracy(_ samples: [Sample], _ w: Weights, context: Bool) -> (top1: Double, top4: Double) {
        var top1 = 0, top4 = 0
        for s in samples where s.hasTruth {
            // Several entries may match (its, it's): the best of them counts.
            let t = s.terms.filter(\.truth).map { score($0, w, context: context, fit: s.contextFit) }.max() ?? -.infinity
            var better = 0
            for o in s.terms where !o.truth && score(o, w, context: context, fit: s.contextFit) >= t { better += 1; if better >= 4 { break } }
            if better == 0 { top1 += 1 }
            if better < 4 { top4 += 1 }
        }
        let n = Double(max(1, samples.count))
        return (Double(top1) / n, Double(top4) / n)
    }

    /// Coordinate ascent in log space. Without context the frequency weight is held (the score's
    /// scale is free); with context only the two prior weights move.
    static func fit(_ samples: [Sample], from start: Weights, context: Bool) -> Weights {
        var best = start
        func objective(_ w: Weights) -> Double { let a = accuracy(samples, w, context: context); return a.top1 + a.top4 / 4 }
        var value = objective(best)
        let paths: [WritableKeyPath<Weights, Double>] = context
            ? [\.frequency, \.context] + (start.gate != nil ? [\.contextLow] : [])
            : [\.location, \.shape, \.cost, \.start, \.end, \.length, \.missed]
        for factor in [2.0, 1.41, 1.19, 1.09] {
            var improved = true
            var rounds = 0
            while improved && rounds < 6 {
                improved = false
                rounds += 1
                for p in paths {
                    for f in [factor, 1 / factor] {
                        var w = best
                        // A weight at zero starts from a small one (0.1), then moves by factors.
                        w[keyPath: p] = w[keyPath: p] < 0.1 ? (f > 1 ? 0.1 : 0) : w[keyPath: p] * f
                        let v = objective(w)
                        if v > value + 1e-9 { value = v; best = w; improved = true }
                    }
                }
            }
        }
        return best
    }

    /// The context weights without a gate, then with a gate at each threshold of a grid (the
    /// weight below it starting at half the other), each fitted by ``fit(_:from:context:)``; the
    /// best on `samples` wins.
    static func fitContext(_ samples: [Sample], from start: Weights) -> Weights {
        func objective(_ w: Weights) -> Double { let a = accuracy(samples, w, context: true); return a.top1 + a.top4 / 4 }
        let ungated = fit(samples, from: start, context: true)
        var best = ungated, value = objective(best)
        for gate in [-7.0, -6, -5, -4, -3] {
            var w = ungated
            w.gate = gate
            w.contextLow = w.context / 2
            w = fit(samples, from: w, context: true)
            let v = objective(w)
            if v > value + 1e-9 { value = v; best = w }
        }
        return best
    }
}
