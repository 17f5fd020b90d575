/// One problem found in a wordlist, at one place: `FILE:LINE: error: what is wrong; what was expected`.
public struct WordlistDiagnostic: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable {
        /// The file cannot be imported as it is: no store is written.
        case error
        /// Imported, but not exactly as written (a duplicate dropped, CRLF stripped...): fails
        /// only under `--strict`.
        case warning
    }

    public var severity: Severity
    public var file: String
    /// 1-based line number in the decompressed text; nil for problems of the whole file.
    public var line: Int?
    public var message: String

    public init(_ severity: Severity, file: String, line: Int?, _ message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.message = message
    }

    /// `FILE:LINE` (or `FILE` for problems of the whole file).
    public var location: String { "\(file)\(line.map { ":\($0)" } ?? "")" }

    public var description: String { "\(location): \(severity.rawValue): \(message)" }
}

/// Why a wordlist import failed: every error (and, under `--strict`, every warning), in file order.
public struct WordlistError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [WordlistDiagnostic]
    /// Problems not listed because a file had more than ``WordlistReader/maximumDiagnosticsPerFile``.
    public var omitted: Int

    public init(diagnostics: [WordlistDiagnostic], omitted: Int = 0) {
        self.diagnostics = diagnostics
        self.omitted = omitted
    }

    public var description: String {
        var lines = diagnostics.map(\.description)
        if omitted > 0 { lines.append("… and \(omitted) more problem(s) of the same kinds (not listed)") }
        return lines.joined(separator: "\n")
    }
}
