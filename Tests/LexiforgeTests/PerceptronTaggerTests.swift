import Foundation
import LexiforgePerceptron
import LexiforgeBuild
import LexiforgeEvaluation
import LexiforgeText
import LexiforgeTestSupport
import Testing

/// A toy treebank (inline CoNLL-U): determiners, nouns, verbs and a full stop, where the words
/// alone decide the tag except "walks"/"runs" (NOUN after a determiner, VERB after a noun).
private let toyCoNLLU = """
    # text = the dog runs .
    1	the	the	DET	_	_	0	_	_	_
    2	dog	dog	NOUN	_	_	0	_	_	_
    3	runs	run	VERB	_	_	0	_	_	_
    4	.	.	PUNCT	_	_	0	_	_	_

    # text = a cat walks .
    1	a	a	DET	_	_	0	_	_	_
    2	cat	cat	NOUN	_	_	0	_	_	_
    3	walks	walk	VERB	_	_	0	_	_	_
    4	.	.	PUNCT	_	_	0	_	_	_

    # text = the walks end .
    1	the	the	DET	_	_	0	_	_	_
    2	walks	walk	NOUN	_	_	0	_	_	_
    3	end	end	VERB	_	_	0	_	_	_
    4	.	.	PUNCT	_	_	0	_	_	_

    # text = a dog sees the runs .
    1	a	a	DET	_	_	0	_	_	_
    2	dog	dog	NOUN	_	_	0	_	_	_
    3	sees	see	VERB	_	_	0	_	_	_
    4	the	the	DET	_	_	0	_	_	_
    5	runs	run	NOUN	_	_	0	_	_	_
    6	.	.	PUNCT	_	_	0	_	_	_


    """

/// The toy sentences as (words, tags).
private let toySentences: [([String], [String])] = toyCoNLLU.components(separatedBy: "\n\n").compactMap { block in
    let rows = block.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t").map(String.init) }
    return rows.isEmpty ? nil : (rows.map { $0[1] }, rows.map { $0[3] })
}

private func train(_ config: PerceptronConfig = .init()) -> PerceptronTagger {
    let trainer = PerceptronTrainer(config: config)
    for (words, tags) in toySentences { trainer.add(words: words, tags: tags) }
    return trainer.finish()
}

@Suite("Averaged-perceptron tagger")
struct PerceptronTaggerTests {
    @Test("learns a separable toy set, context-dependent words included")
    func learnsToySet() {
        let tagger = train()
        for (words, tags) in toySentences { #expect(tagger.tag(words) == tags) }
        #expect(tagger.tag(["the", "dog", "walks", "."]) == ["DET", "NOUN", "VERB", "PUNCT"])
        #expect(tagger.isKnown("dog") && !tagger.isKnown("zebra"))
    }

    @Test("posteriors: the greedy tag first, probabilities summing to at most 1; temperature 0 is one-hot")
    func posteriors() {
        var tagger = train()
        let words = ["a", "cat", "runs", "."]
        let posteriors = tagger.posteriors(words)
        #expect(posteriors.map { $0[0].tag } == tagger.tag(words))
        for word in posteriors {
            let total = word.reduce(0) { $0 + $1.probability }
            #expect(total <= 1 + 1e-9 && total > 0.5)
            #expect(zip(word, word.dropFirst()).allSatisfy { $0.probability >= $1.probability })
        }
        tagger.temperature = 0
        #expect(tagger.tagPosteriors(for: words) == tagger.tag(words).map { [WeightedTag($0, 1)] })
    }

    @Test("training is deterministic for a seed: the same tags and probabilities twice")
    func deterministic() {
        let words = ["the", "cat", "sees", "a", "walks", "."]
        let a = train(), b = train()
        #expect(a.tag(words) == b.tag(words))
        #expect(a.posteriors(words).map { $0.map(\.probability) } == b.posteriors(words).map { $0.map(\.probability) })
        #expect(a.featureCount == b.featureCount)
    }

    @Test("trained from a CoNLL-U file through the pipeline (TaggerLoader) and used by the lemmatizer")
    func fromFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("toy.conllu")
        try toyCoNLLU.write(toFile: path, atomically: true, encoding: .utf8)
        let tagger = try TaggerLoader.open(.perceptron(training: [path]))
        #expect(tagger.tags(for: ["the", "dog", "runs", "."]) == ["DET", "NOUN", "VERB", "PUNCT"])
        let report = try LemmaEval.run(gold: path, source: LemmatizerSource(training: [path], wordNet: nil),
                                       tagging: .tagger(.perceptron(training: [path])))
        #expect(report.words == 18 && report.correct == 18)
        #expect(throws: PipelineError.self) { try TaggerLoader.open(.perceptron(training: [folder.file("missing.conllu")])) }
    }

    @Test("--tagger and --tagger-train exclude each other; eval tag trains and scores the perceptron")
    func commandLine() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("toy.conllu")
        try toyCoNLLU.write(toFile: path, atomically: true, encoding: .utf8)
        for arguments in [["eval", "lemma", path, "--train", path, "--tagger", "x.sqlite", "--tagger-train", path],
                          ["tokenize", "--lemmas", "--tagger", "x.sqlite", "--tagger-train", path, path]] {
            let result = try CLI.run(arguments)
            #expect(result.status != 0)
            #expect(result.stderr.contains("--tagger STORE and --tagger-train FILE exclude each other"))
        }
        let lemma = try CLI.run(["eval", "lemma", path, "--train", path, "--no-wordnet", "--tagger-train", path])
        #expect(lemma.status == 0)
        #expect(lemma.stdout.contains("accuracy: 1.0000 (18/18)"))
        let tag = try CLI.run(["eval", "tag", "--tagger-train", path, path])
        #expect(tag.status == 0)
        #expect(tag.stdout.contains("accuracy: 100.00% (18/18)"))
    }
}
