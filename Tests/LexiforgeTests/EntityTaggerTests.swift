import Foundation
import LexiforgeEntities
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeTestSupport
import Testing

private let nerFixture = Paths.fixture("ner/tiny.iob2")
private let repairFixture = Paths.fixture("ner/repair.conll")
private let badFixture = Paths.fixture("ner/bad.conll")

/// Hand-made sentences: people, places and organisations in a few patterns.
private let toySentences: [LabeledSentence] = [
    LabeledSentence(words: ["Tim", "Cook", "visited", "Paris", "."], labels: ["B-PER", "I-PER", "O", "B-LOC", "O"]),
    LabeledSentence(words: ["Anna", "works", "at", "Apple", "."], labels: ["B-PER", "O", "O", "B-ORG", "O"]),
    LabeledSentence(words: ["We", "flew", "to", "New", "York", "."], labels: ["O", "O", "O", "B-LOC", "I-LOC", "O"]),
    LabeledSentence(words: ["Google", "hired", "Tim", "Cook", "."], labels: ["B-ORG", "O", "B-PER", "I-PER", "O"]),
    LabeledSentence(words: ["the", "cat", "sat", "."], labels: ["O", "O", "O", "O"]),
]

@Suite("Named entities")
struct EntityTaggerTests {
    @Test("features: one run per word, the same words give the same keys, neighbours matter")
    func features() {
        let words = ["Tim", "Cook", "visited", "Paris"]
        let a = EntityFeatures.extract(words, lowered: EntityFeatures.lowered(words), gazetteer: [0, 0, 0, 0])
        #expect(a.count == words.count * EntityFeatures.perWord)
        #expect(a == EntityFeatures.extract(words, lowered: EntityFeatures.lowered(words), gazetteer: [0, 0, 0, 0]))
        // Without a lexicon and word classes their 4 + 6 templates are 0 (no feature); with them none is.
        #expect(a.filter { $0 == 0 }.count == words.count * 10)
        let full = EntityFeatures.extract(words, lowered: EntityFeatures.lowered(words), gazetteer: [0, 0, 0, 0],
                                          lexicon: [0, 0, 0, 0], clusters: [0, 0, 0, 0])
        #expect(!full.contains(0))
        let other = ["Tim", "Cook", "left", "Paris"]
        let b = EntityFeatures.extract(other, lowered: EntityFeatures.lowered(other), gazetteer: [0, 0, 0, 0])
        let per = EntityFeatures.perWord
        // Word 0's own form feature (template 2) is unchanged; its i+2 neighbour feature is not.
        #expect(a[1] == b[1])
        #expect(Set(a[0..<per]) != Set(b[0..<per]))
        // A gazetteer match changes the word's features.
        let c = EntityFeatures.extract(words, lowered: EntityFeatures.lowered(words), gazetteer: [1, 2, 0, 0])
        #expect(Set(a[0..<per]) != Set(c[0..<per]))
    }

    @Test("gazetteer: longest match, first and inside words, leave-one-out")
    func gazetteer() {
        var g = EntityGazetteer(typeCount: 2)
        g.add(["new", "york"], type: 1)
        g.add(["york"], type: 0)
        #expect(g.match(["in", "new", "york", "city"]) == [0, 3, 4, 0])
        #expect(g.match(["york", "is"]) == [1, 0])
        // Without this sentence's own "new york" the phrase is unknown; "york" alone still matches.
        #expect(g.match(["new", "york"], excluding: ["new york": [0, 1]]) == [0, 1])
        // "new" now starts a phrase of four words: a stretch that only begins one ("new york
        // city" then "is") still finds the shorter phrase, and the whole one is found too.
        g.add(["new", "york", "city", "hall"], type: 0)
        #expect(g.match(["new", "york", "city", "is"]) == [3, 4, 0, 0])
        #expect(g.match(["at", "new", "york", "city", "hall"]) == [0, 1, 2, 2, 2])
    }

    @Test("Viterbi: the best labels under hand-set weights, and never I-T without B-T before it")
    func viterbi() {
        let labels = EntityLabels(types: ["PER"])   // O, B-PER, I-PER
        #expect(labels.names == ["O", "B-PER", "I-PER"])
        #expect(!labels.allowed(-1, 2) && !labels.allowed(0, 2) && labels.allowed(1, 2) && labels.allowed(2, 2))
        // Two words, one feature each (perWord keys: the rest unknown). Word 0 prefers I-PER
        // (not allowed first), then B-PER; word 1 prefers I-PER.
        let per = EntityFeatures.perWord
        var keys = [UInt64](repeating: 999, count: 2 * per)
        keys[0] = 10
        keys[per] = 20
        let flat: [Float] = [0, 2, 5, 1, 0, 3]   // key 10's row, then key 20's
        func run(_ transition: (Int, Int) -> Float) -> [Int] {
            flat.withUnsafeBufferPointer { w in
                EntityModel.viterbi(keys, count: 2, labels: labels, row: { key in
                    key == 10 ? UnsafeBufferPointer(rebasing: w[0..<3]) : key == 20 ? UnsafeBufferPointer(rebasing: w[3..<6]) : nil
                }, transition: transition)
            }
        }
        #expect(run { _, _ in 0 } == [1, 2])       // B-PER I-PER: 2 + 3
        // A penalty on B-PER → I-PER leaves B-PER O (2 + 1) as the best allowed path.
        #expect(run { p, y in p == 1 && y == 2 ? -10 : 0 } == [1, 0])
    }


    @Test("weight table: keys that share a home slot, duplicates refused, the store's order, sums equal to one key at a time")
    func weightTable() {
        var table = EntityWeightTable(labels: 3, capacity: 4)   // 16 slots
        // 5, 21 and 37 share home slot 5; 1 << 40 and (1 << 40) | 5 differ only in the high half.
        let keys: [UInt64] = [5, 21, 37, 1 << 40, (1 << 40) | 5, UInt64.max]
        for (k, key) in keys.enumerated() {
            let added = table.insert(key, weights: [Float(k), -Float(k), 0.5])
            #expect(added)
        }
        let again = table.insert(21, weights: [9, 9, 9])
        #expect(!again)
        #expect(table.count == keys.count)
        #expect(table.weights(21) == [1, -1, 0.5])
        #expect(table.weights((1 << 40) | 5) == [4, -4, 0.5])
        #expect(table.weights(53) == nil && table.weights(0) == nil)
        // Signed order: UInt64.max (−1) first.
        #expect(table.entries.map(\.key) == [UInt64.max, 5, 21, 37, 1 << 40, (1 << 40) | 5])
        // Two words of four keys (0: none; 53 and 6: unknown).
        let sentence: [UInt64] = [37, 0, 53, 5, UInt64.max, 21, 6, (1 << 40) | 5]
        var emission = [Float](repeating: 0, count: 2 * 3)
        table.accumulate(sentence, perWord: 4, into: &emission)
        var expected = [Float](repeating: 0, count: 2 * 3)
        for (j, key) in sentence.enumerated() {
            guard let w = table.weights(key) else { continue }
            for y in 0..<3 { expected[j / 4 * 3 + y] += w[y] }
        }
        #expect(emission == expected)
        let byHand: [Float] = [2, -2, 1, 10, -10, 1.5]   // 37 and 5; UInt64.max, 21 and (1 << 40) | 5
        #expect(emission == byHand)
    }
    @Test("spans and exact-span scores")
    func scoring() {
        #expect(EntitySpan.spans(["B-PER", "I-PER", "O", "B-LOC", "I-LOC", "I-ORG"]) ==
                [EntitySpan(start: 0, end: 2, type: "PER"), EntitySpan(start: 3, end: 5, type: "LOC"), EntitySpan(start: 5, end: 6, type: "ORG")])
        var score = EntityScore()
        // Gold: PER 0-2, LOC 3-4. Predicted: PER 0-1 (wrong boundary), LOC 3-4 (right), ORG 5-6 (spurious).
        score.add(gold: ["B-PER", "I-PER", "O", "B-LOC", "O", "O"], predicted: ["B-PER", "O", "O", "B-LOC", "O", "B-ORG"])
        #expect(score.overall.truePositives == 1 && score.overall.predicted == 3 && score.overall.gold == 2)
        #expect(abs(score.overall.f1 - 0.4) < 1e-9)
        #expect(score.byType["LOC"]!.f1 == 1)
        #expect(score.byType["PER"]!.recall == 0)
        #expect(score.render().contains("overall"))
    }

    @Test("IOB2 reader: UNER and CoNLL columns, repaired I- tags counted with file:line, bad lines reported")
    func reading() {
        let result = IOB2Reader.read([nerFixture, repairFixture])
        #expect(result.errors.isEmpty)
        #expect(result.sentences.count == 4)
        #expect(result.sentences[0].words == ["Tim", "Cook", "visited", "Paris", "."])
        #expect(result.sentences[0].labels == ["B-PER", "I-PER", "O", "B-LOC", "O"])
        #expect(result.sentences[0].document == result.sentences[1].document)
        #expect(result.sentences[2].labels == ["B-PER", "O", "O", "B-LOC"])
        #expect(result.warnings == ["\(repairFixture):4: I-LOC after O; read as B-LOC"])
        let bad = IOB2Reader.read([badFixture])
        #expect(bad.errors.count == 1)
        #expect(bad.errors.first?.hasPrefix("\(badFixture):2: a token line without a tag") == true)
        #expect(throws: PipelineError.self) { try NerBuild.read([repairFixture], strict: true, progress: StageProgress(quiet: true)) }
    }

    @Test("training learns the toy sentences; the store gives the same tags; identical inputs, identical stores")
    func trainAndStore() throws {
        let trainer = EntityTrainer(config: EntityTrainerConfig(epochs: 5))
        for sentence in toySentences { trainer.add(sentence) }
        let model = trainer.finish()
        let names = model.labels.names
        for sentence in toySentences { #expect(model.decode(sentence.words).map { names[$0] } == sentence.labels) }

        let folder = try TemporaryFolder()
        let a = folder.path + "/a.sqlite", b = folder.path + "/b.sqlite"
        for path in [a, b] {
            _ = try NerBuild.train([WeightedFile(path: nerFixture), WeightedFile(path: repairFixture, weight: 0.5)], output: path,
                                   config: EntityTrainerConfig(epochs: 5), strict: false, progress: StageProgress(quiet: true))
        }
        #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
        let tagger = try EntityTagger(path: a)
        let entities = tagger.entities(in: "Tim Cook visited Paris.\nAnna works at Apple.")
        #expect(entities.contains(Entity(type: "PER", text: "Tim Cook", start: 0, end: 8)))
        #expect(entities.contains(Entity(type: "LOC", text: "Paris", start: 17, end: 22)))
        #expect(entities.contains(Entity(type: "PER", text: "Anna", start: 24, end: 28)))
        let words = tagger.entities(in: "Tim Cook visited Paris.", joinNames: false).filter { $0.type == "PER" }
        #expect(words.map(\.text) == ["Tim", "Cook"])
        // The store's model decodes as the trained one does.
        let trained = EntityTrainer(config: EntityTrainerConfig(epochs: 5))
        for s in IOB2Reader.read([nerFixture]).sentences { trained.add(s) }
        for s in IOB2Reader.read([repairFixture]).sentences { trained.add(s, weight: 0.5) }
        let memory = trained.finish()
        for s in toySentences { #expect(tagger.model.decode(s.words) == memory.decode(s.words)) }
        // Timing passes (eval ner --timing-passes) tag again for the speed figure alone: same scores.
        let once = EntityEvaluation.score(tagger.model, on: toySentences), thrice = EntityEvaluation.score(tagger.model, on: toySentences, timingPasses: 3)
        #expect(thrice.overall == once.overall && thrice.tokens == once.tokens && !thrice.nondeterministic)
        // A store without a tagger says so.
        #expect(throws: StoreError.self) { try EntityTagger(path: folder.path + "/missing.sqlite") }
    }

    @Test("lexicon: longest match, categories as a mask, first and inside words; its matches are features")
    func lexicon() {
        var lexicon = EntityLexicon()
        lexicon.add("new york", mask: EntityLexicon.Category.location.bit(instance: true))
        lexicon.add("york", mask: EntityLexicon.Category.location.bit(instance: true))
        lexicon.add("york", mask: EntityLexicon.Category.person.bit(instance: true))
        lexicon.add("too long a name of seven words here", mask: 1)
        let loc = UInt16(EntityLexicon.Category.location.bit(instance: true))
        #expect(lexicon.count == 2 && lexicon.maxLength == 2)
        #expect(lexicon.match(["in", "new", "york", "city"]) == [0, loc << 1, loc << 1 | 1, 0])
        #expect(lexicon.match(["york"]) == [(loc | 1) << 1])
        #expect(lexicon.match(["new"]) == [0])
        let words = ["He", "left", "New", "York"]
        let lowered = EntityFeatures.lowered(words)
        let plain = EntityFeatures.extract(words, lowered: lowered, gazetteer: [0, 0, 0, 0], lexicon: [0, 0, 0, 0])
        #expect(plain != EntityFeatures.extract(words, lowered: lowered, gazetteer: [0, 0, 0, 0]))   // "no match" is a feature
        let matched = EntityFeatures.extract(words, lowered: lowered, gazetteer: [0, 0, 0, 0], lexicon: lexicon.match(lowered))
        let per = EntityFeatures.perWord
        #expect(plain.count == matched.count)
        // Word 0 is two words from the match (no change); word 1 sees it on its right; words 2 and 3 are in it.
        #expect(plain[0..<per] == matched[0..<per])
        for i in 1..<4 { #expect(plain[(i * per)..<((i + 1) * per)] != matched[(i * per)..<((i + 1) * per)]) }
        #expect(EntityModel.features(words, gazetteer: nil, tagging: nil, lexicon: lexicon) == matched)
    }

    @Test("WordNet names: capitalized noun lemmas typed by lexicographer file, instances marked; in the store")
    func wordNetNames() throws {
        let folder = try TemporaryFolder()
        // Hand-made data.noun lines: offset lex_filenum ss_type w_cnt word lex_id ... p_cnt pointers | gloss
        let data = """
          1 This software and database is being provided to you, the LICENSEE
        00000001 18 n 02 Tim_Cook 0 Cook 0 001 @i 00000009 n 0000 | a person
        00000002 15 n 01 New_York 0 001 @i 00000009 n 0000 | a city
        00000003 17 n 01 Hudson 0 001 @i 00000009 n 0000 | a river
        00000004 17 n 01 Moon 0 000 | not an instance of noun.object
        00000005 14 n 01 Red_Cross 0 000 | a group
        00000006 18 n 02 American 0 actor 0 000 | a class of people, and a lowercase noun
        00000007 28 n 01 Monday 0 000 | a day

        """
        try data.write(toFile: folder.path + "/data.noun", atomically: true, encoding: .utf8)
        let lexicon = try EntityLexicon.wordNet(directory: folder.path)
        typealias C = EntityLexicon.Category
        #expect(lexicon.entries == [
            "tim cook": C.person.bit(instance: true), "cook": C.person.bit(instance: true),
            "new york": C.location.bit(instance: true), "hudson": C.location.bit(instance: true),
            "moon": C.other.bit(instance: false), "red cross": C.organization.bit(instance: false),
            "american": C.person.bit(instance: false), "monday": C.other.bit(instance: false),
        ])
        #expect(throws: EntityLexiconError.self) { try EntityLexicon.wordNet(directory: folder.path + "/missing") }
        // The store carries the lists (the tagger needs no WordNet), byte-identical rebuilds.
        let a = folder.path + "/a.sqlite", b = folder.path + "/b.sqlite"
        for path in [a, b] {
            _ = try NerBuild.train([WeightedFile(path: nerFixture)], lexicon: lexicon, output: path,
                                   config: EntityTrainerConfig(epochs: 3), strict: false, progress: StageProgress(quiet: true))
        }
        #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
        #expect(try EntityTagger(path: a).model.lexicon == lexicon)
    }

    @Test("word classes: learnt from unlabelled text, deterministic, looked up lowercased; their classes are features; in the store")
    func wordClasses() throws {
        let folder = try TemporaryFolder()
        let text = folder.path + "/text.txt"
        try """
        We flew to Paris on Monday .
        We flew to London on Friday .
        They drove to Paris on Friday .
        They drove to Berlin on Monday .
        Anna met Tim in London .
        Tim met Anna in Berlin .

        """.write(toFile: text, atomically: true, encoding: .utf8)
        let progress = StageProgress(quiet: true)
        let clusters = try NerBuild.clusters([text], classes: 4, progress: progress)
        #expect(clusters == (try NerBuild.clusters([text], classes: 4, progress: progress)))
        #expect(clusters.classes.keys.contains("paris") && !clusters.classes.keys.contains("Paris"))
        #expect(clusters.classes.values.allSatisfy { (1...4).contains($0) })
        #expect(Set(clusters.classes.values).count > 1)
        // Only the most frequent `words` words get a class.
        #expect(try NerBuild.clusters([text], classes: 4, words: 5, progress: progress).count == 5)
        #expect(try NerBuild.clusters([], classes: 4, progress: progress).isEmpty)
        let lookup = clusters.lookup(["paris", "unseen"])
        #expect(lookup[0] == UInt64(clusters.classes["paris"]!) && lookup[1] == 0)
        // A class changes the features of the word and of its neighbours.
        let words = ["We", "flew", "to", "Rome"]
        let lowered = EntityFeatures.lowered(words)
        let per = EntityFeatures.perWord
        let a = EntityFeatures.extract(words, lowered: lowered, gazetteer: [0, 0, 0, 0], clusters: [1, 2, 3, 0])
        let b = EntityFeatures.extract(words, lowered: lowered, gazetteer: [0, 0, 0, 0], clusters: [1, 2, 3, 3])
        #expect(a[0..<(2 * per)] == b[0..<(2 * per)])
        #expect(a[(2 * per)..<(3 * per)] != b[(2 * per)..<(3 * per)] && a[(3 * per)...] != b[(3 * per)...])
        #expect(EntityModel.features(words, gazetteer: nil, tagging: nil, clusters: EntityClusters(classes: ["rome": 3]))
                == EntityFeatures.extract(words, lowered: lowered, gazetteer: [0, 0, 0, 0], clusters: [0, 0, 0, 3]))
        // The store carries the classes; identical inputs, identical stores.
        let x = folder.path + "/x.sqlite", y = folder.path + "/y.sqlite"
        for path in [x, y] {
            _ = try NerBuild.train([WeightedFile(path: nerFixture)], clusters: clusters, output: path,
                                   config: EntityTrainerConfig(epochs: 3), strict: false, progress: progress)
        }
        #expect(FileManager.default.contents(atPath: x) == FileManager.default.contents(atPath: y))
        #expect(try EntityTagger(path: x).model.clusters == clusters)
    }

    @Test("document consistency: a capitalized name (or a word of a PER name) tagged in one sentence tags its untagged mentions, longest first")
    func documentConsistency() {
        let model = EntityModel(labels: EntityLabels(types: ["LOC", "PER"]), table: EntityWeightTable(labels: 5, capacity: 0),
                                transitions: [Float](repeating: 0, count: 6 * 5), gazetteer: EntityGazetteer(typeCount: 2))
        // O 0, B-LOC 1, I-LOC 2, B-PER 3, I-PER 4
        let sentences = [["Tim", "Cook", "spoke", "in", "Paris"], ["Later", "Tim", "Cook", "left", "Paris"],
                         ["Cook", "met", "tim", "cook"], ["the", "apple", "fell"], ["Paris", "Hilton"],
                         ["New", "York", "and", "York"]]
        let labels = [[3, 4, 0, 0, 1], [0, 0, 0, 0, 3], [0, 0, 0, 0], [0, 1, 0], [0, 0], [1, 2, 0, 0]]
        let out = model.propagatingNames(sentences, labels: labels)
        #expect(out[0] == labels[0])
        // "Tim Cook" (PER) is found again; the tagged "Paris" (PER here) is left alone.
        #expect(out[1] == [0, 3, 4, 0, 3])
        // "Cook", a word of the PER name "Tim Cook", is PER alone too; lowercase "tim cook" is no name.
        #expect(out[2] == [3, 0, 0, 0])
        // The words of a LOC name are not names alone.
        #expect(out[5] == labels[5])
        // A span starting lowercase ("apple") is no name to propagate; "Paris" is LOC once and PER once: the first type wins ties.
        #expect(out[4] == [1, 0])
        #expect(model.decode(document: []) == [])
    }

    @Test("with --upos-train the store carries the UPOS tagger whose tags are features")
    func uposFeatures() throws {
        let folder = try TemporaryFolder()
        let a = folder.path + "/a.sqlite", b = folder.path + "/b.sqlite"
        for path in [a, b] {
            _ = try NerBuild.train([WeightedFile(path: nerFixture)], uposTraining: [Paths.fixture("hmm/good.conllu")], output: path,
                                   config: EntityTrainerConfig(epochs: 3), strict: false, progress: StageProgress(quiet: true))
        }
        #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
        let tagger = try EntityTagger(path: a)
        let tagging = try #require(tagger.model.tagging)
        #expect(tagging.tags(["I", "swim"]).count == 2)
        #expect(tagger.meta[StoreSchema.MetaKey.hmm]?.contains("upos") == true)
        // The tags change the features.
        let words = ["Tim", "Cook", "visited", "Paris"]
        #expect(EntityModel.features(words, gazetteer: nil, tagging: tagging) != EntityModel.features(words, gazetteer: nil, tagging: nil))
        #expect(tagger.entities(in: "Tim Cook visited Paris.").map(\.text).contains("Paris"))
    }

    @Test("ner train refuses a line without a tag, naming file and line")
    func badInput() throws {
        let folder = try TemporaryFolder()
        #expect {
            try NerBuild.train([WeightedFile(path: badFixture)], output: folder.path + "/x.sqlite", config: .init(),
                               strict: false, progress: StageProgress(quiet: true))
        } throws: { "\($0)".contains("bad.conll:2:") }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/x.sqlite"))
    }

    @Test("command line: ner train, ner on standard input and files, eval ner; bad input exits 1 naming file:line")
    func commandLine() throws {
        let folder = try TemporaryFolder()
        let store = folder.path + "/ner.sqlite"
        let train = try CLI.run(["ner", "train", nerFixture, repairFixture + "=0.5", "-o", store, "--epochs", "5"])
        #expect(train.status == 0)
        #expect(train.stderr.contains("repair.conll:4: I-LOC after O; read as B-LOC"))
        let text = folder.path + "/text.txt"
        try Data("Tim Cook visited Paris.\n".utf8).write(to: URL(fileURLWithPath: text))
        let tagged = try CLI.run(["ner", store, text])
        #expect(tagged.status == 0)
        #expect(tagged.stdout.contains("0\t8\tPER\tTim Cook"))
        let evaluation = try CLI.run(["eval", "ner", store, nerFixture])
        #expect(evaluation.status == 0 && evaluation.stdout.contains("overall"))
        let bad = try CLI.run(["ner", "train", badFixture, "-o", folder.path + "/bad.sqlite"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("bad.conll:2: a token line without a tag"))
        let strict = try CLI.run(["ner", "train", repairFixture, "-o", folder.path + "/strict.sqlite", "--strict"])
        #expect(strict.status == 1)
        let empty = try CLI.run(["ner", store, Paths.fixture("search/empty.txt")])
        #expect(empty.status == 1 && empty.stderr.contains("empty document"))
    }

    @Test("UNER EWT: a tagger trained on BTC dev finds names in EWT dev",
          .enabled(if: FileManager.default.fileExists(atPath: Paths.sharedData.path + "/ner/btc.dev"), "../shared/data/ner is absent"))
    func sharedData() throws {
        let btc = IOB2Reader.read([Paths.sharedData.path + "/ner/btc.dev"])
        let ewt = IOB2Reader.read([Paths.sharedData.path + "/ner/en_ewt-ud-dev.iob2"])
        #expect(btc.errors.isEmpty && ewt.errors.isEmpty)
        #expect(ewt.sentences.count == 2001 && ewt.tokens == 25149)
        let trainer = EntityTrainer(config: EntityTrainerConfig(epochs: 3))
        for s in btc.sentences { trainer.add(s) }
        let score = EntityEvaluation.score(trainer.finish(), on: Array(ewt.sentences.prefix(500)))
        #expect(score.overall.f1 > 0.2)
    }
}
