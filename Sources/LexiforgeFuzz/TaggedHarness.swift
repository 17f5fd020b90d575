#if LEXIFORGE_FUZZ
import Foundation
import LexiforgeCorpus

/// (3) Tagged corpora: CoNLL-U through the tagged-corpus reader (UPOS and XPOS columns) and the
/// treebank reader, the slash format, and CoNLL-U `# text = ` lines through the corpus reader.
func fuzzTaggedCorpora(_ data: Data) {
    let path = scratchFile("input.conllu", data)
    var words = 0
    _ = TaggedCorpusReader.read(path: path, format: .conllu, tagColumn: .upos) { w, _ in words += w.count }
    _ = TaggedCorpusReader.read(path: path, format: .conllu, tagColumn: .xpos, replaceInvalidUTF8: true) { w, _ in words += w.count }
    _ = TaggedCorpusReader.read(path: path, format: .slash) { w, _ in words += w.count }
    _ = TaggedCorpusReader.read(path: path, format: .json) { w, _ in words += w.count }
    _ = try? TreebankReader.read(path: path) { sentence in words += sentence.words.count }
    let options = CorpusReadOptions(replaceInvalidUTF8: true, stripGutenberg: false, treebankText: true)
    _ = try? CorpusReader.readLines(of: path, options: options) { line in words += line.count }
}
#endif
