import ArgumentParser
import Foundation
import HybridShell

// Parse, then hand the main thread to GLib's loop until the command finishes. Every failure is one
// line on stderr and an exit code from ExitStatus; usage errors are 4 (ArgumentParser's own 64 is
// replaced so scripts see one convention).
let errors = OutputLines.standardError
let arguments = Array(CommandLine.arguments.dropFirst())
// A subcommand other than the URL form cannot serve a WebDriver session; refuse it the way a bad
// --automation flag is refused (see HybridRun.refuseAutomationSession).
if let first = arguments.first, first != "run", HybridRunRoot.commandNames.contains(first), arguments.contains("--automation") {
    HybridRun.refuseAutomationSession(reason: "--automation serves a WebDriver session and cannot be combined with hybrid-run \(first)")
    errors.write("hybrid-run: error: --automation serves a WebDriver session and cannot be combined with hybrid-run \(first)")
    exit(ExitStatus.usage.rawValue)
}
// WebKitWebDriver starts a browserOptions binary given without args with no arguments at all:
// the root help and exit 0 would leave the client's new-session request waiting forever.
if arguments.isEmpty, AutomationOptions.inspectorServerAddress != nil {
    HybridRun.refuseAutomationSession(reason: HybridRun.missingAutomationReason)
}
if let problem = UsageMessage.unknownHelpTopic(arguments) {
    errors.write("hybrid-run: error: \(problem)")
    errors.write("Usage: hybrid-run help [<command> ...] — see hybrid-run --help")
    exit(ExitStatus.usage.rawValue)
}
if UsageMessage.asksForRootHelp(arguments) {
    OutputLines.standardOutput.write(UsageMessage.rootHelp())
    exit(0)
}
// ArgumentParser chooses the subcommand (the URL form when none is named); the chosen command then
// runs on GLib's loop (or, for package and ctl, without one).
var parsed: (any ParsableCommand)?
do {
    let command = try HybridRunRoot.parseAsRoot(arguments)
    parsed = command
    try (command as? any CheckedCommand)?.checkFlags()
    switch command {
    case let run as HybridRun where run.automation:
        let options = usageChecked { try run.automationOptions() }
        prepareDisplay(run.displayOption.display)
        exit(MainLoop.run { await HybridRun.serveAutomation(options) })
    case let run as HybridRun:
        let options = usageChecked { try run.options() }
        LogLines.bootstrap(level: run.logLevel ?? options.shell.logLevel ?? .info, quiet: run.quiet)
        prepareDisplay(run.displayOption.display)
        exit(MainLoop.run {
            let outcome = await RunCommand(options: options).run()
            if let reason = outcome.reason { errors.write("hybrid-run: error: \(reason)") }
            return outcome.status.rawValue
        })
    case let test as HybridRunTest:
        let options = usageChecked { try test.options() }
        LogLines.bootstrap(level: .info, quiet: false)
        prepareDisplay(test.displayOption.display)
        exit(MainLoop.run {
            let outcome = await TestCommand(options: options).run()
            if let reason = outcome.reason { errors.write("hybrid-run: error: \(reason)") }
            return outcome.status.rawValue
        })
    case let kiosk as HybridRunKiosk:
        LogLines.bootstrap(level: .info, quiet: false)
        let profile = usageChecked { try kiosk.profile() }
        prepareDisplay(kiosk.displayOption.display, startsWhenMissing: kiosk.check)
        exit(MainLoop.run {
            let outcome = await KioskCommand(profile: profile, check: kiosk.check, printEvents: kiosk.printEvents).run()
            if let reason = outcome.reason { errors.write("hybrid-run: error: \(reason)") }
            return outcome.status.rawValue
        })
    case let mcp as HybridRunMcp:
        // stdout carries the protocol: logs and errors go to stderr only.
        let (options, opensPage) = usageChecked { try mcp.options() }
        LogLines.bootstrap(level: mcp.run.logLevel ?? options.shell.logLevel ?? .info, quiet: mcp.run.quiet)
        prepareDisplay(mcp.run.displayOption.display)
        exit(MainLoop.run {
            let outcome = await McpCommand(options: options, opensPage: opensPage).run()
            if let reason = outcome.reason { errors.write("hybrid-run: error: \(reason)") }
            return outcome.status.rawValue
        })
    case let dev as HybridRunDev:
        let (options, app) = usageChecked { try dev.options() }
        LogLines.bootstrap(level: .info, quiet: false)
        prepareDisplay(dev.displayOption.display)
        exit(MainLoop.run {
            let outcome = await HybridRunDev.run(options, app: app)
            if let reason = outcome.reason { errors.write("hybrid-run: error: \(reason)") }
            return outcome.status.rawValue
        })
    case let app as HybridRunApp:
        let (options, uris, exitAfter) = usageChecked { try app.options() }
        LogLines.bootstrap(level: .info, quiet: false)
        prepareDisplay(app.displayOption.display)
        exit(MainLoop.run {
            let outcome = await AppCommand(options: options, uris: uris, exitAfter: exitAfter).run()
            if let reason = outcome.reason { errors.write("hybrid-run: error: \(reason)") }
            return outcome.status.rawValue
        })
    case let initCommand as HybridRunInit:
        // Files only: no GLib loop, no GTK.
        exit(initCommand.execute())
    case let bundle as HybridRunBundle:
        // Files and dpkg-deb: no GLib loop, no GTK.
        exit(bundle.execute())
    case let package as any PackageCommand:
        // Files and network only: no GLib loop, no GTK.
        exit(package.execute())
    case let doctor as HybridRunDoctor:
        exit(doctor.execute())
    case let ctl as HybridRunCtl:
        // A blocking client: no GLib loop, no GTK.
        exit(ctl.execute())
    case let webdriver as HybridRunWebDriver:
        // Sockets and a child process: no GLib loop, no GTK (the sessions' browsers have those).
        exit(webdriver.execute())
    default:
        // `help`, and commands that only group others (`package`): ArgumentParser answers them.
        var other = command
        try other.run()
        exit(0)
    }
} catch {
    if HybridRunRoot.exitCode(for: error) == .success {
        OutputLines.standardOutput.write(CompletionScript.withDefaultSubcommand(HybridRunRoot.fullMessage(for: error)))
        exit(0)
    }
    HybridRun.refuseAutomationSession(reason: HybridRunRoot.message(for: error))
    for line in UsageMessage.errorLines(for: error, command: parsed.map { type(of: $0) }, arguments: arguments) { errors.write(line) }
    exit(ExitStatus.usage.rawValue)
}

/// Turns a problem found while reading the flags into exit code 4 with its one-line reason.
func usageChecked<T>(_ read: () throws -> T) -> T {
    do {
        return try read()
    } catch {
        HybridRun.refuseAutomationSession(reason: "\(error)")
        errors.write("hybrid-run: error: \(error)")
        exit(ExitStatus.usage.rawValue)
    }
}

/// Starts a private X server when the run has no display to use (see ``DisplayPlan``), before GTK
/// starts; one that cannot start is exit code 2, like any unusable environment.
func prepareDisplay(_ choice: DisplayChoice, startsWhenMissing: Bool = true) {
    guard DisplayPlan.decide(choice, environment: ProcessInfo.processInfo.environment, startsWhenMissing: startsWhenMissing) == .virtual else { return }
    do {
        try VirtualDisplay.startForProcess()
    } catch {
        HybridRun.refuseAutomationSession(reason: error.description)
        errors.write("hybrid-run: error: \(error)")
        exit(ExitStatus.failure.rawValue)
    }
}
