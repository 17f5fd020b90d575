import Foundation

/// Character trigram models of each language, the language identifier's second opinion
/// (``LanguageRecognizer`` adds ``weight`` times their log-likelihood of a text to the logistic
/// scores).
///
/// The logistic model learns which hashed n-grams tell languages apart, and with 200 sentences
/// of a language (Swedish, Chinese, Japanese in langid-train) it leans on the few it saw: "En
/// biologisk funktion grundad på biologiska olikheter." read as Indonesian. A generative model
/// of each language's character sequence, smoothed by interpolating the orders, judges every
/// character of such a text by how its own language continues it. The two err on different
/// sentences (langid-dev, trained on langid-train: logistic 99.12%, these models alone 98.5%,
/// both 99.4%; docs/classify.md).
///
/// Per language, over the same folded scalars as ``LanguageIDFeatures`` (two ``boundary``
/// scalars before the text's leading space), Witten-Bell interpolation (Witten & Bell 1991, as
/// in Chen & Goodman 1998): p(c | h) = (n(h c) + T(h) · p(c | h′)) / (n(h) + T(h)), with n the
/// counts, T(h) the number of different characters seen after h, h′ the context without its
/// first character, and at the bottom a uniform 1 / (V + 1000) over V characters seen plus room
/// for unseen ones. Han, kana and Hangul are left out (``isIdeographic(_:)``): the script
/// evidence tells those languages apart, and their thousands of characters would make the
/// tables ten times larger.
///
/// Stored exactly (up to Int16 units of 1/1000 nats): for every n-gram of 1 to 3 characters any
/// language saw, each language's log p(c | h) (its backed-off value where it did not see the
/// n-gram); for every context any language saw, each language's log T / (n + T) (0 where it did
/// not see it); and the empty n-gram, log p of a character no language saw. Scoring a character
/// looks up the longest n-gram present and adds the backoffs of the longer contexts.
public struct LanguageCharModel: Sendable, Equatable {
    /// The longest n-gram, in scalars (the context has one fewer).
    public static let order = 3
    /// The default of ``margin``.
    public static let defaultMargin: Float = 4
    /// The scalar padding the start of a text.
    public static let boundary: UInt32 = 2
    /// What a character no language saw adds to the uniform bottom level's vocabulary.
    public static let unseenCharacters = 1000.0

    /// How much the models' log-likelihood counts beside the logistic scores.
    public var weight: Float
    /// The models are consulted only when the best allowed language's score leads the second's
    /// by less than this (nats): a second opinion where the first is unsure. On langid-dev
    /// (trained on langid-train) 4 consults them for 2.6% of the sentences and 13.7% of their
    /// first 20 characters, with the accuracy of consulting them always (docs/classify.md), at
    /// the speed of the logistic model alone.
    public var margin: Float
    /// N-gram (context scalars, then the character; [] for a character no language saw) → log p
    /// per language id, nats.
    public var grams: [[UInt32]: [Float]]
    /// Context (1 or 2 scalars) → log of its backoff weight per language id, 0 for a language
    /// that never saw it.
    public var contexts: [[UInt32]: [Float]]

    public init(weight: Float, margin: Float = LanguageCharModel.defaultMargin, grams: [[UInt32]: [Float]], contexts: [[UInt32]: [Float]]) {
        self.weight = weight
        self.margin = margin
        self.grams = grams
        self.contexts = contexts
    }

    /// Whether a scalar is Han, kana or Hangul (left out of the models).
    @inline(__always)
    public static func isIdeographic(_ v: UInt32) -> Bool {
        (v >= 0x1100 && v <= 0x11FF) || (v >= 0x3040 && v <= 0x30FF) || (v >= 0x3130 && v <= 0x318F)
            || (v >= 0x3400 && v <= 0x4DBF) || (v >= 0x4E00 && v <= 0x9FFF) || (v >= 0xAC00 && v <= 0xD7AF)
            || (v >= 0xF900 && v <= 0xFAFF) || (v >= 0x20000 && v <= 0x2FFFF)
    }

    /// Calls `body(a, b, c)` for every character `c` of `text` (folded as ``LanguageIDFeatures``
    /// folds it) after the two scalars `a b` before it, skipping ideographic ones.
    @inline(__always)
    public static func forEachTrigram(of text: String, _ body: (UInt32, UInt32, UInt32) -> Void) {
        var a = boundary, b = boundary
        LanguageIDFeatures.forEachScalar(of: text) { c in
            if !isIdeographic(c) && !isIdeographic(a) && !isIdeographic(b) { body(a, b, c) }
            a = b
            b = c
        }
    }

    /// Trains the models of `texts[l]` (every text of language l).
    public static func train(_ texts: [[String]], weight: Float, margin: Float = defaultMargin) -> LanguageCharModel {
        let L = texts.count
        // Sequences of up to 3 scalars packed into one integer while counting (no array a
        // character): each scalar + 1 in 21 bits, the last one lowest, 0 the empty sequence. So a
        // sequence's context is `>> 21` and its suffix of k scalars `& (1 << 21k − 1)`.
        @inline(__always) func pack(_ s: UInt32) -> UInt64 { UInt64(s) + 1 }
        func unpack(_ g: UInt64) -> [UInt32] {
            var out: [UInt32] = [], g = g
            while g != 0 { out.append(UInt32(g & 0x1F_FFFF) - 1); g >>= 21 }
            return out.reversed()
        }
        // Per language: counts of n-grams and of contexts.
        var ngram = [[UInt64: Int]](repeating: [:], count: L)
        var seen = [[UInt64: Int]](repeating: [:], count: L)     // context → tokens after it
        var types = [[UInt64: Int]](repeating: [:], count: L)    // context → different characters after it
        for l in 0..<L {
            for text in texts[l] {
                forEachTrigram(of: text) { a, b, c in
                    let g1 = pack(c), g2 = pack(b) << 21 | g1, g3 = pack(a) << 42 | g2
                    for gram in [g1, g2, g3] {
                        let context = gram >> 21
                        let n = ngram[l][gram, default: 0]
                        if n == 0 { types[l][context, default: 0] += 1 }
                        ngram[l][gram] = n + 1
                        seen[l][context, default: 0] += 1
                    }
                }
            }
        }
        // p(c | h) by interpolation, for any language and n-gram of `length` scalars.
        func probability(_ l: Int, _ gram: UInt64, length: Int) -> Double {
            let vocabulary = Double(types[l][0] ?? 0) + 1
            var p = 1 / (vocabulary + unseenCharacters)
            for k in 1...length {
                let g = gram & ((1 << (21 * UInt64(k))) - 1), context = g >> 21
                guard let n = seen[l][context] else { continue }
                let t = Double(types[l][context]!)
                p = (Double(ngram[l][g] ?? 0) + t * p) / (Double(n) + t)
            }
            return p
        }
        var grams: [[UInt32]: [Float]] = [:], contexts: [[UInt32]: [Float]] = [:]
        for gram in Set(ngram.flatMap(\.keys)) {
            let scalars = unpack(gram)
            grams[scalars] = (0..<L).map { Float(Foundation.log(probability($0, gram, length: scalars.count))) }
        }
        // The unseen character: the bottom level's uniform share after the empty context's backoff.
        grams[[]] = (0..<L).map { l in
            let t = Double(types[l][0] ?? 0), n = Double(seen[l][0] ?? 0)
            let backoff = n > 0 ? t / (n + t) : 1
            return Float(Foundation.log(backoff / (t + 1 + unseenCharacters)))
        }
        for context in Set(seen.flatMap(\.keys)) where context != 0 {
            contexts[unpack(context)] = (0..<L).map { l in
                guard let n = seen[l][context] else { return 0 }
                let t = Double(types[l][context]!)
                return Float(Foundation.log(t / (Double(n) + t)))
            }
        }
        return LanguageCharModel(weight: weight, margin: margin, grams: grams, contexts: contexts)
    }

    /// Each language's log-likelihood of `text` (nats) read from the tables directly: the
    /// reference the recognizer's hashed scorer is tested against.
    public func logLikelihood(of text: String) -> [Double] {
        let L = grams[[]]?.count ?? 0
        var sum = [Double](repeating: 0, count: L)
        func add(_ row: [Float]) { for l in 0..<L { sum[l] += Double(row[l]) } }
        Self.forEachTrigram(of: text) { a, b, c in
            if let row = grams[[a, b, c]] { add(row); return }
            if let row = contexts[[a, b]] { add(row) }
            if let row = grams[[b, c]] { add(row); return }
            if let row = contexts[[b]] { add(row) }
            add(grams[[c]] ?? grams[[]]!)
        }
        return sum
    }

    /// The same model with every value rounded to the store's units (what a store round trip gives).
    public func quantized() -> LanguageCharModel {
        func q(_ row: [Float]) -> [Float] { row.map { LanguageIDModel.dequantize(LanguageIDModel.quantize($0)) } }
        return LanguageCharModel(weight: weight, margin: margin, grams: grams.mapValues(q), contexts: contexts.mapValues(q))
    }

    /// The hashed key of an n-gram (`context` false) or a context: never 0.
    @inline(__always)
    static func key(_ a: UInt32, _ b: UInt32, _ c: UInt32, length: Int, context: Bool) -> UInt64 {
        var h = UInt64(a) << 42 | UInt64(b) << 21 | UInt64(c)
        h = SplitMix64.finalize(h ^ (UInt64(length) << 3 | (context ? 1 : 0)) &* 0x9E37_79B9_7F4A_7C15)
        return h == 0 ? 1 : h
    }

    @inline(__always)
    static func key(_ scalars: [UInt32], context: Bool) -> UInt64 {
        let padded = [UInt32](repeating: 0, count: max(0, 3 - scalars.count)) + scalars
        return key(padded[0], padded[1], padded[2], length: scalars.count, context: context)
    }
}

/// A ``LanguageCharModel`` laid out for scoring: one hash table of n-grams and contexts, their
/// rows of per-language values side by side, in the store's Int16 units. Built from a model, or
/// row by row from a store's `langid_char` table (``append(_:context:littleEndian:)``) without the
/// model's dictionaries: about 3.5 MB for the shipped store's 53,000 rows.
public struct LanguageCharScorer: Sendable {
    public let weight: Float
    public let margin: Float
    public let languages: Int
    private var table: FeatureTable
    /// `row * languages + language`, in the store's Int16 units (1/1000 nats).
    private var values: [Int16]
    /// The row of a character no language saw; -1 until it is appended.
    private var unseen: Int32 = -1

    /// An empty scorer, for `capacity` rows.
    public init(weight: Float, margin: Float, languages: Int, capacity: Int) {
        self.weight = weight
        self.margin = margin
        self.languages = languages
        table = FeatureTable(capacity: capacity)
        values = []
        values.reserveCapacity(capacity * languages)
    }

    init(_ model: LanguageCharModel, languages: Int) {
        self.init(weight: model.weight, margin: model.margin, languages: languages, capacity: model.grams.count + model.contexts.count)
        for (isContext, rows) in [(false, model.grams), (true, model.contexts)] {
            for (scalars, row) in rows.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                if insert(scalars, context: isContext) { values += row.map(LanguageIDModel.quantize) }
            }
        }
    }

    /// Whether the row of a character no language saw (the empty n-gram) is in.
    public var isComplete: Bool { unseen >= 0 }

    /// Inserts a key; false when it was in already (its first values stay).
    @inline(__always)
    private mutating func insert(_ scalars: [UInt32], context: Bool) -> Bool {
        let before = table.count
        let row = table.insert(LanguageCharModel.key(scalars, context: context))
        if scalars.isEmpty && !context { unseen = row }
        return table.count > before
    }

    /// Appends one stored row: an n-gram (`context` false) or a context of folded scalars, and
    /// `languages` little-endian Int16 values (a `langid_char.logprobs` blob).
    /// - Precondition: `littleEndian.count == 2 * languages`.
    public mutating func append(_ scalars: [UInt32], context: Bool, littleEndian: UnsafeRawBufferPointer) {
        precondition(littleEndian.count == 2 * languages, "one Int16 per language")
        guard insert(scalars, context: context) else { return }
        for l in 0..<languages { values.append(Int16(littleEndian: littleEndian.loadUnaligned(fromByteOffset: 2 * l, as: Int16.self))) }
    }

    /// Adds `weight` × each language's log-likelihood of `text` to `scores`.
    /// - Complexity: one to five hash look-ups per character, no allocation for 16 languages.
    func add(_ text: String, to scores: inout [Float]) {
        let L = languages
        values.withUnsafeBufferPointer { v in
            let base = v.baseAddress!
            let scale = weight / Float(StoreSchema.langidWeightScale)
            if L == 16 {
                var acc = SIMD16<Int32>(repeating: 0)
                forEachRow(of: text) {
                    acc &+= SIMD16<Int32>(truncatingIfNeeded: UnsafeRawPointer(base + Int($0) * 16).loadUnaligned(as: SIMD16<Int16>.self))
                }
                for l in 0..<16 { scores[l] += scale * Float(acc[l]) }
            } else {
                var sum = [Int32](repeating: 0, count: L)
                forEachRow(of: text) { row in for l in 0..<L { sum[l] &+= Int32(base[Int(row) * L + l]) } }
                for l in 0..<L { scores[l] += scale * Float(sum[l]) }
            }
        }
    }

    /// Calls `body` with the rows whose values add up to each character's log p: the longest
    /// n-gram present, after the backoffs of the longer contexts.
    @inline(__always)
    private func forEachRow(of text: String, _ body: (Int32) -> Void) {
        LanguageCharModel.forEachTrigram(of: text) { a, b, c in
            let tri = table.row(LanguageCharModel.key(a, b, c, length: 3, context: false))
            if tri >= 0 { body(tri); return }
            let ab = table.row(LanguageCharModel.key(0, a, b, length: 2, context: true))
            if ab >= 0 { body(ab) }
            let bi = table.row(LanguageCharModel.key(0, b, c, length: 2, context: false))
            if bi >= 0 { body(bi); return }
            let bc = table.row(LanguageCharModel.key(0, 0, b, length: 1, context: true))
            if bc >= 0 { body(bc) }
            let uni = table.row(LanguageCharModel.key(0, 0, c, length: 1, context: false))
            body(uni >= 0 ? uni : unseen)
        }
    }
}
