import ArgumentParser
import Foundation
import HybridShell

// Parse, then hand the main thread to GLib's loop until the command finishes. Every failure is one
// line on stderr and an exit code from ExitStatus; usage errors are 4 (ArgumentParser's own 64 is
// replaced so scripts see one convention).
let errors = OutputLines.standardError
do {
    let command = try HybridRun.parseAsRoot()
    guard let run = command as? HybridRun else {
        var other = command
        try other.run()
        exit(0)
    }
    let options: RunOptions
    do {
        options = try run.options()
    } catch {
        errors.write("hybrid-run: error: \(error)")
        exit(ExitStatus.usage.rawValue)
    }
    let status = MainLoop.run {
        let outcome = await RunCommand(options: options).run()
        if let reason = outcome.reason { errors.write("hybrid-run: error: \(reason)") }
        return outcome.status.rawValue
    }
    exit(status)
} catch {
    if HybridRun.exitCode(for: error) == .success {
        OutputLines.standardOutput.write(HybridRun.fullMessage(for: error))
        exit(0)
    }
    errors.write("hybrid-run: error: \(HybridRun.message(for: error))")
    errors.write("Usage: \(HybridRun.usageString()) — see hybrid-run --help")
    exit(ExitStatus.usage.rawValue)
}
