import LexiforgeFormat

/// Lists in, a vocabulary store's contents out.
///
/// In: paths of lists (read in order by ``VocabListReader``), ``VocabListOptions``. Out:
/// ``VocabStoreContents`` (levels in byte order; one record per distinct (expression, reading,
/// meaning), categorized by ``VocabCategorizer``), the files read, and every diagnostic. A row
/// repeating an entry of another list adds its levels and tags to it (a word at several levels
/// keeps them all); a row repeating one of the same list at no new level is also reported as a
/// duplicate.
public enum VocabImporter {
    public struct Result: Sendable {
        public var contents: VocabStoreContents
        public var files: [VocabListFile]
        public var diagnostics: [VocabDiagnostic]
        /// Rows read (skipped ones included).
        public var rows: Int
        /// Rows that repeated an entry (levels merged).
        public var merged: Int

        public var errors: [VocabDiagnostic] { diagnostics.filter { $0.severity == .error } }
        public var warnings: [VocabDiagnostic] { diagnostics.filter { $0.severity == .warning } }
    }

    public static func read(paths: [String], options: VocabListOptions) -> Result {
        var diagnostics: [VocabDiagnostic] = []
        var files: [VocabListFile] = []
        var rows = 0, merged = 0
        struct Pending {
            var row: VocabListRow
            var levels: [String]
            var tags: [String]
        }
        var pending: [Pending] = []
        var index: [String: Int] = [:]
        for path in paths {
            let read = VocabListReader.read(path: path, options: options)
            diagnostics += read.diagnostics
            if let file = read.file { files.append(file) }
            rows += read.file?.rows ?? 0
            for row in read.rows {
                let key = row.expression + "\u{0}" + (row.reading ?? "") + "\u{0}" + (row.meaning ?? "")
                if let i = index[key] {
                    merged += 1
                    if pending[i].row.path == row.path && row.levels.allSatisfy(pending[i].levels.contains) {
                        diagnostics.append(VocabDiagnostic(
                            path: row.path, line: row.line, severity: .warning,
                            message: "duplicate entry \"\(row.expression)\" (\(row.reading ?? "-"), \(row.meaning ?? "-")), first at line \(pending[i].row.line), at no new level; its tags are merged into that one"))
                    }
                    for level in row.levels where !pending[i].levels.contains(level) { pending[i].levels.append(level) }
                    for tag in row.tags where !pending[i].tags.contains(tag) { pending[i].tags.append(tag) }
                } else {
                    index[key] = pending.count
                    pending.append(Pending(row: row, levels: row.levels, tags: row.tags))
                }
            }
        }
        let levels = Set(pending.flatMap(\.levels)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        if levels.count > StoreSchema.Vocab.maxLevels {
            diagnostics.append(VocabDiagnostic(path: paths.first ?? "-", line: 0, severity: .error,
                                               message: "\(levels.count) distinct levels, more than a store holds (\(StoreSchema.Vocab.maxLevels)); check the level column"))
            return Result(contents: VocabStoreContents(levels: [], records: []), files: files, diagnostics: diagnostics, rows: rows, merged: merged)
        }
        let bit = Dictionary(uniqueKeysWithValues: levels.enumerated().map { ($1, Int64(1) << Int64($0)) })
        let records = pending.map { p in
            VocabRecord(expression: p.row.expression, reading: p.row.reading, meaning: p.row.meaning,
                        tags: p.tags.isEmpty ? nil : p.tags.joined(separator: " "),
                        levelMask: p.levels.reduce(0) { $0 | bit[$1]! },
                        category: VocabCategorizer.category(expression: p.row.expression, reading: p.row.reading, meaning: p.row.meaning))
        }
        return Result(contents: VocabStoreContents(levels: levels, records: records), files: files, diagnostics: diagnostics, rows: rows, merged: merged)
    }
}
