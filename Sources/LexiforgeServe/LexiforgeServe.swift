import ArgumentParser
import Foundation
import Hummingbird
import LexiforgePlayground
import Logging
import NIOCore

/// `lexiforge-serve`: the playground's HTTP server. Every request goes to
/// ``Playground/respond(method:path:body:)``; this file only reads the body (up to the limit),
/// binds the socket and says where it listens.
@main
struct LexiforgeServe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lexiforge-serve",
        abstract: "A local web playground for trained stores: type, swipe, compare two stores, look inside.",
        discussion: """
            Opens each store read-only and serves a page (http://HOST:PORT/) and a JSON API \
            (/api/stores/..., documented at /openapi.yaml). The first store is the main one; a \
            second one is shown side by side. Listens on loopback unless --host says otherwise.
            Example:
              lexiforge-serve Artifacts/dorian-gray.sqlite Artifacts/dorian-gray-ch1.sqlite
              lexiforge-serve Artifacts/en_US-keyboard.sqlite --port 8080
            """)

    @Argument(help: "The stores to serve (the first is the main one).")
    var stores: [String]

    @Option(help: "The port to listen on (0: any free port, printed at start).")
    var port = 8080

    @Option(help: "The address to listen on; 127.0.0.1 (loopback) by default. 0.0.0.0 exposes the playground to the network.")
    var host = "127.0.0.1"

    @Option(help: "Largest request body in bytes (413 beyond).")
    var maxBody = PlaygroundLimits().maxBodyBytes

    func validate() throws {
        guard !stores.isEmpty else { throw ValidationError("give at least one store") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard maxBody >= 1024 else { throw ValidationError("--max-body must be at least 1024") }
    }

    func run() async throws {
        var limits = PlaygroundLimits()
        limits.maxBodyBytes = maxBody
        let playground: Playground
        do {
            playground = try Playground(storePaths: stores, limits: limits)
        } catch {
            FileHandle.standardError.write(Data("lexiforge-serve: \(error)\n".utf8))
            throw ExitCode(1)
        }
        if !["127.0.0.1", "localhost", "::1"].contains(host) {
            FileHandle.standardError.write(Data("lexiforge-serve: listening on \(host), not only on loopback: anyone who can reach this address can query the stores\n".utf8))
        }
        var logger = Logger(label: "lexiforge-serve")
        logger.logLevel = .warning
        let host = host
        let app = Application(
            responder: PlaygroundResponder(playground: playground),
            configuration: .init(address: .hostname(host, port: port), serverName: "lexiforge-serve", backlog: 1024),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let names = playground.stores.map(\.info.name).joined(separator: ", ")
                // Tests and scripts read this line for the port (with --port 0).
                FileHandle.standardOutput.write(Data("lexiforge-serve: serving \(names) on http://\(host):\(port)/\n".utf8))
            },
            logger: logger)
        try await app.runService()
    }
}

/// Hands each request to the playground: the body is read up to the limit (413 past it, never
/// buffered whole), the answer is written back as it is.
struct PlaygroundResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let playground: Playground

    func respond(to request: Request, context: Context) async throws -> Response {
        let limit = playground.limits.maxBodyBytes
        var request = request
        var body: [UInt8] = []
        if request.method == .post || request.method == .put || request.method == .patch {
            do {
                let buffer = try await request.collectBody(upTo: limit)
                body = Array(buffer.readableBytesView)
            } catch {
                return Self.response(PlaygroundResponse(
                    status: 413, contentType: "application/json; charset=utf-8",
                    body: Array(#"{"error":"request body over the limit of \#(limit) bytes"}"#.utf8)))
            }
        }
        return Self.response(playground.respond(method: request.method.rawValue, path: request.uri.path, body: body))
    }

    static func response(_ answer: PlaygroundResponse) -> Response {
        var headers: HTTPFields = [.contentType: answer.contentType]
        for (name, value) in answer.headers {
            switch name {
            case "Allow": headers[.allow] = value
            case "Cache-Control": headers[.cacheControl] = value
            default: continue
            }
        }
        return Response(status: .init(code: answer.status), headers: headers,
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}
