import Foundation
import HybridShell
import Testing

/// Suites whose names end in `ExclusiveTests` kill processes by pid, so the test command runs them
/// in a second, serial pass where the newest web process is certainly the test's own.
@Suite("Web process termination", .serialized)
@EngineActor
struct TerminationExclusiveTests {
    @Test func terminatingByAPIIsReportedWithItsReason() async throws {
        let view = try makeView()
        defer { view.close() }
        try await loadHTML(view, "<p>x</p>")
        let terminated = PageEventExpectation(view) { event -> WebProcessTerminationReason? in
            if case .webProcessTerminated(let reason) = event { return reason }
            return nil
        }
        view.terminateWebProcess()
        #expect(try await terminated.value(timeout: .seconds(30)) == .terminatedByAPI)
    }

    @Test func killedWebProcessIsACrashAndReloadBringsThePageBack() async throws {
        let view = try makeView()
        defer { view.close() }
        #expect(try await load(view, Fixtures.pageURL("engine/frames.html")))
        let pid = try #require(WebProcesses.newestWebProcess())
        let terminated = PageEventExpectation(view) { event -> WebProcessTerminationReason? in
            if case .webProcessTerminated(let reason) = event { return reason }
            return nil
        }
        kill(pid, SIGKILL)
        #expect(try await terminated.value(timeout: .seconds(30)) == .crashed)

        let reloaded = PageEventExpectation.loadFinished(view)
        view.reload()
        #expect(try await reloaded.value(timeout: .seconds(30)))
        #expect(try await view.evaluateJavaScript("document.title") == "frames fixture")
    }
}

/// Finds WebKit's helper processes that belong to this test process.
enum WebProcesses {
    static func children(named name: String) -> [pid_t] {
        let me = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            let command = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            return fields.count > 2 && pid_t(fields[1]) == me && command.hasPrefix(name)
        }.sorted()
    }

    /// The most recently started web process (highest pid is good enough for a fresh test view).
    static func newestWebProcess() -> pid_t? {
        children(named: "WebKitWebProces").last
    }
}
