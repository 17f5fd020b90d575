/// Removes Project Gutenberg boilerplate from a stream of lines.
///
/// Recognised markers (case-insensitive, leading spaces ignored):
/// - start of a book: `*** START OF THIS PROJECT GUTENBERG EBOOK … ***` (old editions),
///   `*** START OF THE PROJECT GUTENBERG EBOOK … ***` (new), with or without the space after
///   `***`; very old editions end their header with `*END*THE SMALL PRINT! …`;
/// - end of a book: `*** END OF THIS/THE PROJECT GUTENBERG EBOOK … ***`, and the line
///   `End of (the) Project Gutenberg('s/’s) EBook …` that often precedes it.
///
/// A marker line that does not close with `***` wraps onto the following lines (Sherlock Holmes:
/// `… THE ADVENTURES OF SHERLOCK` / `HOLMES ***`); those lines are part of the marker.
///
/// A file need not carry any boilerplate: lines are held back only until either a start marker
/// appears (everything held is header and is dropped) or ``lookahead`` lines (``lookaheadBytes``) have passed without
/// one (everything held is text). After an end marker, lines are dropped until the next start
/// marker, so concatenated books (as in the Gutenberg benchmark corpora) lose every header and
/// every license.
struct GutenbergFilter {
    /// How many lines a header may take before the start marker. Real headers take 15–400.
    static let lookahead = 1000
    /// How many bytes a header may take before the start marker (real ones: a few KB). Held lines
    /// stop at this too, so a file of long lines is not held in memory while the filter waits.
    static let lookaheadBytes = 1 << 22

    private enum State { case searching, body, footer, wrappedStart, wrappedEnd }
    private var state: State
    private var held: [[UInt8]] = []
    private var heldBytes = 0
    private(set) var droppedLines = 0
    private var wrapLines = 0

    init(enabled: Bool) { state = enabled ? .searching : .body; enabledFlag = enabled }
    private let enabledFlag: Bool

    mutating func process(
        _ line: UnsafeBufferPointer<UInt8>, emit: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        guard enabledFlag else { return try emit(line) }
        switch state {
        case .body:
            switch Self.classify(line) {
            case .end(let closed):
                droppedLines += 1
                state = closed ? .footer : .wrappedEnd
                wrapLines = 0
            case .endLine:
                droppedLines += 1
                state = .footer
            case .start(let closed):
                // A second book begins without an end marker for the first.
                droppedLines += 1
                state = closed ? .body : .wrappedStart
                wrapLines = 0
            case .none:
                try emit(line)
            }
        case .searching:
            switch Self.classify(line) {
            case .start(let closed):
                droppedLines += held.count + 1
                held.removeAll()
                state = closed ? .body : .wrappedStart
                wrapLines = 0
            case .end(let closed):
                // A footer without header: what came before was text.
                try flushHeld(emit)
                droppedLines += 1
                state = closed ? .footer : .wrappedEnd
            case .endLine:
                try flushHeld(emit)
                droppedLines += 1
                state = .footer
            case .none:
                held.append(Array(line))
                heldBytes += line.count
                if held.count >= Self.lookahead || heldBytes >= Self.lookaheadBytes {
                    try flushHeld(emit)
                    state = .body
                }
            }
        case .wrappedStart, .wrappedEnd:
            droppedLines += 1
            wrapLines += 1
            if Self.endsWithStars(line) || wrapLines >= 3 {
                state = state == .wrappedStart ? .body : .footer
            }
        case .footer:
            droppedLines += 1
            if case .start(let closed) = Self.classify(line) {
                state = closed ? .body : .wrappedStart
                wrapLines = 0
            }
        }
    }

    mutating func finish(emit: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        if state == .searching { try flushHeld(emit) }
    }

    private mutating func flushHeld(_ emit: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        for line in held { try line.withUnsafeBufferPointer { try emit($0) } }
        held.removeAll()
    }

    enum Marker: Equatable { case none, start(closed: Bool), end(closed: Bool), endLine }

    static func classify(_ line: UnsafeBufferPointer<UInt8>) -> Marker {
        var i = 0
        while i < line.count, line[i] == 0x20 || line[i] == 0x09 { i += 1 }
        guard i < line.count else { return .none }
        let first = line[i]
        guard first == UInt8(ascii: "*") || first == UInt8(ascii: "E") || first == UInt8(ascii: "e") else {
            return .none
        }
        if first != UInt8(ascii: "*") {
            // Cheap rejection of the many ordinary lines that start with "E".
            let prefix = Array("END OF ".utf8)
            guard line.count - i >= 24 else { return .none }
            for k in 0..<prefix.count where line[i + k] & 0xDF != prefix[k] & 0xDF { return .none }
        }
        let upper = String(decoding: UnsafeBufferPointer(rebasing: line[i...]), as: UTF8.self).uppercased()
        if upper.hasPrefix("***") {
            let rest = upper.drop { $0 == "*" || $0 == " " }
            let closed = endsWithStars(line) && upper.count > 3 && rest.contains("***")
            if rest.hasPrefix("START OF THIS PROJECT GUTENBERG") || rest.hasPrefix("START OF THE PROJECT GUTENBERG") {
                return .start(closed: closed)
            }
            if rest.hasPrefix("END OF THIS PROJECT GUTENBERG") || rest.hasPrefix("END OF THE PROJECT GUTENBERG") {
                return .end(closed: closed)
            }
            return .none
        }
        if upper.hasPrefix("*END*THE SMALL PRINT") || upper.hasPrefix("*END THE SMALL PRINT") {
            return .start(closed: true)
        }
        if upper.hasPrefix("END OF THE PROJECT GUTENBERG") || upper.hasPrefix("END OF PROJECT GUTENBERG") {
            return .endLine
        }
        return .none
    }

    static func endsWithStars(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var j = line.count
        while j > 0, line[j - 1] == 0x20 || line[j - 1] == 0x09 { j -= 1 }
        return j >= 3 && line[j - 1] == UInt8(ascii: "*") && line[j - 2] == UInt8(ascii: "*")
            && line[j - 3] == UInt8(ascii: "*")
    }
}
