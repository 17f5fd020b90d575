import Foundation
import LexiforgeReader
import LexiforgeWordlist

extension ModelFile {
    /// Reads `wordlists`, `frequency_source`, `list_weight` and `min_corpus_count`; returns the problems.
    static func parseWordlistKeys(_ dict: [String: Any], path: String) -> (wordlists: [String], merge: LexiconMergeOptions, problems: [String]) {
        var problems: [String] = []
        var wordlists: [String] = []
        var merge = LexiconMergeOptions()
        if let value = dict["wordlists"] {
            if let names = value as? [String] { wordlists = names } else { problems.append("\(path): \"wordlists\" must be an array of manifest names") }
        }
        if let value = dict["frequency_source"] {
            if let text = value as? String, let source = FrequencySource(rawValue: text) { merge.source = source } else {
                problems.append("\(path): \"frequency_source\" must be one of \(FrequencySource.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
            }
        }
        if let value = dict["list_weight"] {
            if let weight = value as? Double, (0...1).contains(weight) { merge.listWeight = weight } else {
                problems.append("\(path): \"list_weight\" must be a number from 0 to 1")
            }
        }
        if let value = dict["min_corpus_count"] {
            if let count = value as? Int, count >= 1 { merge.minCorpusCount = count } else {
                problems.append("\(path): \"min_corpus_count\" must be an integer of at least 1")
            }
        }
        if wordlists.isEmpty && dict.keys.contains(where: ["frequency_source", "list_weight", "min_corpus_count"].contains) {
            problems.append("\(path): \"frequency_source\", \"list_weight\" and \"min_corpus_count\" need \"wordlists\"")
        }
        return (wordlists, merge, problems)
    }
}

extension Train {
    /// Reads the model's wordlists (provisioned from the manifest, sha256-checked) before any corpus.
    static func readWordlists(of model: ModelFile, modelPath: String, strict: Bool, progress: StageProgress) throws -> LexiconMergeInput? {
        guard !model.wordlists.isEmpty else { return nil }
        let manifestPath = URL(fileURLWithPath: modelPath).deletingLastPathComponent().appendingPathComponent("manifest.tsv").path
        let manifest = try CorpusManifest(path: manifestPath)
        var paths: [String] = []
        var expected: [String: String] = [:]
        var problems: [String] = []
        for name in model.wordlists {
            guard let entry = manifest.entry(named: name) else {
                problems.append("\(modelPath): wordlist \"\(name)\" is not in \(manifestPath); add it there or fix the name")
                continue
            }
            let path = manifest.localPath(of: entry)
            if !FileManager.default.fileExists(atPath: path) {
                problems.append("\(path): wordlist \"\(name)\" is not provisioned; run `make corpora`")
            } else if !manifest.isInsideDataDirectory(path) {
                problems.append("\(path): wordlist \"\(name)\" is a link to a file outside \(manifest.dataDirectory); provisioned files must be inside it (run `make corpora`)")
                continue
            }
            paths.append(path)
            expected[path] = entry.sha256
        }
        if !problems.isEmpty { throw PipelineError(problems) }
        progress.say("reading \(paths.count) wordlist(s)")
        let read = WordlistReader.read(paths: paths)
        let failing = strict ? read.diagnostics : read.errors
        problems = failing.map { "\($0.location): \($0.message)" }
        for file in read.files where expected[file.path] != file.sha256 {
            problems.append("\(file.path): sha256 is \(file.sha256) but the manifest says \(expected[file.path] ?? "?"); provision it again with `make corpora`")
        }
        if !problems.isEmpty { throw PipelineError(problems) }
        for warning in read.warnings { progress.say(warning.description) }
        return LexiconMergeInput(lexicon: read.lexicon, options: model.merge)
    }
}
