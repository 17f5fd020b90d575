import Foundation
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeVocab

/// What `lexiforge vocab import` builds.
public struct VocabImportConfig: Sendable {
    public var inputs: [String]
    public var output: String
    public var options = VocabListOptions()
    /// Warnings (skipped rows, duplicates) become errors: no store is written.
    public var strict = false
    public var modelName: String?
    /// sha256 the manifest promises per input path (model builds).
    public var expectedSHA256: [String: String] = [:]

    public init(inputs: [String], output: String) {
        self.inputs = inputs
        self.output = output
    }
}

public struct VocabImportReport: Sendable {
    public var files: [VocabListFile]
    public var rows: Int
    public var entries: Int
    public var merged: Int
    public var warnings: [VocabDiagnostic]
    /// Entries per level and per category.
    public var levels: [(name: String, entries: Int)]
    public var categories: [(category: VocabCategory, entries: Int)]
    public var storeBytes: Int

    /// One line for stderr.
    public var summary: String {
        "\(entries) entries from \(rows) rows of \(files.count) list(s) (\(merged) merged, \(warnings.count) warning(s)); levels "
            + levels.map { "\($0.name) \($0.entries)" }.joined(separator: ", ") + "; "
            + categories.map { "\($0.category.name) \($0.entries)" }.joined(separator: ", ")
    }
}

/// Vocabulary lists in, a vocabulary store out: read → categorize and merge → write.
///
/// In: ``VocabImportConfig``. Out: the store at `config.output` (``StoreSchema/Vocab``), written
/// atomically, and a ``VocabImportReport``. Errors (a list without the needed columns, an
/// unreadable file), and under `strict` warnings too, stop the build with every problem listed
/// and no store written; otherwise skipped rows are reported and the rest imported.
public enum VocabImport {
    public static func run(_ config: VocabImportConfig, progress: StageProgress) throws -> VocabImportReport {
        guard !config.inputs.isEmpty else { throw PipelineError("no vocabulary list given; name at least one CSV or TSV file") }
        let file: AtomicStoreFile
        do { file = try AtomicStoreFile.prepare(path: config.output) } catch { throw PipelineError(error.description) }
        progress.stage(1, of: 2, "Reading \(config.inputs.count) vocabulary list(s)")
        let read = VocabImporter.read(paths: config.inputs, options: config.options)
        var problems = read.errors.map { "\($0.location): \($0.message)" }
        if config.strict { problems += read.warnings.map { "\($0.location): \($0.message) (an error under --strict)" } }
        problems += ModelBuild.shaMismatches(read.files.map { ($0.path, $0.sha256) }, expected: config.expectedSHA256)
        if read.contents.records.isEmpty && problems.isEmpty {
            problems.append("\(config.inputs.joined(separator: ", ")): no entry could be imported; see the warnings above")
        }
        if !config.strict {
            for warning in read.warnings { FileHandle.standardError.write(Data((warning.description + "\n").utf8)) }
        }
        if !problems.isEmpty {
            file.discard()
            throw PipelineError(problems)
        }
        progress.endStage()
        progress.stage(2, of: 2, "Writing \(config.output)")
        do {
            try StoreWriter.writeVocabulary(read.contents, meta: provenance(config, read), to: file)
        } catch {
            throw PipelineError(error.description)
        }
        progress.endStage()
        let bytes = (try? FileManager.default.attributesOfItem(atPath: config.output)[.size] as? Int) ?? 0
        var perLevel = [Int](repeating: 0, count: read.contents.levels.count)
        var perCategory = [Int](repeating: 0, count: VocabCategory.allCases.count)
        for r in read.contents.records {
            for i in perLevel.indices where r.levelMask & (1 << Int64(i)) != 0 { perLevel[i] += 1 }
            perCategory[r.category.rawValue] += 1
        }
        return VocabImportReport(
            files: read.files, rows: read.rows, entries: read.contents.records.count, merged: read.merged, warnings: read.warnings,
            levels: zip(read.contents.levels, perLevel).map { ($0, $1) },
            categories: VocabCategory.allCases.map { ($0, perCategory[$0.rawValue]) }, storeBytes: bytes)
    }

    /// `meta` rows: toolchain, model, inputs with sha256, how the lists were read (Codable
    /// records with sorted keys, as every store's meta).
    static func provenance(_ config: VocabImportConfig, _ read: VocabImporter.Result) -> [String: String] {
        typealias Key = StoreSchema.MetaKey
        struct Input: Encodable { var file: String, sha256: String, bytes: Int, rows: Int }
        struct Options: Encodable {
            var format: String, header: Bool, columns: [String: String], levelScheme: String, defaultLevel: String?
            var rows: Int, merged: Int, warnings: Int
            enum CodingKeys: String, CodingKey {
                case format, header, columns, rows, merged, warnings
                case levelScheme = "level_scheme", defaultLevel = "default_level"
            }
            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(format, forKey: .format)
                try c.encode(header, forKey: .header)
                try c.encode(columns, forKey: .columns)
                try c.encode(levelScheme, forKey: .levelScheme)
                try c.encode(defaultLevel, forKey: .defaultLevel)   // null: no default level
                try c.encode(rows, forKey: .rows)
                try c.encode(merged, forKey: .merged)
                try c.encode(warnings, forKey: .warnings)
            }
        }
        let inputs = read.files.map {
            Input(file: URL(fileURLWithPath: $0.path).lastPathComponent, sha256: $0.sha256, bytes: $0.bytes, rows: $0.rows)
        }
        let options = Options(
            format: config.options.format.rawValue, header: config.options.header,
            columns: Dictionary(uniqueKeysWithValues: config.options.columns.map { ($0.key.rawValue, $0.value) }),
            levelScheme: config.options.levelScheme.rawValue, defaultLevel: config.options.defaultLevel,
            rows: read.rows, merged: read.merged, warnings: read.warnings.count)
        var meta: [String: String] = [
            Key.toolchain: toolchainVersion,
            Key.inputs: MetaJSON.encode(inputs),
            StoreSchema.Vocab.MetaKey.importOptions: MetaJSON.encode(options),
        ]
        meta[Key.model] = config.modelName
        meta[Key.created] = StoreProvenance.buildTimestamp()
        return meta
    }
}
