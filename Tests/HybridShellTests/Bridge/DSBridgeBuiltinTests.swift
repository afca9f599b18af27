import HybridShell
import Testing

/// Issue 11, item 10: the `_dsb.*` methods dsbridge.js calls, with the original's semantics.
@Suite("dsbridge built-ins, in real WebKit")
@EngineActor
struct DSBridgeBuiltinTests {
    @Test func windowCloseUnderDsbridgeEndsExitAfterCloseWithZero() async throws {
        let run = try await CommandLineRun.run(["--url", "pages/fixtures/bridge/dsbridge-close.html", "--exit-after", "close",
                                                "--timeout", "30"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("hybrid-run: the page closed itself after "))
        #expect(run.stdout.contains("dsbridge page: closing, native has echo: true"))
    }

    @Test func disableJavascriptDialogBlockAnswersDialogsAtOnce() async throws {
        let fixture = try BridgeFixture()
        defer { fixture.close() }
        // The policy that would wait for a person: without the built-in the page hangs in alert().
        fixture.view.dialogPolicy = .native
        var dialogs: [ScriptDialog.Kind] = []
        fixture.view.observe { event in if case .dialog(let dialog, _) = event { dialogs.append(dialog.kind) } }
        // A loaded machine (the whole suite in parallel) has taken 30 s here; the dialogs seen say
        // whether the page was slow or blocked in a dialog.
        let report: JSONValue
        do {
            report = try await fixture.run("dsbridge-dialogs.html")
        } catch {
            Issue.record("\(error); dialogs seen: \(dialogs)")
            return
        }
        #expect(report["error"] == nil)
        #expect(failedChecks(report) == [])
        #expect(dialogs == [.alert, .confirm, .prompt])
    }

    @Test func closePageReportsCloseRequested() async throws {
        let fixture = try BridgeFixture()
        defer { fixture.close() }
        let closed = Handoff<Bool>()
        fixture.view.observe { event in if case .closeRequested = event { closed.fulfill(true) } }
        fixture.view.load(Fixtures.pageURL("bridge/dsbridge-close.html"))
        #expect(try await closed.value(timeout: .seconds(30), "closeRequested"))
    }
}
