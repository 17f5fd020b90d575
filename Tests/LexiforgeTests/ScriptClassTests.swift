import LexiforgeReader
import LexiforgeText
import LexiforgeTestSupport
import Testing

@Suite("Script classes")
struct ScriptClassTests {
    static let cases: [(String, ScriptClass)] = [
        ("hello", .latin), ("don't", .latin), ("10th", .latin), ("café", .latin), ("ひらがな", .hiragana),
        ("カタカナ", .katakana), ("コーヒー", .katakana), ("漢字", .han), ("食べる", .kanjiKana),
        ("東京タワー", .kanjiKana), ("한국어", .hangul), ("Привет", .cyrillic), ("λόγος", .greek),
        ("42", .digits), ("3.14", .digits), ("1,000", .digits), ("!?", .symbols), ("👍🏽", .symbols),
        ("Tシャツ", .mixed), ("hello世界", .mixed), ("مرحبا", .other),
    ]

    @Test("ScriptClass(of:)", arguments: cases)
    func classify(_ word: String, _ expected: ScriptClass) {
        #expect(ScriptClass(of: word) == expected)
    }

    @Test("codes and names agree with StoreSchema.scriptNames")
    func namesAgree() {
        #expect(ScriptClass.allCases.map(\.name) == StoreSchema.scriptNames)
        #expect(ScriptClass.allCases.map { Int($0.rawValue) } == Array(StoreSchema.scriptNames.indices))
    }
}
