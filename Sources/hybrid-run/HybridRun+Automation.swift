import ArgumentParser
import Foundation
import HybridShell

/// `hybrid-run --automation`: the flags that make sense for a WebDriver session, and the loop that
/// serves it (``AutomationHost`` does the work).
extension HybridRun {
    /// Flags that decide what a page does or when the run stops: in a WebDriver session the client
    /// decides both.
    func validateAutomation() throws {
        guard automation else { return }
        let conflicts: [(Bool, String)] = [
            (url != nil || page != nil, "a page (the WebDriver client navigates)"),
            (exitAfter != nil, "--exit-after (the session ends when the client ends it)"),
            (!call.isEmpty, "--call"), (!param.isEmpty, "--param"), (!header.isEmpty, "--header"),
            (dialogs != nil, "--dialogs (the client answers dialogs)"), (newWindows != nil, "--new-windows"),
            (inject != nil, "--inject"), (config != nil, "--config"), (pool != nil, "--pool"),
            (maxReloads != nil, "--max-reloads"), (sharedProcess, "--shared-process"), (printEvents, "--print-events"),
            // AutomationHost makes its views without a PageManager, which the native modules need;
            // refused rather than silently ignored (issue 31, item 14).
            (!modules.isEmpty, "--modules (WebDriver sessions have no native modules: --handlers mocks and the built-in handlers only)"),
            (!grant.isEmpty, "--grant (WebDriver sessions have no native modules to grant)"),
        ]
        if let conflict = conflicts.first(where: \.0) {
            throw ValidationError("--automation cannot be combined with \(conflict.1)")
        }
    }

    func automationOptions() throws -> AutomationOptions {
        var options = AutomationOptions.hybridRun
        if let dataDir { options.storage = .persistent(directory: dataDir) }
        // Always a real window (see AutomationOptions.window); --window changes nothing here.
        (options.width, options.height) = try ViewportSize.parse(size)
        if let userAgent { options.userAgent = .custom(userAgent) }
        if let userAgentSuffix { options.userAgent = .appending(userAgentSuffix) }
        try options.userAgent.validate()
        options.developerExtras = inspector
        if let handlers { options.mockHandlers = try MockHandlers.load(path: handlers) }
        if !allowOrigin.isEmpty { options.allowedOrigins = try allowOrigin.map { try OriginPattern(parsing: $0) } }
        if let timeout {
            guard timeout > 0, timeout.isFinite else { throw ShellError.invalidArgument("--timeout must be a positive number of seconds") }
            options.sessionStartTimeout = .milliseconds(Int64(timeout * 1000))
        }
        options.bridgeLog = bridgeLog
        return options
    }

    /// Bad arguments given by WebKitWebDriver (it sets `WEBKIT_INSPECTOR_SERVER`): instead of
    /// exiting at once, which leaves the client's new-session request waiting forever, refuse the
    /// session so the client gets "session not created" within about a second; then exit 4.
    /// Returns (doing nothing) when this process is not a WebDriver browser.
    static func refuseAutomationSession(reason: String) {
        guard AutomationOptions.inspectorServerAddress != nil else { return }
        let arguments = Array(CommandLine.arguments.dropFirst())
        var reason = reason
        if !arguments.contains("--automation") {
            // Started by WebKitWebDriver (it sets WEBKIT_INSPECTOR_SERVER) with browserOptions.args
            // that lack --automation: the URL form only (a subcommand under a remote inspector is
            // not a WebDriver browser).
            guard arguments.first.map({ !HybridRunRoot.commandNames.contains($0) }) ?? true else { return }
            reason = missingAutomationReason + (arguments.isEmpty ? "" : " (\(reason))")
        }
        var options = AutomationOptions.hybridRun
        options.refusal = reason
        options.sessionStartTimeout = .seconds(10)
        Foundation.exit(MainLoop.run { await serveAutomation(options) })
    }

    /// Why a browser WebKitWebDriver started without `--automation` refuses the session.
    static let missingAutomationReason = "hybrid-run was started by a WebDriver (WEBKIT_INSPECTOR_SERVER is set) without --automation; "
        + "add \"--automation\" to webkitgtk:browserOptions.args, or use hybrid-run webdriver, which adds it"

    /// Runs on the engine's loop until the session ends; one stderr line per session event.
    @EngineActor
    static func serveAutomation(_ options: AutomationOptions) async -> Int32 {
        let errors = OutputLines.standardError
        let host = AutomationHost(options: options)
        host.onEvent = { event in
            if case .webProcessTerminated(let url, let reason) = event {
                errors.write("hybrid-run: error: the web process of \(url.isEmpty ? "a window" : url) ended (\(reason.rawValue)); WebDriver ends the session")
            }
        }
        TerminationSignals.install { [weak host] _ in host?.stop() }
        let outcome = RunOutcome(await host.run())
        if let reason = outcome.reason { errors.write("hybrid-run: error: \(reason)") }
        return outcome.status.rawValue
    }
}

extension AutomationOptions {
    /// What `hybrid-run --automation` reports to WebKitWebDriver: its own name as `browserName`
    /// (what a client must ask for) and as its windows' title.
    static var hybridRun: AutomationOptions {
        var options = AutomationOptions()
        options.browserName = "hybrid-run"
        options.window = .visible(title: "hybrid-run")
        return options
    }
}

extension RunOutcome {
    /// The exit status and line a WebDriver session's end earns.
    init(_ outcome: AutomationOutcome) {
        switch outcome {
        case .ended: self = .success
        case .refused(let reason): self.init(.usage, reason)
        case .notStartedByWebDriver:
            self.init(.usage, "--automation is for WebKitWebDriver, which starts the browser with WEBKIT_INSPECTOR_SERVER set; "
                + "give hybrid-run as the webkitgtk:browserOptions binary instead of starting it yourself")
        case .noDisplay(let problem): self = .noDisplay(problem)
        case .failedToStart(let reason): self.init(.usage, reason)
        case .noSession(let deadline): self.init(.timeout, "no WebDriver session started within \(deadline.secondsText)")
        }
    }
}
