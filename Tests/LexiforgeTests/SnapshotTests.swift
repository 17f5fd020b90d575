import Foundation
import LexiforgeTestSupport
import Testing

/// The command line's help and `inspect`'s report, compared with committed snapshots
/// (Fixtures/snapshots). A change to an option or a report line shows up here as a diff;
/// `LEXIFORGE_UPDATE_SNAPSHOTS=1 swift test --filter Snapshot` rewrites them after a deliberate change.
@Suite("snapshots: --help and inspect")
struct SnapshotTests {
    static let folder = Paths.fixture("snapshots")
    static var updating: Bool { ProcessInfo.processInfo.environment["LEXIFORGE_UPDATE_SNAPSHOTS"] == "1" }

    /// Compares `text` with the snapshot `name` (or writes it when updating).
    static func check(_ text: String, _ name: String) throws {
        let path = folder + "/" + name
        if updating {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let expected = try #require(try? String(contentsOfFile: path, encoding: .utf8),
                                    "no snapshot \(name): run LEXIFORGE_UPDATE_SNAPSHOTS=1 swift test --filter Snapshot")
        #expect(text == expected, "\(name) differs from its snapshot; if the change is deliberate, update the snapshots (see SnapshotTests)")
    }

    /// Every command path, found by walking the SUBCOMMANDS sections of the help.
    static func commandPaths() throws -> [[String]] {
        var paths: [[String]] = [[]], queue: [[String]] = [[]]
        while let path = queue.first {
            queue.removeFirst()
            let help = try CLI.run(["help"] + path).stdout
            guard let section = help.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first else { continue }
            // The section's lines up to the first blank one: "  name   abstract", abstracts wrapped deeper.
            for line in section.components(separatedBy: "\n\n")[0].split(separator: "\n") where line.hasPrefix("  ") && !line.hasPrefix("   ") {
                guard let name = line.split(separator: " ").first.map(String.init), name != "help",
                      name.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) else { continue }
                let child = path + [name]
                guard !paths.contains(child), child.count <= 3 else { continue }
                paths.append(child)
                queue.append(child)
            }
        }
        return paths
    }

    @Test("the help of every command matches its snapshot")
    func help() throws {
        let paths = try Self.commandPaths()
        #expect(paths.count > 20, "\(paths)")
        for path in paths {
            let result = try CLI.run(["help"] + path)
            #expect(result.status == 0)
            try Self.check(result.stdout, "help-" + (path.isEmpty ? "lexiforge" : path.joined(separator: "-")) + ".txt")
        }
    }

    @Test("inspect of a store built from a fixture matches its snapshot")
    func inspect() throws {
        let dir = try TemporaryFolder()
        let store = dir.file("tiny.sqlite")
        #expect(try CLI.run(["ngrams", Paths.fixture("tiny.txt"), "-o", store, "--order", "3", "--language-model", "--quiet"]).status == 0)
        let result = try CLI.run(["inspect", store])
        #expect(result.status == 0, "\(result.stderr)")
        try Self.check(result.stdout.replacingOccurrences(of: dir.path, with: "DIR"), "inspect-tiny.txt")
    }
}
