import Foundation
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeTestSupport
import Testing

/// `lexiforge train` with hidden Markov tables beside the n-grams (`hmm_tagged`, `hmm_states`):
/// one store, one `word` table, the tagger as good as the one `lexiforge hmm` builds alone.
@Suite("train: hidden Markov tables beside the n-grams")
struct TrainHMMTests {
    /// A model folder: `data/corpora/tiny.txt` (Fixtures/tiny.txt), `data/tagged/tiny.txt`
    /// (Fixtures/hmm/tiny.txt, word/TAG lines), a manifest naming both, and a model file with
    /// `keys` added.
    static func modelFolder(_ keys: String) throws -> (TemporaryFolder, model: String) {
        let folder = try ModelFolder(
            [.init("tiny", fixture: "tiny.txt", file: "corpora/tiny.txt"), .init("tagged", fixture: "hmm/tiny.txt", file: "tagged/tiny.txt")],
            model: #"{"name": "tagged", "corpora": ["tiny"], "order": 2, "language_model": true"# + keys + "}", modelName: "tagged.model.json")
        return (folder.dir, folder.model)
    }

    @Test("hmm_tagged: a supervised tagger in the n-gram store, its words in the one word table")
    func supervisedBesideNgrams() throws {
        let (dir, model) = try Self.modelFolder(#", "hmm_tagged": ["tagged"]"#)
        let output = dir.file("tagged.sqlite")
        let result = try CLI.run(["train", model, "-o", output, "--quiet"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let store = try TrainedStore(path: output)
        #expect(store.hasHMM)
        let hmm = MetaJSON.decode(HMMRecord.self, from: store.meta["hmm"])
        #expect(hmm?.training == "supervised" && hmm?.tagset == "upos" && hmm?.inputs.first?.file == "tiny.txt", "\(store.meta["hmm"] ?? "none")")
        // The n-grams are those of the corpus; "sleeps" (only in the tagged file) joins with count 0.
        let counts = Dictionary(uniqueKeysWithValues: try store.topWords(limit: 100).map { ($0.word, $0.count) })
        #expect(counts["The"] == 2 && counts["dog"] == 1 && counts["sleeps"] == 0)
        #expect(store.meta["tokens"] == "18")
        let tagger = try store.hmmTagger()
        #expect(tagger.tag(["the", "dog", "sleeps"]).map(\.tag) == ["DET", "NOUN", "VERB"])
        // The same tagger as `lexiforge hmm` builds from the same file.
        let alone = dir.file("alone.sqlite")
        #expect(try CLI.run(["hmm", "--tagged", dir.file("data/tagged/tiny.txt"), "-o", alone, "--quiet"]).status == 0)
        let aloneTables = try TrainedStore(path: alone).hmmTables()
        let besideTables = try store.hmmTables()
        #expect(besideTables.states == aloneTables.states)
        #expect(besideTables.transitions2 == aloneTables.transitions2)
        func emissions(_ t: HMMTables) -> [String: Double] {
            Dictionary(uniqueKeysWithValues: t.emissions.map { ("\(t.words[Int($0.word)])/\(t.states[Int($0.state)])", $0.logprob) })
        }
        #expect(emissions(besideTables) == emissions(aloneTables))
        // Identical inputs give identical bytes.
        let again = dir.file("again.sqlite")
        #expect(try CLI.run(["train", model, "-o", again, "--quiet"]).status == 0)
        #expect(FileManager.default.contents(atPath: again) == FileManager.default.contents(atPath: output))
    }

    @Test("hmm_states: word classes over the model's own tokens add no word")
    func unsupervisedBesideNgrams() throws {
        let (dir, model) = try Self.modelFolder(#", "hmm_states": 2, "hmm_seed": 7, "hmm_iterations": 3"#)
        let output = dir.file("classes.sqlite")
        let result = try CLI.run(["train", model, "-o", output, "--quiet"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let store = try TrainedStore(path: output)
        let tables = try store.hmmTables()
        #expect(tables.stateCount == 3)
        let hmm = MetaJSON.decode(HMMRecord.self, from: store.meta["hmm"])
        #expect(hmm?.training == "baum-welch" && hmm?.states == 2 && hmm?.seed == 7, "\(store.meta["hmm"] ?? "none")")
        #expect(store.meta["vocabulary"] == "18")   // the corpus's 15 words and 3 reserved tokens: none added
        #expect(try store.topWords(limit: 100).allSatisfy { $0.count > 0 })
    }

    @Test("model files: hmm keys that cannot work are refused, each with what to do")
    func refusedKeys() throws {
        let cases: [(String, String)] = [
            (#", "hmm_tagged": ["tagged"], "lowercase": true"#, #""hmm_tagged" needs "lowercase": false"#),
            (#", "hmm_tagged": ["tagged"], "hmm_states": 4"#, #""hmm_states" and "hmm_tagged" exclude each other"#),
            (#", "hmm_seed": 3"#, #""hmm_seed" is a Baum-Welch option; add "hmm_states": K"#),
            (#", "hmm_states": 0"#, #""hmm_states" 0 is out of range; use 1 to"#),
            (#", "hmm_tagged": ["nowhere"]"#, #"corpus "nowhere" is not in"#),
        ]
        for (keys, message) in cases {
            let (dir, model) = try Self.modelFolder(keys)
            let output = dir.file("refused.sqlite")
            let result = try CLI.run(["train", model, "-o", output, "--quiet"])
            #expect(result.status == 1)
            #expect(result.stderr.contains(message), "\(keys): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }
}
