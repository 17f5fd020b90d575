import Foundation
import GRDB
import LexiforgeFormat

extension LanguageRecognizer {
    /// Reads the language identifier of a store.
    /// - Throws: ``ClassifyStoreError/noLanguageIdentifier(_:)`` when it has none; ``StoreError`` when damaged.
    public init(store: TrainedStore) throws {
        self.init(model: try store.languageIDModel())
    }
}

extension TrainedStore {
    /// Whether the store holds a language identifier.
    public var hasLanguageIdentifier: Bool { meta[StoreSchema.ClassifyMetaKey.langid] != nil }

    /// Reads the language identifier's tables into one flat array.
    public func languageIDModel() throws -> LanguageIDModel {
        guard let metaText = meta[StoreSchema.ClassifyMetaKey.langid] else { throw ClassifyStoreError.noLanguageIdentifier(path) }
        let options = try jsonObject(metaText, key: StoreSchema.ClassifyMetaKey.langid)
        guard let maxOrder = options["max_order"] as? Int, (1...8).contains(maxOrder),
              let bits = options["bucket_bits"] as? Int, (StoreSchema.langidBlockSize.trailingZeroBitCount...24).contains(bits) else {
            throw StoreError.badMeta(path, key: StoreSchema.ClassifyMetaKey.langid, value: metaText,
                                     expected: "a JSON object with max_order (1-8) and bucket_bits (12-24)")
        }
        let features = LanguageIDFeatures(maxOrder: maxOrder, bucketBits: bits, words: options["words"] as? Bool ?? false)
        let algorithm = options["algorithm"] as? String ?? "?"
        return try checked { db in
            var languages: [String] = [], sentences: [Int] = [], bias: [Float] = []
            for row in try Row.fetchAll(db, sql: "SELECT id, code, bias, sentences FROM langid_language ORDER BY id") {
                guard try row.int(0, "langid_language", "id") == languages.count else { throw StoreDamage("`langid_language.id` is not dense from 0") }
                languages.append(try row.text(1, "langid_language", "code"))
                bias.append(Float(Double(try row.integer(2, "langid_language", "bias")) / StoreSchema.langidWeightScale))
                sentences.append(try row.int(3, "langid_language", "sentences", in: 0...StoreSchema.maxCount))
            }
            guard languages.count >= 2 else { throw StoreDamage("`langid_language` has \(languages.count) languages; an identifier has at least 2") }
            let L = languages.count, B = features.buckets, block = StoreSchema.langidBlockSize
            var weights = [Float](repeating: 0, count: B * L)
            let rows = try Row.fetchCursor(db, sql: "SELECT language, block, weights FROM langid_weight")
            while let row = try rows.next() {
                let l = try row.int(0, "langid_weight", "language", in: 0...Int64(L - 1))
                let k = try row.int(1, "langid_weight", "block", in: 0...Int64(B / block - 1))
                guard let data = try row.optionalBlob(2, "langid_weight", "weights") else { throw StoreDamage("`langid_weight.weights` is NULL") }
                guard data.count == block * 2 else { throw StoreDamage("`langid_weight.weights` of language \(l) block \(k) has \(data.count) bytes, not \(block * 2)") }
                data.withUnsafeBytes { raw in
                    for j in 0..<block {
                        let q = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * j, as: Int16.self))
                        weights[(k * block + j) * L + l] = LanguageIDModel.dequantize(q)
                    }
                }
            }
            var scripts: [UInt16: [Int]] = [:]
            if try db.tableExists("langid_script") {
                for row in try Row.fetchAll(db, sql: "SELECT pattern, language, sentences FROM langid_script") {
                    let name = try row.text(0, "langid_script", "pattern")
                    guard let pattern = WritingSystems.pattern(named: name) else {
                        throw StoreDamage("`langid_script.pattern` '\(name)' is not scripts of \(WritingSystems.codes.joined(separator: ", ")) joined by +")
                    }
                    let l = try row.int(1, "langid_script", "language", in: 0...Int64(L - 1))
                    scripts[pattern, default: [Int](repeating: 0, count: L)][l] = try row.int(2, "langid_script", "sentences", in: 1...StoreSchema.maxCount)
                }
            }
            var charModel: LanguageCharModel?
            if let weight = options["char_weight"] as? Double, weight > 0, try db.tableExists("langid_char") {
                var grams: [[UInt32]: [Float]] = [:], contexts: [[UInt32]: [Float]] = [:]
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
                    let values = data.withUnsafeBytes { raw in
                        (0..<L).map { LanguageIDModel.dequantize(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self))) }
                    }
                    if backoff == 0 { grams[gram] = values } else { contexts[gram] = values }
                }
                guard grams[[]] != nil else { throw StoreDamage("`langid_char` has no row for an unseen character (gram '', backoff 0)") }
                let margin = (options["char_margin"] as? Double).map(Float.init) ?? LanguageCharModel.defaultMargin
                charModel = LanguageCharModel(weight: Float(weight), margin: margin, grams: grams, contexts: contexts)
            }
            return LanguageIDModel(languages: languages, sentences: sentences, bias: bias, weights: weights,
                                   features: features, algorithm: algorithm, scripts: scripts, charModel: charModel)
        }
    }
}
