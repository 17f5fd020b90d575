import Foundation

/// The vocabulary of a store: one id per word, shared by every stage (n-grams, lexicon, HMM,
/// swipe), packed so that a 160,000-word keyboard list costs about 2.2 MB instead of 5.8 MB.
///
/// Layout (schema version 5):
/// - `word_block(block, words)`: the spellings of ids `block·64 ..< block·64 + 64`, in id order,
///   separated by line feeds (a token or a wordlist entry never holds one: the writer checks).
///   One row per 64 words instead of one row and one index entry per word: the per-row and
///   per-index-entry overhead (about 19 bytes a word) is what made the one-row-per-word table and
///   its text index 5.8 MB for en_US.
/// - `word_order(first_text, ids)`: every id in byte order of its spelling, 64 to a row, as
///   unsigned LEB128 varints, keyed by the row's first spelling: the index that makes text lookups
///   and prefix lookups a range scan (seek the row whose first spelling is at most the key, read
///   on). About 3 bytes a word.
/// - `word_count(id, count, logprob, backoff)`: the unigram count (for `<s>`: the sentence count)
///   and, in language-model stores, the unigram log10 probability and backoff (units of
///   1/``logScale``), for every id whose count is not 0 or that has model values; any other id
///   has count 0 (a wordlist word no corpus showed).
/// - View `word(id, text, count[, logprob, backoff])`: the vocabulary as one row per word, for
///   humans and `sqlite3` (`SELECT * FROM word WHERE text = 'the'`); every other view joins it.
///   It unpacks the blocks with a recursive query (a priority queue on block and position, so
///   rows come out in id order): fine for inspection (a few hundred milliseconds for 160,000
///   words), not for front ends, which read the packed tables through
///   ``TrainedStore/vocabulary()``.
///
/// Columns that hold word ids (n-gram `w1`…, `word_class.word`, `hmm_emission.word`,
/// `lexicon*.wordId`, `swipe_feature.wordId`) are not declared as foreign keys: a view cannot be a
/// foreign-key parent. The writer is the only one that fills them, from the same id list.
///
/// Ids are dense: 0 `<unk>`, 1 `<s>`, 2 `</s>`, then every word by descending count (n-gram
/// stores) or by the list's frequency order (lexicon stores), so frequent words get the shortest
/// varints in the n-gram tables.
extension StoreSchema {
    /// Words per `word_block` and `word_order` row.
    public static let wordBlockSize = 64

    /// The statements that create the vocabulary tables and the `word` view.
    public static func wordCreationStatements(languageModel lm: Bool) -> [String] {
        [
            """
            CREATE TABLE word_block (
                block INTEGER PRIMARY KEY,
                words TEXT NOT NULL
            )
            """,
            """
            CREATE TABLE word_order (
                first_text TEXT PRIMARY KEY NOT NULL,
                ids BLOB NOT NULL
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE word_count (
                id INTEGER PRIMARY KEY,
                count INTEGER NOT NULL CHECK (count >= 0)\(lm ? ",\n    logprob INTEGER NOT NULL,\n    backoff INTEGER NOT NULL DEFAULT 0" : "")
            )
            """,
            """
            CREATE VIEW word(id, text, count\(lm ? ", logprob, backoff" : "")) AS
                WITH RECURSIVE split(block, n, rest, text) AS (
                    SELECT block, -1, words || char(10), NULL FROM word_block
                    UNION ALL
                    SELECT block, n + 1, substr(rest, instr(rest, char(10)) + 1), substr(rest, 1, instr(rest, char(10)) - 1)
                    FROM split WHERE rest <> '' ORDER BY 1, 2
                )
                SELECT id, text, coalesce((SELECT count FROM word_count AS c WHERE c.id = w.id), 0)\(lm ? """
                ,
                       coalesce((SELECT logprob FROM word_count AS c WHERE c.id = w.id), 0),
                       coalesce((SELECT backoff FROM word_count AS c WHERE c.id = w.id), 0)
                """ : "")
                FROM (SELECT block * \(wordBlockSize) + n AS id, text FROM split WHERE n >= 0) AS w
            """,
        ]
    }
}
