import ArgumentParser
import Foundation
import HybridShell

// Parse, then hand the main thread to GLib's loop until the command finishes. Every failure is one
// line on stderr and an exit code from ExitStatus; usage errors are 4 (ArgumentParser's own 64 is
// replaced so scripts see one convention).
let errors = OutputLines.standardError
// `hybrid-run URL` and `hybrid-run test PAGES…` share the first argument, so the command is chosen
// here rather than by ArgumentParser (whose root positional would swallow "test").
var arguments = Array(CommandLine.arguments.dropFirst())
let commands: [String: any ParsableCommand.Type] = ["test": HybridRunTest.self, "ctl": HybridRunCtl.self, "kiosk": HybridRunKiosk.self,
                                                     "package": HybridRunPackage.self]
let commandType: any ParsableCommand.Type
if let first = arguments.first, let chosen = commands[first] {
    commandType = chosen
    arguments.removeFirst()
    if arguments.contains("--automation") {
        HybridRun.refuseAutomationSession(reason: "--automation serves a WebDriver session and cannot be combined with hybrid-run \(first)")
        errors.write("hybrid-run: error: --automation serves a WebDriver session and cannot be combined with hybrid-run \(first)")
        exit(ExitStatus.usage.rawValue)
    }
} else {
    commandType = HybridRun.self
}
do {
    let command = try commandType.parseAsRoot(arguments)
    switch command {
    case let run as HybridRun where run.automation:
        let options = usageChecked { try run.automationOptions() }
        exit(MainLoop.run { await HybridRun.serveAutomation(options) })
    case let run as HybridRun:
        let options = usageChecked { try run.options() }
        LogLines.bootstrap(level: run.logLevel ?? options.shell.logLevel ?? .info, quiet: run.quiet)
        exit(MainLoop.run {
            let outcome = await RunCommand(options: options).run()
            if let reason = outcome.reason { errors.write("hybrid-run: error: \(reason)") }
            return outcome.status.rawValue
        })
    case let test as HybridRunTest:
        let options = usageChecked { try test.options() }
        LogLines.bootstrap(level: .info, quiet: false)
        exit(MainLoop.run {
            let outcome = await TestCommand(options: options).run()
            if let reason = outcome.reason { errors.write("hybrid-run: error: \(reason)") }
            return outcome.status.rawValue
        })
    case let kiosk as HybridRunKiosk:
        LogLines.bootstrap(level: .info, quiet: false)
        let profile = usageChecked { try kiosk.profile() }
        exit(MainLoop.run {
            let outcome = await KioskCommand(profile: profile, check: kiosk.check, printEvents: kiosk.printEvents).run()
            if let reason = outcome.reason { errors.write("hybrid-run: error: \(reason)") }
            return outcome.status.rawValue
        })
    case let package as any PackageCommand:
        // Files and network only: no GLib loop, no GTK.
        exit(package.execute())
    case let ctl as HybridRunCtl:
        // A blocking client: no GLib loop, no GTK.
        exit(ctl.execute())
    default:
        var other = command
        try other.run()
        exit(0)
    }
} catch {
    if commandType.exitCode(for: error) == .success {
        OutputLines.standardOutput.write(commandType.fullMessage(for: error))
        exit(0)
    }
    let name = commandType == HybridRun.self ? "hybrid-run" : "hybrid-run \(commandType.configuration.commandName ?? "")"
    HybridRun.refuseAutomationSession(reason: commandType.message(for: error))
    errors.write("hybrid-run: error: \(commandType.message(for: error))")
    errors.write("Usage: \(commandType.usageString()) — see \(name) --help")
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
