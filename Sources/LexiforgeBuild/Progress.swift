import Foundation

/// StageProgress and statistics on stderr (data goes to stdout or files, never here).
///
/// Stage headers are numbered as KenLM's are (`=== 1/3 Counting n-grams ===`). Silent when
/// `quiet` is set, so tests and scripts can keep stderr for errors.
public final class StageProgress: @unchecked Sendable {
    public let quiet: Bool
    private let started = Date()
    private var stageStarted = Date()
    /// Seconds spent in each finished stage, in order (for `--measure`).
    public private(set) var stageTimes: [(String, Double)] = []
    private var currentStage: String?

    public init(quiet: Bool) { self.quiet = quiet }

    public func stage(_ index: Int, of total: Int, _ title: String) {
        endStage()
        currentStage = title
        stageStarted = Date()
        say("=== \(index)/\(total) \(title) ===")
    }

    public func endStage() {
        if let current = currentStage {
            stageTimes.append((current, Date().timeIntervalSince(stageStarted)))
            currentStage = nil
        }
    }

    public func say(_ line: String) {
        guard !quiet else { return }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// A warning: printed even when quiet (only errors and warnings then reach stderr).
    public func warn(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    public var elapsed: Double { Date().timeIntervalSince(started) }
}

/// Peak resident memory of this process so far, in bytes.
public func peakResidentBytes() -> Int {
    var usage = rusage()
    #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
    #else
    getrusage(RUSAGE_SELF, &usage)
    return usage.ru_maxrss
    #endif
}

/// `12.3 MB` / `29.7 kB` style sizes for progress lines.
func megabytes(_ bytes: Int) -> String {
    bytes >= 1_000_000 ? String(format: "%.1f MB", Double(bytes) / 1_000_000) : String(format: "%.1f kB", Double(bytes) / 1_000)
}

/// CPU time of the whole process (all threads), in seconds.
public func processCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// CPU time of the calling thread, in seconds.
public func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Wall seconds since `start`.
public func seconds(since start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}
