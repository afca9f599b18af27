import Foundation
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit
import Testing

/// Streaming a large media share: the body is read off the main loop and never held whole, so
/// the GLib loop keeps running (a 2 ms heartbeat) and memory stays flat while 100 MB go out.
///
/// A measurement of the whole process, so it runs only when asked (other suites' web views share
/// the loop and the heap): `HYBRID_MEDIA_FIGURES=1 swift test --filter MediaStreamingLoadTests`
/// (its figures are then recorded as an issue, so that run fails by design; see docs/media-shares.md).
@Suite("Media shares: a 100 MB body keeps the loop responsive and memory flat",
       .enabled(if: ProcessInfo.processInfo.environment["HYBRID_MEDIA_FIGURES"] != nil))
@EngineActor
struct MediaStreamingLoadTests {
    /// Fires every 2 ms and keeps the longest gap between two firings.
    @EngineActor
    final class Heartbeat {
        private var timer: LoopTimer?
        private var last = ContinuousClock.now
        private(set) var longestGap: Duration = .zero
        private var running = true

        func start() { beat() }

        func stop() {
            running = false
            timer?.cancel()
        }

        private func beat() {
            timer = LoopTimer(after: .milliseconds(2)) { [self] in
                guard running else { return }
                let now = ContinuousClock.now
                longestGap = max(longestGap, now - last)
                last = now
                beat()
            }
        }
    }

    static func residentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    @Test func aHundredMegabytesStreamWithoutStallingTheLoopOrGrowingMemory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("media-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("big.mp4").path
        let size = 100 << 20
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(size))  // sparse: reads as zeros, costs no disk
        try handle.close()
        let shares = FileShares()
        let media = try #require(try shares.mediaURL(for: try shares.share(file: path, origin: "app://")))
        let components = try #require(URLComponents(string: media))
        let port = try #require(components.port)
        let before = Self.residentBytes()
        let heartbeat = Heartbeat()
        heartbeat.start()
        let started = ContinuousClock.now
        let total = try await RawHTTP.drain(port: port, "GET \(components.percentEncodedPath) HTTP/1.1\r\nHost: 127.0.0.1:\(port)")
        let elapsed = ContinuousClock.now - started
        heartbeat.stop()
        let growth = Self.residentBytes() - before
        #expect(total > size, "head and the whole body arrived: \(total)")
        // Generous bounds for a loaded 2-core machine.
        let figures = "100 MB in \(elapsed), longest loop gap \(heartbeat.longestGap), RSS growth \(growth >> 20) MB"
        #expect(heartbeat.longestGap < .milliseconds(250), "\(figures)")
        #expect(growth < 40 << 20, "\(figures)")
        Issue.record("figures: \(figures)")
        shares.revokeAll()
    }
}
