import Foundation

/// A point in layout units: x in key widths, y in key widths too (a row is
/// ``SwipeLayout/rowHeightRatio`` key widths tall), y growing downwards.
public struct SwipePoint: Sendable, Equatable, Codable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    @inlinable public func distance(to other: SwipePoint) -> Double {
        let dx = x - other.x, dy = y - other.y
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// Why a layout could not be built or used.
public enum SwipeLayoutError: Error, CustomStringConvertible, Sendable, Equatable {
    case unknownLayout(String)
    case unreadable(String, String)
    case invalid(String, String)

    public var description: String {
        switch self {
        case .unknownLayout(let name):
            return "layout `\(name)` is unknown; use qwerty, qwertz, azerty or a JSON layout file (see README, Swipe)"
        case .unreadable(let path, let reason): return "\(path): cannot read the layout: \(reason)"
        case .invalid(let path, let reason): return "\(path): invalid layout: \(reason)"
        }
    }
}

/// A keyboard layout as data: letter keys with centres and sizes in key-width units.
///
/// Built-ins: ``qwerty`` (en_US), ``qwertz`` (de), ``azerty`` (fr). Custom layouts come from JSON:
/// ```json
/// {"name": "abc", "rowHeightRatio": 1.4,
///  "rows": [{"keys": "abcdefghij", "offset": 0}, {"keys": "klmnopqrs", "offset": 0.5}],
///  "keys": {"t": [1.0, 2.5, 1.0, 1.0]}}
/// ```
/// `rows` place keys one key width apart starting at `offset`; `keys` (optional) give explicit
/// `[centreX, centreRow, width, height]` (or `keyList`: `[[letter, centreX, centreRow, width,
/// height], …]` in index order, as the store keeps layouts), x and width in key widths, row and height in rows. Real
/// phones have 1.24 to 1.71 key widths per row height; ``rowHeightRatio`` converts rows to key
/// widths so every distance the decoder uses is in key widths.
public struct SwipeLayout: Sendable, Equatable {
    public struct Key: Sendable, Equatable {
        /// The letter (lowercase, one Character).
        public var letter: Character
        /// Centre in layout units (key widths on both axes).
        public var centre: SwipePoint
        /// Width and height in key widths.
        public var width: Double
        public var height: Double
    }

    public var name: String
    /// Row height / key width (1.24...1.71 on real phones).
    public var rowHeightRatio: Double
    /// Keys in index order (the index is what the store's key paths hold).
    public private(set) var keys: [Key]
    private var indexByLetter: [Character: UInt8]

    /// Builds a layout from rows of letters (`offset` in key widths) and explicit keys
    /// `letter: [centreX, centreRow, width, height]`.
    public init(name: String, rows: [(keys: String, offset: Double)], explicit: [(Character, [Double])] = [],
                rowHeightRatio: Double = 1.5) throws {
        guard rowHeightRatio > 0.5 && rowHeightRatio < 3 else {
            throw SwipeLayoutError.invalid(name, "rowHeightRatio \(rowHeightRatio) is outside 0.5...3 (phones: 1.24...1.71)")
        }
        self.name = name
        self.rowHeightRatio = rowHeightRatio
        keys = []
        indexByLetter = [:]
        var placed: [(Character, Double, Double, Double, Double)] = []
        for (row, line) in rows.enumerated() {
            for (i, letter) in line.keys.lowercased().enumerated() {
                placed.append((letter, line.offset + Double(i) + 0.5, Double(row) + 0.5, 1, 1))
            }
        }
        for (letter, values) in explicit {
            guard values.count == 4, values[2] > 0, values[3] > 0 else {
                throw SwipeLayoutError.invalid(name, "key `\(letter)` needs [centreX, centreRow, width, height] with positive sizes")
            }
            placed.append((Character(letter.lowercased()), values[0], values[1], values[2], values[3]))
        }
        guard placed.count >= 2 else { throw SwipeLayoutError.invalid(name, "a layout needs at least two keys") }
        guard placed.count < 255 else { throw SwipeLayoutError.invalid(name, "at most 254 keys") }
        for (letter, x, row, w, h) in placed {
            guard indexByLetter[letter] == nil else { throw SwipeLayoutError.invalid(name, "key `\(letter)` appears twice") }
            indexByLetter[letter] = UInt8(keys.count)
            keys.append(Key(letter: letter, centre: SwipePoint(x: x, y: row * rowHeightRatio), width: w, height: h * rowHeightRatio))
        }
    }

    public static let qwerty = try! SwipeLayout(name: "qwerty", rows: [("qwertyuiop", 0), ("asdfghjkl", 0.5), ("zxcvbnm", 1.5)])
    public static let qwertz = try! SwipeLayout(name: "qwertz", rows: [("qwertzuiopü", 0), ("asdfghjklöä", 0), ("yxcvbnm", 1.5)])
    public static let azerty = try! SwipeLayout(name: "azerty", rows: [("azertyuiop", 0), ("qsdfghjklm", 0), ("wxcvbn", 1.5)])
    public static let builtIn: [SwipeLayout] = [.qwerty, .qwertz, .azerty]

    /// A built-in layout by name, or a JSON layout file by path; `rowHeightRatio` overrides the
    /// layout's own.
    public static func named(_ nameOrPath: String, rowHeightRatio: Double? = nil) throws -> SwipeLayout {
        var layout: SwipeLayout
        if let builtIn = builtIn.first(where: { $0.name == nameOrPath.lowercased() }) {
            layout = builtIn
        } else if nameOrPath.hasSuffix(".json") || FileManager.default.fileExists(atPath: nameOrPath) {
            guard let data = FileManager.default.contents(atPath: nameOrPath) else {
                throw SwipeLayoutError.unreadable(nameOrPath, "no such file")
            }
            layout = try fromJSON(data, source: nameOrPath)
        } else {
            throw SwipeLayoutError.unknownLayout(nameOrPath)
        }
        if let rowHeightRatio { layout = try layout.withRowHeightRatio(rowHeightRatio) }
        return layout
    }

    /// Parses a custom layout (format in the type's discussion).
    public static func fromJSON(_ data: Data, source: String = "layout") throws -> SwipeLayout {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw SwipeLayoutError.invalid(source, "not JSON (\(error.localizedDescription))")
        }
        guard let dict = object as? [String: Any] else { throw SwipeLayoutError.invalid(source, "expected a JSON object") }
        let name = dict["name"] as? String ?? URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
        let ratio = (dict["rowHeightRatio"] as? NSNumber)?.doubleValue ?? 1.5
        var rows: [(String, Double)] = []
        for (i, row) in ((dict["rows"] as? [Any]) ?? []).enumerated() {
            guard let r = row as? [String: Any], let keys = r["keys"] as? String else {
                throw SwipeLayoutError.invalid(source, "rows[\(i)] needs a \"keys\" string")
            }
            rows.append((keys, (r["offset"] as? NSNumber)?.doubleValue ?? 0))
        }
        var explicit: [(Character, [Double])] = []
        for (i, item) in ((dict["keyList"] as? [Any]) ?? []).enumerated() {
            guard let list = item as? [Any], list.count == 5, let letter = list[0] as? String, letter.count == 1,
                  case let numbers = list.dropFirst().compactMap({ ($0 as? NSNumber)?.doubleValue }), numbers.count == 4
            else { throw SwipeLayoutError.invalid(source, "keyList[\(i)] must be [letter, centreX, centreRow, width, height]") }
            explicit.append((Character(letter), numbers))
        }
        for (letter, value) in ((dict["keys"] as? [String: Any]) ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard letter.count == 1, let values = value as? [NSNumber] else {
                throw SwipeLayoutError.invalid(source, "keys.\(letter) must be one letter mapped to [centreX, centreRow, width, height]")
            }
            explicit.append((Character(letter), values.map(\.doubleValue)))
        }
        return try SwipeLayout(name: name, rows: rows.map { (keys: $0.0, offset: $0.1) }, explicit: explicit, rowHeightRatio: ratio)
    }

    /// The layout as JSON with every key explicit, in index order (what the store keeps, so a
    /// custom layout reads back exactly).
    public func jsonDefinition() -> String {
        let list = keys.map { k -> [Any] in
            [String(k.letter), k.centre.x, k.centre.y / rowHeightRatio, k.width, k.height / rowHeightRatio]
        }
        let object: [String: Any] = ["name": name, "rowHeightRatio": rowHeightRatio, "keyList": list]
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// The same keys with another row height; centres move, key indices stay.
    public func withRowHeightRatio(_ ratio: Double) throws -> SwipeLayout {
        guard ratio > 0.5 && ratio < 3 else {
            throw SwipeLayoutError.invalid(name, "rowHeightRatio \(ratio) is outside 0.5...3 (phones: 1.24...1.71)")
        }
        var copy = self
        copy.rowHeightRatio = ratio
        copy.keys = keys.map { key in
            var k = key
            k.centre.y = key.centre.y / rowHeightRatio * ratio
            k.height = key.height / rowHeightRatio * ratio
            return k
        }
        return copy
    }

    /// The key index of a letter on this layout, nil when it has none.
    public func index(of letter: Character) -> UInt8? { indexByLetter[letter] }

    /// Key width, in key widths, of the whole keyboard and its height.
    public var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        var b = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for k in keys {
            b.0 = min(b.0, k.centre.x - k.width / 2); b.1 = min(b.1, k.centre.y - k.height / 2)
            b.2 = max(b.2, k.centre.x + k.width / 2); b.3 = max(b.3, k.centre.y + k.height / 2)
        }
        return b
    }

    /// Base letters for characters a layout usually lacks (after lowercasing and before diacritic
    /// stripping): ß→s, æ→a, œ→o, ø→o, ł→l, đ→d, ð→d, þ→t, ı→i.
    public static let specialBases: [Character: Character] = [
        "ß": "s", "æ": "a", "œ": "o", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "t", "ı": "i",
    ]

    /// Characters skipped when mapping a word: apostrophes, hyphens, periods, spaces.
    public static let skipped: Set<Character> = ["'", "’", "-", "‐", "–", ".", " "]

    /// The key path of a word: each letter mapped to its key (the letter itself when the layout
    /// has it, else its base: ä→a, é→e, ß→s), apostrophes/hyphens/periods skipped, consecutive
    /// repeats collapsed ("off" and "of", "it's" and "its" give the same path).
    ///
    /// Returns nil when a character has no key (a digit, a letter of another script) or when no
    /// letter is left: such words get no swipe features.
    public func keyPath(of word: String) -> [UInt8]? {
        var path: [UInt8] = []
        for character in word.lowercased() {
            if Self.skipped.contains(character) { continue }
            guard let key = keyIndex(for: character) else { return nil }
            if path.last != key { path.append(key) }
        }
        return path.isEmpty ? nil : path
    }

    /// The key for one (lowercase) character, nil when it has none.
    public func keyIndex(for character: Character) -> UInt8? {
        if let i = indexByLetter[character] { return i }
        if let base = Self.specialBases[character], let i = indexByLetter[base] { return i }
        // Strip combining marks: é → e, ü → u (when the layout has no ü).
        let scalars = String(character).decomposedStringWithCanonicalMapping.unicodeScalars
        guard let first = scalars.first else { return nil }
        let base = Character(first)
        return base == character ? nil : indexByLetter[base]
    }
}
