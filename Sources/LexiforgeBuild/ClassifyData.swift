import Foundation
import LexiforgeClassify
import LexiforgeCorpus

/// Labeled texts read for `classify train` and `eval classify`, with what was skipped.
public struct ClassifyData: Sendable {
    public var documents: [LabeledDocument] = []
    /// Problems that skipped a file or line (with `strict` they are errors instead).
    public var warnings: [String] = []
    /// Per input file, in reading order (provenance).
    public var inputs: [(file: String, sha256: String, bytes: Int)] = []
    /// sha256 over the inputs' relative paths and digests: one digest for a whole folder.
    public var digest: String = ""

    /// Reads labeled texts from each source: a folder of label folders (one text per file, the
    /// folder name is the label: Create ML's labeled directories), a JSON Lines file (`text` and
    /// `label` per line) or a CSV file (a header naming `text` and `label` columns; quotes per
    /// RFC 4180). Files and folders are read in byte order of their names, so the same data gives
    /// the same documents in the same order.
    ///
    /// - Throws: ``PipelineError`` with every problem: a missing source, an empty folder, a bad
    ///   line (file:line), and with `strict`, unreadable or non-UTF-8 files (otherwise skipped
    ///   with a warning naming them).
    public static func read(_ sources: [String], strict: Bool) throws -> ClassifyData {
        var data = ClassifyData()
        var problems: [String] = []
        var digestLines: [String] = []
        for source in sources {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) else {
                problems.append("\(source): no such file or folder; give a folder of label folders, a .jsonl or a .csv file")
                continue
            }
            if isDirectory.boolValue {
                data.readDirectories(source, problems: &problems, digestLines: &digestLines)
            } else {
                guard let (bytes, sha) = data.readFile(source, problems: &problems) else { continue }
                digestLines.append("\(sha)  \(source)")
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    problems.append("\(source): invalid UTF-8 at byte offset \(firstInvalidUTF8(bytes)); convert it to UTF-8 (e.g. `iconv -f latin1 -t utf-8`)")
                    continue
                }
                if source.hasSuffix(".csv") || source.hasSuffix(".csv.gz") {
                    data.readCSV(text, path: source, problems: &problems)
                } else {
                    data.readJSONLines(text, path: source, problems: &problems)
                }
            }
        }
        if strict { problems += data.warnings.map { $0 + " (--strict)" }; data.warnings = [] }
        if problems.isEmpty {
            let labels = Set(data.documents.map(\.label))
            if data.documents.isEmpty {
                problems.append("\(sources.joined(separator: ", ")): no labeled texts found; a labeled folder holds one folder per label with one text file per document")
            } else if labels.count < 2 {
                problems.append("\(sources.joined(separator: ", ")): only one label (\(labels.first!)); a classifier needs texts of at least two labels")
            }
        }
        if !problems.isEmpty { throw PipelineError(problems) }
        data.digest = ByteDigest.sha256(Array(digestLines.joined(separator: "\n").utf8))
        return data
    }

    mutating func readFile(_ path: String, problems: inout [String]) -> ([UInt8], String)? {
        do {
            let source = try ByteSource(path: path)
            var bytes: [UInt8] = []
            let capacity = 1 << 16
            let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            defer { chunk.deallocate() }
            while true {
                let n = try source.read(into: chunk, capacity: capacity)
                if n == 0 { break }
                bytes.append(contentsOf: UnsafeBufferPointer(start: chunk, count: n))
            }
            let sha = source.finalizeDigest()
            inputs.append((path, sha, source.storedBytes))
            return (bytes, sha)
        } catch {
            problems.append(error.description)
            return nil
        }
    }

    mutating func readDirectories(_ root: String, problems: inout [String], digestLines: inout [String]) {
        let byBytes: (String, String) -> Bool = { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        let labels = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory) && isDirectory.boolValue
        }.sorted(by: byBytes)
        if labels.isEmpty {
            problems.append("\(root): no label folders inside; a labeled folder holds one folder per label (pos/, neg/) with one text file per document")
            return
        }
        for label in labels {
            let folder = root + "/" + label
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted(by: byBytes)
            var count = 0
            for name in files {
                let path = folder + "/" + name
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { continue }
                var fileProblems: [String] = []
                guard let (bytes, sha) = readFile(path, problems: &fileProblems) else {
                    warnings += fileProblems.map { $0 + "; skipped" }
                    continue
                }
                digestLines.append("\(sha)  \(label)/\(name)")
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    warnings.append("\(path): invalid UTF-8 at byte offset \(firstInvalidUTF8(bytes)); skipped (convert it to UTF-8)")
                    continue
                }
                documents.append(LabeledDocument(text: text, label: label, source: path))
                count += 1
            }
            if count == 0 { problems.append("\(folder): label folder \"\(label)\" holds no readable text files; add documents or remove the folder") }
        }
    }

    mutating func readJSONLines(_ text: String, path: String, problems: inout [String]) {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.allSatisfy(\.isWhitespace) { continue }
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let body = object["text"] as? String, let label = object["label"] as? String ?? (object["label"] as? NSNumber)?.stringValue else {
                problems.append("\(path):\(index + 1): not a JSON object with string \"text\" and \"label\"; each line is {\"text\": \"...\", \"label\": \"...\"}")
                continue
            }
            documents.append(LabeledDocument(text: body, label: label, source: "\(path):\(index + 1)"))
        }
    }

    mutating func readCSV(_ text: String, path: String, problems: inout [String]) {
        let (rows, error) = CSV.parse(text)
        if let error { problems.append("\(path):\(error.line): \(error.message)"); return }
        guard let header = rows.first?.fields, let textColumn = header.firstIndex(of: "text"), let labelColumn = header.firstIndex(of: "label") else {
            problems.append("\(path):1: the header must name a \"text\" and a \"label\" column")
            return
        }
        for row in rows.dropFirst() {
            if row.fields.count == 1 && row.fields[0].isEmpty { continue }
            guard row.fields.count == header.count else {
                problems.append("\(path):\(row.line): \(row.fields.count) fields, but the header has \(header.count)")
                continue
            }
            documents.append(LabeledDocument(text: row.fields[textColumn], label: row.fields[labelColumn], source: "\(path):\(row.line)"))
        }
    }
}

/// The byte offset of the first invalid UTF-8 sequence in `bytes` (bytes.count when valid).
func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    var offset = 0
    while true {
        switch parser.parseScalar(from: &iterator) {
        case .valid(let encoded): offset += encoded.count
        case .emptyInput: return offset
        case .error: return offset
        }
    }
}

/// RFC 4180 CSV: fields separated by commas, quoted with `"` (doubled inside), records by LF or CRLF.
enum CSV {
    struct Row { var line: Int; var fields: [String] }
    struct ParseError { var line: Int; var message: String }

    static func parse(_ text: String) -> ([Row], ParseError?) {
        var rows: [Row] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1, rowLine = 1
        var quoted = false, wasQuoted = false
        let bytes = Array(text.utf8)
        var i = 0
        func endField() { fields.append(String(decoding: field, as: UTF8.self)); field = []; wasQuoted = false }
        while i < bytes.count {
            let c = bytes[i]
            if quoted {
                if c == 0x22 {
                    if i + 1 < bytes.count && bytes[i + 1] == 0x22 { field.append(0x22); i += 2; continue }
                    quoted = false
                } else {
                    if c == 0x0A { line += 1 }
                    field.append(c)
                }
            } else if c == 0x22 && field.isEmpty && !wasQuoted {
                quoted = true
                wasQuoted = true
            } else if c == 0x2C {
                endField()
            } else if c == 0x0A || (c == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A) {
                endField()
                rows.append(Row(line: rowLine, fields: fields))
                fields = []
                if c == 0x0D { i += 1 }
                line += 1
                rowLine = line
            } else if wasQuoted {
                return (rows, ParseError(line: line, message: "text after a closing quote; a quote inside a quoted field is written twice (\"\")"))
            } else {
                field.append(c)
            }
            i += 1
        }
        if quoted { return (rows, ParseError(line: rowLine, message: "a quoted field is not closed before the end of the file")) }
        if !field.isEmpty || !fields.isEmpty || wasQuoted { endField(); rows.append(Row(line: rowLine, fields: fields)) }
        return (rows, nil)
    }
}
