import Foundation
import HybridShell
import Testing

/// `window.print()` under `hybrid-run --url` and `hybrid-run test`: no dialog, the run ends when it
/// should. Before, WebKit's default print handler ran GTK's print dialog in a nested main loop and
/// neither `--exit-after` nor `--global-timeout` (nor SIGTERM) could end the process.
@Suite("Native dialogs on the command line")
struct NativeDialogCommandLineTests {
    @Test func printingPageExitsAfterItsTime() async throws {
        let started = ContinuousClock.now
        let run = try await CommandLineRun.run(["pages/fixtures/dialogs/print.html", "--exit-after", "6", "--print-events"],
                                               deadline: .seconds(40))
        let took = ContinuousClock.now - started
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(took < .seconds(20), "exited after \(took)")
        let refusals = run.stdoutLines.filter { $0.contains(#""event":"nativeDialogRefused""#) && $0.contains(#""dialog":"print""#) }
        #expect(refusals.count >= 2, "the page prints every second: \(run.stdout)")
        #expect(run.stdout.contains(#""text":"print returned""#))
    }

    @Test func printingTestPageEndsAtTheGlobalTimeout() async throws {
        let started = ContinuousClock.now
        let run = try await PageTestRun.run(["pages/fixtures/dialogs/print-test.html", "--global-timeout", "10", "--timeout", "60", "--idle-timeout", "60",
                                             "--screenshot", "off"])
        defer { run.cleanUp() }
        let took = ContinuousClock.now - started
        #expect(run.status == 3, "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        #expect(took < .seconds(30), "exited after \(took)")
        let page = run.pages.first { $0["page"]?.stringValue?.hasSuffix("print-test.html") == true }
        let console = page?["console"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
        #expect(console.contains { $0.contains("the page asked for a print dialog (window.print()); refused") }, "\(console)")
    }
}
