#if LEXIFORGE_FUZZ
import Foundation
import LexiforgePlayground

/// The playground over the stores that `Tests/Fuzz/fuzz.sh` builds as seeds, named by
/// LEXIFORGE_FUZZ_STORES (paths separated by colons), opened once per process.
let fuzzPlayground: Playground = {
    let paths = (ProcessInfo.processInfo.environment["LEXIFORGE_FUZZ_STORES"] ?? "").split(separator: ":").map(String.init)
    do {
        return try Playground(storePaths: paths)
    } catch {
        FileHandle.standardError.write(Data("LexiforgeFuzz: the playground harness needs LEXIFORGE_FUZZ_STORES (store paths separated by colons): \(error)\n".utf8))
        exit(2)
    }
}()

/// (8) The playground's API: the input's first line is `METHOD PATH`, the rest the request body.
/// Every answer must be JSON or a page file, and no request may get a 5xx: the stores are sound,
/// so a 500 means a request reached a reader failure that should have been a 4xx.
func fuzzPlaygroundRequest(_ data: Data) {
    let bytes = [UInt8](data)
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
    let line = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = newline < bytes.count ? Array(bytes[(newline + 1)...]) : []
    let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
    let method = parts.first ?? "GET", path = parts.count > 1 ? parts[1] : "/"
    let response = fuzzPlayground.respond(method: method, path: path, body: body)
    if response.status >= 500 {
        fatalError("playground answered \(response.status) to \(method) \(path): \(response.text)")
    }
    if response.contentType.hasPrefix("application/json"), (try? JSONSerialization.jsonObject(with: Data(response.body))) == nil {
        fatalError("playground answered \(response.status) with a body that is not JSON to \(method) \(path): \(response.text.prefix(200))")
    }
}
#endif
