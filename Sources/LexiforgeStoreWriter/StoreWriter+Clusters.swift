import GRDB
import LexiforgeNgrams
import LexiforgeReader

extension StoreWriter {
    /// Fills `cluster_member` and `cluster_ngram` (``StoreSchema/clusterCreationStatements``) in key order.
    static func insertClusters(_ clusters: ClusterModel, db: Database) throws {
        let member = try db.makeStatement(sql: "INSERT INTO cluster_member(word, cluster, logprob) VALUES (?, ?, ?)")
        for word in clusters.memberLogProb.indices where clusters.memberLogProb[word] > -99 {
            try member.execute(arguments: [word, Int64(clusters.clusters.classOf[word]), quantized(clusters.memberLogProb[word])])
        }
        // The class model's rows, sorted by (context text, cluster) as the primary key orders them.
        let model = clusters.model
        var rows: [(context: String, cluster: Int64, logprob: Int64, backoff: Int64)] = []
        for c in model.unigramLogProb.indices {
            rows.append(("", Int64(c), quantized(model.unigramLogProb[c]), quantized(model.unigramLogBackoff[c])))
        }
        for (k, table) in model.counts.tables.enumerated() {
            let n = table.n
            for e in 0..<table.entryCount {
                let ids = table.ids(of: e)
                let context = ids.prefix(n - 1).map(String.init).joined(separator: " ")
                let backoff = k < model.logBackoffs.count ? quantized(model.logBackoffs[k][e]) : 0
                rows.append((context, Int64(ids.last!), quantized(model.logProbs[k][e]), backoff))
            }
        }
        rows.sort { ($0.context.utf8.lexicographicallyPrecedes($1.context.utf8)) || ($0.context == $1.context && $0.cluster < $1.cluster) }
        let ngram = try db.makeStatement(sql: "INSERT INTO cluster_ngram(context, cluster, logprob, backoff) VALUES (?, ?, ?, ?)")
        for row in rows { try ngram.execute(arguments: [row.context, row.cluster, row.logprob, row.backoff]) }
    }
}
