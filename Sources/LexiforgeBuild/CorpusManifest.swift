import Foundation

/// One corpus or wordlist of `Corpora/manifest.tsv`.
public struct ManifestEntry: Sendable, Equatable {
    public var name: String
    public var file: String
    public var sha256: String
    public var license: String
    public var source: String
    public var url: String
}

/// `Corpora/manifest.tsv`: tab-separated, a header line, `#` comments; columns
/// `name file sha256 license source url`. The Makefile's provisioning step reads the same file.
public struct CorpusManifest: Sendable {
    public var entries: [ManifestEntry]
    /// The manifest file.
    public var path: String
    /// Where provisioned files live: `data/` beside the manifest.
    public var dataDirectory: String

    public static let columns = ["name", "file", "sha256", "license", "source", "url"]

    public init(path: String) throws {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw PipelineError("\(path): cannot read the corpus manifest; it belongs beside the model files in Corpora/")
        }
        self.path = path
        dataDirectory = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("data").path
        var entries: [ManifestEntry] = []
        var problems: [String] = []
        var sawHeader = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if !sawHeader {
                sawHeader = true
                if fields != Self.columns {
                    problems.append("\(path):\(index + 1): header must be \(Self.columns.joined(separator: "<TAB>"))")
                }
                continue
            }
            guard fields.count == Self.columns.count else {
                problems.append("\(path):\(index + 1): \(fields.count) columns, expected \(Self.columns.count) (\(Self.columns.joined(separator: ", ")))")
                continue
            }
            guard fields[2].count == 64, fields[2].allSatisfy(\.isHexDigit) else {
                problems.append("\(path):\(index + 1): sha256 '\(fields[2])' is not 64 hex digits")
                continue
            }
            if let problem = Self.confinementProblem(fields[1]) {
                problems.append("\(path):\(index + 1): file '\(fields[1])' \(problem); a manifest file is a relative path inside data/ such as corpora/NAME.txt")
                continue
            }
            entries.append(.init(name: fields[0], file: fields[1], sha256: fields[2], license: fields[3], source: fields[4], url: fields[5]))
        }
        if !problems.isEmpty { throw PipelineError(problems) }
        self.entries = entries
    }

    /// Why `file` would leave the data folder (absolute, a `..` component, empty), or nil.
    static func confinementProblem(_ file: String) -> String? {
        if file.isEmpty { return "is empty" }
        if file.hasPrefix("/") { return "is an absolute path" }
        if file.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." }) { return "leaves the data folder ('..')" }
        if file.utf8.contains(0) { return "holds a NUL byte" }
        return nil
    }

    /// Whether `path` (a ``localPath(of:)``), once symbolic links are resolved, is inside the data folder.
    public func isInsideDataDirectory(_ path: String) -> Bool {
        let root = URL(fileURLWithPath: dataDirectory).resolvingSymlinksInPath().path
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return resolved.hasPrefix(root + "/")
    }

    public func entry(named name: String) -> ManifestEntry? { entries.first { $0.name == name } }

    public func localPath(of entry: ManifestEntry) -> String { dataDirectory + "/" + entry.file }
}

extension CorpusManifest {
    /// The manifest beside a model file.
    public init(besideModel modelPath: String) throws {
        try self.init(path: URL(fileURLWithPath: modelPath).deletingLastPathComponent().appendingPathComponent("manifest.tsv").path)
    }

    /// The provisioned paths of `names` (a model's `what`: corpus, wordlist ...) with their
    /// expected sha256, or every problem: a name not in the manifest, a file not provisioned, a
    /// link leading outside `data/` (never read, nor its digest printed).
    public func resolve(_ names: [String], what: String, modelPath: String) -> (paths: [String], expected: [String: String], problems: [String]) {
        var paths: [String] = []
        var expected: [String: String] = [:]
        var problems: [String] = []
        for name in names {
            guard let entry = entry(named: name) else {
                problems.append("\(modelPath): \(what) \"\(name)\" is not in \(path); add it there or fix the name")
                continue
            }
            let local = localPath(of: entry)
            if !FileManager.default.fileExists(atPath: local) {
                problems.append("\(local): \(what) \"\(name)\" is not provisioned; run `make corpora` (it copies or downloads and checks sha256)")
                continue
            }
            if !isInsideDataDirectory(local) {
                problems.append("\(local): \(what) \"\(name)\" is a link to a file outside \(dataDirectory); provisioned files must be inside it (run `make corpora`)")
                continue
            }
            paths.append(local)
            expected[local] = entry.sha256
        }
        return (paths, expected, problems)
    }
}
