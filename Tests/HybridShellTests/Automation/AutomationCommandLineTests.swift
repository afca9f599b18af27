import Foundation
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit
@testable import hybrid_run
import Testing

/// `hybrid-run --automation` without a WebDriver: every misuse is a usage error at once. The real
/// sessions (Selenium → WebKitWebDriver → hybrid-run) are tested in Tests/webdriver.
@Suite("hybrid-run --automation, usage")
struct AutomationCommandLineTests {
    static let misuses: [(arguments: [String], reason: String)] = [
        (["--automation", "--exit-after", "load"], "--automation cannot be combined with --exit-after"),
        (["--automation", "pages/demo/index.html"], "--automation cannot be combined with a page"),
        (["--automation", "--dialogs", "accept"], "--automation cannot be combined with --dialogs"),
        (["--automation", "--call", "echo={}"], "--automation cannot be combined with --call"),
        (["test", "--automation", "pages/fixtures/test"], "cannot be combined with hybrid-run test"),
        (["kiosk", "--automation"], "cannot be combined with hybrid-run kiosk"),
        (["--automation"], "WEBKIT_INSPECTOR_SERVER"),
        (["--automation", "--modules", "storage"], "--automation cannot be combined with --modules"),
        (["--automation", "--modules=bogus"], "--automation cannot be combined with --modules"),
        (["--automation", "--grant", "https://a.example=storage"], "--automation cannot be combined with --grant"),
    ]

    @Test(arguments: misuses)
    func misuseIsAUsageError(_ misuse: (arguments: [String], reason: String)) async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["WEBKIT_INSPECTOR_SERVER"] = nil
        let run = try await CommandLineRun.run(misuse.arguments, environment: environment, deadline: .seconds(30))
        #expect(run.status == 4)
        #expect(run.stderr.contains("hybrid-run: error: "))
        #expect(run.stderr.contains(misuse.reason), "\(run.stderr)")
        #expect(run.webKitChildren.isEmpty)
    }

    @Test func reportsHybridRunAsTheBrowser() {
        #expect(AutomationOptions.hybridRun.browserName == "hybrid-run")
        #expect(AutomationOptions().browserName == "HybridShell")
    }

    @Test @EngineActor func hostWithoutAWebDriverIsAUsageError() async {
        #expect(AutomationOptions.inspectorServerAddress == nil)
        let outcome = await AutomationHost(options: AutomationOptions()).run()
        #expect(outcome == .notStartedByWebDriver)
        #expect(RunOutcome(outcome).status == .usage)
        #expect(RunOutcome(outcome).reason?.contains("WEBKIT_INSPECTOR_SERVER") == true)
    }
}
