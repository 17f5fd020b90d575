/// One training word for the lemmatizer: a form, its Universal POS tag and its gold lemma.
public struct LemmaExample: Sendable, Equatable {
    public var form: String
    public var upos: String
    public var lemma: String
    public init(form: String, upos: String, lemma: String) {
        self.form = form
        self.upos = upos
        self.lemma = lemma
    }
}

/// Tags the words of a sentence with Universal POS tags, for a tag-aware lemmatizer.
///
/// The HMM tagger (``LexiforgeReader``'s Viterbi tagger, issue 5) conforms through a one-line
/// extension in the pipeline; gold tags conform through ``GoldTags``.
public protocol PartOfSpeechTagger {
    /// One UPOS tag per word.
    func tags(for words: [String]) -> [String]
    /// Per word, the tags it may have with their probabilities given the sentence. Taggers that
    /// only pick one tag get a default: that tag with probability 1.
    func tagPosteriors(for words: [String]) -> [[WeightedTag]]
}

/// How a lemma is made from a form: lowercase it (or not), remove a suffix, append another.
/// `running` → `run`: (false, "ning", ""); `Geese` → `goose` is a lexicon entry, not a rule.
public struct LemmaRule: Hashable, Sendable, CustomStringConvertible {
    public var lowercase: Bool
    public var remove: String
    public var append: String

    /// The rule that turns `form` into `lemma` with the shortest removal (case folding first if needed).
    public init(form: String, lemma: String) {
        func split(_ a: String, _ b: String) -> (String, String) {
            let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
            var k = 0
            while k < x.count && k < y.count && x[k] == y[k] { k += 1 }
            var r = String.UnicodeScalarView(); r.append(contentsOf: x[k...])
            var p = String.UnicodeScalarView(); p.append(contentsOf: y[k...])
            return (String(r), String(p))
        }
        let (r1, a1) = split(form, lemma)
        let lower = form.lowercased()
        if lower != form {
            let (r2, a2) = split(lower, lemma)
            if r2.unicodeScalars.count + a2.unicodeScalars.count < r1.unicodeScalars.count + a1.unicodeScalars.count {
                self.init(lowercase: true, remove: r2, append: a2)
                return
            }
        }
        self.init(lowercase: false, remove: r1, append: a1)
    }

    public init(lowercase: Bool, remove: String, append: String) {
        self.lowercase = lowercase
        self.remove = remove
        self.append = append
    }

    /// The lemma this rule makes of `form`, or nil when the form does not end in ``remove``.
    public func apply(to form: String) -> String? {
        apply(to: form, lower: lowercase ? form.lowercased() : form)
    }

    /// ``apply(to:)`` with the form's lowercase already made.
    package func apply(to form: String, lower: String) -> String? {
        let base = lowercase ? lower : form
        if remove.isEmpty { return base + append }
        guard base.hasSuffix(remove), base.count > remove.count else { return nil }
        return String(base.dropLast(remove.count)) + append
    }

    public var description: String { "\(lowercase ? "lower," : "")-\(remove)+\(append)" }
}

/// A lemmatizer learned from a treebank, backed by WordNet.
///
/// Trained on (form, UPOS, lemma) triples (``LemmatizerTrainer``). To lemmatize a word:
/// 1. **Lexicon**: a form seen in training takes its most frequent lemma for its tag (with a
///    tag) or overall (tag-free). A capitalized sentence-initial form unseen as written is looked
///    up lowercased ("The" → "the").
/// 2. **Unseen forms**: edit rules induced from the training pairs (``LemmaRule``), chosen by the
///    form's suffix (up to ``maxSuffix`` characters), its shape (lowercase, capitalized,
///    sentence-initial, all caps, with digits) and its tag, smoothed from longer to shorter
///    suffixes; a candidate whose lemma is a known lemma (WordNet's lists or the training
///    lemmas) outranks one that is not. WordNet's exception lists and Morphy's rules propose
///    candidates too ("geese" → "goose").
/// 3. **Uncertain tags**: with a tagger's posteriors the lemma is voted over the tags
///    (``lemma(of:tags:position:next:)``); a few forms also look at the next word's tag.
///
/// ```swift
/// let lemmatizer = trainer.finish(wordNet: try WordNet(directory: WordNet.defaultDirectory))
/// lemmatizer.lemmatize(["I", "saw", "geese"], tags: ["PRON", "VERB", "NOUN"])  // ["I", "see", "goose"]
/// lemmatizer.lemmatize(["I", "saw", "geese"], tags: nil)                      // tag-free
/// ```
/// - Complexity: a seen form costs one hash lookup; an unseen one O(``maxSuffix`` · rules).
public struct Lemmatizer: Sendable {
    /// Longest suffix that selects edit rules.
    public static let maxSuffix = 6
    /// With a predicted tag, an unseen form's edit rules score by their statistics under the tag
    /// plus this weight times their tag-free statistics, as the tag may be wrong. Chosen by
    /// cross-validation on EWT train (three of five folds of contiguous documents, a tagger
    /// trained on the other four): 0 → 96.56%, 0.5 → 96.60%, 1 → 96.60%, 2 → 96.53%.
    public static let predictedTagFreeWeight = 0.5
    /// Extra factor on a candidate that only lowercases a capitalized unseen form into an
    /// unknown word (cross-validation on EWT train in document blocks: 0.3 → +0.06 points,
    /// 0.05 → +0.09, 0 no better).
    public static let unknownLowercasePenalty = 0.05

    struct Entry: Sendable {
        /// Most frequent lemma over all tags.
        var best: String
        /// Most frequent lemma per tag.
        var byTag: [String: String]
        /// For a form whose lemma under one tag depends on the next word's tag ("her" PRON
        /// before a NOUN is "her", elsewhere "she"): "tag|next tag" → lemma, where that differs
        /// from ``byTag``; nil for most forms.
        var byTagNext: [String: String]?
    }

    var lexicon: [String: Entry] = [:]
    /// Context (tag, shape, suffix) → rule index → type count.
    var ruleCounts: [ContextKey: RuleCounts] = [:]
    package var rules: [LemmaRule] = []
    /// Every rule's ``LemmaRule/remove`` as UTF-8, one after another: rule i's is
    /// `removeBytes[removeStart[i]..<removeStart[i + 1]]` (flat, so testing a rule copies and
    /// retains nothing).
    var removeBytes: [UInt8] = []
    var removeStart: [Int32] = [0]
    /// Each rule's ``LemmaRule/lowercase``.
    var ruleLowercase: [Bool] = []

    /// The rules seen in one context and their type counts (parallel arrays, by rule index).
    struct RuleCounts: Sendable {
        var rules: [Int32] = []
        var counts: [Double] = []
        var total = 0.0
    }
    /// Training lemmas, lowercased, per tag ("" = any tag).
    var knownLemmas: [String: Set<String>] = [:]
    public let wordNet: WordNet
    /// Training words and distinct forms, for reports.
    public internal(set) var trainingWords = 0

    public var vocabularySize: Int { lexicon.count }
    /// Every form the lemmatizer learnt from its treebanks (in no particular order).
    public var knownForms: [String] { Array(lexicon.keys) }
    public var ruleCount: Int { rules.count }

    /// Shape of a word: 0 lowercase, 1 capitalized, 2 capitalized at the sentence start,
    /// 3 all capitals, 4 with a digit or without letters.
    package static func shape(_ form: String, position: Int) -> Int {
        var letters = 0, upper = 0, digit = false
        var firstUpper = false
        for (k, s) in form.unicodeScalars.enumerated() {
            if s.value < 0x80 {   // ASCII without the Unicode property tables
                let v = s.value
                if v >= 0x30 && v <= 0x39 {
                    digit = true
                } else if v >= 0x61 && v <= 0x7A {
                    letters += 1
                } else if v >= 0x41 && v <= 0x5A {
                    letters += 1
                    upper += 1
                    if k == 0 { firstUpper = true }
                }
                continue
            }
            let p = s.properties
            if p.numericType != nil { digit = true }
            if p.isAlphabetic {
                letters += 1
                if p.isUppercase { upper += 1; if k == 0 { firstUpper = true } }
            }
        }
        if digit || letters == 0 { return 4 }
        if upper == letters && letters > 1 { return 3 }
        if firstUpper { return position == 0 ? 2 : 1 }
        return 0
    }

    /// Where edit-rule statistics are kept: a tag ("*" for any), a shape and a lowercase suffix.
    /// Short tags and suffixes are Swift's inline small strings, so making a key allocates nothing.
    struct ContextKey: Hashable, Sendable {
        var tag: String
        var shape: Int
        var suffix: String
    }

    static func contextKey(tag: String, shape: Int, suffix: Substring) -> ContextKey {
        ContextKey(tag: tag, shape: shape, suffix: String(suffix))
    }

    /// Tag that stands for the end of the sentence as the next word's tag.
    public static let sentenceEndTag = "</s>"
    /// A form's lemma under a tag follows the next word's tag when that context was seen at
    /// least this often in training with one lemma (and more often than its other lemmas).
    public static let minimumNextTagCount = 2

    /// Lemmas of one sentence. `tags` (one UPOS per word) selects tag-aware lookups; nil is
    /// tag-free. `predicted`: the tags come from a tagger, not a treebank
    /// (see ``lemma(of:tag:position:predicted:next:)``).
    public func lemmatize(_ words: [String], tags: [String]?, predicted: Bool = false) -> [String] {
        words.indices.map { i in
            lemma(of: words[i], tag: tags?[i], position: i, predicted: predicted, next: tags.map { Self.nextTag($0, after: i) })
        }
    }

    /// The tag after position `index` of a sentence's tags, or ``sentenceEndTag``.
    static func nextTag(_ tags: [String], after index: Int) -> String {
        index + 1 < tags.count ? tags[index + 1] : sentenceEndTag
    }

    /// Whether the lemma of `form` can depend on the next word's tag (see `next` in
    /// ``lemma(of:tag:position:predicted:next:)``): a cache keys such forms by it too.
    public func dependsOnNextTag(_ form: String) -> Bool { lexicon[form]?.byTagNext != nil }

    /// The lemma of `form` at `position` in its sentence, with its UPOS tag when known.
    ///
    /// `predicted`: the tag comes from a tagger and may be wrong, so for unseen forms the
    /// tag-free rule statistics are mixed in (``predictedTagFreeWeight``). `next`: the next
    /// word's tag (``sentenceEndTag`` after the last word), for the few forms whose lemma under
    /// one tag depends on it (EWT: "her" PRON before a noun is "her", elsewhere "she").
    public func lemma(of form: String, tag: String?, position: Int = 1, predicted: Bool = false, next: String? = nil) -> String {
        var memo = GuessMemo()
        return lemma(of: form, tag: tag, position: position, predicted: predicted, next: next, memo: &memo)
    }

    /// ``lemma(of:tag:position:predicted:next:)`` with a ``GuessMemo`` kept by the caller (a
    /// ``LemmaCache``), so an unseen form's candidate tags share its tag-free rule scores.
    func lemma(of form: String, tag: String?, position: Int, predicted: Bool, next: String?, memo: inout GuessMemo) -> String {
        if let entry = lexicon[form] {
            guard let tag else { return entry.best }
            if let next, let byNext = entry.byTagNext, let lemma = byNext[tag + "|" + next] { return lemma }
            if let lemma = entry.byTag[tag] { return lemma }
        }
        if let tag, !predicted || Self.shape(form, position: position) == 3 {
            // Seen in another case with this tag: "m" as NUM is "M" → "million", "TEHRAN" or
            // "india" as PROPN are "Tehran", "India". With predicted tags only for all-caps forms
            // ("CHERNOBYL" → "Chernobyl"): a lowercase word a tagger calls PROPN is more often a
            // common noun it got wrong ("magazine" → "Magazine"; cross-validation on EWT train:
            // gold tags +0.03 points, predicted −0.06 for every shape, +0.02 for all caps alone).
            for variant in Self.caseVariants(of: form) {
                if let lemma = lexicon[variant]?.byTag[tag] { return lemma }
            }
        }
        if position == 0 || Self.shape(form, position: position) == 3 {
            let lower = form.lowercased()
            if lower != form, let entry = lexicon[lower], tag != "PROPN" {
                if let tag, let lemma = entry.byTag[tag] { return lemma }
                if tag == nil { return entry.best }
            }
        }
        return guess(form, tag: tag, position: position, predicted: predicted, memo: &memo)
    }

    /// The other spellings of a word's case worth a lexicon lookup: lowercase, capitalized
    /// (first letter upper, the rest lower) and all capitals, without the form itself.
    static func caseVariants(of form: String) -> [String] {
        let lower = form.lowercased()
        let capitalized = lower.prefix(1).uppercased() + lower.dropFirst()
        var variants: [String] = []
        for v in [lower, capitalized, form.uppercased()] where v != form && !variants.contains(v) { variants.append(v) }
        return variants
    }

    /// Edit-rule scores for a form: rule counts of its (lowercased) suffixes in the context
    /// (tag, shape), smoothed from the shortest to the longest matching suffix (TnT style):
    /// score(r) = Σ_L c_L(r) / (T_L + θ) · Π_{L' > L} θ / (T_L' + θ) over the matched suffix
    /// lengths L. Only rules that can apply to the form (it ends with what they remove) are
    /// scored, so a lookup costs a few byte compares per rule of the context, no allocation.
    /// `scratch`: one zero per rule (left zero again), where the levels' scores are summed.
    func ruleScores(form: [UInt8], lower: [UInt8], lowerString: String, tagKey: String, shape: Int,
                    scratch: inout [Double]) -> RuleScores {
        if scratch.count != rules.count { scratch = [Double](repeating: 0, count: rules.count) }
        var levels: [RuleCounts] = []
        let scalars = lowerString.unicodeScalars
        let maxLength = min(Self.maxSuffix, scalars.count)
        var suffixStart = scalars.endIndex
        for length in 0...maxLength {
            if length > 0 { suffixStart = scalars.index(before: suffixStart) }
            let suffix = Substring(scalars[suffixStart...])
            guard let counts = ruleCounts[Self.contextKey(tag: tagKey, shape: shape, suffix: suffix)] else {
                if length == 0 { continue } else { break }
            }
            levels.append(counts)
        }
        var touched: [Int32] = []
        let theta = 1.0
        var factor = 1.0
        scratch.withUnsafeMutableBufferPointer { sums in
        removeBytes.withUnsafeBufferPointer { removeBytes in
            removeStart.withUnsafeBufferPointer { removeStart in
                ruleLowercase.withUnsafeBufferPointer { ruleLowercase in
                    form.withUnsafeBufferPointer { form in
                        lower.withUnsafeBufferPointer { lower in
                            for level in levels.reversed() {
                                let weight = factor / (level.total + theta)
                                level.rules.withUnsafeBufferPointer { levelRules in
                                    for (k, rule) in levelRules.enumerated() {
                                        let r = Int(rule)
                                        let remove = UnsafeBufferPointer(rebasing: removeBytes[Int(removeStart[r])..<Int(removeStart[r + 1])])
                                        if Self.endsWith(ruleLowercase[r] ? lower : form, remove) {
                                            if sums[r] == 0 { touched.append(rule) }
                                            sums[r] += level.counts[k] * weight
                                        }
                                    }
                                }
                                factor *= theta / (level.total + theta)
                            }
                        }
                    }
                }
            }
        }
        }
        touched.sort()
        var scores = RuleScores()
        scores.rules = touched
        scores.scores = touched.map { scratch[Int($0)] }
        for rule in touched { scratch[Int(rule)] = 0 }
        return scores
    }

    /// Scores of the rules that apply to one form (parallel arrays, by increasing rule index):
    /// merging sorted lists beats a dictionary at this size.
    package struct RuleScores: Sendable, Equatable {
        package var rules: [Int32] = []
        package var scores: [Double] = []

        package init(rules: [Int32] = [], scores: [Double] = []) {
            self.rules = rules
            self.scores = scores
        }

        /// Adds `other` (also by increasing rule index), `weight` times its scores.
        package mutating func merge(_ other: RuleScores, weight: Double = 1) {
            if other.rules.isEmpty { return }
            if rules.isEmpty && weight == 1 { self = other; return }
            var merged = RuleScores()
            merged.rules.reserveCapacity(rules.count + other.rules.count)
            merged.scores.reserveCapacity(rules.count + other.rules.count)
            var i = 0, j = 0
            while i < rules.count || j < other.rules.count {
                if j == other.rules.count || (i < rules.count && rules[i] < other.rules[j]) {
                    merged.rules.append(rules[i]); merged.scores.append(scores[i]); i += 1
                } else if i == rules.count || other.rules[j] < rules[i] {
                    merged.rules.append(other.rules[j]); merged.scores.append(weight * other.scores[j]); j += 1
                } else {
                    merged.rules.append(rules[i]); merged.scores.append(scores[i] + weight * other.scores[j]); i += 1; j += 1
                }
            }
            self = merged
        }
    }

    /// The tag-free rule scores of the last form guessed with a predicted tag: a tagger's
    /// candidate tags of one unseen word are lemmatized one after another, and each mixes in the
    /// same tag-free scores (``predictedTagFreeWeight``), so they are computed once per form.
    public struct GuessMemo: Sendable {
        package var form = ""
        package var shape = -1
        var tagFree = RuleScores()
        /// Zeros, one per rule, for ``ruleScores(form:lower:lowerString:tagKey:shape:scratch:)``.
        package var scratch: [Double] = []
        public init() {}
    }

    /// Whether `base` (a form, or its lowercase) ends with what a rule removes, leaving something
    /// before it (the cheap test before ``LemmaRule/apply(to:)``).
    @inline(__always)
    package static func endsWith(_ base: UnsafeBufferPointer<UInt8>, _ remove: UnsafeBufferPointer<UInt8>) -> Bool {
        guard remove.count < base.count else { return remove.isEmpty }
        var i = base.count - remove.count
        for b in remove {
            if base[i] != b { return false }
            i += 1
        }
        return true
    }

    /// Unseen forms: suffix rules, WordNet candidates, validation against known lemmas.
    package func guess(_ form: String, tag: String?, position: Int, predicted: Bool = false) -> String {
        var memo = GuessMemo()
        return guess(form, tag: tag, position: position, predicted: predicted, memo: &memo)
    }

    /// ``guess(_:tag:position:predicted:)`` reusing (and updating) the tag-free scores of the
    /// last form guessed (``GuessMemo``); the lemma is the same.
    package func guess(_ form: String, tag: String?, position: Int, predicted: Bool, memo: inout GuessMemo) -> String {
        let shape = Self.shape(form, position: position)
        let tagKey = tag ?? "*"
        let lower = form.lowercased()
        let formBytes = Array(form.utf8), lowerBytes = Array(lower.utf8)
        var scores = ruleScores(form: formBytes, lower: lowerBytes, lowerString: lower, tagKey: tagKey, shape: shape, scratch: &memo.scratch)
        if predicted && tag != nil {
            if memo.shape != shape || memo.form != form {
                memo.tagFree = ruleScores(form: formBytes, lower: lowerBytes, lowerString: lower, tagKey: "*", shape: shape, scratch: &memo.scratch)
                memo.form = form
                memo.shape = shape
            }
            scores.merge(memo.tagFree, weight: Self.predictedTagFreeWeight)
        }
        var candidates: [(String, Double)] = []
        for (index, score) in zip(scores.rules, scores.scores) {
            if let lemma = rules[Int(index)].apply(to: form, lower: lower) { candidates.append((lemma, score)) }
        }
        // WordNet's morphy proposes candidates of its own (irregular forms above all).
        let pos = tag.flatMap(WordNet.POS.init(upos:))
        if shape != 4 && tag != "PROPN" {
            let poses = pos.map { [$0] } ?? (shape == 0 || shape == 2 ? WordNet.POS.allCases : [])
            for p in poses {
                for (rank, base) in wordNet.baseForms(of: lower, pos: p).enumerated() {
                    let bonus = wordNet.exceptions[p.rawValue][lower] != nil ? 0.5 : 0.05 / Double(rank + 1)
                    if let k = candidates.firstIndex(where: { $0.0 == base }) { candidates[k].1 += bonus }
                    else { candidates.append((base, bonus)) }
                }
            }
        }
        guard !candidates.isEmpty else { return shape == 0 || shape == 2 ? lower : form }
        let known = knownLemmas[tag ?? ""]
        var best = candidates[0]
        var bestScore = -1.0
        // Validation only lowers a score, so once the raw score falls below the best validated
        // one no later candidate can win: look candidates up best first and stop there.
        candidates.sort { $0.1 > $1.1 }
        for (lemma, score) in candidates {
            if score < bestScore { break }
            let key = lemma.lowercased()
            let valid = (known?.contains(key) ?? false) || wordNet.contains(key, pos: pos)
            var s = score * (valid ? 1 : 0.2)
            // Lowercasing a capitalized or all-caps word into a lemma nobody knows mostly
            // mistakes a name for a common noun ("Chernobyl", "Jalalabad").
            if !valid && shape != 0 && lemma != form && lemma == lower { s *= Self.unknownLowercasePenalty }
            if s > bestScore || (s == bestScore && lemma < best.0) { best = (lemma, score); bestScore = s }
        }
        return best.0
    }
}

/// Gold (or any precomputed) tags as a ``PartOfSpeechTagger``: hands back the tags it was given.
public struct GoldTags: PartOfSpeechTagger {
    public var tags: [String]
    public init(_ tags: [String]) { self.tags = tags }
    public func tags(for words: [String]) -> [String] { tags }
}

/// Collects training sentences and builds a ``Lemmatizer``.
///
/// In: sentences of ``LemmaExample`` (UD CoNLL-U words, multiword tokens already split).
/// Out: ``finish(wordNet:)``. Rule statistics count distinct (form, tag, lemma, shape) types, not
/// tokens, so frequent irregular words do not drown the regular endings unseen words have.
public struct LemmatizerTrainer {
    var counts: [String: [String: [String: Int]]] = [:]  // form → tag → lemma → count
    var nextCounts: [String: [String: Int]] = [:]  // "form\ttag\tnext tag" → lemma → count
    var ruleCounts: [Lemmatizer.ContextKey: [Int: Int]] = [:]  // context → rule index → type count
    var types = Set<String>()
    var model = Lemmatizer(wordNet: WordNet())

    public init() {}

    public mutating func add(sentence: [LemmaExample]) {
        for (position, word) in sentence.enumerated() {
            guard !word.form.isEmpty, word.lemma != "_" else { continue }
            model.trainingWords += 1
            counts[word.form, default: [:]][word.upos, default: [:]][word.lemma, default: 0] += 1
            let next = position + 1 < sentence.count ? sentence[position + 1].upos : Lemmatizer.sentenceEndTag
            nextCounts["\(word.form)\t\(word.upos)\t\(next)", default: [:]][word.lemma, default: 0] += 1
            let shape = Lemmatizer.shape(word.form, position: position)
            let typeKey = "\(word.form)\t\(word.upos)\t\(word.lemma)\t\(shape)"
            guard types.insert(typeKey).inserted else { continue }
            let rule = LemmaRule(form: word.form, lemma: word.lemma)
            // EWT gives the first piece of an e-mail address split over words ("Daniel" +
            // "RCastagnola@ENRON…", goeswith) the whole address as its lemma: a rule that appends
            // an address part fits that one word and no unseen one ("Ariel").
            if rule.append.contains("@") { continue }
            let index: Int
            if let k = ruleIndex[rule] { index = k } else {
                index = model.rules.count
                model.rules.append(rule)
                ruleIndex[rule] = index
            }
            let scalars = word.form.lowercased().unicodeScalars
            var suffixStart = scalars.endIndex
            for length in 0...min(Lemmatizer.maxSuffix, scalars.count) {
                if length > 0 { suffixStart = scalars.index(before: suffixStart) }
                let suffix = Substring(scalars[suffixStart...])
                for tag in [word.upos, "*"] {
                    ruleCounts[Lemmatizer.contextKey(tag: tag, shape: shape, suffix: suffix), default: [:]][index, default: 0] += 1
                }
            }
            let lemma = word.lemma.lowercased()
            model.knownLemmas[word.upos, default: []].insert(lemma)
            model.knownLemmas["", default: []].insert(lemma)
        }
    }
    var ruleIndex: [LemmaRule: Int] = [:]

    public consuming func finish(wordNet: WordNet) -> Lemmatizer {
        var lemmatizer = Lemmatizer(wordNet: wordNet)
        lemmatizer.rules = model.rules
        for rule in model.rules {
            lemmatizer.removeBytes.append(contentsOf: rule.remove.utf8)
            lemmatizer.removeStart.append(Int32(lemmatizer.removeBytes.count))
            lemmatizer.ruleLowercase.append(rule.lowercase)
        }
        lemmatizer.ruleCounts.reserveCapacity(ruleCounts.count)
        for (key, counts) in ruleCounts {
            var row = Lemmatizer.RuleCounts()
            for (rule, count) in counts.sorted(by: { $0.key < $1.key }) {
                row.rules.append(Int32(rule))
                row.counts.append(Double(count))
                row.total += Double(count)
            }
            lemmatizer.ruleCounts[key] = row
        }
        lemmatizer.knownLemmas = model.knownLemmas
        lemmatizer.trainingWords = model.trainingWords
        lemmatizer.lexicon.reserveCapacity(counts.count)
        for (form, byTag) in counts {
            var overall: [String: Int] = [:]
            var entry = Lemmatizer.Entry(best: form, byTag: [:])
            for (tag, lemmas) in byTag {
                entry.byTag[tag] = Self.mostFrequent(lemmas)
                for (lemma, count) in lemmas { overall[lemma, default: 0] += count }
            }
            entry.best = Self.mostFrequent(overall)
            lemmatizer.lexicon[form] = entry
        }
        // Next-tag contexts, for (form, tag) pairs seen with more than one lemma.
        for (key, lemmas) in nextCounts {
            let parts = key.split(separator: "\t", omittingEmptySubsequences: false)
            let form = String(parts[0]), tag = String(parts[1])
            guard let byTag = counts[form]?[tag], byTag.count > 1, let usual = lemmatizer.lexicon[form]?.byTag[tag] else { continue }
            let lemma = Self.mostFrequent(lemmas)
            let count = lemmas[lemma]!
            guard lemma != usual, count >= Lemmatizer.minimumNextTagCount, count * 2 > lemmas.values.reduce(0, +) else { continue }
            var contexts = lemmatizer.lexicon[form]!.byTagNext ?? [:]
            contexts["\(tag)|\(parts[2])"] = lemma
            lemmatizer.lexicon[form]!.byTagNext = contexts
        }
        return lemmatizer
    }

    /// Highest count; ties by byte order so training is deterministic.
    static func mostFrequent(_ counts: [String: Int]) -> String {
        counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }!.key
    }
}

extension Lemmatizer {
    init(wordNet: WordNet) {
        self.wordNet = wordNet
    }
}

extension Lemmatizer {
    /// Whether the training data showed `form` as written.
    public func isSeen(_ form: String) -> Bool { lexicon[form] != nil }
}
