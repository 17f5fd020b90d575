import Foundation

/// Alphabet evidence, the language identifier's third opinion: which letters each language
/// writes, and how often its text has a word with a letter outside them.
///
/// The n-gram models learn letters from the training text alone, so a language whose training
/// text lost its letters cannot learn them: langid-train's Turkish (UD BOUN) has every ç ğ ı ö ş
/// ü deleted ("Rzgr yine gl esiyordu."), and "Çok şıktı, çok iştah açıcıydı manzara." read as
/// Indonesian. Yet which letters a language is written with is known beforehand: each language's
/// alphabet is its main exemplar letters (Unicode CLDR, ``exemplars``), the basic Latin letters
/// a-z (every language borrows names, units and brands in them: "身長172cm" is Japanese), and
/// every letter found in at least ``dataShare`` of its training sentences (so a language outside
/// the table still gets an alphabet).
///
/// A text is cut into runs: maximal sequences of letters of one script (``WritingSystems``), so
/// "West Side Story" in a Chinese sentence is three Latin runs beside the Han ones. A run is
/// foreign to a language when it has a letter outside the language's alphabet. From its
/// training text, each language's rate q of foreign runs is estimated (add ½), and a text of r
/// runs, f of them foreign to the language, adds ``weight`` · (f · log q + (r − f) · log(1 − q))
/// to its score: an English sentence quoting "Sjögren" pays about what English training text
/// says such quotes cost, and a Turkish word pays nothing for Turkish but a great deal for
/// Indonesian, whose training sentences never had an ş.
///
/// Han, kana, Hangul, Thai and Devanagari count as whole scripts (``scriptLetters``): each is one
/// pseudo-letter, so Japanese writes Han and kana, Chinese Han alone.
public struct LanguageAlphabets: Sendable, Equatable {
    /// One language's alphabet and its training text's runs.
    public struct Alphabet: Sendable, Equatable {
        /// Lowercase letters and script pseudo-letters (``scriptLetters``), in code-point order.
        public var letters: [UInt32]
        /// Runs of letters in the training sentences.
        public var runs: Int
        /// Of those, runs with a letter outside ``letters``.
        public var foreignRuns: Int

        public init(letters: [UInt32], runs: Int, foreignRuns: Int) {
            self.letters = letters
            self.runs = runs
            self.foreignRuns = foreignRuns
        }

        /// log q and log(1 − q) of a foreign run, q estimated with add-½.
        public var logRates: (foreign: Float, native: Float) {
            let n = Double(runs) + 1
            return (Float(Foundation.log((Double(foreignRuns) + 0.5) / n)), Float(Foundation.log((Double(runs - foreignRuns) + 0.5) / n)))
        }
    }

    /// How much the evidence counts beside the other scores (1: as the probabilities it is).
    public var weight: Float
    /// By language id.
    public var alphabets: [Alphabet]

    public init(weight: Float, alphabets: [Alphabet]) {
        self.weight = weight
        self.alphabets = alphabets
    }

    /// A letter found in at least this share of a language's training sentences joins its alphabet.
    public static let dataShare = 0.01

    /// Pseudo-letters standing for whole scripts, with their ISO 15924 codes (`Hrkt`: hiragana
    /// and katakana).
    public static let scriptLetters: [(code: String, letter: UInt32)] = [
        ("Hani", 0x11_0000), ("Hrkt", 0x11_0001), ("Hang", 0x11_0002), ("Thai", 0x11_0003), ("Deva", 0x11_0004),
    ]

    /// Main exemplar letters of Unicode CLDR (common/main/*.xml, `exemplarCharacters`, lowercase)
    /// beyond the basic Latin a-z, which every alphabet gets; scripts counted whole are named by
    /// their ISO 15924 code in braces, and `{Cyrl}` / `{Grek}` only mark the script of the letters
    /// after them.
    public static let exemplars: [String: String] = [
        "cs": "áčďéěíňóřšťúůýž", "da": "åæø", "de": "äöüß", "en": "", "es": "áéíñóúü", "et": "äõöüšž",
        "fi": "åäöšž", "fr": "àâæçéèêëîïôœùûüÿ", "hr": "čćđšž", "hu": "áéíóöőúüű", "id": "", "is": "áðéíóöúýþæ",
        "it": "àèéìíîòóùú", "lt": "ąčęėįšųūž", "lv": "āčēģīķļņšūž", "ms": "", "nb": "åæøéóòâôê", "nl": "áäéëíïóöúü",
        "nn": "åæøéóòâôê", "no": "åæøéóòâôê", "pl": "ąćęłńóśźż", "pt": "áâãàçéêíóôõú", "ro": "ăâîșțşţ",
        "sk": "áäčďéíĺľňóôŕšťúýž", "sl": "čšž", "sq": "çë", "sv": "åäöàé", "tr": "çğıöşüâîû",
        "ru": "{Cyrl}абвгдеёжзийклмнопрстуфхцчшщъыьэюя", "uk": "{Cyrl}абвгґдеєжзиіїйклмнопрстуфхцчшщьюя’",
        "bg": "{Cyrl}абвгдежзийклмнопрстуфхцчшщъьюя", "be": "{Cyrl}абвгдеёжзійклмнопрстуўфхцчшыьэюя",
        "mk": "{Cyrl}абвгдѓежзѕијклљмнњопрстќуфхцчџш", "sr": "{Cyrl}абвгдђежзијклљмнњопрстћуфхцчџш",
        "el": "{Grek}αάβγδεέζηήθιίϊΐκλμνξοόπρσςτυύϋΰφχψωώ",
        "ja": "{Hani}{Hrkt}", "zh": "{Hani}", "ko": "{Hang}", "th": "{Thai}", "hi": "{Deva}", "mr": "{Deva}", "ne": "{Deva}",
    ]

    /// The alphabet letters CLDR gives a language code (nil for a code outside ``exemplars``).
    public static func exemplarLetters(of code: String) -> Set<UInt32>? {
        guard var text = exemplars[code] else { return nil }
        var letters = Set<UInt32>()
        for (code, letter) in scriptLetters where text.contains("{\(code)}") { letters.insert(letter) }
        if text.hasPrefix("{Cyrl}") || text.hasPrefix("{Grek}") { text.removeFirst(6) }
        if !text.hasPrefix("{") { for s in text.unicodeScalars where s.properties.isAlphabetic { letters.insert(s.value) } }
        return letters
    }

    /// The index in ``scriptLetters`` of a letter `v` of ``WritingSystems`` script `script` when
    /// that script is counted whole (kana apart from Han: ``WritingSystems`` counts them as one), nil for others.
    @inline(__always)
    static func wholeScript(_ v: UInt32, script: Int) -> Int? {
        switch script {
        case WritingSystems.han: return (0x3040...0x30FF).contains(v) || (0x31F0...0x31FF).contains(v) || (0xFF66...0xFF9F).contains(v) ? 1 : 0
        case WritingSystems.hangul: return 2
        case WritingSystems.thai: return 3
        case WritingSystems.devanagari: return 4
        default: return nil
        }
    }

    /// The script of a letter as runs are cut (``WritingSystems``), nil for what is not a letter
    /// there: also the ordinal indicators ª and º, which Unicode counts as letters but which write
    /// numbers ("1º") and, as often, stand in for the degree sign ("15 ºC").
    @inline(__always)
    static func script(_ v: UInt32) -> Int? {
        guard v != 0xAA && v != 0xBA, let s = Unicode.Scalar(v) else { return nil }
        return WritingSystems.script(s)
    }

    /// The alphabet key of letter `v` of script `script`: its script's pseudo-letter, or its simple
    /// lowercase (the first scalar of the full mapping: "İ" → "i").
    static func key(_ v: UInt32, script: Int) -> UInt32 {
        if let k = wholeScript(v, script: script) { return scriptLetters[k].letter }
        if v < 0x80 { return v | 0x20 }
        return Unicode.Scalar(v).flatMap { $0.properties.lowercaseMapping.unicodeScalars.first?.value } ?? v
    }

    /// Calls `letter(v, script)` for each letter of `text` (its scalar value and ``script(_:)``)
    /// and `gap()` for every other scalar, reading the UTF-8 bytes (ASCII without decoding; a
    /// `String` holds valid UTF-8, so the sequences are decoded without `Tokenizer.decode`'s
    /// checks, which cost the recognizer 8%): the one reading of a text into runs, for training
    /// and for scoring.
    @inline(__always)
    static func forEachLetter(of text: String, letter: (UInt32, Int) -> Void, gap: () -> Void) {
        var utf8 = text
        utf8.withUTF8 { bytes in
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                if b < 0x80 {
                    i += 1
                    if (b | 0x20) &- 0x61 < 26 { letter(UInt32(b), WritingSystems.latin) } else { gap() }
                    continue
                }
                var v: UInt32
                if b < 0xE0 {
                    v = UInt32(b & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F); i += 2
                } else if b < 0xF0 {
                    v = UInt32(b & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F); i += 3
                } else {
                    v = UInt32(b & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6 | UInt32(bytes[i + 3] & 0x3F)
                    i += 4
                }
                if let k = script(v) { letter(v, k) } else { gap() }
            }
        }
    }

    /// Calls `body` with each run of `text` (maximal letters of one ``WritingSystems`` script) as
    /// its keys (``key(_:script:)``).
    static func forEachRun(of text: String, _ body: ([UInt32]) -> Void) {
        var run: [UInt32] = []
        var current = -1
        func flush() { if !run.isEmpty { body(run); run.removeAll(keepingCapacity: true) } }
        forEachLetter(of: text, letter: { v, k in
            if k != current { flush() }
            current = k
            run.append(key(v, script: k))
        }, gap: flush)
        flush()
    }

    /// The alphabets of languages (codes by id) from their training sentences (by id).
    public static func train(codes: [String], texts: [[String]], weight: Float) -> LanguageAlphabets {
        let alphabets = zip(codes, texts).map { code, sentences -> Alphabet in
            var sentencesWith: [UInt32: Int] = [:]
            for text in sentences {
                var seen = Set<UInt32>()
                forEachRun(of: text) { seen.formUnion($0) }
                for letter in seen { sentencesWith[letter, default: 0] += 1 }
            }
            let least = max(2, Int((dataShare * Double(sentences.count)).rounded(.up)))
            var letters = exemplarLetters(of: code) ?? []
            letters.formUnion(0x61...0x7A)
            for (letter, n) in sentencesWith where n >= least { letters.insert(letter) }
            var runs = 0, foreign = 0
            for text in sentences {
                forEachRun(of: text) { run in
                    runs += 1
                    if run.contains(where: { !letters.contains($0) }) { foreign += 1 }
                }
            }
            return Alphabet(letters: letters.sorted(), runs: runs, foreignRuns: foreign)
        }
        return LanguageAlphabets(weight: weight, alphabets: alphabets)
    }

    /// An alphabet's letters as the store writes them: the letters in code-point order, then the
    /// pseudo-letters as their script codes in braces ("abc…z{Hani}").
    public static func text(of letters: [UInt32]) -> String {
        var text = ""
        for v in letters where v < 0x11_0000 { if let s = Unicode.Scalar(v) { text.unicodeScalars.append(s) } }
        for (code, letter) in scriptLetters where letters.contains(letter) { text += "{\(code)}" }
        return text
    }

    /// The letters of an alphabet's stored text (nil when a brace names no script counted whole).
    public static func letters(ofText text: String) -> [UInt32]? {
        var letters = Set<UInt32>()
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            for s in rest[..<open].unicodeScalars { letters.insert(s.value) }
            guard let close = rest[open...].firstIndex(of: "}"),
                  let letter = scriptLetters.first(where: { $0.code == rest[rest.index(after: open)..<close] })?.letter else { return nil }
            letters.insert(letter)
            rest = rest[rest.index(after: close)...]
        }
        for s in rest.unicodeScalars { letters.insert(s.value) }
        return letters.sorted()
    }
}

/// Alphabet evidence laid out for scoring (``LanguageAlphabets``): per letter, a bit set of the
/// languages whose alphabet has it, in tables indexed by code point for the Latin, Greek,
/// Cyrillic and extended Latin blocks, both cases filled, so a text costs one load per letter.
public struct LanguageAlphabetScorer: Sendable {
    public let languages: Int
    /// 64-bit words per bit set.
    private let words: Int
    /// Bit sets of U+0000-U+07FF, then U+1E00-U+1FFF.
    private let low: [UInt64]
    private let extended: [UInt64]
    /// Bit sets of the scripts counted whole (by ``LanguageAlphabets/scriptLetters`` index).
    private let whole: [UInt64]
    /// Bit sets of any other letter key.
    private let others: [UInt32: [UInt64]]
    /// Every language's bit set.
    private let all: [UInt64]
    /// weight · log q and weight · log(1 − q) per language.
    private let foreign: [Float], native: [Float]

    public init(_ model: LanguageAlphabets) {
        let L = model.alphabets.count, words = (L + 63) / 64
        languages = L
        self.words = words
        var sets: [UInt32: [UInt64]] = [:]
        for (l, alphabet) in model.alphabets.enumerated() {
            for letter in alphabet.letters { sets[letter, default: [UInt64](repeating: 0, count: words)][l / 64] |= 1 << UInt64(l % 64) }
        }
        let none = [UInt64](repeating: 0, count: words)
        func set(of v: UInt32) -> [UInt64] {
            guard let k = LanguageAlphabets.script(v) else { return none }
            return sets[LanguageAlphabets.key(v, script: k)] ?? none
        }
        low = (0..<0x800).flatMap { set(of: UInt32($0)) }
        extended = (0x1E00..<0x2000).flatMap { set(of: UInt32($0)) }
        whole = LanguageAlphabets.scriptLetters.flatMap { sets[$0.letter] ?? none }
        others = sets.filter { $0.key >= 0x800 && $0.key < 0x11_0000 && !(0x1E00..<0x2000).contains($0.key) }
        all = (0..<words).map { w in w < L / 64 ? ~0 : (1 << UInt64(L % 64)) &- 1 }
        let rates = model.alphabets.map(\.logRates)
        foreign = rates.map { model.weight * $0.foreign }
        native = rates.map { model.weight * $0.native }
    }

    /// Adds each language's alphabet evidence for `text` to `scores` (by language id).
    /// - Complexity: O(scalars + runs · languages), no allocation for texts of Latin, Greek,
    ///   Cyrillic or the scripts counted whole.
    public func add(_ text: String, to scores: inout [Float]) {
        let L = languages, words = self.words
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: words) { run in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: L) { foreignRuns in
                for l in 0..<L { foreignRuns[l] = 0 }
                var runs: Int32 = 0, script = -1, inRun = false
                func close() {
                    guard inRun else { return }
                    inRun = false
                    runs += 1
                    for w in 0..<words {
                        var foreignTo = ~run[w] & all[w]
                        while foreignTo != 0 {
                            foreignRuns[w << 6 | foreignTo.trailingZeroBitCount] += 1
                            foreignTo &= foreignTo &- 1
                        }
                    }
                }
                LanguageAlphabets.forEachLetter(of: text, letter: { v, k in
                    if k != script { close() }
                    script = k
                    if !inRun {
                        inRun = true
                        for w in 0..<words { run[w] = ~0 }
                    }
                    if v < 0x800 {
                        for w in 0..<words { run[w] &= low[Int(v) * words + w] }
                    } else if v >= 0x1E00 && v < 0x2000 {
                        for w in 0..<words { run[w] &= extended[Int(v - 0x1E00) * words + w] }
                    } else if let i = LanguageAlphabets.wholeScript(v, script: k) {
                        for w in 0..<words { run[w] &= whole[i * words + w] }
                    } else if let set = others[LanguageAlphabets.key(v, script: k)] {
                        for w in 0..<words { run[w] &= set[w] }
                    } else {
                        for w in 0..<words { run[w] = 0 }
                    }
                }, gap: { close() })
                close()
                for l in 0..<L { scores[l] += Float(foreignRuns[l]) * foreign[l] + Float(runs - foreignRuns[l]) * native[l] }
            }
        }
    }
}
