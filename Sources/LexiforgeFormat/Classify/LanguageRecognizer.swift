import Foundation

/// Hashed character n-grams (and words) of a text, as the language identifier's trainer and
/// reader both compute them.
///
/// The text is read as Unicode scalars with a space before and after; letters are folded to
/// lowercase for ASCII, Latin-1, Greek and Cyrillic (by code point arithmetic: no tables, no
/// allocation), runs of whitespace count as one space. Every n-gram of 1 to `maxOrder` scalars
/// ending at each position is hashed (64-bit multiply-xorshift) to a bucket in `0..<buckets`
/// (`buckets` a power of two); with `words`, every whole word (a run between spaces) is hashed
/// too, with another seed. The buckets of a text come in text order.
public struct LanguageIDFeatures: Sendable, Equatable {
    public var maxOrder: Int
    /// log2 of the number of buckets.
    public var bucketBits: Int
    /// Whole words as features beside the character n-grams.
    public var words: Bool
    public var buckets: Int { 1 << bucketBits }

    public init(maxOrder: Int, bucketBits: Int, words: Bool = true) {
        self.maxOrder = maxOrder
        self.bucketBits = bucketBits
        self.words = words
    }

    /// Calls `body` with every bucket of `text`'s features.
    /// - Complexity: O(scalars · max order), no allocation.
    @inline(__always)
    public func forEachBucket(of text: String, _ body: (Int) -> Void) {
        let shift = UInt64(64 - bucketBits)
        let order = min(maxOrder, 8)
        let words = self.words
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 8) { w in
            for k in 0..<8 { w[k] = 0 }
            var filled = 0
            let wordSeed: UInt64 = 0x5851_F42D_4C95_7F2D
            var word = wordSeed
            var wordLength = 0
            @inline(__always) func emit(_ scalar: UInt32) {
                w[7] = w[6]; w[6] = w[5]; w[5] = w[4]; w[4] = w[3]; w[3] = w[2]; w[2] = w[1]; w[1] = w[0]; w[0] = scalar
                filled += 1
                var h: UInt64 = 0x9E37_79B9_7F4A_7C15
                for n in 0..<min(order, filled) {
                    h = (h ^ UInt64(w[n])) &* 0xFF51_AFD7_ED55_8CCD
                    h ^= h >> 32
                    body(Int(truncatingIfNeeded: (h &* 0xC4CE_B9FE_1A85_EC53) >> shift))
                }
                guard words else { return }
                if scalar == 32 {
                    if wordLength > 0 {
                        var z = word ^ (word >> 29)
                        z = z &* 0xBF58_476D_1CE4_E5B9
                        body(Int(truncatingIfNeeded: (z ^ (z >> 32)) >> shift))
                    }
                    word = wordSeed
                    wordLength = 0
                } else {
                    word = (word ^ UInt64(scalar)) &* 0x0000_0100_0000_01B3
                    wordLength += 1
                }
            }
            Self.forEachScalar(of: text, emit)
        }
    }
}

extension LanguageIDFeatures {
    /// Calls `body` with the scalars of `text` as the features read them: a space first and last,
    /// runs of whitespace as one space, letters folded to lowercase for ASCII, Latin-1, Greek and
    /// Cyrillic (by code point arithmetic).
    @inline(__always)
    public static func forEachScalar(of text: String, _ body: (UInt32) -> Void) {
        body(32)
        var lastSpace = true
        for s in text.unicodeScalars {
            var v = s.value
            if v == 32 || v == 9 || v == 10 || v == 13 || v == 0xA0 || v == 0x3000 {
                if lastSpace { continue }
                lastSpace = true
                body(32)
                continue
            }
            lastSpace = false
            if v < 0x80 {
                if v >= 0x41 && v <= 0x5A { v |= 0x20 }
            } else if v >= 0xC0 && v <= 0xDE && v != 0xD7 {
                v += 0x20
            } else if v >= 0x410 && v <= 0x42F {
                v += 0x20
            } else if v >= 0x400 && v <= 0x40F {
                v += 0x50
            } else if v >= 0x391 && v <= 0x3A9 {
                v += 0x20
            }
            body(v)
        }
        if !lastSpace { body(32) }
    }
}

/// A trained language identifier as plain values (see ``StoreSchema/langidCreationStatements``).
public struct LanguageIDModel: Sendable, Equatable {
    /// ISO 639-1 codes, by id.
    public var languages: [String]
    /// Training sentences per language.
    public var sentences: [Int]
    public var bias: [Float]
    /// Bucket-major: `weights[bucket * languages.count + language]`.
    public var weights: [Float]
    public var features: LanguageIDFeatures
    /// The algorithm that trained it, for provenance.
    public var algorithm: String
    /// Script evidence (``WritingSystems``): for each script pattern of the training sentences,
    /// how many sentences of each language (by id) had it. Empty: none (a store from before it).
    public var scripts: [UInt16: [Int]]
    /// Character trigram models of each language whose log-likelihood joins the scores; nil: none
    /// (a store from before them, or trained with `--char-weight 0`).
    public var charModel: LanguageCharModel?
    /// Alphabet evidence (``LanguageAlphabets``); nil: none (a store from before it, or trained
    /// with `--alphabet-weight 0`).
    public var alphabets: LanguageAlphabets?

    public init(languages: [String], sentences: [Int], bias: [Float], weights: [Float], features: LanguageIDFeatures, algorithm: String,
                scripts: [UInt16: [Int]] = [:], charModel: LanguageCharModel? = nil, alphabets: LanguageAlphabets? = nil) {
        self.scripts = scripts
        self.alphabets = alphabets
        self.charModel = charModel
        self.languages = languages
        self.sentences = sentences
        self.bias = bias
        self.weights = weights
        self.features = features
        self.algorithm = algorithm
    }

    /// The same model with every weight and bias rounded to the store's units (what a store round trip gives).
    public func quantized() -> LanguageIDModel {
        var copy = self
        copy.weights = weights.map { Self.dequantize(Self.quantize($0)) }
        copy.bias = bias.map { Float((Double($0) * StoreSchema.langidWeightScale).rounded() / StoreSchema.langidWeightScale) }
        copy.charModel = charModel?.quantized()
        return copy
    }

    public static func quantize(_ w: Float) -> Int16 {
        Int16(clamping: Int((Double(w) * StoreSchema.langidWeightScale).rounded()))
    }

    public static func dequantize(_ q: Int16) -> Float { Float(Double(q) / StoreSchema.langidWeightScale) }
}

/// One language with its probability.
public struct LanguageHypothesis: Sendable, Equatable {
    public var language: String
    public var probability: Double
}

/// Identifies the language of a text from a store alone, as Apple's `NLLanguageRecognizer` does:
/// the dominant language, hypotheses with probabilities, constraints (only these languages) and
/// hints (prior probabilities).
///
/// The model is read once into one flat array of Int16 weights (bucket-major, all languages of a
/// bucket side by side) and the character models' hash table; a text costs one hash and one
/// short vector add per character n-gram: no SQL, no allocation beyond the score vector. The
/// shipped 4.5 MB store takes about 5.5 MB in memory this way (`lexiforge langid` peaks at 38 MB
/// resident against 23 MB for `--version`; 54 MB when it went through ``LanguageIDModel``).
///
/// ```swift
/// var recognizer = try LanguageRecognizer(store: TrainedStore(path: "Artifacts/langid.sqlite"))
/// recognizer.dominantLanguage(for: "Där bor en katt.")            // "sv"
/// try recognizer.setLanguageConstraints(["es", "de"])            // throws: "de" is not known
/// try recognizer.setLanguageConstraints(["es", "pt"])
/// recognizer.hypotheses(for: "obrigado", maximum: 2)            // [pt 0.9107, es 0.0893]
/// try recognizer.setLanguageHints(["es": 0.8, "pt": 0.2])
/// ```
/// - Complexity: O(characters · max order · languages) per text.
public struct LanguageRecognizer: Sendable {
    /// The languages the recognizer knows (ISO 639-1 codes), by id.
    public let languages: [String]
    private let bias: [Float]
    private let features: LanguageIDFeatures
    /// Bucket-major weights in the store's Int16 units (`weights[bucket * languages + language]`):
    /// half the memory of Floats, so a text's look-ups stay in cache beside the character models'.
    private let weights: [Int16]
    /// Allowed language ids (empty: all).
    private var allowed: [Bool]
    /// Added to each language's score: log prior (0 without hints).
    private var logPrior: [Float]
    /// Added to each language's score for a text of a script pattern: log P(pattern | language).
    private let scriptLogLikelihood: [UInt16: [Float]]
    /// The character models laid out for scoring, nil without them.
    private let charScorer: LanguageCharScorer?
    /// The alphabet evidence laid out for scoring, nil without it.
    private let alphabetScorer: LanguageAlphabetScorer?

    /// Smoothing of the script evidence: add this to every count of a pattern seen in training
    /// (so a language never seen with it keeps a small probability).
    public static let scriptSmoothing = 0.5
    public private(set) var languageConstraints: [String] = []
    public private(set) var languageHints: [String: Double] = [:]

    /// A recognizer of a model in memory (its weights rounded to the store's units, as a store
    /// round trip gives them).
    public init(model: LanguageIDModel) {
        self.init(languages: model.languages, bias: model.bias, features: model.features,
                  quantizedWeights: model.weights.map(LanguageIDModel.quantize), scripts: model.scripts,
                  charScorer: model.charModel.map { LanguageCharScorer($0, languages: model.languages.count) },
                  alphabetScorer: model.alphabets.map(LanguageAlphabetScorer.init))
    }

    /// A recognizer of parts read from a store without a ``LanguageIDModel`` in between (what
    /// `LanguageRecognizer(store:)` does: the Float weights and the character models'
    /// dictionaries would take four times the memory).
    /// - Parameters:
    ///   - quantizedWeights: bucket-major, `features.buckets * languages.count` values in units of
    ///     1/``StoreSchema/langidWeightScale``.
    ///   - scripts: training sentences per script pattern and language id (``LanguageIDModel/scripts``).
    ///   - alphabetScorer: the alphabet evidence (``LanguageAlphabets``), nil for none.
    public init(languages: [String], bias: [Float], features: LanguageIDFeatures, quantizedWeights: [Int16],
                scripts: [UInt16: [Int]], charScorer: LanguageCharScorer?, alphabetScorer: LanguageAlphabetScorer? = nil) {
        precondition(quantizedWeights.count == features.buckets * languages.count, "one weight per bucket and language")
        precondition(bias.count == languages.count && (charScorer?.languages ?? languages.count) == languages.count
                     && (alphabetScorer?.languages ?? languages.count) == languages.count
                     && scripts.values.allSatisfy { $0.count == languages.count }, "one bias, script count, alphabet and character-model value per language")
        self.alphabetScorer = alphabetScorer
        self.languages = languages
        self.bias = bias
        self.features = features
        self.weights = quantizedWeights
        self.charScorer = charScorer
        allowed = Array(repeating: true, count: languages.count)
        logPrior = Array(repeating: 0, count: languages.count)
        let patterns = Double(scripts.count + 1)
        var totals = [Int](repeating: 0, count: languages.count)
        for counts in scripts.values { for l in counts.indices { totals[l] += counts[l] } }
        scriptLogLikelihood = scripts.mapValues { counts in
            counts.indices.map { l in
                Float(Foundation.log((Double(counts[l]) + Self.scriptSmoothing) / (Double(totals[l]) + Self.scriptSmoothing * patterns)))
            }
        }
    }

    /// Restricts every answer to these languages (empty: all the model knows).
    /// - Throws: ``ClassifyStoreError/unknownLanguage(_:known:)`` for a code the model does not know.
    public mutating func setLanguageConstraints(_ codes: [String]) throws {
        let ids = try codes.map { try id(of: $0) }
        allowed = Array(repeating: ids.isEmpty, count: languages.count)
        for i in ids { allowed[i] = true }
        languageConstraints = codes
    }

    /// Prior probabilities of languages (empty: none). A hinted language's score gets log(hint);
    /// every other language gets log of the uniform prior 1/languages, so a hint above that
    /// favours a language and one below disfavours it.
    /// - Throws: ``ClassifyStoreError/unknownLanguage(_:known:)``; a hint must be in (0, 1].
    public mutating func setLanguageHints(_ hints: [String: Double]) throws {
        var prior = Array(repeating: Float(Foundation.log(1 / Double(languages.count))), count: languages.count)
        for (code, p) in hints {
            let i = try id(of: code)
            guard p > 0, p <= 1 else { throw LanguageHintError(code: code, value: p) }
            prior[i] = Float(Foundation.log(p))
        }
        logPrior = hints.isEmpty ? Array(repeating: 0, count: languages.count) : prior
        languageHints = hints
    }

    private func id(of code: String) throws -> Int {
        guard let i = languages.firstIndex(of: code) else {
            throw ClassifyStoreError.unknownLanguage(code, known: languages)
        }
        return i
    }

    /// The scores of every language (bias + weights of the text's buckets + log prior + script
    /// and alphabet evidence), by id, plus the character models' weighted log-likelihood when the best allowed
    /// language leads the second by less than their ``LanguageCharModel/margin``. A text whose
    /// script pattern no training sentence had gets no script evidence.
    public func scores(for text: String) -> [Float] {
        let L = languages.count
        var scores = bias
        for l in 0..<L { scores[l] += logPrior[l] }
        if !scriptLogLikelihood.isEmpty, let evidence = scriptLogLikelihood[WritingSystems.pattern(of: text)] {
            for l in 0..<L { scores[l] += evidence[l] }
        }
        alphabetScorer?.add(text, to: &scores)
        weights.withUnsafeBufferPointer { w in
            let base = w.baseAddress!
            if L == 16 {
                var acc = SIMD16<Int32>(repeating: 0)
                features.forEachBucket(of: text) { b in
                    acc &+= SIMD16<Int32>(truncatingIfNeeded: UnsafeRawPointer(base + b * 16).loadUnaligned(as: SIMD16<Int16>.self))
                }
                for l in 0..<16 { scores[l] += Float(Double(acc[l]) / StoreSchema.langidWeightScale) }
            } else {
                var acc = [Int32](repeating: 0, count: L)
                features.forEachBucket(of: text) { b in
                    let row = base + b * L
                    for l in 0..<L { acc[l] &+= Int32(row[l]) }
                }
                for l in 0..<L { scores[l] += Float(Double(acc[l]) / StoreSchema.langidWeightScale) }
            }
        }
        consultCharModels(text, &scores)
        return scores
    }

    /// Adds the character models' scores when the best allowed language is not clearly ahead.
    @inline(__always)
    private func consultCharModels(_ text: String, _ scores: inout [Float]) {
        guard let charScorer else { return }
        var first = -Float.infinity, second = -Float.infinity
        for l in scores.indices where allowed[l] {
            if scores[l] > first { second = first; first = scores[l] } else if scores[l] > second { second = scores[l] }
        }
        if first - second < charScorer.margin { charScorer.add(text, to: &scores) }
    }

    /// The most probable allowed language, or nil for a text without letters or digits.
    public func dominantLanguage(for text: String) -> String? {
        guard text.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) else { return nil }
        let s = scores(for: text)
        var best = -1
        for l in s.indices where allowed[l] && (best < 0 || s[l] > s[best]) { best = l }
        return best < 0 ? nil : languages[best]
    }

    /// Up to `maximum` allowed languages with their probabilities (softmax over the allowed
    /// languages), most probable first; empty for a text without letters or digits.
    public func hypotheses(for text: String, maximum: Int) -> [LanguageHypothesis] {
        guard maximum > 0, text.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) else { return [] }
        let s = scores(for: text)
        let ids = s.indices.filter { allowed[$0] }
        guard let top = ids.map({ s[$0] }).max() else { return [] }
        var p = [Double](repeating: 0, count: s.count)
        var sum = 0.0
        for l in ids { p[l] = Foundation.exp(Double(s[l] - top)); sum += p[l] }
        return ids.sorted { p[$0] > p[$1] || (p[$0] == p[$1] && $0 < $1) }.prefix(maximum)
            .map { LanguageHypothesis(language: languages[$0], probability: p[$0] / sum) }
    }
}

/// A language hint outside (0, 1].
public struct LanguageHintError: Error, CustomStringConvertible, Sendable {
    public var code: String
    public var value: Double
    public var description: String { "hint for \"\(code)\" is \(value); a hint is a prior probability in (0, 1]" }
}
