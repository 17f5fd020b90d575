// swift-tools-version: 6.1
//
// Lexiforge: corpora and keyboard wordlists in, compact versioned SQLite "Trained" stores out.
//
// Module map (stage modules do not import each other; LexiforgePipeline wires them):
//   LexiforgeReader       the small product front ends link: store schema + queries (GRDB and its SQLite module),
//                         with LexiforgeText for typed text → (context, prefix) as training tokenized
//   LexiforgeCorpus       reading corpora: files/gzip, BOM, CRLF, UTF-8 checks, Gutenberg boilerplate
//   LexiforgeText         tokenizer and sentence splitter
//   LexiforgeNgrams       n-gram tallies and Kneser-Ney estimation (plain values in, plain values out)
//   LexiforgeHMM          hidden Markov models: supervised (TnT) and Baum-Welch training
//   LexiforgePerceptron   averaged-perceptron part-of-speech tagger: training and greedy tagging
//   LexiforgeWordlist     Android "combined" wordlists: streaming parser with diagnostics, writer
//   LexiforgeSwipe        swipe features, trace files (JSON Lines) and the synthetic-swipe generator
//   LexiforgeClassify     text classifiers (naive Bayes, logistic regression, NB-SVM) and language-ID training
//   LexiforgeStoreWriter  builds a store atomically from plain values (schema from LexiforgeReader)
//   LexiforgePipeline     the stages wired together: ngrams, train (model files), inspect, suggest
//   lexiforge             the thin command-line executable (the only ArgumentParser user)
//   LexiforgeFuzz         libFuzzer harnesses for the readers (`make fuzz`; a usage stub otherwise)
import PackageDescription

let package = Package(
    name: "Lexiforge",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "lexiforge", targets: ["lexiforge"]),
        .library(name: "LexiforgeReader", targets: ["LexiforgeReader", "LexiforgeText"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
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
        .target(
            name: "LexiforgeReader",
            dependencies: [
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
        .target(name: "LexiforgeNgrams", dependencies: ["LexiforgeReader"]),
        .target(name: "LexiforgeHMM", dependencies: ["LexiforgeReader"]),
        .target(name: "LexiforgePerceptron", dependencies: ["LexiforgeReader"]),
        .target(name: "LexiforgeWordlist", dependencies: ["LexiforgeReader", "LexiforgeCorpus", "CZlib"]),
        .target(name: "LexiforgeSwipe", dependencies: ["LexiforgeReader", "LexiforgeCorpus"]),
        .target(name: "LexiforgeClassify", dependencies: ["LexiforgeReader"]),
        .target(
            name: "LexiforgeStoreWriter",
            dependencies: [
                "LexiforgeReader", "LexiforgeNgrams",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        .target(
            name: "LexiforgePipeline",
            dependencies: [
                "LexiforgeReader", "LexiforgeCorpus", "LexiforgeText", "LexiforgeNgrams",
                "LexiforgeStoreWriter", "LexiforgeHMM", "LexiforgePerceptron", "LexiforgeWordlist", "LexiforgeSwipe",
                "LexiforgeClassify",
            ]),
        .executableTarget(
            name: "lexiforge",
            dependencies: [
                "LexiforgePipeline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // libFuzzer harnesses (`make fuzz`); without -DLEXIFORGE_FUZZ only a usage message.
        .executableTarget(
            name: "LexiforgeFuzz",
            dependencies: ["LexiforgeReader", "LexiforgeCorpus", "LexiforgeWordlist", "LexiforgeSwipe", "LexiforgePipeline"]),
        .testTarget(
            name: "LexiforgeTests",
            dependencies: [
                "LexiforgeReader", "LexiforgeCorpus", "LexiforgeText", "LexiforgeNgrams",
                "LexiforgeStoreWriter", "LexiforgePipeline", "LexiforgeHMM", "LexiforgePerceptron", "LexiforgeWordlist", "LexiforgeSwipe",
                "LexiforgeClassify",
            ],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
