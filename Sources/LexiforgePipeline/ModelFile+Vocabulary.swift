import Foundation
import LexiforgeReader

extension ModelFile {
    /// Reads `vocabulary` (manifest names of vocabulary lists); returns the problems.
    /// A vocabulary model builds a vocabulary store only: it takes no corpora or wordlists.
    static func parseVocabularyKey(_ dict: [String: Any], path: String) -> (vocabulary: [String], problems: [String]) {
        guard let value = dict["vocabulary"] else { return ([], []) }
        guard let names = value as? [String], !names.isEmpty else {
            return ([], ["\(path): \"vocabulary\" must be a non-empty array of manifest names of vocabulary lists (CSV or TSV)"])
        }
        let others = dict.keys.filter { !["name", "description", "vocabulary"].contains($0) }.sorted()
        if !others.isEmpty {
            return (names, ["\(path): a \"vocabulary\" model builds a vocabulary store and takes only \"name\" and \"description\" besides; remove \(others.map { "\"\($0)\"" }.joined(separator: ", "))"])
        }
        return (names, [])
    }
}

/// `lexiforge train` of a model with `vocabulary`: the lists, provisioned and sha256-checked, into a vocabulary store.
public enum VocabTrain {
    /// The report, or nil when the model has no `vocabulary` (an n-gram model: ``Train``).
    public static func runIfVocabulary(modelPath: String, output: String, strict: Bool, progress: StageProgress) throws -> VocabImportReport? {
        let model = try ModelFile(path: modelPath)
        guard !model.vocabulary.isEmpty else { return nil }
        let manifestPath = URL(fileURLWithPath: modelPath).deletingLastPathComponent().appendingPathComponent("manifest.tsv").path
        let manifest = try CorpusManifest(path: manifestPath)
        var paths: [String] = []
        var expected: [String: String] = [:]
        var problems: [String] = []
        for name in model.vocabulary {
            guard let entry = manifest.entry(named: name) else {
                problems.append("\(modelPath): vocabulary list \"\(name)\" is not in \(manifestPath); add it there or fix the name")
                continue
            }
            let path = manifest.localPath(of: entry)
            if !FileManager.default.fileExists(atPath: path) {
                problems.append("\(path): vocabulary list \"\(name)\" is not provisioned; run `make corpora`")
            } else if !manifest.isInsideDataDirectory(path) {
                problems.append("\(path): vocabulary list \"\(name)\" is a link to a file outside \(manifest.dataDirectory); provisioned files must be inside it (run `make corpora`)")
                continue
            }
            paths.append(path)
            expected[path] = entry.sha256
        }
        if !problems.isEmpty { throw PipelineError(problems) }
        progress.say("model \(model.name): \(model.description)")
        var config = VocabImportConfig(inputs: paths, output: output)
        config.strict = strict
        config.modelName = model.name
        config.expectedSHA256 = expected
        return try VocabImport.run(config, progress: progress)
    }
}
