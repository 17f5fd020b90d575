// libFuzzer harnesses for Lexiforge's readers (`make fuzz`).
//
// One executable, eight harnesses: the environment variable LEXIFORGE_FUZZ_HARNESS picks which one
// `LLVMFuzzerTestOneInput` runs (corpus, wordlist, conllu, swipe, model, store, tables, playground). The harness code
// is compiled only with the LEXIFORGE_FUZZ condition, which `make fuzz` passes along with the
// fuzzer sanitizer:
//
//   swift build -c debug --product LexiforgeFuzz --scratch-path .build-fuzz \
//     -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library -Xswiftc -DLEXIFORGE_FUZZ
//   LEXIFORGE_FUZZ_HARNESS=corpus .build-fuzz/debug/LexiforgeFuzz -max_total_time=60 SEEDS/
//
// A plain `swift build` builds the usage message below and nothing else.
#if LEXIFORGE_FUZZ
import Foundation

/// The harness this process runs, from LEXIFORGE_FUZZ_HARNESS (read once).
let selectedHarness: @Sendable (Data) -> Void = {
    let name = ProcessInfo.processInfo.environment["LEXIFORGE_FUZZ_HARNESS"] ?? ""
    guard let harness = FuzzHarnesses.all[name] else {
        let names = FuzzHarnesses.all.keys.sorted().joined(separator: ", ")
        FileHandle.standardError.write(Data("LexiforgeFuzz: set LEXIFORGE_FUZZ_HARNESS to one of \(names)\n".utf8))
        exit(2)
    }
    return harness
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    selectedHarness(Data(bytes: data, count: size))
    return 0
}

// SwiftPM links an executable's entry point as `<module>_main` and points `main` at it, so
// libFuzzer's own `main` never runs: this entry point hands the command line to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

@_cdecl("LexiforgeFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    _ = selectedHarness   // an unknown harness name stops here, not inside the fuzzing loop
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        guard let data else { return 0 }
        return fuzz(data, size)
    }
}

enum FuzzHarnesses {
    static let all: [String: @Sendable (Data) -> Void] = [
        "corpus": fuzzCorpusReader,
        "wordlist": fuzzWordlistReader,
        "conllu": fuzzTaggedCorpora,
        "swipe": fuzzSwipeTraces,
        "model": fuzzModelFile,
        "store": fuzzStore,
        "tables": fuzzTables,
        "playground": fuzzPlaygroundRequest,
    ]
}

/// A per-process scratch folder for the files the readers open.
let fuzzScratch: String = {
    let dir = NSTemporaryDirectory() + "lexiforge-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "lexiforge-fuzz-\(getpid())") }
    return dir
}()

/// Writes the input to `name` in the scratch folder and returns its path.
func scratchFile(_ name: String, _ data: Data) -> String {
    let path = fuzzScratch + "/" + name
    FileManager.default.createFile(atPath: path, contents: data)
    return path
}
#else
@main
enum LexiforgeFuzzUsage {
    static func main() {
        print("""
            LexiforgeFuzz: libFuzzer harnesses, built only by `make fuzz` (FUZZ_SECONDS=60 per harness).
            This build has no harness code; build it with
              swift build -c debug --product LexiforgeFuzz --scratch-path .build-fuzz \\
                -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library -Xswiftc -DLEXIFORGE_FUZZ
            """)
    }
}
#endif
