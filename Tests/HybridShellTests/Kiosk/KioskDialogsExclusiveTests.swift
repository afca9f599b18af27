import Foundation
import HybridShell
import Testing

/// `hybrid-run kiosk` against pages that try to leave it: a print dialog, navigations the
/// allow-list refuses, `location = 'about:blank'`; and the stops that must work whatever the page
/// does. In the serial pass: they measure how long a stop takes.
@Suite("hybrid-run kiosk: dialogs, blocked navigations, stopping", .serialized)
struct KioskDialogsExclusiveTests {
    static let printing = "pages/fixtures/dialogs/print.html"

    @Test func printIsRefusedAndLoggedAndCtlQuitEndsTheKioskWithinFiveSeconds() async throws {
        let run = try await Self.kiosk(["--url", Self.printing]) { kiosk, events in
            #expect(await events.next("nativeDialogRefused")?["dialog"] == "print")
            #expect(await events.next { $0["event"] == "console" && $0["text"] == "print returned" } != nil)
            // It keeps printing every second; none of it may hold the process.
            #expect(await events.next("nativeDialogRefused") != nil)
            _ = try await KioskCommandLineExclusiveTests.control("quit", kiosk)
            #expect(await ProcessTree.waitUntilGone([kiosk.pid], within: .seconds(5)) == [], "the kiosk still runs 5 s after ctl quit")
        }
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("hybrid-run kiosk: refused a print dialog (window.print())"), "stderr: \(run.stderr)")
    }

    @Test func sigtermEndsAPrintingKioskWithinFiveSeconds() async throws {
        let run = try await Self.kiosk(["--url", Self.printing]) { kiosk, events in
            #expect(await events.next("nativeDialogRefused") != nil)
            #expect(await events.next("nativeDialogRefused") != nil)
            kill(kiosk.pid, SIGTERM)
            #expect(await ProcessTree.waitUntilGone([kiosk.pid], within: .seconds(5)) == [], "the kiosk still runs 5 s after SIGTERM")
        }
        #expect(run.status == 0, "stderr: \(run.stderr)")
    }

    @Test func sigtermEndsAKioskWhosePageSpinsWithinFiveSeconds() async throws {
        let run = try await Self.kiosk(["--url", "pages/fixtures/kiosk/hang.html"]) { kiosk, events in
            #expect(await events.next { $0["event"] == "console" && $0["text"] == "spinning now" } != nil)
            kill(kiosk.pid, SIGTERM)
            // The process itself; its spinning web process, which holds stdout too, ends on its own later.
            #expect(await ProcessTree.waitUntilGone([kiosk.pid], within: .seconds(5)) == [], "the kiosk still runs 5 s after SIGTERM")
        }
        #expect(run.status == 0, "stderr: \(run.stderr)")
    }

    @Test func memoryLimitStartsWithoutAGLibCritical() async throws {
        let run = try await Self.kiosk(["--memory-limit", "300"]) { kiosk, events in
            #expect(await events.next("loaded") != nil)
            kill(kiosk.pid, SIGTERM)
        }
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(!run.stderr.contains("CRITICAL"), "stderr: \(run.stderr)")
    }

    /// A kiosk that cannot be stopped is killed after 40 s, and the test fails on its exit status.
    static func kiosk(_ flags: [String],
                      _ body: @escaping @Sendable (CommandLineRun.Running, KioskEventReader) async throws -> Void) async throws -> CommandLineRun {
        try await KioskCommandLineExclusiveTests.kiosk(flags, deadline: .seconds(40), body)
    }
}
