import Foundation
import LexiforgeCorpus
import LexiforgeFormat

/// One swipe from a trace file, mapped into layout units.
///
/// Trace files are JSON Lines, one swipe per line:
/// `{"word": "hello", "layout": "qwerty", "keyboard": {"width": 413, "height": 241},
///   "keys": {"q": [x, y, w, h], …}, "points": [[x, y, t_ms], …]}`, pixels, y down; other fields
/// are ignored. The pixel → layout mapping is a per-axis least-squares fit of the given key
/// rectangles' centres onto the layout's key centres.
public struct SwipeTrace: Sendable {
    /// 1-based line in the file.
    public var line: Int
    public var word: String?
    public var layout: String?
    /// Points in layout units.
    public var points: [SwipePoint]
    /// Milliseconds, parallel to `points` (0 when the trace has none).
    public var times: [Double]
    /// Problems that did not stop the trace from being read (dropped points, times going back).
    public var warnings: [String]
    /// Who swiped (`"user"`), for splitting evaluations by person; nil when absent.
    public var user: String? = nil
    /// The words before this one in the sentence it was swiped in (from `"sentence"`, words
    /// separated by spaces or underscores; the first occurrence of `word`), nil when the trace
    /// has no sentence or the sentence lacks the word.
    public var context: [String]? = nil
    /// The device keyboard's row height in key widths, measured from the trace's key rectangles
    /// (row pitch / key pitch); the points' y is in key widths of this geometry.
    public var rowHeightRatio: Double
}

/// A line of a trace file that could not be read.
public struct SwipeTraceError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int
    public var reason: String
    public var description: String { "\(file):\(line): \(reason)" }
}

public enum SwipeTraceReader {
    /// How far outside the keyboard (key widths) a point may lie before it is dropped.
    public static let outsideMargin = 1.0

    /// Reads every line of a trace file (plain or gzipped); bad lines become errors, the rest traces.
    public static func read(path: String, layout: SwipeLayout) throws -> (traces: [SwipeTrace], errors: [SwipeTraceError]) {
        var data = Data()
        do {
            let source = try ByteSource(path: path)
            let capacity = 1 << 16
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            defer { buffer.deallocate() }
            while case let n = try source.read(into: buffer, capacity: capacity), n > 0 { data.append(buffer, count: n) }
        } catch {
            throw SwipeTraceError(file: path, line: 0, reason: "cannot read the trace file: \(error)")
        }
        var traces: [SwipeTrace] = [], errors: [SwipeTraceError] = []
        for (i, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty { continue }
            do {
                traces.append(try parse(text, line: i + 1, layout: layout))
            } catch {
                errors.append(SwipeTraceError(file: path, line: i + 1, reason: error.reason))
            }
        }
        return (traces, errors)
    }

    /// Parses one JSON line.
    public static func parse(_ text: String, line: Int, layout: SwipeLayout) throws(SwipeTraceError) -> SwipeTrace {
        func fail(_ reason: String) -> SwipeTraceError { SwipeTraceError(file: "", line: line, reason: reason) }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: Data(text.utf8)) } catch {
            throw fail("malformed JSON (\(error.localizedDescription))")
        }
        guard let dict = object as? [String: Any] else { throw fail("expected a JSON object per line") }
        let word = dict["word"] as? String
        let layoutName = dict["layout"] as? String
        if let layoutName, layoutName.lowercased() != layout.name {
            throw fail("trace layout `\(layoutName)` differs from the decoder's `\(layout.name)`")
        }
        guard let keys = dict["keys"] as? [String: Any], !keys.isEmpty else { throw fail("missing \"keys\": {letter: [x, y, w, h]}") }
        let (centres, malformed) = keyCentres(keys, layout: layout)
        if let malformed { throw fail("keys.\(malformed) must be [x, y, w, h]") }
        let px = centres.map { ($0.pixel.x, $0.layout.x) }, py = centres.map { ($0.pixel.y, $0.layout.y) }
        guard let (ax, bx) = fit(px), let (ay, by) = fit(py), ax > 0, ay > 0 else {
            throw fail("the key rectangles do not span two columns and two rows of the layout; cannot map pixels to keys")
        }
        // One scale on both axes (key widths), so distances keep the device's proportions: the
        // row pitch measured in key widths is the device's row height ratio.
        let ratio = layout.rowHeightRatio * ax / ay
        guard ratio > 0.5 && ratio < 3 else {
            throw fail(String(format: "the key rectangles give rows %.2f key widths tall; expected 0.5 to 3 (phones: 1.24 to 1.71)", ratio))
        }
        let fx = { (p: Double) in ax * p + bx }
        let fy = { (p: Double) in (ay * p + by) * ratio / layout.rowHeightRatio }
        guard let raw = dict["points"] as? [Any] else { throw fail("missing \"points\": [[x, y, t_ms], …]") }
        let bounds = (try? layout.withRowHeightRatio(ratio))?.bounds ?? layout.bounds
        var points: [SwipePoint] = [], times: [Double] = [], warnings: [String] = []
        var dropped = 0, backwards = 0
        for (k, item) in raw.enumerated() {
            guard let p = item as? [NSNumber], p.count >= 2 else { throw fail("points[\(k)] must be [x, y] or [x, y, t_ms]") }
            let x = fx(p[0].doubleValue), y = fy(p[1].doubleValue)
            guard x.isFinite, y.isFinite else { dropped += 1; continue }
            if x < bounds.minX - outsideMargin || x > bounds.maxX + outsideMargin
                || y < bounds.minY - outsideMargin || y > bounds.maxY + outsideMargin { dropped += 1; continue }
            var t = p.count >= 3 ? p[2].doubleValue : 0
            if let last = times.last, t < last { backwards += 1; t = last }
            points.append(SwipePoint(x: x, y: y)); times.append(t)
        }
        if dropped > 0 { warnings.append("line \(line): dropped \(dropped) point(s) more than \(outsideMargin) key width outside the keyboard") }
        if backwards > 0 { warnings.append("line \(line): \(backwards) timestamp(s) go backwards; kept the points in file order") }
        var trace = SwipeTrace(line: line, word: word, layout: layoutName, points: points, times: times, warnings: warnings,
                               rowHeightRatio: ratio)
        trace.user = dict["user"] as? String
        if let word, let sentence = dict["sentence"] as? String {
            let words = sentence.split(whereSeparator: { $0 == " " || $0 == "_" }).map(String.init)
            if let at = words.firstIndex(where: { $0.lowercased() == word.lowercased() }) { trace.context = Array(words[..<at]) }
        }
        return trace
    }

    /// The trace's keys of the layout as (letter, pixel centre, layout centre), in letter order, so
    /// the least-squares sums of ``fit(_:)`` add in the same order on every run (a dictionary's
    /// order changes from process to process, and with it the last bits of the fit and every
    /// score after it); letters the layout lacks are skipped. `malformed` is the first letter
    /// whose value is not `[x, y, w, h]`.
    public static func keyCentres(_ keys: [String: Any], layout: SwipeLayout)
        -> (centres: [(letter: String, pixel: SwipePoint, layout: SwipePoint)], malformed: String?) {
        var out: [(letter: String, pixel: SwipePoint, layout: SwipePoint)] = []
        for (letter, value) in keys.sorted(by: { $0.key < $1.key }) {
            guard letter.count == 1, let index = layout.index(of: Character(letter.lowercased())) else { continue }
            guard let rect = value as? [NSNumber], rect.count == 4 else { return (out, letter) }
            let r = rect.map(\.doubleValue)
            out.append((letter, SwipePoint(x: r[0] + r[2] / 2, y: r[1] + r[3] / 2), layout.keys[Int(index)].centre))
        }
        return (out, nil)
    }

    /// Least-squares `layout = a · pixel + b` as (a, b); nil when the pixels do not vary.
    static func fit(_ pairs: [(Double, Double)]) -> (Double, Double)? {
        guard pairs.count >= 2 else { return nil }
        let n = Double(pairs.count)
        let mx = pairs.reduce(0) { $0 + $1.0 } / n, my = pairs.reduce(0) { $0 + $1.1 } / n
        let sxx = pairs.reduce(0) { $0 + ($1.0 - mx) * ($1.0 - mx) }
        let sxy = pairs.reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
        guard sxx > 1e-9, abs(sxy) > 1e-9 else { return nil }
        let a = sxy / sxx, b = my - a * mx
        return (a, b)
    }
}

/// Writes traces in the JSON Lines format ``SwipeTraceReader`` reads.
public enum SwipeTraceWriter {
    /// A device: keyboard size in pixels; keys are `width / columns` wide and `rowHeightRatio`
    /// times that tall.
    public struct Device: Sendable {
        public var keyWidth: Double
        public init(keyWidth: Double = 41.3) { self.keyWidth = keyWidth }
    }

    /// One JSON line for a swipe of `word` (points in layout units, times in ms).
    public static func line(word: String, layout: SwipeLayout, points: [SwipePoint], times: [Double], device: Device = Device()) -> String {
        let s = device.keyWidth
        let b = layout.bounds
        var keys: [String: [Double]] = [:]
        for k in layout.keys {
            keys[String(k.letter)] = [round1((k.centre.x - k.width / 2 - b.minX) * s), round1((k.centre.y - k.height / 2 - b.minY) * s),
                                      round1(k.width * s), round1(k.height * s)]
        }
        let pts = zip(points, times).map { [round1(($0.x - b.minX) * s), round1(($0.y - b.minY) * s), $1.rounded()] }
        let object: [String: Any] = [
            "word": word, "layout": layout.name,
            "keyboard": ["width": round1((b.maxX - b.minX) * s), "height": round1((b.maxY - b.minY) * s)],
            "keys": keys, "points": pts,
        ]
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    private static func round1(_ v: Double) -> Double { (v * 10).rounded() / 10 }
}
