/// Why a corpus could not be read. Each description is one line for a person: the file, what is
/// wrong, and what to do about it.
public enum CorpusError: Error, Equatable, CustomStringConvertible, Sendable {
    case missing(String)
    case isDirectory(String)
    case unreadable(String, String)
    case corruptGzip(String, String)
    case binary(String, offset: Int)
    case invalidUTF8(String, [Diagnostic], total: Int)
    case empty(String)

    public var description: String {
        switch self {
        case .missing(let path):
            return "\(path): no such file; check the path (corpora named in a model file are provisioned by `make corpora`)"
        case .isDirectory(let path):
            return "\(path): is a directory, not a corpus file; name the text files inside it instead"
        case .unreadable(let path, let reason):
            return "\(path): cannot be read (\(reason)); check its permissions"
        case .corruptGzip(let path, let reason):
            return "\(path): corrupt gzip data (\(reason)); download or provision the file again"
        case .binary(let path, let offset):
            return "\(path): looks like a binary file (NUL byte at byte offset \(offset)); corpora must be UTF-8 text, optionally gzipped"
        case .invalidUTF8(let path, let diagnostics, let total):
            let shown = diagnostics.map { "line \($0.line), byte offset \($0.offset)" }.joined(separator: "; ")
            let more = total > diagnostics.count ? " and \(total - diagnostics.count) more" : ""
            return "\(path): invalid UTF-8 at \(shown)\(more); convert the file to UTF-8 (e.g. `iconv -f latin1 -t utf-8`) or pass --replace-invalid to substitute U+FFFD"
        case .empty(let path):
            return "\(path): contains no text (after removing any Project Gutenberg header and footer); give a corpus with at least one word"
        }
    }

    /// One problem at one place in a file.
    public struct Diagnostic: Equatable, Sendable {
        /// 1-based line number in the (decompressed) text.
        public var line: Int
        /// 0-based byte offset in the (decompressed) text.
        public var offset: Int
        public init(line: Int, offset: Int) { self.line = line; self.offset = offset }
    }
}
