import ArgumentParser
import Foundation
import HybridShell
import Synchronization

/// `hybrid-run doctor`: checks what a run needs on this machine and prints PASS/WARN/FAIL with the
/// fix. ``DoctorProbes`` gathers the facts, ``DoctorVerdicts`` judges them.
struct HybridRunDoctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check that this machine can run pages: display, WebKitGTK, renderer, media, WebDriver, fonts, sandbox, data directory.",
        usage: "hybrid-run doctor [--json] [--data-dir DIR]",
        discussion: """
            Each check prints PASS, WARN or FAIL and, unless it passed, the fix in one line. The \
            renderer check paints a test page in a window (on a private Xvfb when there is no \
            display) and reads its colour back: a page that paints wrongly is the blank window \
            other WebKitGTK shells are known for.

            Examples:
              hybrid-run doctor
              hybrid-run doctor --json --data-dir /var/lib/lobby

            Exit codes: 0 nothing failed (warnings allowed) · 1 a check failed · 4 usage error.
            """
    )

    @Flag(name: .long, help: "Print a JSON array of {check, status, detail, fix} instead of text. Example: --json")
    var json = false

    @Option(name: .long, help: ArgumentHelp(
        "The data directory to check (default: $XDG_DATA_HOME/hybrid-run, else ~/.local/share/hybrid-run). Example: --data-dir /var/lib/lobby",
        valueName: "dir"))
    var dataDir: String?

    static func defaultDataDirectory(_ environment: [String: String]) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/hybrid-run" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/hybrid-run"
    }

    /// Gathers, paints (on GLib's loop), judges and prints; returns the exit code.
    func execute(output: OutputLines = .standardOutput) -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        var facts = DoctorProbes.gather(environment: environment, dataDirectory: dataDir ?? Self.defaultDataDirectory(environment))
        var canPaint = true
        if DisplayPlan.decide(.auto, environment: environment) == .virtual {
            do {
                guard facts.display.xvfb != nil else { throw VirtualDisplayError.notInstalled }
                try VirtualDisplay.startForProcess()
                facts.renderer.onVirtualDisplay = true
                facts.display.opened = .success(ProcessInfo.processInfo.environment["DISPLAY"] ?? "")
            } catch VirtualDisplayError.notInstalled {
                canPaint = false
            } catch {
                facts.display.opened = .failure(.init("\(error)"))
                canPaint = false
            }
        }
        if canPaint {
            let found = Mutex<(opened: Result<String, DoctorFacts.Problem>?, paint: DoctorFacts.Paint)>((nil, .notTried))
            _ = MainLoop.run {
                if let problem = MainLoop.displayError {
                    found.withLock { $0 = (.failure(.init(problem)), .notTried) }
                } else {
                    let paint = await DoctorProbes.paint()
                    found.withLock { $0.paint = paint }
                }
                return 0
            }
            found.withLock { result in
                if let opened = result.opened { facts.display.opened = opened }
                facts.renderer.paint = result.paint
            }
        }
        let checks = DoctorVerdicts.checks(facts)
        if json {
            output.write(JSONValue.array(checks.map(\.json)).jsonText)
        } else {
            for check in checks { output.write(check.line) }
            let count = { (status: DoctorCheck.Status) in checks.filter { $0.status == status }.count }
            output.write("hybrid-run doctor: \(count(.pass)) passed, \(count(.warn)) warnings, \(count(.fail)) failed")
        }
        return DoctorVerdicts.exitStatus(checks).rawValue
    }
}
