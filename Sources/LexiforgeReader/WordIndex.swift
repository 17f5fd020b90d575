import Foundation
import LexiforgeFormat

/// Id by spelling for a vocabulary (`texts` by id), the ids of ``StoreVocabulary`` and ``NgramPredictor``.
package struct WordIndex: Sendable {
    let texts: [String]
    private var table: SpellingTable
    /// How many different spellings `texts` holds (fewer than its count when one repeats).
    package private(set) var distinct = 0

    /// `keepingLast`: a repeated spelling gives its last id (otherwise its first).
    package init(texts: [String], keepingLast: Bool = false) {
        self.texts = texts
        table = SpellingTable(capacity: texts.count)
        var tags = table.makeTags()
        for (id, text) in texts.enumerated() {
            let (found, slot) = table.find(text, tags: tags) { texts[Int($0)] }
            if found == nil { distinct += 1 } else if !keepingLast { continue }
            table.set(Int32(id), at: slot, key: text, tags: &tags)
        }
    }

    /// The id of `text`, nil when the vocabulary does not hold it.
    package subscript(text: String) -> Int32? { table.find(text) { texts[Int($0)] }.entry }
}
