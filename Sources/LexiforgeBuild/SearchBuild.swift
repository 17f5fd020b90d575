import Foundation
import LexiforgeCorpus
import LexiforgeReader
import LexiforgeStoreWriter
import LexiforgeText

/// What `lexiforge index` builds from.
public struct SearchIndexConfig: Sendable {
    /// Folders of text files (every regular file under them, recursively), JSON Lines files
    /// (`.jsonl`: one `{"id": ..., "text": ...}` object a line), or single text files.
    public var inputs: [String]
    public var output: String
    public var lemmatizer: LemmatizerSource
    /// Tag each line with this UPOS tagger and vote lemmas over its posteriors; nil: tag-free.
    public var tagger: TaggerSource?
    public var strict = false
    public init(inputs: [String], output: String, lemmatizer: LemmatizerSource, tagger: TaggerSource? = nil, strict: Bool = false) {
        self.inputs = inputs
        self.output = output
        self.lemmatizer = lemmatizer
        self.tagger = tagger
        self.strict = strict
    }
}

public struct SearchIndexReport: Sendable {
    public var documents = 0
    public var tokens = 0
    public var forms = 0
    public var storeBytes = 0
    /// CPU seconds of this thread: training the lemmatizer (and tagger), then reading, lemmatizing and writing.
    public var trainingCPUSeconds = 0.0
    public var indexingCPUSeconds = 0.0
    public var indexingSeconds = 0.0
}

/// `lexiforge index` and `eval search`: the lemma search index.
public enum SearchBuild {
    /// The documents of the inputs, in order: each folder's files by path (byte order), each
    /// JSON Lines file's lines in order. Empty documents are skipped with a warning (an error
    /// under `strict`); unreadable files, bad JSON lines and repeated names are errors, all
    /// reported together.
    public static func documents(_ inputs: [String], strict: Bool,
                                 progress: StageProgress) throws -> [(name: String, text: String)] {
        var out: [(name: String, text: String)] = []
        var errors: [String] = [], warnings: [String] = []
        var seen: [String: String] = [:]
        func add(_ name: String, _ text: String, at place: String) {
            if text.allSatisfy(\.isWhitespace) {
                warnings.append("\(place): empty document \"\(name)\"; skipped")
                return
            }
            if let first = seen[name] {
                errors.append("\(place): document name \"\(name)\" repeats \(first); names must be unique")
                return
            }
            seen[name] = place
            out.append((name, text))
        }
        func readText(_ path: String) -> String? {
            do { return try text(of: path) } catch {
                errors.append("\(error)")
                return nil
            }
        }
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
                errors.append(CorpusError.missing(input).description)
                continue
            }
            if isDirectory.boolValue {
                let base = URL(fileURLWithPath: input).standardizedFileURL.path
                var files: [String] = []
                if let walker = FileManager.default.enumerator(atPath: base) {
                    while let relative = walker.nextObject() as? String {
                        var info = stat()
                        guard lstat(base + "/" + relative, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                              !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
                        files.append(relative)
                    }
                }
                files.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                if files.isEmpty { errors.append("\(input): no files to index in this folder") }
                for relative in files {
                    if let text = readText(base + "/" + relative) { add(relative, text, at: base + "/" + relative) }
                }
            } else if input.hasSuffix(".jsonl") || input.hasSuffix(".jsonl.gz") {
                var number = 0
                do {
                    _ = try CorpusReader.readLines(of: input, options: CorpusReadOptions(stripGutenberg: false)) { bytes in
                        number += 1
                        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
                        let place = "\(input):\(number)"
                        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
                            errors.append("\(place): not a JSON object; each line must be {\"id\": ..., \"text\": ...}")
                            return
                        }
                        let id: String
                        switch object["id"] {
                        case let s as String: id = s
                        case let n as NSNumber: id = n.stringValue
                        default:
                            errors.append("\(place): no \"id\" (a string or number)")
                            return
                        }
                        guard let text = object["text"] as? String else {
                            errors.append("\(place): no \"text\" string")
                            return
                        }
                        add(id, text, at: place)
                    }
                } catch let error as CorpusError {
                    errors.append(error.description)
                }
            } else if let text = readText(input) {
                add(input, text, at: input)
            }
        }
        if !errors.isEmpty || (strict && !warnings.isEmpty) {
            throw PipelineError(errors + (strict ? warnings.map { $0 + " (an error under --strict)" } : []))
        }
        for warning in warnings { progress.say("warning: \(warning)") }
        return out
    }

    /// The whole text of a file (plain or gzipped; BOM and CR before LF dropped, lines ended by
    /// LF); "" for an empty one.
    /// - Throws: ``CorpusError`` when it cannot be read.
    static func text(of path: String) throws -> String {
        var text = ""
        do {
            _ = try CorpusReader.readLines(of: path, options: CorpusReadOptions(stripGutenberg: false)) { bytes in
                text += String(decoding: bytes, as: UTF8.self)
                text += "\n"
            }
        } catch CorpusError.empty {
            return ""
        }
        return text
    }

    /// Whether a word tagged NOUN or ADJ may be a gerund or participle, whose VERB lemma is
    /// indexed too: lowercase, ending in -ing (6+ letters) or -ed (5+). (Indexing the lemmas of
    /// every tag of posterior ≥ 0.1 was tried and dropped: "singer" was then indexed as "sing",
    /// and posteriors cost 1.5 CPU s more on the reviews.)
    static func mayBeVerbForm(_ word: String) -> Bool {
        let n = word.utf8.count
        return word.utf8.first.map { $0 >= 0x61 && $0 <= 0x7A } == true
            && ((n >= 6 && word.hasSuffix("ing")) || (n >= 5 && word.hasSuffix("ed")))
    }

    /// A lemma as an index term: lowercased, without the separators of the lemma text (space, `|`).
    static func clean(_ lemma: String) -> String {
        // Most lemmas are lowercase ASCII letters already: no copy.
        if lemma.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) { return lemma }
        let lower = lemma.lowercased()
        guard lower.utf8.contains(where: { $0 == 0x20 || $0 == 0x7C }) else { return lower }
        return String(lower.map { $0 == " " || $0 == "|" ? "_" : $0 })
    }

    /// Builds the index store (``StoreSchema/Search``) atomically.
    public static func index(_ config: SearchIndexConfig, progress: StageProgress) throws -> SearchIndexReport {
        var report = SearchIndexReport()
        let file = try AtomicStoreFile.prepare(path: config.output)
        let startedCPU = threadCPUSeconds()
        let lemmatizer = try LemmatizerBuild.make(config.lemmatizer)
        let tagger = try config.tagger.map { try TaggerLoader.open($0) }
        report.trainingCPUSeconds = threadCPUSeconds() - startedCPU
        let started = DispatchTime.now().uptimeNanoseconds
        let indexStartedCPU = threadCPUSeconds()
        let documents = try documents(config.inputs, strict: config.strict, progress: progress)
        guard !documents.isEmpty else { throw PipelineError("\(config.inputs.joined(separator: ", ")): no documents to index") }
        progress.say("indexing \(documents.count) documents")
        let tokenizer = Tokenizer(mode: .treebank)
        var cache = LemmaCache()
        var formIDs: [String: Int] = [:]
        var forms: [String] = []
        var formLemmas: [[String: Int]] = []
        var rows: [(name: String, text: String, lemmas: String)] = []
        rows.reserveCapacity(documents.count)
        var tokens: [Token] = []
        for document in documents {
            var lemmaText = ""
            // Lines by bytes (splitting the String by Character is several times slower).
            var text = Array(document.text.utf8)
            var lineStart = 0
            while lineStart <= text.count {
                var lineEnd = lineStart
                while lineEnd < text.count && text[lineEnd] != 0x0A { lineEnd += 1 }
                defer { lineStart = lineEnd + 1 }
                tokens.removeAll(keepingCapacity: true)
                text.withUnsafeMutableBufferPointer { all in
                    tokenizer.tokenize(UnsafeBufferPointer(rebasing: all[lineStart..<lineEnd]), into: &tokens)
                }
                let words = tokens.filter { $0.kind == .word }.map {
                    String(decoding: text[(lineStart + $0.start)..<(lineStart + $0.end)], as: UTF8.self)
                }
                guard !words.isEmpty else { continue }
                // Terms per word: the lemma under the tagger's tag (or the tag-free one); for a
                // gerund or participle tagged NOUN or ADJ (-ing, -ed) also its VERB lemma
                // ("singing is fun": NOUN singing, VERB sing), joined by "|".
                let tags = tagger?.tags(for: words)
                let lemmas = cache.lemmatize(words, tags: tags, predicted: true, lemmatizer)
                for (i, word) in words.enumerated() {
                    let best = clean(lemmas[i])
                    var terms = best
                    if let tags, tags[i] == "NOUN" || tags[i] == "ADJ", Self.mayBeVerbForm(word) {
                        let verb = clean(cache.lemma(of: word, tag: "VERB", position: i, predicted: true, lemmatizer))
                        if verb != best { terms += "|" + verb }
                    }
                    if !lemmaText.isEmpty { lemmaText += " " }
                    lemmaText += terms
                    let id: Int
                    if let known = formIDs[word] { id = known } else {
                        id = forms.count
                        formIDs[word] = id
                        forms.append(word)
                        formLemmas.append([:])
                    }
                    formLemmas[id][best, default: 0] += 1
                    report.tokens += 1
                }
            }
            rows.append((document.name, document.text, lemmaText))
        }
        // The vocabulary by descending count, ties by byte order; each form's most frequent lemma.
        let counts = formLemmas.map { $0.values.reduce(0, +) }
        let order = forms.indices.sorted {
            counts[$0] != counts[$1] ? counts[$0] > counts[$1] : forms[$0].utf8.lexicographicallyPrecedes(forms[$1].utf8)
        }
        let lemmas: [String?] = order.map { k in
            formLemmas[k].max { ($0.value, $1.key) < ($1.value, $0.key) }!.key
        }
        let columns = StoreWriter.WordColumns(lemmas: lemmas, scripts: order.map { ScriptClass(of: forms[$0]).rawValue })
        struct Description: Encodable {
            var documents: Int, tokenizer = "treebank", tagger: String?, fts5 = "unicode61"
            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(documents, forKey: .documents)
                try c.encode(tokenizer, forKey: .tokenizer)
                try c.encode(tagger, forKey: .tagger)   // null: tag-free lemmas
                try c.encode(fts5, forKey: .fts5)
            }
            enum CodingKeys: String, CodingKey { case documents, tokenizer, tagger, fts5 }
        }
        var provenance = StoreProvenance(toolchain: toolchainVersion, model: "lemma-search", order: 1, inputs: [],
                                         tokens: report.tokens, sentences: 0, vocabulary: forms.count)
        provenance.extra[StoreSchema.MetaKey.lemmatizer] = config.lemmatizer.json
        provenance.extra[StoreSchema.MetaKey.search] = MetaJSON.encode(Description(documents: rows.count, tagger: config.tagger == nil ? nil : "upos"))
        var meta = provenance.rows
        meta[StoreSchema.MetaKey.inputs] = nil
        meta[StoreSchema.MetaKey.sentences] = nil
        try StoreWriter.writeSearchIndex(documents: rows, meta: meta, words: order.map { forms[$0] },
                                         counts: order.map { Int64(counts[$0]) }, columns: columns, to: file)
        report.documents = rows.count
        report.forms = forms.count
        report.indexingCPUSeconds = threadCPUSeconds() - indexStartedCPU
        report.indexingSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        report.storeBytes = (try? FileManager.default.attributesOfItem(atPath: config.output)[.size] as? Int) ?? 0
        return report
    }
}
