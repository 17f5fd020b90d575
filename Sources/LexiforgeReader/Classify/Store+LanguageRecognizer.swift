import Foundation
import GRDB
import LexiforgeFormat

extension LanguageRecognizer {
    /// Reads the language identifier of a store straight into the recognizer's layout: Int16
    /// weights and the character models' hash table, never the Float model
    /// (``TrainedStore/languageIDModel()``), which would take four times the memory.
    /// - Throws: ``ClassifyStoreError/noLanguageIdentifier(_:)`` when it has none; ``StoreError`` when damaged.
    public init(store: TrainedStore) throws {
        let header = try store.langidHeader()
        let L = header.languages.count
        self = try store.checked { db in
            let weights = try TrainedStore.quantizedWeights(db, header)
            var scorer: LanguageCharScorer?
            if let weight = header.charWeight, try db.tableExists("langid_char") {
                let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM langid_char") ?? 0
                var built = LanguageCharScorer(weight: weight, margin: header.charMargin, languages: L, capacity: rows)
                try TrainedStore.forEachCharRow(db, languages: L) { gram, context, raw in
                    built.append(gram, context: context, littleEndian: raw)
                }
                guard built.isComplete else { throw TrainedStore.noUnseenRow }
                scorer = built
            }
            return LanguageRecognizer(languages: header.languages, bias: header.bias, features: header.features, quantizedWeights: weights,
                                      scripts: try TrainedStore.scripts(db, languages: L), charScorer: scorer,
                                      alphabetScorer: try TrainedStore.alphabets(db, header).map(LanguageAlphabetScorer.init))
        }
    }
}

extension TrainedStore {
    /// Whether the store holds a language identifier.
    public var hasLanguageIdentifier: Bool { meta[StoreSchema.ClassifyMetaKey.langid] != nil }

    /// The meta row and `langid_language` of a language identifier.
    struct LangidHeader {
        var features: LanguageIDFeatures
        var algorithm: String
        var languages: [String] = [], sentences: [Int] = [], bias: [Float] = []
        /// The character models' weight and margin; nil without them.
        var charWeight: Float?
        /// The alphabet evidence's weight; nil without it.
        var alphabetWeight: Float?
        var charMargin: Float
    }

    func langidHeader() throws -> LangidHeader {
        guard let metaText = meta[StoreSchema.ClassifyMetaKey.langid] else { throw ClassifyStoreError.noLanguageIdentifier(path) }
        let options = try jsonObject(metaText, key: StoreSchema.ClassifyMetaKey.langid)
        guard let maxOrder = options["max_order"] as? Int, (1...8).contains(maxOrder),
              let bits = options["bucket_bits"] as? Int, (StoreSchema.langidBlockSize.trailingZeroBitCount...24).contains(bits) else {
            throw StoreError.badMeta(path, key: StoreSchema.ClassifyMetaKey.langid, value: metaText,
                                     expected: "a JSON object with max_order (1-8) and bucket_bits (12-24)")
        }
        var header = LangidHeader(features: LanguageIDFeatures(maxOrder: maxOrder, bucketBits: bits, words: options["words"] as? Bool ?? false),
                                  algorithm: options["algorithm"] as? String ?? "?",
                                  charWeight: (options["char_weight"] as? Double).flatMap { $0 > 0 ? Float($0) : nil },
                                  charMargin: (options["char_margin"] as? Double).map(Float.init) ?? LanguageCharModel.defaultMargin)
        header.alphabetWeight = (options["alphabet_weight"] as? Double).flatMap { $0 > 0 ? Float($0) : nil }
        try checked { db in
            for row in try Row.fetchAll(db, sql: "SELECT id, code, bias, sentences FROM langid_language ORDER BY id") {
                guard try row.int(0, "langid_language", "id") == header.languages.count else { throw StoreDamage("`langid_language.id` is not dense from 0") }
                header.languages.append(try row.text(1, "langid_language", "code"))
                header.bias.append(Float(Double(try row.integer(2, "langid_language", "bias")) / StoreSchema.langidWeightScale))
                header.sentences.append(try row.int(3, "langid_language", "sentences", in: 0...StoreSchema.maxCount))
            }
            guard header.languages.count >= 2 else { throw StoreDamage("`langid_language` has \(header.languages.count) languages; an identifier has at least 2") }
        }
        return header
    }

    /// The `langid_weight` rows, checked, as one bucket-major array in the store's Int16 units
    /// (`weights[bucket * languages + language]`).
    static func quantizedWeights(_ db: Database, _ header: LangidHeader) throws -> [Int16] {
        let L = header.languages.count, block = StoreSchema.langidBlockSize
        var weights = [Int16](repeating: 0, count: header.features.buckets * L)
        let rows = try Row.fetchCursor(db, sql: "SELECT language, block, weights FROM langid_weight")
        while let row = try rows.next() {
            let l = try row.int(0, "langid_weight", "language", in: 0...Int64(L - 1))
            let k = try row.int(1, "langid_weight", "block", in: 0...Int64(header.features.buckets / block - 1))
            guard let data = try row.optionalBlob(2, "langid_weight", "weights") else { throw StoreDamage("`langid_weight.weights` is NULL") }
            guard data.count == block * 2 else { throw StoreDamage("`langid_weight.weights` of language \(l) block \(k) has \(data.count) bytes, not \(block * 2)") }
            data.withUnsafeBytes { raw in
                for j in 0..<block { weights[(k * block + j) * L + l] = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * j, as: Int16.self)) }
            }
        }
        return weights
    }

    /// The `langid_script` rows: training sentences per pattern and language id (none when the table is absent).
    static func scripts(_ db: Database, languages L: Int) throws -> [UInt16: [Int]] {
        var scripts: [UInt16: [Int]] = [:]
        guard try db.tableExists("langid_script") else { return scripts }
        for row in try Row.fetchAll(db, sql: "SELECT pattern, language, sentences FROM langid_script") {
            let name = try row.text(0, "langid_script", "pattern")
            guard let pattern = WritingSystems.pattern(named: name) else {
                throw StoreDamage("`langid_script.pattern` '\(name)' is not scripts of \(WritingSystems.codes.joined(separator: ", ")) joined by +")
            }
            let l = try row.int(1, "langid_script", "language", in: 0...Int64(L - 1))
            scripts[pattern, default: [Int](repeating: 0, count: L)][l] = try row.int(2, "langid_script", "sentences", in: 1...StoreSchema.maxCount)
        }
        return scripts
    }

    /// The `langid_alphabet` rows, checked: nil when the meta row gives no weight or the table is
    /// absent (a store from before it); one row per language otherwise.
    static func alphabets(_ db: Database, _ header: LangidHeader) throws -> LanguageAlphabets? {
        guard let weight = header.alphabetWeight, try db.tableExists("langid_alphabet") else { return nil }
        let L = header.languages.count
        var alphabets = [LanguageAlphabets.Alphabet?](repeating: nil, count: L)
        for row in try Row.fetchAll(db, sql: "SELECT language, letters, runs, foreign_runs FROM langid_alphabet") {
            let l = try row.int(0, "langid_alphabet", "language", in: 0...Int64(L - 1))
            let text = try row.text(1, "langid_alphabet", "letters")
            guard let letters = LanguageAlphabets.letters(ofText: text) else {
                throw StoreDamage("`langid_alphabet.letters` '\(text)' names a script in braces that is not one of \(LanguageAlphabets.scriptLetters.map(\.code).joined(separator: ", "))")
            }
            let runs = try row.int(2, "langid_alphabet", "runs", in: 0...StoreSchema.maxCount)
            let foreign = try row.int(3, "langid_alphabet", "foreign_runs", in: 0...Int64(runs))
            alphabets[l] = LanguageAlphabets.Alphabet(letters: letters, runs: runs, foreignRuns: foreign)
        }
        guard let complete = alphabets as? [LanguageAlphabets.Alphabet] else {
            throw StoreDamage("`langid_alphabet` has no row for language \(header.languages[alphabets.firstIndex { $0 == nil }!])")
        }
        return LanguageAlphabets(weight: weight, alphabets: complete)
    }

    /// Calls `body(gram, isContext, blob)` for every `langid_char` row, checked.
    static func forEachCharRow(_ db: Database, languages L: Int, _ body: ([UInt32], Bool, UnsafeRawBufferPointer) throws -> Void) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT gram, backoff, logprobs FROM langid_char")
        while let row = try rows.next() {
            let gram = try row.text(0, "langid_char", "gram").unicodeScalars.map(\.value)
            let backoff = try row.int(1, "langid_char", "backoff", in: 0...1)
            guard gram.count <= LanguageCharModel.order - backoff, backoff == 0 || !gram.isEmpty else {
                throw StoreDamage("`langid_char.gram` of \(gram.count) characters with backoff \(backoff); n-grams have 0-\(LanguageCharModel.order), contexts 1-\(LanguageCharModel.order - 1)")
            }
            guard let data = try row.optionalBlob(2, "langid_char", "logprobs"), data.count == 2 * L else {
                throw StoreDamage("`langid_char.logprobs` is not \(2 * L) bytes (one Int16 per language)")
            }
            try data.withUnsafeBytes { try body(gram, backoff == 1, $0) }
        }
    }

    static let noUnseenRow = StoreDamage("`langid_char` has no row for an unseen character (gram '', backoff 0)")

    /// Reads the language identifier's tables as a model (Float weights, the character models as
    /// dictionaries): for inspection and tests; a front end wants `LanguageRecognizer(store:)`.
    public func languageIDModel() throws -> LanguageIDModel {
        let header = try langidHeader()
        let L = header.languages.count
        return try checked { db in
            let weights = try Self.quantizedWeights(db, header).map(LanguageIDModel.dequantize)
            var charModel: LanguageCharModel?
            if let weight = header.charWeight, try db.tableExists("langid_char") {
                var grams: [[UInt32]: [Float]] = [:], contexts: [[UInt32]: [Float]] = [:]
                try Self.forEachCharRow(db, languages: L) { gram, context, raw in
                    let values = (0..<L).map { LanguageIDModel.dequantize(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self))) }
                    if context { contexts[gram] = values } else { grams[gram] = values }
                }
                guard grams[[]] != nil else { throw Self.noUnseenRow }
                charModel = LanguageCharModel(weight: weight, margin: header.charMargin, grams: grams, contexts: contexts)
            }
            return LanguageIDModel(languages: header.languages, sentences: header.sentences, bias: header.bias, weights: weights,
                                   features: header.features, algorithm: header.algorithm, scripts: try Self.scripts(db, languages: L), charModel: charModel,
                                   alphabets: try Self.alphabets(db, header))
        }
    }
}
