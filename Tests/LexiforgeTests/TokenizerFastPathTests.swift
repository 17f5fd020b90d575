import LexiforgeText
import LexiforgeTestSupport
import Testing

/// The tokenizer's ASCII fast path (``Tokenizer/scanASCIIWordToken(_:from:spaceBefore:into:)``)
/// must give exactly the tokens of the general path, flags included, in both modes.
@Suite("Tokenizer fast path agrees with the general path")
struct TokenizerFastPathTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var bytes: [UInt8]
        var testDescription: String { id }
        init(_ id: String, _ text: String) { self.id = id; bytes = Array(text.utf8) }
        init(_ id: String, bytes: [UInt8]) { self.id = id; self.bytes = bytes }
    }

    static let cases: [Case] = [
        Case("apostrophes ' and ’", "don't it’s o'clock rock'n'roll dogs' ’Tis 'twas x’ ’y Zoë's 1960's AK47's '72 x'"),
        Case("clitics", "I'm we'll they've she'd should've I'd've can't won't cannot gonna dont Dont DONT im"),
        Case("hyphens", "well-known so-called e-mail non-human re-elect a--b a- -b naïveté-like 713-853-3989 400-500 1-800-991-9019"),
        Case("abbreviations", "Mr. Mrs. Dr. St. U.S. e.g. i.e. Ph.D. J. Smith I. etc. Inc.. D.C.. a.m. Messrs. approx. Approx."),
        Case("periods", "end. 3. 3.. a..b U.S.. Amazon.com report.doc .5 x... y…"),
        Case("numbers", "3.14 1,000 10th 5:30 11/28/2000 1,2 a,b 3:x x:3 2/b ,5 5, 12:30pm"),
        Case("URLs", "https://example.com/a_(b). www.foo.org, ftp://x.y/z HTTP://X.Y http:// wwwx ht https"),
        Case("e-mail addresses", "name@host.org Rice@ENRON a@b x@ @y carol.st.clair@enron.com."),
        Case("emoticons", ":) :-( ;D =) :P re:Dinner 10:30 :)) a:)"),
        Case("emoji", "👍🏽 👨‍👩‍👧 🇺🇸 ❤️ ok👍 👍ok"),
        Case("CJK", "食べる 東京タワー ひらがなカタカナ漢字 한국어 日本語。はい！ ｶﾀｶﾅ"),
        Case("other scripts and marks", "café cafe\u{301} naïve’s Привет ٣٤٥ ⅷ ① Ｆｕｌｌ ß İ ﬁ"),
        Case("quotes and dashes", "“Hi,” she said—then ‘no’ «oui» '' ‘’ x—y --"),
        Case("punctuation runs", "what?!? *** == ~~ ## ++ __ << >> ( ) [ ] { }"),
        Case("whitespace", " \t lead  two\u{00A0}nbsp\u{3000}ideographic\u{200B}zwsp trail \t"),
        Case("words at the line's end", "x"),
        Case("a long word", String(repeating: "abc", count: 400)),
        Case("invalid UTF-8", bytes: Array("caf".utf8) + [0xE9] + Array(" ok ".utf8) + [0xFF, 0xC3] + Array("x".utf8) + [0xE2, 0x80]),
        Case("NUL bytes", bytes: Array("a".utf8) + [0] + Array("b.".utf8) + [0, 0x2E]),
    ]

    @Test("same tokens", arguments: cases, TokenizerMode.allCases)
    func agree(_ c: Case, _ mode: TokenizerMode) {
        var fast: [Token] = [], general: [Token] = []
        c.bytes.withUnsafeBufferPointer { line in
            Tokenizer(mode: mode, asciiFastPath: true).tokenize(line, into: &fast)
            Tokenizer(mode: mode, asciiFastPath: false).tokenize(line, into: &general)
        }
        #expect(fast == general)
        #expect(!fast.isEmpty)
    }

    /// The packed abbreviation lookup finds exactly the listed abbreviations.
    @Test("packed abbreviations")
    func packedAbbreviations() {
        #expect(Tokenizer.packedAbbreviations.count == Tokenizer.abbreviations.count)
        #expect(Tokenizer().tokens(of: "Calif. calif. Mass. Messrs. Messr.") == ["Calif.", "calif", ".", "Mass.", "Messrs.", "Messr", "."])
    }
}
