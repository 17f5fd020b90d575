import Foundation

/// Unicode normalization applied to every token (recorded in a store's provenance).
public enum UnicodeNormalization: String, Sendable, CaseIterable, Codable {
    /// Tokens as written.
    case none
    /// Canonical composition: "e" + U+0301 becomes "é"; what looks the same counts the same.
    case nfc
    /// Compatibility composition: also folds ligatures (ﬁ → fi), full-width letters (Ａ → A),
    /// superscripts (² → 2).
    case nfkc
}

/// The class token that replaces numbers under ``TextOptions/numberClass``.
public let numberClassToken = "<num>"

extension TextOptions {
    /// Whether any option changes a token's bytes beyond ASCII lowercasing.
    var rewritesTokens: Bool { normalization != .none || straightQuotes || numberClass }

    /// Appends the token's bytes as ``normalize(_:)`` makes them, without a String for plain
    /// and ASCII-lowercased tokens (the hot path of `ngrams` and `tokenize`).
    /// - Complexity: O(token length).
    @inline(__always)
    public func appendToken(_ token: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        if rewritesTokens {
            bytes.append(contentsOf: normalize(String(decoding: token, as: UTF8.self)).utf8)
        } else if lowercase {
            var ascii = true
            for b in token where b >= 0x80 { ascii = false; break }
            if ascii {
                for b in token { bytes.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b) }
            } else {
                bytes.append(contentsOf: String(decoding: token, as: UTF8.self).lowercased().utf8)
            }
        } else {
            bytes.append(contentsOf: token)
        }
    }

    /// The token as the options make it: number class, Unicode normalization, straight quotes,
    /// lowercase, in that order.
    ///
    /// ```swift
    /// TextOptions(lowercase: true, straightQuotes: true).normalize("Don’t")  // "don't"
    /// ```
    public func normalize(_ token: some StringProtocol) -> String {
        if numberClass && Self.isNumber(token) { return numberClassToken }
        var text = String(token)
        var ascii = true
        for b in text.utf8 where b >= 0x80 { ascii = false; break }
        if !ascii {
            switch normalization {
            case .none: break
            case .nfc: text = text.precomposedStringWithCanonicalMapping
            case .nfkc: text = text.precomposedStringWithCompatibilityMapping
            }
            if straightQuotes {
                var scalars = String.UnicodeScalarView()
                for s in text.unicodeScalars {
                    switch s.value {
                    case 0x2018, 0x2019, 0x201A, 0x201B, 0x2032: scalars.append("'")
                    case 0x201C, 0x201D, 0x201E, 0x201F, 0x2033: scalars.append("\"")
                    default: scalars.append(s)
                    }
                }
                text = String(scalars)
            }
        }
        return lowercase ? text.lowercased() : text
    }

    /// A number: digits with `.`, `,`, `:`, `/` or `-` between them (3.14, 1,000, 5:30, 11/28/2000).
    static func isNumber(_ token: some StringProtocol) -> Bool {
        var digit = false
        for s in token.unicodeScalars {
            if s.properties.numericType == .decimal { digit = true; continue }
            if s == "." || s == "," || s == ":" || s == "/" || s == "-" { continue }
            return false
        }
        return digit
    }
}
