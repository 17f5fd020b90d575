import Foundation
import LexiforgeNgrams
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeWordlist

/// Everything that decides what `lexiforge wordlist import` builds.
public struct WordlistImportConfig: Sendable {
    /// Combined wordlists (plain or gzipped), read in this order into one lexicon.
    public var inputs: [String]
    /// The store to write (replaced atomically; nothing is written when an input has errors).
    public var output: String
    /// Warnings (duplicates, CRLF, a plain file named .gz...) become errors.
    public var strict = false
    /// Write the `word_class` table: every word's tag-free lemma and script class, indexed, so a
    /// front end finds a list's words by lemma or script (see ``StoreSchema``). Off by default: it
    /// is not part of the round trip and adds about 2 MB for en_US.
    public var wordClasses = false
    /// Where the lemmas come from (with ``wordClasses``): WordNet when installed, and CoNLL-U
    /// treebanks when given.
    public var lemmatizer: LemmatizerSource? = LemmatizerSource.wordNetIfInstalled

    public init(inputs: [String], output: String) {
        self.inputs = inputs
        self.output = output
    }
}

/// What an import did.
public struct WordlistImportReport: Sendable {
    public var files: [WordlistFileSummary]
    public var entries: Int
    public var warnings: [WordlistDiagnostic]
    public var storeBytes: Int
}

/// Wordlists in, a store with their lexicon out: read (streaming, every problem collected) →
/// assign ids → write.
///
/// In: ``WordlistImportConfig``. Out: the store, whose vocabulary (`word`) lists the reserved tokens and
/// then every entry in list order (so ids are list order, which is export order), with count 0 (no
/// corpus), plus any bigram target outside the list; and a report. Nothing is written when any
/// input has an error, or any warning under `strict`.
public enum WordlistImport {
    public static func run(_ config: WordlistImportConfig, progress: StageProgress) throws -> WordlistImportReport {
        guard !config.inputs.isEmpty else { throw PipelineError("no wordlist given; name at least one .combined or .combined.gz file") }
        let file = try AtomicStoreFile.prepare(path: config.output)

        progress.stage(1, of: 3, "Reading \(config.inputs.count) wordlist(s)")
        let read = WordlistReader.read(paths: config.inputs)
        for warning in read.warnings where !config.strict { progress.say(warning.description) }
        let failing = config.strict ? read.diagnostics : read.errors
        if !failing.isEmpty {
            // One line each; the CLI prefixes `error: `.
            var problems = failing.map { "\($0.location): \($0.message)" + ($0.severity == .warning ? " (a warning, an error under --strict)" : "") }
            if read.omittedDiagnostics > 0 { problems.append("… and \(read.omittedDiagnostics) more problem(s) not listed") }
            problems.append("no store written; fix the list(s) and import again")
            throw PipelineError(problems)
        }
        let lexicon = read.lexicon
        for summary in read.files {
            progress.say("  \(summary.path): \(summary.entries) entries, \(summary.lines) lines, \(megabytes(summary.textBytes)) of text")
        }

        progress.stage(2, of: 3, "Assigning ids to \(lexicon.entries.count) words")
        let counts = vocabulary(of: lexicon)
        var columns: StoreWriter.WordColumns?
        if config.wordClasses {
            let lemmatizer = try config.lemmatizer.map(LemmatizerBuild.make)
            columns = NgramBuild.wordColumns(counts.words, lemmatizer: lemmatizer)
        }

        progress.stage(3, of: 3, "Writing \(config.output)")
        var meta = WordlistImport.provenance(files: read.files, counts: counts, lexicon: lexicon)
        meta[StoreSchema.MetaKey.order] = "1"
        if config.wordClasses, let lemmatizer = config.lemmatizer { meta[StoreSchema.MetaKey.lemmatizer] = lemmatizer.json }
        try StoreWriter.write(counts: counts, lexicon: lexicon, meta: meta, words: columns, to: file)
        progress.endStage()
        let bytes = (try? FileManager.default.attributesOfItem(atPath: config.output)[.size] as? Int) ?? 0
        return WordlistImportReport(files: read.files, entries: lexicon.entries.count,
                                    warnings: read.warnings, storeBytes: bytes)
    }

    /// Reserved tokens, the entries in order, then bigram targets outside the list (count 0).
    static func vocabulary(of lexicon: Lexicon) -> NgramCounts {
        let reserved = [StoreSchema.unknownToken, StoreSchema.sentenceStartToken, StoreSchema.sentenceEndToken]
        var words = reserved
        words.reserveCapacity(words.count + lexicon.entries.count)
        // Entries are unique (the reader drops duplicates); only reserved tokens and bigram
        // targets need checking.
        for entry in lexicon.entries where !reserved.contains(entry.word) { words.append(entry.word) }
        if lexicon.entries.contains(where: { $0.children.contains { if case .bigram = $0 { true } else { false } } }) {
            var known = Set(words)
            for entry in lexicon.entries {
                for case .bigram(let next, _, _) in entry.children where known.insert(next).inserted { words.append(next) }
            }
        }
        return NgramCounts(order: 1, words: words, unigramCounts: Array(repeating: 0, count: words.count))
    }

    /// `meta` rows of a store with a lexicon.
    static func provenance(files: [WordlistFileSummary], counts: NgramCounts, lexicon: Lexicon) -> [String: String] {
        var provenance = StoreProvenance(
            toolchain: toolchainVersion,
            inputs: files.map { InputRecord(file: URL(fileURLWithPath: $0.path).lastPathComponent, sha256: $0.sha256, bytes: $0.storedBytes) },
            tokens: 0, sentences: 0, vocabulary: counts.words.count)
        provenance.extra[StoreSchema.LexiconMetaKey.entries] = String(lexicon.entries.count)
        return provenance.rows
    }
}


/// A store's lexicon out as a combined wordlist.
///
/// In: a store with a lexicon. Out: `output` (gzip when it ends in `.gz`), entries in id order;
/// for a store made by `wordlist import` of one list, the decompressed input byte for byte.
public enum WordlistExport {
    /// Returns the entries written.
    public static func run(store path: String, output: String, progress: StageProgress) throws -> Int {
        progress.stage(1, of: 2, "Reading the lexicon of \(path)")
        let store = try TrainedStore(path: path)
        let lexicon = try store.lexicon()
        if lexicon.headers.count > 1 {
            progress.say("note: the store holds \(lexicon.headers.count) imported lists; the header of the first is written")
        }
        progress.stage(2, of: 2, "Writing \(lexicon.entries.count) entries to \(output)")
        do {
            try WordlistWriter.write(lexicon, to: output)
        } catch {
            throw PipelineError(error.description)
        }
        progress.endStage()
        return lexicon.entries.count
    }
}
