import Foundation
import GRDB
import LexiforgeHMM
import LexiforgeNgrams
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeTestSupport
import Testing

/// Stores that pass the application-id and version checks but hold damaged contents: every read
/// path must throw an error naming the file, never crash (issue 22, part 2).
///
/// Fixtures: three small valid stores built here with the suite's helpers (an order-3 language
/// model with word classes, a class model and suffix rules, from a seeded synthetic corpus
/// (`RankedQueryTests.corpus`); a supervised HMM store from Fixtures/hmm/tiny.txt; a lexicon store
/// from Fixtures/wordlist/tiny.combined), then damaged with plain SQL on a copy.
@Suite("Damaged stores: errors that name the file, never a crash")
struct DamagedStoreTests {
    enum Kind: String, Sendable, CaseIterable { case languageModel, counts, hmm, lexicon }

    /// One damage: which store, and the SQL that damages it.
    struct Damage: Sendable, CustomTestStringConvertible {
        var kind: Kind
        var name: String
        var sql: String
        var testDescription: String { "\(kind.rawValue): \(name)" }
        init(_ kind: Kind, _ name: String, _ sql: String) { self.kind = kind; self.name = name; self.sql = sql }
    }

    static let damages: [Damage] = [
        // The n-gram tables.
        .init(.languageModel, "bigram id past the vocabulary", "UPDATE bigram SET w2 = 999999 + w2 WHERE w1 = (SELECT min(w1) FROM bigram)"),
        .init(.languageModel, "every bigram continuation past the vocabulary", "UPDATE bigram SET w2 = w2 + 100000"),
        .init(.languageModel, "negative trigram ids", "UPDATE trigram SET w3 = -7 - w3"),
        .init(.languageModel, "text where a bigram id belongs", "UPDATE bigram SET w2 = 'x' || w2"),
        .init(.languageModel, "text logprobs", "UPDATE bigram SET logprob = 'high'"),
        .init(.languageModel, "huge logprobs", "UPDATE trigram SET logprob = 9000000000000000000"),
        .init(.languageModel, "real logprobs", "UPDATE bigram SET logprob = 1e300"),
        .init(.languageModel, "huge backoffs", "UPDATE bigram SET backoff = -9000000000000000000"),
        .init(.counts, "negative counts", "UPDATE bigram SET count = -5"),
        .init(.counts, "huge counts", "UPDATE bigram SET count = 9223372036854775807"),
        .init(.counts, "text counts", "UPDATE trigram SET count = 'many'"),
        .init(.counts, "bigram ids past the vocabulary", "UPDATE bigram SET w1 = w1 + 5000"),
        // The vocabulary.
        .init(.languageModel, "negative word counts", "UPDATE word_count SET count = -1"),
        .init(.counts, "huge word counts", "UPDATE word_count SET count = 9223372036854775807"),
        .init(.counts, "text word counts", "UPDATE word_count SET count = 'lots'"),
        .init(.languageModel, "huge unigram logprobs", "UPDATE word_count SET logprob = 4000000000"),
        .init(.languageModel, "word_count id past the vocabulary", "UPDATE word_count SET id = 100000 + id WHERE id = 5"),
        .init(.languageModel, "word_order ids past the vocabulary", "UPDATE word_order SET ids = X'FFFFFFFF7F'"),
        .init(.languageModel, "word_order lists an id twice", "UPDATE word_order SET ids = X'0303030303'"),
        .init(.languageModel, "word_order ids NULL-free but text", "UPDATE word_order SET ids = 'abc'"),
        .init(.languageModel, "word_block out of sequence", "UPDATE word_block SET block = block + 3"),
        .init(.languageModel, "word_block words not text", "UPDATE word_block SET words = 42"),
        .init(.languageModel, "vocabulary emptied", "DELETE FROM word_block"),
        // meta.
        .init(.languageModel, "meta order 9", "UPDATE meta SET value = '9' WHERE key = 'order'"),
        .init(.languageModel, "meta order 0", "UPDATE meta SET value = '0' WHERE key = 'order'"),
        .init(.languageModel, "meta order text", "UPDATE meta SET value = 'three' WHERE key = 'order'"),
        .init(.languageModel, "meta order 4 without a fourgram table", "UPDATE meta SET value = '4' WHERE key = 'order'"),
        .init(.languageModel, "meta order empty", "UPDATE meta SET value = '' WHERE key = 'order'"),
        .init(.languageModel, "meta value a blob", "UPDATE meta SET value = X'00FF' WHERE key = 'language_model'"),
        .init(.languageModel, "meta language_model not JSON", "UPDATE meta SET value = '{' WHERE key = 'language_model'"),
        .init(.languageModel, "meta vocab_size negative", "UPDATE meta SET value = json_set(value, '$.vocab_size', -10) WHERE key = 'language_model'"),
        .init(.languageModel, "meta clusters huge", "UPDATE meta SET value = replace(value, '\"clusters\":4', '\"clusters\":4000000000') WHERE key = 'language_model'"),
        .init(.counts, "meta tokens huge", "UPDATE meta SET value = '9223372036854775807' WHERE key = 'tokens'"),
        // Missing tables.
        .init(.languageModel, "no bigram table", "DROP TABLE bigram"),
        .init(.languageModel, "no trigram table", "DROP TABLE trigram"),
        .init(.languageModel, "no word_count table", "DROP TABLE word_count"),
        .init(.languageModel, "no word_order table", "DROP TABLE word_order"),
        .init(.languageModel, "no meta table", "DROP TABLE meta"),
        // Optional model tables.
        .init(.languageModel, "class ids out of range", "UPDATE cluster_member SET cluster = 99999"),
        .init(.languageModel, "class member past the vocabulary", "UPDATE cluster_member SET word = word + 100000"),
        .init(.languageModel, "class n-gram context junk", "UPDATE cluster_ngram SET context = '1 x -4' WHERE (context, cluster) = (SELECT context, cluster FROM cluster_ngram LIMIT 1)"),
        .init(.languageModel, "class n-gram context too long", "UPDATE cluster_ngram SET context = '1 2 3 4 5 6 7 8' WHERE (context, cluster) = (SELECT context, cluster FROM cluster_ngram LIMIT 1)"),
        .init(.languageModel, "class logprob text", "UPDATE cluster_ngram SET logprob = 'p'"),
        .init(.languageModel, "form rule text", "INSERT INTO form_rule VALUES ('ing', 'ed', 3, 'x')"),
        .init(.counts, "word class past the vocabulary", "UPDATE word_class SET word = word + 100000"),
        .init(.languageModel, "top list ids past the vocabulary", "UPDATE bigram_top SET top = X'FFFFFF7F0000FFFFFF7F0000'"),
        .init(.languageModel, "top list continuations text", "UPDATE bigram_top SET continuations = 'many'"),
        // Hidden Markov tables.
        .init(.hmm, "emission word past the vocabulary", "UPDATE hmm_emission SET word = word + 100000"),
        .init(.hmm, "emission state past the states", "UPDATE hmm_emission SET state = 99"),
        .init(.hmm, "negative transition state", "UPDATE hmm_transition SET s1 = -1 WHERE (s1, s2) = (SELECT s1, s2 FROM hmm_transition LIMIT 1)"),
        .init(.hmm, "second-order transition state past the states", "UPDATE hmm_transition2 SET s3 = 1000 WHERE (s1, s2, s3) = (SELECT s1, s2, s3 FROM hmm_transition2 LIMIT 1)"),
        .init(.hmm, "initial state past the states", "UPDATE hmm_initial SET state = 77 WHERE state = (SELECT max(state) FROM hmm_initial)"),
        .init(.hmm, "state ids not dense", "UPDATE hmm_state SET id = id + 10 WHERE id > 1"),
        .init(.hmm, "state count text", "UPDATE hmm_state SET count = 'n'"),
        .init(.hmm, "suffix class unknown", "UPDATE hmm_suffix SET class = 300"),
        .init(.hmm, "suffix count huge", "UPDATE hmm_suffix SET count = 9000000000000"),
        .init(.hmm, "max suffix length huge", "UPDATE hmm_parameter SET value = 1e300 WHERE name = 'max_suffix_length'"),
        .init(.hmm, "parameter text", "UPDATE hmm_parameter SET value = 'x'"),
        .init(.hmm, "lexical word past the vocabulary", "INSERT INTO hmm_lexical VALUES (99999, 1, 1, 5)"),
        .init(.hmm, "no hmm_emission table", "DROP TABLE hmm_emission"),
        // Lexicon.
        .init(.lexicon, "frequency run past the vocabulary", "UPDATE lexicon_frequency SET first_id = first_id + 100000"),
        .init(.lexicon, "frequency text", "UPDATE lexicon_frequency SET frequency = 'f'"),
        .init(.lexicon, "frequency huge", "UPDATE lexicon_frequency SET frequency = 1000000"),
        .init(.lexicon, "negative header list", "UPDATE lexicon_header SET list = -3"),
        .init(.lexicon, "huge header list", "UPDATE lexicon_header SET list = 9000000000"),
        .init(.lexicon, "detail attributes text", "UPDATE lexicon_detail SET attributes = 'a'"),
        .init(.lexicon, "bigram target past the vocabulary", "UPDATE lexicon_bigram SET next_word_id = 99999"),
        .init(.lexicon, "prefix word id negative", "INSERT INTO lexicon_prefix VALUES ('t', 0, -2)"),
        .init(.lexicon, "prefix word id past the vocabulary", "INSERT INTO lexicon_prefix VALUES ('t', 0, 99999)"),
        .init(.lexicon, "folded word id text", "UPDATE lexicon_folded SET word_id = 'w'"),
        .init(.lexicon, "no lexicon_detail table", "DROP TABLE lexicon_detail"),
    ]

    /// The valid stores, built once per process (a few hundred milliseconds).
    final class Stores: @unchecked Sendable {
        let folder: TemporaryFolder
        let paths: [Kind: String]

        init() throws {
            // Static, so never released: a folder of the process, removed at exit.
            folder = try TemporaryFolder.forProcess("lexiforge-damaged-stores")
            var paths: [Kind: String] = [:]
            // Language model: word classes, a class model, suffix rules and `_top` lists.
            let counter = NgramCounter(order: 3)
            for sentence in RankedQueryTests.corpus(seed: 3, sentences: 400, vocabulary: 90) { counter.add(sentence: sentence) }
            var options = EstimationOptions()
            options.clusters = 4
            options.formRules = 30
            let model = KneserNey.estimate(counter.finish(), options: options)
            let lm = folder.file("lm.sqlite")
            let meta = [StoreSchema.MetaKey.order: "3",
                        StoreSchema.MetaKey.languageModel: LanguageModelStage.describe(model, options: options, vocabularySize: nil)]
            try StoreWriter.write(model: model, meta: meta, to: AtomicStoreFile.prepare(path: lm), topLists: true)
            paths[.languageModel] = lm
            // Counts only, with word classes, from the hand-made tiny.txt.
            let counts = folder.file("counts.sqlite")
            try buildStore([Paths.fixture("tiny.txt")], to: counts, order: 3) { $0.wordClasses = true; $0.lemmatizer = nil }
            paths[.counts] = counts
            // A supervised tagger from Fixtures/hmm/tiny.txt.
            let hmm = folder.file("hmm.sqlite")
            _ = try HMMBuild.run(HMMBuildConfig(mode: .supervised(SupervisedHMMConfig()), inputs: [Paths.fixture("hmm/tiny.txt")], output: hmm),
                                 progress: StageProgress(quiet: true))
            paths[.hmm] = hmm
            paths[.lexicon] = try WordlistFixture.importStore([WordlistFixture.path("tiny.combined")], in: folder)
            self.paths = paths
        }
    }

    static let stores: Result<Stores, any Error> = Result { try Stores() }

    /// A copy of the `kind` store, damaged by `sql` (constraints off, as a hand edit would be).
    static func damaged(_ kind: Kind, _ sql: String, in folder: TemporaryFolder) throws -> String {
        let source = try #require(try stores.get().paths[kind])
        let path = folder.file("damaged-\(kind.rawValue).sqlite")
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: source, toPath: path)
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON; PRAGMA foreign_keys = OFF")
            try db.execute(sql: sql)
        }
        try queue.close()
        return path
    }

    /// Runs every query a front end or a stage makes on the store at `path`; returns the errors
    /// (a crash ends the test process: that is the failure this suite is about).
    static func exercise(_ path: String, scratch: TemporaryFolder, writes: Bool = true) -> [any Error] {
        var errors: [any Error] = []
        func run(_ body: () throws -> Void) {
            do { try body() } catch { errors.append(error) }
        }
        let store: TrainedStore
        do { store = try TrainedStore(path: path) } catch { return [error] }
        run { _ = try store.vocabulary() }
        run { _ = try store.nextWords(after: ["the", "cat"], limit: 5) }
        run { _ = try store.startingWords(limit: 5) }
        run { _ = try store.topWords(limit: 5) }
        run { _ = try store.topContinuations() }
        run { _ = try store.tableStatistics() }
        run { _ = try store.clusterSummary() }
        run { _ = try store.optionalModelRows() }
        run { _ = try store.formRuleCount() }
        run { _ = try store.swipeLayouts() }
        run { _ = try store.id(of: "the") }
        for n in (2...max(2, store.order)) where n <= store.order {
            run { try store.forEachNgram(order: n) { _ in } }
        }
        run { try store.forEachWord { _, _ in } }
        if store.hasLanguageModel {
            run {
                let predictor = try NgramPredictor(store: store)
                let w = try store.vocabulary().texts
                let some = Array(w.dropFirst(3).prefix(3))
                for context in [[], ["the"], some, ["zzz", "the"]] {
                    run { _ = try predictor.nextWords(after: context, limit: 5) }
                    run { _ = try predictor.completions(of: "t", after: context, limit: 5) }
                    run { _ = try predictor.completions(of: String(some.first?.prefix(2) ?? "a"), after: context, limit: 40) }
                    run { _ = try predictor.probability(of: some.last ?? "a", after: context) }
                    run { _ = try predictor.distribution(after: context).log10Probability(of: 4) }
                }
                run { _ = try predictor.startingWords(limit: 3) }
                run { _ = try predictor.logProb(of: 99999, context: [-4, 123456]) }
                _ = predictor.derivedForms(of: "wor", limit: 5)
            }
            if writes { run { try Export.arpa(store: path, output: scratch.file("export.arpa")) } }
        }
        run { _ = try StoreContents.load(path: path) }
        if writes {
            run { _ = try Export.presage(store: path, output: scratch.file("presage.db")) }
            run { _ = try Merge.run(path, path, output: scratch.file("merged.sqlite"), progress: StageProgress(quiet: true)) }
        }
        run { _ = try StoreDiff.run(path, path) }
        run { _ = try InspectReport.render(path: path) }
        if store.hasHMM {
            run {
                let tagger = try store.hmmTagger()
                _ = tagger.tag(["the", "dog", "runs", "unheard", "Xyz-9"])
                _ = tagger.tagPosteriors(["a", "cat", "sleeps"])
            }
            run { _ = try store.hmmSummary() }
        }
        if store.hasWordClasses {
            run { _ = try store.words(withLemma: "cat") }
            run { _ = try store.words(inScript: "latin") }
        }
        if store.hasLexicon {
            run { _ = try store.lexicon() }
            for prefix in ["", "t", "th", "a", "zz"] {
                run { _ = try store.completions(of: prefix, limit: 3) }
                run { _ = try store.completions(of: prefix, limit: 40, allowOffensive: true) }
            }
        }
        return errors
    }

    @Test("the valid stores answer every query")
    func validStores() throws {
        let scratch = try TemporaryFolder()
        for kind in Kind.allCases {
            let path = try #require(try Self.stores.get().paths[kind])
            let errors = Self.exercise(path, scratch: scratch)
            #expect(errors.isEmpty, "\(kind): \(errors)")
        }
    }

    @Test("a damaged store gives errors naming the file, never a crash", arguments: damages)
    func damagedStore(_ damage: Damage) throws {
        let scratch = try TemporaryFolder()
        let path = try Self.damaged(damage.kind, damage.sql, in: scratch)
        let errors = Self.exercise(path, scratch: scratch)
        #expect(!errors.isEmpty, "the damage went unnoticed")
        for error in errors {
            #expect("\(error)".contains(path), "\(error)")
        }
    }

    @Test("damage is reported as such: the file, the table and what is wrong, and to rebuild")
    func messages() throws {
        let scratch = try TemporaryFolder()
        func message(_ kind: Kind, _ sql: String, _ body: (String) throws -> Void) throws -> String {
            let path = try Self.damaged(kind, sql, in: scratch)
            do { try body(path) } catch { return "\(error)" }
            Issue.record("no error for \(sql)")
            return ""
        }
        let open: (String) throws -> Void = { _ = try TrainedStore(path: $0) }
        let order = try message(.languageModel, "UPDATE meta SET value = '9' WHERE key = 'order'", open)
        #expect(order.contains("damaged") && order.contains("meta \"order\" is \"9\"") && order.contains("rebuild"), "\(order)")
        let table = try message(.counts, "DROP TABLE bigram", open)
        #expect(table.contains("counts.sqlite: damaged store: table `bigram` is missing"))
        let id = try message(.counts, "UPDATE bigram SET w2 = 999999 + w2 WHERE w1 = 1", { _ = try TrainedStore(path: $0).startingWords() })
        #expect(id.contains("`bigram.w2` holds word id 100000") && id.contains("but the vocabulary has"), "\(id)")
        let count = try message(.counts, "UPDATE trigram SET count = 'many'", { _ = try TrainedStore(path: $0).nextWords(after: ["The", "cat"]) })
        #expect(count.contains("`trigram.count` holds text \"many\" where an integer belongs"), "\(count)")
        let lm = try message(.languageModel, "UPDATE trigram SET w3 = 99999 + w3", { path in
            let predictor = try NgramPredictor(store: TrainedStore(path: path))
            for id in 3..<30 { _ = try predictor.nextWords(after: try TrainedStore(path: path).vocabulary().texts[id...].prefix(2).map { $0 }) }
        })
        #expect(lm.contains("damaged store: `trigram.w3` holds word id 1000"), "\(lm)")
        let hmm = try message(.hmm, "UPDATE hmm_emission SET state = 99", { _ = try TrainedStore(path: $0).hmmTagger() })
        #expect(hmm.contains("`hmm_emission.state` holds 99, outside 0..."), "\(hmm)")
    }

    /// Seeded byte flips in a small store file: a few hundred runs, each answered by errors or
    /// by answers, never by a crash.
    @Test("random byte flips give errors or answers, never a crash", .tags(.slow), .slow, arguments: [Kind.counts, .languageModel, .lexicon, .hmm])
    func byteFlips(_ kind: Kind) throws {
        let source = try #require(try Self.stores.get().paths[kind])
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: source)))
        let scratch = try TemporaryFolder()
        let path = scratch.file("flipped.sqlite")
        var generator = SplitMix64(seed: 22)
        var failures = 0
        for seed in 0..<100 {
            var bytes = original
            let flips = 1 + Int(generator.next() % 8)
            for _ in 0..<flips {
                // Past the 100-byte header half the time (the header is checked at open).
                let low = generator.next() % 2 == 0 ? 100 : 0
                let at = low + Int(generator.next() % UInt64(bytes.count - low))
                bytes[at] ^= UInt8(truncatingIfNeeded: 1 << (generator.next() % 8))
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            for error in Self.exercise(path, scratch: scratch, writes: seed % 10 == 0) where !"\(error)".contains(path) {
                failures += 1
                Issue.record("seed \(seed): \(error)")
            }
            if failures > 5 { break }
        }
    }
}
