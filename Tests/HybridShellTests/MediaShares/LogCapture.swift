import Foundation
import HybridShell
import Logging

/// A `Logger` whose lines (level and message) a test can read back, e.g. to check that a refusal
/// was logged with its reason.
final class LogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String] = []
    private var waiters: [(text: String, handoff: Handoff<Bool>)] = []

    var lines: [String] { lock.withLock { kept } }

    func logger(level: Logger.Level = .debug) -> Logger {
        var logger = Logger(label: "test.media") { _ in Handler(capture: self) }
        logger.logLevel = level
        return logger
    }

    func contains(_ text: String) -> Bool { lines.contains { $0.contains(text) } }

    /// Waits (event-driven, with a deadline) for a line containing `text`; true when one came.
    @EngineActor
    func wait(for text: String, after index: Int = 0, timeout: Duration = .seconds(30)) async -> Bool {
        let handoff = Handoff<Bool>()
        let present = lock.withLock { () -> Bool in
            if kept.dropFirst(index).contains(where: { $0.contains(text) }) { return true }
            waiters.append((text, handoff))
            return false
        }
        if present { return true }
        return (try? await handoff.value(timeout: timeout, "a log line containing \(text)")) ?? false
    }

    fileprivate func append(_ line: String) {
        let ready = lock.withLock { () -> [Handoff<Bool>] in
            kept.append(line)
            let matching = waiters.filter { line.contains($0.text) }.map(\.handoff)
            waiters.removeAll { line.contains($0.text) }
            return matching
        }
        if !ready.isEmpty { Task { @EngineActor in for handoff in ready { handoff.fulfill(true) } } }
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
                 file: String, function: String, line: UInt) {
            capture.append("\(level) \(message)")
        }
    }
}
