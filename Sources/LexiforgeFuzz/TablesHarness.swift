#if LEXIFORGE_FUZZ
import Foundation
import LexiforgeBuild
import LexiforgeEntities
import LexiforgeVocab

/// (7) The newer stores' training inputs: vocabulary lists (CSV and TSV), entity files (IOB2 or
/// CoNLL columns), labeled texts (CSV and JSON Lines) and `LANG<TAB>sentence` files. Each reader
/// reports bad input as diagnostics or a thrown error; a crash is the bug.
func fuzzTables(_ data: Data) {
    var rows = 0
    let list = scratchFile("input.list", data)
    for format in [VocabListOptions.Format.csv, .tsv] {
        var options = VocabListOptions()
        options.format = format
        rows += VocabListReader.read(path: list, options: options).rows.count
        options.header = false
        options.defaultLevel = "N5"
        _ = options.parseColumns("expression=1,reading=2,meaning=3")
        rows += VocabListReader.read(path: list, options: options).rows.count
    }
    rows += IOB2Reader.read([scratchFile("input.iob2", data)]).sentences.count
    for name in ["input.csv", "input.jsonl"] {
        rows += (try? ClassifyData.read([scratchFile(name, data)], strict: false))?.documents.count ?? 0
    }
    rows += (try? LangidData.read(scratchFile("input.tsv", data)))?.samples.count ?? 0
    _ = rows
}
#endif
