import HybridShell
import Testing

@Suite("Bridge fixture pages for every dialect, in real WebKit")
@EngineActor
struct DialectFixtureTests {
    @Test(arguments: ["hybrid.html", "wvjb-v6.html", "wvjb-v5.html", "wvjb-v4.html", "wvjb-queue.html",
                      "wvjb-example-app.html", "wvjb-v4-head.html", "dsbridge.html", "unicode.html", "unicode-shift-jis.html"])
    func fixturePagePassesEveryCheck(page: String) async throws {
        let fixture = try BridgeFixture()
        defer { fixture.close() }
        let report = try await fixture.run(page)
        #expect(report["error"] == nil, "page error: \(report["error"]?.jsonText ?? "")")
        #expect(failedChecks(report) == [])
        #expect((report["checks"]?.objectValue?.count ?? 0) > 0)
    }

    @Test func wxPageReportsAfterShow() async throws {
        let fixture = try BridgeFixture()
        defer { fixture.close() }
        let ready = Handoff<Bool>()
        fixture.bridge.observe { event in if case .ready = event { ready.fulfill(true) } }
        fixture.view.load(Fixtures.pageURL("bridge/wx.html"))
        _ = try await ready.value()
        try fixture.bridge.emit("show")
        let report = try await fixture.report.value(timeout: .seconds(20))
        #expect(failedChecks(report) == [])
    }

    @Test(arguments: ["wvjb-v6.html", "wvjb-v5.html", "wvjb-v4.html"])
    func legacyWVJBPagesBootstrapWhenInjectedAfterLoad(page: String) async throws {
        let fixture = try BridgeFixture(injection: .afterLoad)
        defer { fixture.close() }
        let report = try await fixture.run(page)
        #expect(failedChecks(report) == [])
    }
}
