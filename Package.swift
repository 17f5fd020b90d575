// swift-tools-version: 6.1
//
// Lexiforge: corpora and keyboard wordlists in, compact versioned SQLite "Trained" stores out.
//
// Module map (stage modules do not import each other; LexiforgeBuild wires them):
//   LexiforgeFormat       the store format, dependency-free: schema text and version, constants, reserved ids,
//                         Codable meta, plain values stored (lexicon, HMM tables, swipe layouts and features),
//                         atomic outputs; every stage module builds on it, none on the reader or GRDB
//   LexiforgeReader       the small product front ends link: queries over the format (GRDB and its SQLite module),
//                         with LexiforgeText for typed text → (context, prefix) as training tokenized
//   LexiforgeCorpus       reading corpora: files/gzip, BOM, CRLF, UTF-8 checks, Gutenberg boilerplate
//   LexiforgeText         tokenizer and sentence splitter
//   LexiforgeNgrams       n-gram tallies and Kneser-Ney estimation (plain values in, plain values out)
//   LexiforgeHMM          hidden Markov models: supervised (TnT) and Baum-Welch training
//   LexiforgePerceptron   averaged-perceptron part-of-speech tagger: training and greedy tagging
//   LexiforgeWordlist     Android "combined" wordlists: streaming parser with diagnostics, writer
//   LexiforgeSwipe        swipe features, trace files (JSON Lines) and the synthetic-swipe generator
//   LexiforgeVocab        vocabulary lists (CSV/TSV, column mapping, level tags, diagnostics) and categories
//   LexiforgeEntities     named entities: IOB2/CoNLL reader, structured-perceptron training, span scores
//   LexiforgeClassify     text classifiers (naive Bayes, logistic regression, NB-SVM) and language-ID training
//   LexiforgeStoreWriter  builds a store atomically from plain values (schema from LexiforgeReader)
//   LexiforgeBuild        the stages wired together: one model spec, one build entry (ngrams, train), the
//                         corpus-sentence reader, hmm, wordlists, learn/merge, export
//   LexiforgeEvaluation   measuring and querying stores: perplexity, keystroke savings, tagging, lemmas,
//                         tokenization, swipe evaluation and tuning, inspect, suggest, diff
//   lexiforge             the thin command-line executable (with lexiforge-serve, the only ArgumentParser users)
//   LexiforgeFuzz         libFuzzer harnesses for the readers (`make fuzz`; a usage stub otherwise)
//   LexiforgePlayground   the playground's API without sockets: routes, JSON, limits, the static page (on the reader only)
//   LexiforgeServe        `lexiforge-serve`, its own product so the core CLI never links Hummingbird and SwiftNIO
import PackageDescription

// The tests' own targets compile without optimization in every configuration: `make test` builds
// them in release beside the modules `make train` built (one build for both), and optimizing test
// code would only add minutes. These targets are in no product, so a package that depends on
// Lexiforge never builds them.
let unoptimized: [SwiftSetting] = [.unsafeFlags(["-Onone"])]

let package = Package(
    name: "Lexiforge",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "lexiforge", targets: ["lexiforge"]),
        .library(name: "LexiforgeReader", targets: ["LexiforgeReader", "LexiforgeFormat", "LexiforgeText"]),
        // The web playground (`make serve`): a separate executable, so `lexiforge` stays lean (docs/playground.md).
        .executable(name: "lexiforge-serve", targets: ["LexiforgeServe"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Only `lexiforge-serve` links it; no traits (swift-configuration and full Foundation unused).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    ],
    targets: [
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CLibcrypto",
            path: "Sources/CLibcrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        .target(name: "LexiforgeFormat", dependencies: ["LexiforgeText"]),
        .target(
            name: "LexiforgeReader",
            dependencies: [
                "LexiforgeFormat",
                // The tokenizer and sentence splitter (dependency-free), so front ends turn typed
                // text into queries exactly as training did (`TrainedStore.typedInput`).
                "LexiforgeText",
                .product(name: "GRDB", package: "GRDB.swift"),
                // Raw statements for the hot query loops (GRDB's own SQLite module).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        .target(
            name: "LexiforgeCorpus",
            dependencies: [
                "CZlib", "CLibcrypto",
            ]),
        .target(name: "LexiforgeText"),
        .target(name: "LexiforgeNgrams", dependencies: ["LexiforgeFormat"]),
        .target(name: "LexiforgeHMM", dependencies: ["LexiforgeFormat"]),
        .target(name: "LexiforgePerceptron", dependencies: ["LexiforgeFormat"]),
        .target(name: "LexiforgeWordlist", dependencies: ["LexiforgeFormat", "LexiforgeCorpus", "CZlib"]),
        .target(name: "LexiforgeSwipe", dependencies: ["LexiforgeFormat", "LexiforgeCorpus"]),
        .target(name: "LexiforgeVocab", dependencies: ["LexiforgeFormat", "LexiforgeCorpus"]),
        .target(name: "LexiforgeEntities", dependencies: ["LexiforgeFormat", "LexiforgeCorpus"]),
        .target(name: "LexiforgeClassify", dependencies: ["LexiforgeFormat"]),
        .target(
            name: "LexiforgeStoreWriter",
            dependencies: [
                "LexiforgeReader", "LexiforgeNgrams",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        .target(
            name: "LexiforgeBuild",
            dependencies: [
                "LexiforgeReader", "LexiforgeCorpus", "LexiforgeText", "LexiforgeNgrams",
                "LexiforgeStoreWriter", "LexiforgeHMM", "LexiforgePerceptron", "LexiforgeWordlist", "LexiforgeSwipe",
                "LexiforgeVocab", "LexiforgeEntities", "LexiforgeClassify",
            ]),
        .target(
            name: "LexiforgeEvaluation",
            dependencies: [
                "LexiforgeBuild", "LexiforgeReader", "LexiforgeCorpus", "LexiforgeText", "LexiforgeNgrams",
                "LexiforgeStoreWriter", "LexiforgeHMM", "LexiforgePerceptron", "LexiforgeSwipe", "LexiforgeEntities",
            ]),
        .executableTarget(
            name: "lexiforge",
            dependencies: [
                "LexiforgeBuild", "LexiforgeEvaluation", "LexiforgeEntities",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // libFuzzer harnesses (`make fuzz`); without -DLEXIFORGE_FUZZ only a usage message.
        .executableTarget(
            name: "LexiforgeFuzz",
            dependencies: ["LexiforgeReader", "LexiforgeCorpus", "LexiforgeWordlist", "LexiforgeSwipe", "LexiforgeBuild",
                           "LexiforgeEntities", "LexiforgeVocab", "LexiforgePlayground"]),
        // The playground's API as a plain function of (method, path, body): testable without sockets.
        .target(
            name: "LexiforgePlayground",
            dependencies: ["LexiforgeReader", "LexiforgeText"],
            resources: [.copy("Page")]),
        .executableTarget(
            name: "LexiforgeServe",
            dependencies: [
                "LexiforgePlayground",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // Test helpers shared by the test targets: paths and fixtures, temporary folders, running
        // the CLI, model folders, the `slow` tag and trait.
        .target(
            name: "LexiforgeTestSupport",
            dependencies: ["LexiforgeCorpus", "LexiforgeReader"],
            path: "Tests/LexiforgeTestSupport",
            swiftSettings: unoptimized),
        .testTarget(
            name: "LexiforgeTests",
            dependencies: [
                "LexiforgeTestSupport", "LexiforgeFormat", "LexiforgeReader", "LexiforgeCorpus", "LexiforgeText", "LexiforgeNgrams",
                "LexiforgeStoreWriter", "LexiforgeBuild", "LexiforgeEvaluation", "LexiforgeHMM", "LexiforgePerceptron", "LexiforgeWordlist", "LexiforgeSwipe",
                "LexiforgeVocab", "LexiforgeEntities", "LexiforgeClassify",
            ],
            exclude: ["Fixtures"],
            swiftSettings: unoptimized),
        // The playground: API tests without sockets, on a live `lexiforge-serve`, and in headless Chromium.
        .testTarget(
            name: "LexiforgePlaygroundTests",
            dependencies: ["LexiforgePlayground", "LexiforgeTestSupport", "LexiforgeReader", "LexiforgeFormat"],
            exclude: ["browser_test.py"],
            swiftSettings: unoptimized),
    ],
    swiftLanguageModes: [.v6]
)
