import HybridShell
import Foundation

/// `hybrid-run kiosk`: runs a ``KioskHost`` until SIGTERM/SIGINT or `hybrid-run ctl quit`, with a
/// pid file, a control socket and systemd notifications; or, with `check`, verifies the profile
/// and prints a pass/fail table.
@EngineActor
final class KioskCommand {
    private let profile: KioskProfile
    private let check: Bool
    private let printEvents: Bool
    private let output: OutputLines
    private let errors: OutputLines
    private let notifier = SystemdNotifier()
    private let started = ContinuousClock.now
    private let outcome = Handoff<RunOutcome>()
    private var host: KioskHost?
    private var listener: UnixSocketListener?
    private var watchdogTimer: LoopTimer?
    private var notifiedReady = false

    init(profile: KioskProfile, check: Bool = false, printEvents: Bool = false,
                output: OutputLines = .standardOutput, errors: OutputLines = .standardError) {
        self.profile = profile
        self.check = check
        self.printEvents = printEvents
        self.output = output
        self.errors = errors
    }

    func run() async -> RunOutcome {
        if let problem = MainLoop.displayError { return .noDisplay(problem) }
        let host: KioskHost
        do {
            host = try KioskHost(profile: profile, appName: "hybrid-run kiosk")
        } catch {
            return RunOutcome(.usage, error.description)
        }
        self.host = host
        host.onEvent = { [weak self] event in self?.log(event) }
        if check { return await runCheck(host) }

        let pidFile = profile.pidFile.map(PidFile.init(path:))
        do {
            try pidFile?.write()
            if let path = profile.controlSocket {
                listener = try UnixSocketListener(path: path) { [weak self] line, reply in
                    guard let self else { return reply(ControlReply.error("the kiosk is stopping")) }
                    self.control(line, reply: reply)
                }
            }
        } catch {
            pidFile?.remove()
            return RunOutcome(.usage, error.description)
        }
        ShutdownDeadline.onTerminationSignal { [weak self] signal in self?.settle(.success, reason: signal) }
        do {
            try host.start()
            host.page?.view.observe { [weak self] event in self?.pageEvent(event) }
        } catch {
            settle(RunOutcome(.failure, error.description), reason: "cannot start")
        }
        pingWatchdog()
        let result = (try? await outcome.value()) ?? .success
        notifier.notify("STOPPING=1")
        watchdogTimer?.cancel()
        listener?.close()
        await host.stop(reason: stopReason)
        pidFile?.remove()
        return result
    }

    private func runCheck(_ host: KioskHost) async -> RunOutcome {
        let rows = await KioskCheck(host: host).run()
        await host.stop(reason: "check finished")
        output.write(KioskCheck.table(rows))
        let failed = rows.filter { !$0.passed }.count
        output.write("hybrid-run kiosk --check: \(rows.count - failed) of \(rows.count) settings hold")
        return failed == 0 ? .success : RunOutcome(.testsFailed, "\(failed) kiosk setting\(failed == 1 ? "" : "s") did not take effect")
    }

    // MARK: Control

    private func control(_ line: String, reply: @escaping @EngineActor (String) -> Void) {
        guard let host else { return reply(ControlReply.error("the kiosk is not running")) }
        let request: ControlRequest
        do {
            request = try ControlRequest.parse(line)
        } catch {
            log(.control(request: String(line.prefix(200)), ok: false))
            return reply(ControlReply.error(error.description))
        }
        // Armed here, before any await: the answer below needs the engine actor, which a stuck page could hold.
        if request == .quit { ShutdownDeadline.arm(status: .success, what: "hybrid-run ctl quit") }
        Task { @EngineActor [weak self] in
            let answer = await host.answer(request)
            self?.log(.control(request: request.line, ok: answer.ok))
            reply(answer.line)
            if request == .quit { self?.settle(.success, reason: "hybrid-run ctl quit") }
        }
    }

    // MARK: Output

    private func log(_ event: KioskEvent) {
        if printEvents { stamp(event.jsonObject) }
        if let line = event.logLine { errors.write("hybrid-run kiosk: \(line)") }
        if case .loaded = event, !notifiedReady {
            notifiedReady = true
            notifier.notify("READY=1\nSTATUS=showing \(host?.homeURL ?? "")")
        }
    }

    private func pageEvent(_ event: PageEvent) {
        guard case .console(let message) = event else { return }
        if printEvents { stamp(event.jsonObject) } else { output.write(message.miniBrowserLine) }
    }

    private func stamp(_ object: [String: JSONValue]) {
        var object = object
        object["t"] = .number(((ContinuousClock.now - started).milliseconds * 10).rounded() / 10)
        output.write(JSONValue.object(object).jsonText)
    }

    /// Pings systemd's watchdog from the main loop: if the loop stalls, the pings stop and systemd
    /// restarts the service.
    private func pingWatchdog() {
        guard let interval = notifier.watchdogPing else { return }
        notifier.notify("WATCHDOG=1")
        watchdogTimer = LoopTimer(after: interval) { [weak self] in self?.pingWatchdog() }
    }

    private func settle(_ result: RunOutcome, reason: String) {
        guard !outcome.isSettled else { return }
        ShutdownDeadline.arm(status: result.status, what: "stopping (\(reason))")
        let result = RunOutcome(result.status, result.reason ?? (result.status == .success ? nil : reason))
        outcome.fulfill(result)
        stopReason = reason
    }

    private var stopReason = ""
}
