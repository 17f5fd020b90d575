// MARK: - Suffix rules for word forms the corpus never showed (optional, `ngrams --form-rules N`)

extension StoreSchema {
    /// Suffix rules a language-model store may carry so that completions can offer forms of known
    /// words the corpus never showed ("disturbing" from "disturb" and "disturbed").
    ///
    /// `form_rule(strip, append, stems, logprob)`: a known word that ends in `strip` after a stem of
    /// at least ``formMinStem`` letters gives the form with `append` in its place. `stems` is how
    /// many stems of the vocabulary have both endings (the rule's evidence), and `logprob` is
    /// log10 of the rule's share of the unseen-word mass (store units, ``logScale``): the rule's
    /// productivity (`stems` ÷ stems with `strip`) divided by the sum of the productivities of
    /// every derivation of an unseen form from the vocabulary. A derived form's probability after
    /// a context is p(`<unk>` | context) × the sum of 10^logprob over the derivations that give it.
    /// Only words made of letters take part (``isFormable(_:)``), and endings are at most
    /// ``formMaxSuffix`` letters.
    public static let formRuleCreationStatements: [String] = [
        """
        CREATE TABLE form_rule (
            strip TEXT NOT NULL,
            append TEXT NOT NULL,
            stems INTEGER NOT NULL,
            logprob INTEGER NOT NULL,
            PRIMARY KEY (strip, append)
        ) WITHOUT ROWID
        """,
    ]

    public static let formRuleTable = "form_rule"
    /// The tables a language-model store may carry beside its n-grams, each keyed by its first two
    /// columns: the class model's, then the suffix rules.
    public static let optionalModelTables = clusterTables + [formRuleTable]
    /// The shortest stem a rule applies to, in characters.
    public static let formMinStem = 3
    /// The longest ending a rule strips or appends, in characters.
    public static let formMaxSuffix = 6

    /// Whether `word` takes part in suffix rules: made of letters only, long enough for a stem.
    public static func isFormable(_ word: String) -> Bool {
        word.count >= formMinStem && word.allSatisfy(\.isLetter)
    }

    /// Every way a rule can cut `word` into a stem (at least `shortestStem` letters, and at least
    /// ``formMinStem``) and an ending (at most ``formMaxSuffix``), the whole word with the empty
    /// ending first; none when the word is shorter than that stem.
    public static func formCuts(of word: String, shortestStem: Int = formMinStem) -> [(stem: String, ending: String)] {
        let letters = Array(word)
        let longest = letters.count - max(formMinStem, shortestStem)   // the longest ending to cut
        guard longest >= 0 else { return [] }
        return (0...min(formMaxSuffix, longest)).map { k in
            (String(letters[..<(letters.count - k)]), String(letters[(letters.count - k)...]))
        }
    }
}
