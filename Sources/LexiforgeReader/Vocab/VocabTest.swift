/// The seven tests of the seed's JLPT study app, as named recipes.
///
/// Three kinds of test: type the answer, choose it among four, or reveal it (a flash card); asked
/// about the reading, the meaning or the word. Each recipe's predicate is written the way the
/// app built it, redundant `!= nil` tests and one category test per category included; the
/// store's canonicalization turns all seven (with the same level and category settings) into
/// two statements: words with kanji (for readings), and entries with a reading and a meaning.
public enum VocabTest: String, CaseIterable, Sendable {
    case readingInput = "reading-input"
    case chooseMeaning = "choose-meaning"
    case chooseReading = "choose-reading"
    case chooseWord = "choose-word"
    case flashCardMeaning = "flash-card-meaning"
    case flashCardReading = "flash-card-reading"
    case flashCardWord = "flash-card-word"

    /// How the answer is given.
    public enum Style: String, Sendable { case typed, choice, hidden }

    public var style: Style {
        switch self {
        case .readingInput: .typed
        case .chooseMeaning, .chooseReading, .chooseWord: .choice
        case .flashCardMeaning, .flashCardReading, .flashCardWord: .hidden
        }
    }

    /// The field shown and the field asked for.
    public var fields: (shown: VocabField, asked: VocabField) {
        switch self {
        case .readingInput, .chooseReading, .flashCardReading: (.expression, .reading)
        case .chooseMeaning, .flashCardMeaning: (.expression, .meaning)
        case .chooseWord, .flashCardWord: (.meaning, .expression)
        }
    }

    /// Which entries can be asked, as the app wrote it (before canonicalization).
    public var predicate: VocabPredicate {
        let withKanji: VocabPredicate = .or([.categories([.kanji]), .categories([.kanjiHiragana])])
        switch self {
        case .readingInput: return .and([.has(.expression), .has(.reading), .has(.meaning), withKanji])
        case .chooseReading: return .and([.or([.categories([.kanjiHiragana]), .categories([.kanji])]), .has(.meaning), .has(.reading)])
        case .flashCardReading: return .and([.has(.reading), .categories([.kanji, .kanjiHiragana]), .has(.expression)])
        case .chooseMeaning: return .and([.has(.expression), .has(.meaning), .has(.reading)])
        case .chooseWord: return .and([.has(.meaning), .has(.reading), .has(.expression)])
        case .flashCardMeaning: return .and([.has(.reading), .has(.meaning)])
        case .flashCardWord: return .and([.has(.meaning), .has(.expression), .has(.reading)])
        }
    }

    /// The user's settings as the app wrote them: one test per selected level and category
    /// (nil: all selected, which the app spelled out too).
    public static func settings(levels: [String], categories: [VocabCategory]) -> VocabPredicate {
        .and([.or(levels.map { .levels([$0]) }), .or(categories.map { .categories([$0]) })])
    }

    /// The whole predicate of a question under these settings.
    public func predicate(settings: VocabPredicate) -> VocabPredicate { .and([settings, predicate]) }
}

/// A question of one of the seven tests.
public struct VocabQuestion: Sendable, Equatable {
    public var test: VocabTest
    public var entry: VocabEntry
    public var prompt: String
    public var answer: String
    /// For choice tests: the answer among the wrong ones, in random order.
    public var choices: [String]
    /// Index of ``answer`` in ``choices``.
    public var answerIndex: Int?
}

extension VocabularyStore {
    /// A question of `test` on an entry picked uniformly among those the test and `settings`
    /// allow; nil when none does. Choice tests get `choices - 1` distractors (fewer when the
    /// store has fewer).
    public func question<G: RandomNumberGenerator>(
        _ test: VocabTest, settings: VocabPredicate = .all, choices: Int = 4, using generator: inout G
    ) throws -> VocabQuestion? {
        let predicate = test.predicate(settings: settings)
        guard let entry = try random(matching: predicate, using: &generator) else { return nil }
        func field(_ f: VocabField, of e: VocabEntry) -> String {
            switch f {
            case .expression: e.expression
            case .reading: e.reading ?? ""
            case .meaning: e.meaning ?? ""
            }
        }
        let (shown, asked) = test.fields
        var question = VocabQuestion(test: test, entry: entry, prompt: field(shown, of: entry), answer: field(asked, of: entry),
                                     choices: [], answerIndex: nil)
        if test.style == .choice {
            let wrong = try distractors(for: entry, count: max(0, choices - 1), matching: predicate, using: &generator)
            var all = [question.answer] + wrong.map { field(asked, of: $0) }
            all.shuffle(using: &generator)
            question.choices = all
            question.answerIndex = all.firstIndex(of: question.answer)
        }
        return question
    }
}
