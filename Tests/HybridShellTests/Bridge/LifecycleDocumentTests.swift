import Foundation
import HybridShell
import Testing

/// Issue 11, item 7: lifecycle events never reach another document — across `location =`, a
/// reload and a web-process crash, every new document gets ready → show, and unload only last.
@Suite("Lifecycle events stay with their document, in real WebKit")
@EngineActor
struct LifecycleDocumentTests {
    @Test func everyDocumentGetsReadyThenShowAndNothingOfTheDocumentBefore() async throws {
        var configuration = ShellConfiguration()
        configuration.poolSize = 0
        configuration.crashRecovery = CrashRecoveryPolicy(maxReloads: 3, window: .seconds(60), backoff: [.zero])
        let manager = try PageManager(configuration: configuration)
        manager.recoversFromAPITermination = true
        let seen = SeenLog()
        manager.handlers.register("seen") { (entry: String) -> Bool in
            Task { @EngineActor in seen.append(entry) }
            return true
        }
        let page = try manager.open(WebRoute(Fixtures.pageURL("bridge/lifecycle-documents.html") + "?n=1"))
        try await seen.waitForShows(1)
        _ = try await page.view.evaluateJavaScript("location.href = location.href.replace('n=1', 'n=2'); 0")
        try await seen.waitForShows(2)
        page.view.reload()
        try await seen.waitForShows(3)
        page.view.terminateWebProcess()
        try await seen.waitForShows(4)
        // A late event for one of them would have arrived with this round trip.
        _ = try await page.view.callAsyncJavaScript("await new Promise(r => setTimeout(r, 200)); return 0")
        await manager.closeAll()

        let documents = seen.byDocument
        #expect(documents.count == 4, "documents: \(documents)")
        for (index, events) in documents.enumerated() {
            #expect(Array(events.prefix(2)) == ["ready", "show"], "document \(index + 1) got \(events)")
            #expect(events.filter { $0 == "unload" }.count <= 1, "document \(index + 1) got \(events)")
            if let unload = events.firstIndex(of: "unload") {
                #expect(unload == events.count - 1, "document \(index + 1): unload is not last in \(events)")
            }
        }
        #expect(documents.first?.last == "unload", "location= unloads the first document: \(documents.first ?? [])")
    }
}

/// What the documents reported, in arrival order, grouped by document in order of appearance.
@EngineActor
final class SeenLog {
    private var entries: [(document: String, event: String)] = []
    private var waiters: [(count: Int, handoff: Handoff<Bool>)] = []

    func append(_ entry: String) {
        let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return }
        entries.append((parts[0], parts[1]))
        for waiter in waiters where shows >= waiter.count { waiter.handoff.fulfill(true) }
    }

    private var shows: Int { entries.filter { $0.event == "show" }.count }

    var byDocument: [[String]] {
        var order: [String] = []
        var events: [String: [String]] = [:]
        for entry in entries {
            if events[entry.document] == nil { order.append(entry.document) }
            events[entry.document, default: []].append(entry.event)
        }
        return order.map { events[$0] ?? [] }
    }

    func waitForShows(_ count: Int) async throws {
        if shows >= count { return }
        let handoff = Handoff<Bool>()
        waiters.append((count, handoff))
        _ = try await handoff.value(timeout: .seconds(30), "show #\(count) (seen: \(byDocument))")
    }
}
