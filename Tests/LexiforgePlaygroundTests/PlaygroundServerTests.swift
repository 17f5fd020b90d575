import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LexiforgePlayground
import LexiforgeTestSupport
import Testing

/// `lexiforge-serve` itself, on a free loopback port: what only the HTTP layer does (binding,
/// refusing a body over the limit before reading it, answering many requests at once), through
/// Foundation's URLSession (no extra package: HummingbirdTesting would bring async-http-client and
/// BoringSSL into every cold build, docs/playground.md).
@Suite("playground server", .serialized)
struct PlaygroundServerTests {
    static func request(_ url: URL, method: String = "GET", body: Data? = nil) async throws -> (Int, Data, String) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, data, http.value(forHTTPHeaderField: "Content-Type") ?? "")
    }

    @Test("serves the page and the API on loopback; a body over the limit gets 413; concurrent requests all answer")
    func live() async throws {
        let stores = try PlaygroundFixtures.stores()
        let server = try ServeProcess(stores: [stores.main, stores.counts])
        defer { server.stop() }
        // Loopback unless told otherwise.
        #expect(server.baseURL.host == "127.0.0.1")
        #expect(server.stdout.contains("serving playground.sqlite, counts.sqlite on http://127.0.0.1:"))

        let (status, page, type) = try await Self.request(server.baseURL)
        #expect(status == 200)
        #expect(type.hasPrefix("text/html"))
        #expect(String(decoding: page, as: UTF8.self).contains("<title>Lexiforge playground</title>"))

        let predict = server.baseURL.appendingPathComponent("api/stores/0/predict")
        let (okStatus, answer, _) = try await Self.request(predict, method: "POST", body: Data(#"{"text": "said Lord"}"#.utf8))
        #expect(okStatus == 200)
        let next = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])["next"] as? [[String: Any]]
        #expect(next?.first?["word"] as? String == "Henry")

        let (malformed, reason, _) = try await Self.request(predict, method: "POST", body: Data("{\"text\"".utf8))
        #expect(malformed == 400)
        #expect(String(decoding: reason, as: UTF8.self).contains("malformed JSON"))

        let big = Data(repeating: UInt8(ascii: " "), count: PlaygroundLimits().maxBodyBytes * 4)
        let (tooBig, message, _) = try await Self.request(predict, method: "POST", body: big)
        #expect(tooBig == 413)
        #expect(String(decoding: message, as: UTF8.self).contains("over the limit"))

        let (traversal, _, _) = try await Self.request(URL(string: server.baseURL.absoluteString + "%2e%2e/%2e%2e/etc/passwd")!)
        #expect(traversal == 404)

        // 64 requests at once, every one answered correctly, and the server still up.
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<64 {
                group.addTask {
                    let (status, data, _) = try await Self.request(predict, method: "POST", body: Data(#"{"text": "said Lord \#(i % 2 == 0 ? "" : "H")"}"#.utf8))
                    return status == 200 && String(decoding: data, as: UTF8.self).contains("Henry") ? 200 : status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 64 && statuses.allSatisfy { $0 == 200 })
        #expect(server.process.isRunning)
    }

    @Test("a store that cannot be opened stops the server at start with the reader's message")
    func badStore() throws {
        let folder = try TemporaryFolder("lexiforge-serve-bad")
        let path = folder.file("not-a-store.sqlite")
        try "plain text".write(toFile: path, atomically: true, encoding: .utf8)
        let binary = try #require(ServeProcess.executable)
        let process = Process()
        process.executableURL = binary
        process.arguments = [path, "--port", "0"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(String(decoding: data, as: UTF8.self).contains("not-a-store.sqlite"))
    }
}
