import Foundation
import GRDB
import LexiforgeReader

extension StoreWriter {
    /// Writes a text-classifier store: `meta`, an empty vocabulary (the reserved words only) and
    /// the classifier tables (``StoreSchema/classifierCreationStatements``), atomically.
    /// Identical models and meta give byte-identical files.
    public static func write(classifier model: TextClassifierModel, meta: [String: String], to file: AtomicStoreFile) throws(StoreWriteError) {
        let unit = StoreSchema.classifierWeightScale
        try writeMinimal(file, meta: meta, extra: StoreSchema.classifierCreationStatements) { db in
            let label = try db.makeStatement(sql: "INSERT INTO classifier_label(id, name, bias, documents) VALUES (?, ?, ?, ?)")
            for (l, name) in model.labels.enumerated() {
                try label.execute(arguments: [l, name, Int64((model.bias[l] * unit).rounded()), model.labelDocuments[l]])
            }
            let feature = try db.makeStatement(sql: "INSERT INTO classifier_feature(id, text, documents) VALUES (?, ?, ?)")
            let weight = try db.makeStatement(sql: "INSERT INTO classifier_weight(feature, label, weight) VALUES (?, ?, ?)")
            let L = model.labels.count
            for (f, text) in model.features.enumerated() {
                try feature.execute(arguments: [f, text, model.featureDocuments[f]])
                for l in 0..<L {
                    let q = Int64((model.weights[f * L + l] * unit).rounded())
                    if q != 0 { try weight.execute(arguments: [f, l, q]) }
                }
            }
            let lemma = try db.makeStatement(sql: "INSERT INTO classifier_lemma(form, lemma) VALUES (?, ?)")
            for form in model.lemmas.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                try lemma.execute(arguments: [form, model.lemmas[form]!])
            }
        }
    }

    /// Writes a language-identifier store: `meta`, the reserved words and the language-ID tables
    /// (``StoreSchema/langidCreationStatements``), weights quantized to Int16, atomically.
    public static func write(languageID model: LanguageIDModel, meta: [String: String], to file: AtomicStoreFile) throws(StoreWriteError) {
        try writeMinimal(file, meta: meta, extra: StoreSchema.langidCreationStatements) { db in
            let language = try db.makeStatement(sql: "INSERT INTO langid_language(id, code, bias, sentences) VALUES (?, ?, ?, ?)")
            for (l, code) in model.languages.enumerated() {
                try language.execute(arguments: [l, code, Int64((Double(model.bias[l]) * StoreSchema.langidWeightScale).rounded()), model.sentences[l]])
            }
            let script = try db.makeStatement(sql: "INSERT INTO langid_script(pattern, language, sentences) VALUES (?, ?, ?)")
            for pattern in model.scripts.keys.sorted() {
                for (l, n) in model.scripts[pattern]!.enumerated() where n > 0 {
                    try script.execute(arguments: [WritingSystems.name(pattern), l, n])
                }
            }
            if let alphabets = model.alphabets {
                let row = try db.makeStatement(sql: "INSERT INTO langid_alphabet(language, letters, runs, foreign_runs) VALUES (?, ?, ?, ?)")
                for (l, alphabet) in alphabets.alphabets.enumerated() {
                    try row.execute(arguments: [l, LanguageAlphabets.text(of: alphabet.letters), alphabet.runs, alphabet.foreignRuns])
                }
            }
            if let chars = model.charModel {
                let row = try db.makeStatement(sql: "INSERT INTO langid_char(gram, backoff, logprobs) VALUES (?, ?, ?)")
                for (backoff, table) in [(0, chars.grams), (1, chars.contexts)] {
                    let ordered = table.map { (String(String.UnicodeScalarView($0.key.compactMap(Unicode.Scalar.init))), $0.value) }
                        .sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
                    for (gram, values) in ordered {
                        var bytes = Data(capacity: values.count * 2)
                        for v in values { withUnsafeBytes(of: LanguageIDModel.quantize(v).littleEndian) { bytes.append(contentsOf: $0) } }
                        try row.execute(arguments: [gram, backoff, bytes])
                    }
                }
            }
            let block = try db.makeStatement(sql: "INSERT INTO langid_weight(language, block, weights) VALUES (?, ?, ?)")
            let L = model.languages.count, size = StoreSchema.langidBlockSize
            for l in 0..<L {
                for k in 0..<(model.features.buckets / size) {
                    var bytes = Data(capacity: size * 2)
                    for j in 0..<size {
                        let q = LanguageIDModel.quantize(model.weights[(k * size + j) * L + l])
                        withUnsafeBytes(of: q.littleEndian) { bytes.append(contentsOf: $0) }
                    }
                    try block.execute(arguments: [l, k, bytes])
                }
            }
        }
    }

    /// A store holding only meta, the reserved words and `extra` tables filled by `fill`.
    static func writeMinimal(_ file: AtomicStoreFile, meta: [String: String], extra: [String], fill: @escaping (Database) throws -> Void) throws(StoreWriteError) {
        try build(file, pageSize: 4096) { db in
            for sql in StoreSchema.creationStatements(order: 1) + extra { try db.execute(sql: sql) }
            let metaInsert = try db.makeStatement(sql: "INSERT INTO meta(key, value) VALUES (?, ?)")
            for key in meta.keys.sorted() { try metaInsert.execute(arguments: [key, meta[key]!]) }
            try WordRows.insert(db, texts: [StoreSchema.unknownToken, StoreSchema.sentenceStartToken, StoreSchema.sentenceEndToken],
                                counts: [0, 0, 0])
            try fill(db)
        }
    }
}
