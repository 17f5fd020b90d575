// MARK: - Lemma search index (optional, `lexiforge index`)

extension StoreSchema {
    /// The tables of a lemma search index, written by `lexiforge index` beside a vocabulary of
    /// the indexed word forms (`word`, ids by descending count) whose `word_class.lemma` is each
    /// form's most frequent lemma in the documents (NULL when the lemma is the form itself).
    ///
    /// - `search_document(id, name, text, lemmas)`: every document with its original text (for
    ///   snippets) and `lemmas`: the lowercased lemma of each of its word tokens, in order,
    ///   separated by one space (the treebank tokenizer's words, punctuation left out); with a
    ///   tagger, the VERB lemma of a gerund or participle tagged NOUN or ADJ follows its lemma
    ///   after `|` (`singing|sing`).
    /// - `search_fts`: an FTS5 index of `search_document.lemmas` (external content,
    ///   `unicode61` tokenizer), ranked with BM25.
    /// - `search_terms`: an `fts5vocab` view of it (term, documents, occurrences).
    /// Meta row `search` says how it was built.
    public enum Search {
        public static let tables = ["search_document", "search_fts"]

        public static let creationStatements: [String] = [
            """
            CREATE TABLE search_document (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                text TEXT NOT NULL,
                lemmas TEXT NOT NULL
            )
            """,
            """
            CREATE VIRTUAL TABLE search_fts USING fts5(
                lemmas, content = 'search_document', content_rowid = 'id', tokenize = 'unicode61'
            )
            """,
            "CREATE VIRTUAL TABLE search_terms USING fts5vocab(search_fts, 'row')",
        ]
    }
}
