/// The unknown-word model of ``HMMTagger``: TnT's suffix tries, one per ``WordShape``, each
/// suffix's tag distribution smoothed recursively with θ towards its parent's (the suffix one
/// scalar shorter), the empty suffix's towards the tag distribution of all rare words.
///
/// Built without an array or dictionary entry per suffix: the suffixes are numbered in one
/// ``WordBuffer`` and found through one ``SpellingTable`` per shape (keys equal as strings are,
/// canonically, as a dictionary's), their records and the parent links are offsets into flat
/// arrays, and the rows are smoothed depth first (``Builder/walk(_:)``), so that only the rows
/// along one path are held at a time; each is handed to the tagger, which keeps its candidate
/// tags. A parent is the suffix without its first scalar when the shape has it and it comes
/// first in the order of scalar count then spelling (the order the rows were once computed in),
/// else the empty suffix. For the UPOS tagger of an entity store (63,000 suffixes) the build
/// takes under 3 MB besides the candidate arrays, against 19.7 MB for the suffix → counts and
/// suffix → row dictionaries it replaces (11.1 + 3.1 and 5.5 MB at the loading's peak).
package struct HMMSuffixModel: Sendable {
    /// Per shape: its suffixes' numbers by spelling, nil for a shape without any.
    let tables: [SpellingTable?]
    /// Every shape's suffixes, numbered in order of first appearance.
    let texts: WordBuffer
    /// Per suffix number: its entry.
    let entries: [Int32]
    /// Per shape: the empty suffix's entry (`unknownEntry` without rare words).
    package let shapeEntry: [Int32]

    /// Builds the model in two steps, so that the tagger can size its candidate arrays first:
    /// ``walk(_:)`` visits every row, ``model(unknownEntry:addRow:)`` hands them to `addRow`.
    package struct Builder {
        let S: Int
        let theta: Double
        let suffixes: [HMMTables.SuffixCount]
        let tables: [SpellingTable?]
        let texts: WordBuffer
        /// The empty suffix's smoothed row per shape (`S` each), empty without rare words.
        let roots: [Double]
        /// Suffix `i`'s records: `records[recordStart[i] ..< recordStart[i + 1]]`.
        let recordStart: [Int32], records: [Int32]
        /// Node `i`'s children (suffixes; node `n + shape` is the shape's empty suffix):
        /// `children[childStart[i] ..< childStart[i + 1]]`.
        let childStart: [Int32], children: [Int32]

        /// - Parameters:
        ///   - suffixes: tag counts per shape and suffix (a suffix may come in several records).
        ///   - stateCount: S, states are 0..<S.
        package init(suffixes: [HMMTables.SuffixCount], stateCount S: Int, theta: Double) {
            self.S = S
            self.theta = theta
            self.suffixes = suffixes
            let shapes = WordShape.allCases.count
            // Number the suffixes per shape; the empty suffix's counts go straight into a dense row.
            var perShape = [Int](repeating: 0, count: shapes)
            var textBytes = 0
            for x in suffixes where !x.suffix.isEmpty {
                perShape[Int(x.shape.rawValue)] += 1
                textBytes += x.suffix.utf8.count
            }
            var tables = perShape.map { SpellingTable(capacity: $0) }
            var tags = tables.map { $0.makeTags() }
            var texts = WordBuffer()
            texts.reserveCapacity(words: suffixes.count, bytes: textBytes)
            var shapeOf: [UInt8] = []
            var number = [Int32](repeating: -1, count: suffixes.count)   // per record, -1 for the empty suffix
            var emptyCounts = [Double](repeating: 0, count: shapes * S)
            var hasEmpty = [Bool](repeating: false, count: shapes)
            for (r, x) in suffixes.enumerated() {
                let shape = Int(x.shape.rawValue)
                if x.suffix.isEmpty {
                    hasEmpty[shape] = true
                    emptyCounts[shape * S + Int(x.state)] += Double(x.count)
                    continue
                }
                let (found, slot) = tables[shape].find(x.suffix, tags: tags[shape]) { texts.string(Int($0)) }
                if let found { number[r] = found; continue }
                number[r] = Int32(texts.count)
                tables[shape].set(Int32(texts.count), at: slot, key: x.suffix, tags: &tags[shape])
                texts.append(x.suffix)
                shapeOf.append(UInt8(shape))
            }
            tags = []
            let n = texts.count
            self.texts = texts
            self.tables = (0..<shapes).map { perShape[$0] > 0 ? tables[$0] : nil }

            var rare = [Double](repeating: 0, count: S)
            for shape in 0..<shapes where hasEmpty[shape] { for s in 0..<S { rare[s] += emptyCounts[shape * S + s] } }
            let rareTotal = rare.reduce(0, +)
            guard rareTotal > 0 else {
                roots = []
                recordStart = []
                records = []
                childStart = []
                children = []
                return
            }
            let base = rare.map { $0 / rareTotal }
            var roots: [Double] = []
            roots.reserveCapacity(shapes * S)
            for shape in 0..<shapes {
                var row = base
                if hasEmpty[shape] {
                    Self.smooth(emptyCounts[(shape * S)..<(shape * S + S)], parent: 0, theta: theta, rows: &row)
                    row.removeFirst(S)
                }
                roots.append(contentsOf: row)
            }
            self.roots = roots

            // Each suffix's records, in their order.
            let recordStart = HMMSuffixModel.groupStarts(count: n, keys: number)
            var records = [Int32](repeating: 0, count: Int(recordStart[n]))
            var fill = recordStart
            for (r, i) in number.enumerated() where i >= 0 {
                records[Int(fill[Int(i)])] = Int32(r)
                fill[Int(i)] += 1
            }
            number = []
            self.recordStart = recordStart
            self.records = records

            // The parent of every suffix, then the children of every node.
            var scalarCount = [Int32](repeating: 0, count: n)
            for i in 0..<n { scalarCount[i] = Int32(texts.string(i).unicodeScalars.count) }
            var parent = [Int32](repeating: 0, count: n)
            for i in 0..<n {
                let shape = Int(shapeOf[i])
                parent[i] = Int32(n + shape)
                let text = texts.string(i)
                let parentKey = String(text.unicodeScalars.dropFirst())
                guard !parentKey.isEmpty, let p = tables[shape].find(parentKey, spelling: { texts.string(Int($0)) }).entry else { continue }
                let (a, b) = (scalarCount[Int(p)], scalarCount[i])
                if a != b ? a < b : texts.string(Int(p)) < text { parent[i] = p }
            }
            scalarCount = []
            let childStart = HMMSuffixModel.groupStarts(count: n + shapes, keys: parent)
            var children = [Int32](repeating: 0, count: n)
            fill = childStart
            for i in 0..<n {
                children[Int(fill[Int(parent[i])])] = Int32(i)
                fill[Int(parent[i])] += 1
            }
            self.childStart = childStart
            self.children = children
        }

        /// How many rows ``walk(_:)`` visits: every suffix's and every shape's empty suffix's
        /// (none without rare words).
        package var rowCount: Int { roots.isEmpty ? 0 : texts.count + WordShape.allCases.count }

        /// Appends to `rows` the row of `counts` smoothed towards the row at offset `parent` of `rows`.
        static func smooth(_ counts: ArraySlice<Double>, parent: Int, theta: Double, rows: inout [Double]) {
            let total = counts.reduce(0, +)
            var s = parent
            for c in counts {
                rows.append((c / total + theta * rows[s]) / (1 + theta))
                s += 1
            }
        }

        /// Visits every row, depth first from each shape's empty suffix (`node` n + shape) over
        /// its suffixes (`node` the suffix number), a row before its children's.
        package func walk(_ visit: (_ node: Int, _ row: ArraySlice<Double>) -> Void) {
            guard !roots.isEmpty else { return }
            let n = texts.count
            var path: [Double] = []     // the rows of the nodes on `stack`
            var counts = [Double](repeating: 0, count: S)
            var stack: [(node: Int, next: Int)] = []
            for shape in 0..<WordShape.allCases.count {
                path.removeAll(keepingCapacity: true)
                path.append(contentsOf: roots[(shape * S)..<(shape * S + S)])
                visit(n + shape, path[0..<S])
                stack = [(n + shape, Int(childStart[n + shape]))]
                while let top = stack.last {
                    guard top.next < Int(childStart[top.node + 1]) else {
                        stack.removeLast()
                        path.removeLast(S)
                        continue
                    }
                    stack[stack.count - 1].next += 1
                    let child = Int(children[top.next])
                    for s in 0..<S { counts[s] = 0 }
                    for k in Int(recordStart[child])..<Int(recordStart[child + 1]) {
                        let x = suffixes[Int(records[k])]
                        counts[Int(x.state)] += Double(x.count)
                    }
                    Self.smooth(counts[...], parent: path.count - S, theta: theta, rows: &path)
                    visit(child, path[(path.count - S)...])
                    stack.append((child, Int(childStart[child])))
                }
            }
        }

        /// The model, every row handed to `addRow` (which returns its entry) in the order of ``walk(_:)``.
        package func model(unknownEntry: Int32, addRow: (ArraySlice<Double>) -> Int32) -> HMMSuffixModel {
            let n = texts.count, shapes = WordShape.allCases.count
            var entries = [Int32](repeating: unknownEntry, count: roots.isEmpty ? 0 : n)
            var shapeEntry = [Int32](repeating: unknownEntry, count: shapes)
            walk { node, row in
                if node < n { entries[node] = addRow(row) } else { shapeEntry[node - n] = addRow(row) }
            }
            return HMMSuffixModel(tables: roots.isEmpty ? [SpellingTable?](repeating: nil, count: shapes) : tables,
                                  texts: texts, entries: entries, shapeEntry: shapeEntry)
        }
    }

    /// Where each group starts when items with group numbers `keys` (0..<count; negative: none)
    /// are put group by group: `count + 1` offsets, the last one the number of items grouped.
    package static func groupStarts(count: Int, keys: [Int32]) -> [Int32] {
        var start = [Int32](repeating: 0, count: count + 1)
        for k in keys where k >= 0 { start[Int(k) + 1] += 1 }
        for i in 0..<count { start[i + 1] += start[i] }
        return start
    }

    /// Whether the model has suffixes of `shape`.
    package func hasSuffixes(_ shape: WordShape) -> Bool { tables[Int(shape.rawValue)] != nil }

    /// The entry of the longest suffix of `word` (at most `maxLength` scalars) that `shape`
    /// has, else the shape's empty suffix's.
    package func entry(_ word: String, shape: WordShape, maxLength: Int) -> Int32 {
        if let table = tables[Int(shape.rawValue)] {
            let scalars = word.unicodeScalars
            var k = min(scalars.count, maxLength)
            while k > 0 {
                let key = String(String.UnicodeScalarView(scalars.suffix(k)))
                if let i = table.find(key, spelling: { texts.string(Int($0)) }).entry { return entries[Int(i)] }
                k -= 1
            }
        }
        return shapeEntry[Int(shape.rawValue)]
    }
}
