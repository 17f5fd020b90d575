import Foundation
import LexiforgeReader
import LexiforgeText

/// The playground's limits on what one request may ask for; past each, a 4xx answer says which.
public struct PlaygroundLimits: Sendable, Equatable, Codable {
    /// Bytes of a request body (413 beyond).
    public var maxBodyBytes = 65_536
    /// Characters of `text` (413 beyond).
    public var maxTextCharacters = 2_000
    /// Points of a swipe trace (413 beyond).
    public var maxTracePoints = 2_000
    /// Largest `limit` (suggestions or candidates) a request may ask for (400 beyond).
    public var maxResults = 20
    /// Largest |x| or |y| of a trace point, in key widths (400 beyond): a keyboard is about 10 wide.
    public var maxCoordinate = 100.0

    public init() {}
}

/// One HTTP answer of the playground, independent of the server library.
public struct PlaygroundResponse: Sendable, Equatable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    /// Extra headers (`Allow` on 405).
    public var headers: [String: String] = [:]

    public init(status: Int, contentType: String, body: [UInt8], headers: [String: String] = [:]) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// Why a store could not be opened for the playground (startup, never per request).
public struct PlaygroundError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The playground's whole API as a function of (method, path, body): `lexiforge-serve` hands every
/// request to ``respond(method:path:body:)`` and writes back what it returns; the tests call it
/// directly. Stores are opened once, read-only, at startup; a request names a store only by its
/// index in that list and a static file only by one of a fixed set of names, so nothing in a request
/// reaches the file system. Every reader object kept here is `Sendable` (`TrainedStore` holds one
/// GRDB queue, the predictor and decoder are immutable), so requests share them.
public final class Playground: Sendable {
    public let stores: [PlaygroundStore]
    public let limits: PlaygroundLimits
    /// The page and the OpenAPI file, read from the module's resources at startup.
    let files: [String: (contentType: String, body: [UInt8])]
    let storeList: [UInt8]

    public init(storePaths: [String], limits: PlaygroundLimits = PlaygroundLimits()) throws {
        guard !storePaths.isEmpty else { throw PlaygroundError("give at least one store") }
        stores = try storePaths.enumerated().map { try PlaygroundStore(path: $1, id: $0) }
        self.limits = limits
        files = try Self.loadPage()
        storeList = JSON.encode(StoreList(stores: stores.map(\.info), limits: limits))
    }

    struct StoreList: Encodable {
        var stores: [PlaygroundStore.Info]
        var limits: PlaygroundLimits
    }

    static let pageFiles: [(route: String, resource: String, type: String)] = [
        ("/", "index.html", "text/html; charset=utf-8"),
        ("/index.html", "index.html", "text/html; charset=utf-8"),
        ("/playground.css", "playground.css", "text/css; charset=utf-8"),
        ("/playground.js", "playground.js", "text/javascript; charset=utf-8"),
        ("/openapi.yaml", "openapi.yaml", "application/yaml; charset=utf-8"),
    ]

    static func loadPage() throws -> [String: (contentType: String, body: [UInt8])] {
        var files: [String: (contentType: String, body: [UInt8])] = [:]
        for file in pageFiles {
            let name = (file.resource as NSString).deletingPathExtension, ext = (file.resource as NSString).pathExtension
            guard let url = Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Page"),
                  let data = FileManager.default.contents(atPath: url.path)
            else { throw PlaygroundError("the playground's page file \(file.resource) is missing from the build (resources of LexiforgePlayground)") }
            files[file.route] = (file.type, Array(data))
        }
        return files
    }

    // MARK: Routing

    /// Answers one request. `path` is the URL path without the query; `body` at most
    /// ``PlaygroundLimits/maxBodyBytes`` (the server answers 413 itself for longer ones, which it
    /// never reads whole). Never throws: every failure is an answer with a status and a reason.
    public func respond(method: String, path: String, body: [UInt8]) -> PlaygroundResponse {
        let method = method.uppercased()
        if let file = files[path] {
            guard method == "GET" || method == "HEAD" else { return Self.methodNotAllowed("GET") }
            return PlaygroundResponse(status: 200, contentType: file.contentType, body: method == "HEAD" ? [] : file.body,
                                      headers: ["Cache-Control": "no-cache"])
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // "", "api", "stores"[, id, action]
        guard parts.count >= 3, parts[0].isEmpty, parts[1] == "api", parts[2] == "stores" else {
            return Self.error(404, "no such page or endpoint: \(Self.shown(path)); the API is under /api/stores (see /openapi.yaml)")
        }
        if parts.count == 3 {
            guard method == "GET" else { return Self.methodNotAllowed("GET") }
            return Self.json(storeList)
        }
        guard parts.count == 5, let id = Int(parts[3]) else {
            return Self.error(404, "no such endpoint: \(Self.shown(path)); endpoints are /api/stores/{id}/summary|layout|predict|swipe|tag")
        }
        guard stores.indices.contains(id) else {
            return Self.error(404, "no store \(id): this server has \(stores.count) store(s), ids 0...\(stores.count - 1)")
        }
        let store = stores[id]
        switch parts[4] {
        case "summary":
            guard method == "GET" else { return Self.methodNotAllowed("GET") }
            return Self.json(store.summaryJSON)
        case "layout":
            guard method == "GET" else { return Self.methodNotAllowed("GET") }
            guard let layout = store.layoutJSON else { return Self.error(422, store.noSwipeReason) }
            return Self.json(layout)
        case "predict":
            guard method == "POST" else { return Self.methodNotAllowed("POST") }
            return handle(body, as: PredictRequest.self) { try store.predict($0, limits: limits) }
        case "swipe":
            guard method == "POST" else { return Self.methodNotAllowed("POST") }
            return handle(body, as: SwipeRequest.self) { try store.swipe($0, limits: limits) }
        case "tag":
            guard method == "POST" else { return Self.methodNotAllowed("POST") }
            return handle(body, as: TagRequest.self) { try store.tag($0, limits: limits) }
        default:
            return Self.error(404, "no such endpoint: \(Self.shown(path)); endpoints are /api/stores/{id}/summary|layout|predict|swipe|tag")
        }
    }

    /// Decodes the body, runs `work`, encodes its answer; request errors become 4xx, store errors 500.
    func handle<Request: Decodable, Answer: Encodable>(_ body: [UInt8], as: Request.Type, _ work: (Request) throws -> Answer) -> PlaygroundResponse {
        guard body.count <= limits.maxBodyBytes else {
            return Self.error(413, "request body of \(body.count) bytes is over the limit of \(limits.maxBodyBytes)")
        }
        guard !body.isEmpty else { return Self.error(400, "empty request body: send a JSON object (see /openapi.yaml)") }
        let request: Request
        do {
            request = try JSONDecoder().decode(Request.self, from: Data(body))
        } catch {
            return Self.error(400, JSON.reason(error, body: body))
        }
        do {
            return Self.json(JSON.encode(try work(request)))
        } catch let error as RequestError {
            return Self.error(error.status, error.message)
        } catch {
            // A damaged store: the reader's message, never a crash.
            return Self.error(500, "\(error)")
        }
    }

    // MARK: Answers

    static func json(_ body: [UInt8]) -> PlaygroundResponse {
        PlaygroundResponse(status: 200, contentType: "application/json; charset=utf-8", body: body)
    }

    struct ErrorBody: Encodable { var error: String }

    static func error(_ status: Int, _ message: String) -> PlaygroundResponse {
        PlaygroundResponse(status: status, contentType: "application/json; charset=utf-8", body: JSON.encode(ErrorBody(error: message)))
    }

    static func methodNotAllowed(_ allowed: String) -> PlaygroundResponse {
        var response = error(405, "method not allowed here; use \(allowed)")
        response.headers["Allow"] = allowed
        return response
    }

    /// A request path as quoted in a message: at most 100 characters.
    static func shown(_ path: String) -> String {
        path.count > 100 ? "\(path.prefix(100))…" : path
    }
}

/// A request the playground refuses, with its status.
struct RequestError: Error {
    var status: Int
    var message: String
    init(_ status: Int, _ message: String) { self.status = status; self.message = message }
}

enum JSON {
    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        // Every value here is a plain struct of strings, numbers and arrays: encoding cannot fail.
        return (try? Array(encoder.encode(value))) ?? Array(#"{"error":"could not encode the answer"}"#.utf8)
    }

    /// One sentence saying what is wrong with a request body.
    static func reason(_ error: any Error, body: [UInt8]) -> String {
        func at(_ path: [any CodingKey]) -> String {
            var out = ""
            for key in path {
                if let i = key.intValue { out += "[\(i)]" } else { out += (out.isEmpty ? "" : ".") + key.stringValue }
            }
            return out.isEmpty ? "the body" : "`\(out)`"
        }
        guard let error = error as? DecodingError else { return "malformed JSON: \(error)" }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                // JSONDecoder says only that the JSON is invalid; JSONSerialization says where.
                do {
                    _ = try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
                } catch {
                    if let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String {
                        return "malformed JSON: \(detail)"
                    }
                }
                return "malformed JSON: \(context.debugDescription)"
            }
            return "\(at(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "missing field \(at(context.codingPath + [key]))"
        case .typeMismatch(let type, let context):
            return "\(at(context.codingPath)) has the wrong type: expected \(JSON.name(of: type))"
        case .valueNotFound(let type, let context):
            return "\(at(context.codingPath)) is null: expected \(JSON.name(of: type))"
        @unknown default:
            return "malformed request: \(error)"
        }
    }

    static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type: return "an integer"
        case is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "an object"
        }
    }
}
