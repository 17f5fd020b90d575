import Foundation
import GRDB

/// `lexicon_frequency` read whole: word `id` has the frequency of the run with the greatest
/// `first_id <= id`; nil where that run's frequency is NULL (no lexicon entry) or no run starts.
public struct LexiconFrequencyRuns: Sendable {
    let firsts: [Int64]
    let frequencies: [Int?]

    public init(_ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT first_id, frequency FROM lexicon_frequency ORDER BY first_id")
        firsts = try rows.map { try $0.integer(0, "lexicon_frequency", "first_id") }
        frequencies = try rows.map { try $0.optionalInt(1, "lexicon_frequency", "frequency", in: 0...255) }
    }

    /// The list frequency (0-255) of `id`, nil when it has no lexicon entry. O(log runs).
    public func frequency(of id: Int64) -> Int? {
        var lo = 0, hi = firsts.count
        while lo < hi { let mid = (lo + hi) / 2; if firsts[mid] <= id { lo = mid + 1 } else { hi = mid } }
        return lo == 0 ? nil : frequencies[lo - 1]
    }
}
