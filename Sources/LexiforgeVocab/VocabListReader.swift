import Foundation
import LexiforgeCorpus
import LexiforgeFormat

/// A column of a vocabulary list.
public enum VocabColumn: String, CaseIterable, Sendable, Hashable {
    case expression, reading, meaning, tags, level

    /// Header names recognized without a mapping (case-insensitive).
    public var headerNames: [String] {
        switch self {
        case .expression: ["expression", "word", "kanji", "term", "vocab"]
        case .reading: ["reading", "kana", "furigana", "pronunciation"]
        case .meaning: ["meaning", "english", "gloss", "definition", "translation"]
        case .tags: ["tags", "tag"]
        case .level: ["level", "jlpt"]
        }
    }

    /// Columns every list must have.
    public static let required: [VocabColumn] = [.expression, .reading, .meaning]
}

/// How level names are read from a level column and from tags.
public enum VocabLevelScheme: String, CaseIterable, Sendable {
    /// JLPT: `N1`…`N5` (also `5`, `JLPT_N5`, `JLPT_5` in a level column); tags `JLPT_N5` and
    /// `JLPT_5` name level N5, the tag `JLPT` alone names none, any other `JLPT_…` tag is an
    /// unknown level tag.
    case jlpt
    /// Any text in a level column is a level name; tags are never level tags.
    case free

    /// The level a level-column value names, nil when the scheme does not know it.
    public func level(column value: String) -> String? {
        switch self {
        case .free: return value
        case .jlpt:
            var v = Substring(value.uppercased())
            if v.hasPrefix("JLPT_") || v.hasPrefix("JLPT ") { v = v.dropFirst(5) }
            if v.hasPrefix("N") { v = v.dropFirst() }
            guard v.count == 1, let digit = v.first, ("1"..."5").contains(digit) else { return nil }
            return "N\(digit)"
        }
    }

    /// For a tag: `.level(name)`, `.unknownLevel` (looks like a level tag, names none), or `.other`.
    public func classify(tag: String) -> TagKind {
        switch self {
        case .free: return .other
        case .jlpt:
            guard tag.uppercased().hasPrefix("JLPT_") else { return .other }
            return level(column: tag).map(TagKind.level) ?? .unknownLevel
        }
    }

    public enum TagKind: Equatable, Sendable { case level(String), unknownLevel, other }
}

/// Options of ``VocabListReader``.
public struct VocabListOptions: Sendable, Equatable {
    public enum Format: String, CaseIterable, Sendable {
        /// From the extension: `.tsv`/`.tab`/`.txt` tab-separated, anything else CSV.
        case auto, csv, tsv
    }
    public var format: Format = .auto
    /// The first line names the columns.
    public var header = true
    /// Columns mapped by header name or 1-based number (`reading=kana`, `meaning=3`); columns
    /// not mapped are found by their usual header names (``VocabColumn/headerNames``).
    public var columns: [VocabColumn: String] = [:]
    public var levelScheme: VocabLevelScheme = .jlpt
    /// The level of rows that name none (nil: such a row is reported and skipped).
    public var defaultLevel: String?

    public init() {}

    /// Parses `expression=word,reading=2` into ``columns``; returns the problem, if any.
    public mutating func parseColumns(_ text: String) -> String? {
        for part in text.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, let column = VocabColumn(rawValue: pair[0].lowercased()), !pair[1].isEmpty else {
                return "--columns takes COLUMN=NAME-or-NUMBER pairs separated by commas (columns: \(VocabColumn.allCases.map(\.rawValue).joined(separator: ", "))), not \"\(part)\""
            }
            columns[column] = pair[1]
        }
        return nil
    }
}

/// One problem in a vocabulary list: where, and what to do.
public struct VocabDiagnostic: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }
    public var path: String
    /// 1-based line; 0 for the file as a whole.
    public var line: Int
    public var severity: Severity
    public var message: String

    public var location: String { line > 0 ? "\(path):\(line)" : path }
    public var description: String { "\(location): \(severity.rawValue): \(message)" }
}

/// A row of a list, as read.
public struct VocabListRow: Sendable, Equatable {
    public var path: String
    public var line: Int
    public var expression: String
    public var reading: String?
    public var meaning: String?
    public var levels: [String]
    /// Tags that are not level tags, in list order.
    public var tags: [String]
}

/// Summary of one list file.
public struct VocabListFile: Sendable, Equatable {
    public var path: String
    public var sha256: String
    public var bytes: Int
    public var rows: Int
}

/// Reads CSV (RFC 4180: quoted fields, doubled quotes, CRLF or LF, fields across lines) and TSV
/// vocabulary lists.
///
/// In: a file (plain or gzip), ``VocabListOptions``. Out: its rows in file order and every
/// problem: missing columns are an error for the file (no row read); a row with too few fields,
/// invalid UTF-8, an empty expression, an unknown level or level tag, or no level is a warning
/// naming FILE:LINE, and the row is skipped. A UTF-8 byte order mark is ignored.
public enum VocabListReader {
    public static func read(path: String, options: VocabListOptions) -> (rows: [VocabListRow], file: VocabListFile?, diagnostics: [VocabDiagnostic]) {
        var diagnostics: [VocabDiagnostic] = []
        func problem(_ line: Int, _ severity: VocabDiagnostic.Severity, _ message: String) {
            diagnostics.append(VocabDiagnostic(path: path, line: line, severity: severity, message: message))
        }
        var bytes: [UInt8] = []
        let sha256: String
        let stored: Int
        do {
            let source = try ByteSource(path: path)
            let chunk = 1 << 16
            var buffer = [UInt8](repeating: 0, count: chunk)
            while true {
                let n = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0.baseAddress!, capacity: chunk) }
                if n == 0 { break }
                bytes.append(contentsOf: buffer[0..<n])
            }
            sha256 = source.finalizeDigest()
            stored = source.storedBytes
        } catch {
            problem(0, .error, "\(error)")
            return ([], nil, diagnostics)
        }
        let tsv: Bool
        switch options.format {
        case .csv: tsv = false
        case .tsv: tsv = true
        case .auto:
            let name = path.lowercased().replacingOccurrences(of: ".gz", with: "")
            tsv = name.hasSuffix(".tsv") || name.hasSuffix(".tab") || name.hasSuffix(".txt")
        }
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        let records = tsv ? splitTSV(bytes, from: start) : splitCSV(bytes, from: start, problem: { problem($0, .warning, $1) })
        var rows: [VocabListRow] = []
        var mapping: [VocabColumn: Int] = [:]
        var width = 0
        var headerSeen = !options.header
        if !options.header {
            for column in VocabColumn.allCases {
                guard let spec = options.columns[column] else { continue }
                guard let number = Int(spec), number >= 1 else {
                    problem(0, .error, "--columns \(column.rawValue)=\(spec): without a header line columns are numbers from 1")
                    return ([], nil, diagnostics)
                }
                mapping[column] = number - 1
            }
            let missing = VocabColumn.required.filter { mapping[$0] == nil }
            if !missing.isEmpty {
                problem(0, .error, "no column for \(missing.map(\.rawValue).joined(separator: ", ")); without a header give them by number, e.g. --columns expression=1,reading=2,meaning=3")
                return ([], nil, diagnostics)
            }
        }
        var dataRows = 0
        for record in records {
            guard let fields = record.fields else {
                problem(record.line, .warning, "invalid UTF-8 at byte offset \(record.badOffset); the row is skipped (fix the file's encoding, it must be UTF-8)")
                continue
            }
            if fields.count == 1 && fields[0].trimmingCharacters(in: .whitespaces).isEmpty { continue }  // blank line
            if !headerSeen {
                headerSeen = true
                let names = fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                var missing: [String] = []
                for column in VocabColumn.allCases {
                    if let spec = options.columns[column] {
                        if let number = Int(spec), number >= 1, number <= names.count {
                            mapping[column] = number - 1
                        } else if let index = names.firstIndex(of: spec.lowercased()) {
                            mapping[column] = index
                        } else {
                            missing.append("\(column.rawValue) (--columns \(column.rawValue)=\(spec) names no column)")
                        }
                    } else if let index = names.firstIndex(where: column.headerNames.contains) {
                        mapping[column] = index
                    } else if VocabColumn.required.contains(column) {
                        missing.append(column.rawValue)
                    }
                }
                if !missing.isEmpty {
                    problem(record.line, .error, "no column for \(missing.joined(separator: ", ")); the header has \(fields.map { "\"\($0)\"" }.joined(separator: ", ")); map them with --columns, e.g. --columns expression=word,reading=kana,meaning=english")
                    return ([], nil, diagnostics)
                }
                width = names.count
                continue
            }
            dataRows += 1
            let needed = (mapping.values.max() ?? 0) + 1
            guard fields.count >= needed else {
                problem(record.line, .warning, "\(fields.count) field(s), but the columns need \(needed)\(width > 0 ? " (the header has \(width))" : ""); the row is skipped")
                continue
            }
            func value(_ column: VocabColumn) -> String? {
                guard let index = mapping[column] else { return nil }
                let text = fields[index].trimmingCharacters(in: .whitespaces)
                return text.isEmpty ? nil : text
            }
            guard let expression = value(.expression) else {
                problem(record.line, .warning, "empty expression; the row is skipped")
                continue
            }
            var levels: [String] = []
            var tags: [String] = []
            var bad: String?
            if let levelText = value(.level) {
                if let level = options.levelScheme.level(column: levelText) { levels.append(level) } else {
                    bad = "unknown level \"\(levelText)\"; \(options.levelScheme == .jlpt ? "JLPT levels are N1 to N5" : "")"
                }
            }
            for tag in (value(.tags) ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init) {
                switch options.levelScheme.classify(tag: tag) {
                case .level(let name): if !levels.contains(name) { levels.append(name) }
                case .unknownLevel: bad = "unknown level tag \"\(tag)\"; JLPT level tags are JLPT_N1 to JLPT_N5 (or JLPT_1 to JLPT_5)"
                case .other: if !tags.contains(tag) { tags.append(tag) }
                }
            }
            if let bad {
                problem(record.line, .warning, bad + "; the row is skipped")
                continue
            }
            if levels.isEmpty {
                guard let level = options.defaultLevel else {
                    problem(record.line, .warning, "no level (no level column value, no level tag); the row is skipped (give every row a level, or --level for rows without one)")
                    continue
                }
                levels.append(level)
            }
            rows.append(VocabListRow(path: path, line: record.line, expression: expression, reading: value(.reading),
                                     meaning: value(.meaning), levels: levels, tags: tags))
        }
        if !headerSeen {
            problem(0, .error, "empty list: no header line; a list starts with a header naming its columns (expression, reading, meaning, tags)")
            return ([], nil, diagnostics)
        }
        return (rows, VocabListFile(path: path, sha256: sha256, bytes: stored, rows: dataRows), diagnostics)
    }

    /// A record: its first line, and its fields, or nil with the offset of invalid UTF-8.
    struct Record {
        var line: Int
        var fields: [String]?
        var badOffset: Int = 0
    }

    static func decode(_ bytes: ArraySlice<UInt8>) -> String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// The file offset of the first byte that does not start a valid UTF-8 sequence.
    static func firstInvalidOffset(_ bytes: ArraySlice<UInt8>) -> Int {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            let length = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0
            if length == 0 || i + length > bytes.endIndex || decode(bytes[i..<(i + length)]) == nil { return i }
            i += length
        }
        return i
    }

    /// Lines split at LF (a CR before it dropped), fields at TAB.
    static func splitTSV(_ bytes: [UInt8], from start: Int) -> [Record] {
        var records: [Record] = []
        var line = 1, i = start
        while i < bytes.count {
            var end = i
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var stop = end
            if stop > i && bytes[stop - 1] == 0x0D { stop -= 1 }
            let slice = bytes[i..<stop]
            if let text = decode(slice) {
                records.append(Record(line: line, fields: text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)))
            } else {
                records.append(Record(line: line, fields: nil, badOffset: firstInvalidOffset(slice)))
            }
            line += 1
            i = end + 1
        }
        return records
    }

    /// RFC 4180 records: fields in double quotes may hold commas, line breaks and doubled quotes.
    static func splitCSV(_ bytes: [UInt8], from start: Int, problem: (Int, String) -> Void) -> [Record] {
        var records: [Record] = []
        var line = 1, i = start
        let n = bytes.count
        while i < n {
            let recordLine = line
            let recordStart = i
            var fieldBytes: [[UInt8]] = []
            var field: [UInt8] = []
            var quoted = false, wasQuoted = false
            var done = false
            while i < n && !done {
                let b = bytes[i]
                if quoted {
                    if b == 0x22 {
                        if i + 1 < n && bytes[i + 1] == 0x22 { field.append(0x22); i += 2; continue }
                        quoted = false
                    } else {
                        if b == 0x0A { line += 1 }
                        field.append(b)
                    }
                    i += 1
                    continue
                }
                switch b {
                case 0x22 where field.isEmpty && !wasQuoted:
                    quoted = true
                    wasQuoted = true
                case 0x2C:
                    fieldBytes.append(field)
                    field = []
                    wasQuoted = false
                case 0x0D where i + 1 < n && bytes[i + 1] == 0x0A:
                    break
                case 0x0A:
                    done = true
                    line += 1
                default:
                    field.append(b)
                }
                i += 1
            }
            if quoted { problem(recordLine, "a quoted field is not closed before the end of the file; the rest of the file was read as that field") }
            fieldBytes.append(field)
            var fields: [String] = []
            var bad: Int?
            for f in fieldBytes {
                guard let text = String(validating: f, as: UTF8.self) else {
                    bad = firstInvalidOffset(bytes[recordStart..<i])
                    break
                }
                fields.append(text)
            }
            records.append(bad.map { Record(line: recordLine, fields: nil, badOffset: $0) } ?? Record(line: recordLine, fields: fields))
        }
        return records
    }
}
