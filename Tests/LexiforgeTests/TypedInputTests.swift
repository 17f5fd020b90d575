import Foundation
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeTestSupport
import Testing

@Suite("typed text → context and prefix (the reader, as training tokenized)")
struct TypedInputTests {
    /// A lowercased store of a few hand-written sentences (abbreviations included).
    static func store(in folder: TemporaryFolder) throws -> TrainedStore {
        let text = folder.file("corpus.txt"), output = folder.file("typed.sqlite")
        try "I think that Mr. Smith said hello. Hello there! I think so.\n".write(toFile: text, atomically: true, encoding: .utf8)
        var config = NgramBuildConfig(inputs: [text], output: output)
        config.order = 3
        config.text.lowercase = true
        config.languageModel = true
        _ = try NgramBuild.run(config, progress: StageProgress(quiet: true))
        return try TrainedStore(path: output)
    }

    @Test("cases", arguments: [
        ("mid-word", "I think th", false, ["i", "think"], "th"),
        ("after a space", "I think ", false, ["i", "think"], ""),
        ("a sentence ended", "Hello there. ", false, [], ""),
        ("a sentence ended, no space", "Hello there!", false, [], ""),
        ("only the last sentence counts", "Hello there. I th", false, ["i"], "th"),
        ("an abbreviation does not end the sentence", "I think Mr. ", false, ["i", "think", "mr."], ""),
        ("empty text", "", false, [], ""),
        ("last word complete (suggest)", "said Lord", true, ["said", "lord"], ""),
        ("a comma keeps the sentence", "hello, ", false, ["hello"], ""),
    ])
    func cases(_ id: String, _ text: String, _ complete: Bool, _ context: [String], _ prefix: String) throws {
        let folder = try TemporaryFolder("lexiforge-typed")
        let store = try Self.store(in: folder)
        let input = store.typedInput(text, lastWordComplete: complete)
        #expect(input == TypedInput(context: context, prefix: prefix), "\(id)")
    }

    @Test("predict and suggest use it: one rule for both")
    func commands() throws {
        let folder = try TemporaryFolder("lexiforge-typed-cli")
        let store = try Self.store(in: folder)
        let predicted = try PredictQuery.run(storePath: store.path, text: "I think th", limit: 3).map(\.word)
        #expect(predicted.first == "that", "\(predicted)")
        let suggested = try Suggest.run(storePath: store.path, text: "I think", limit: 3).map(\.word)
        #expect(suggested.contains("that") && suggested.contains("so"), "\(suggested)")
        #expect(try Suggest.run(storePath: store.path, text: "said hello.", limit: 1).map(\.word)
                == (try store.nextWords(after: [], limit: 1)).map(\.word))
    }
}
