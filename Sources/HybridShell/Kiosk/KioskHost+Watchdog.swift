import Foundation
import HybridShellCore
import HybridShellWebKit

/// The kiosk's hang watchdog (a heartbeat with a deadline), idle reset, cursor hiding and
/// screen keeping.
extension KioskHost {
    // MARK: Hang watchdog

    func scheduleHeartbeat() {
        heartbeatTimer = LoopTimer(after: profile.heartbeatInterval) { [weak self] in
            self?.sendHeartbeat()
            self?.scheduleHeartbeat()
        }
    }

    /// Asks the document for `1` in a world of its own: any answer proves its main thread runs.
    func sendHeartbeat() {
        guard case .waiting = heartbeat, let view = page?.view else { return }
        let since = ContinuousClock.now
        heartbeat = .pending(since: since)
        heartbeatGeneration += 1
        let generation = heartbeatGeneration
        heartbeatDeadline = LoopTimer(after: profile.heartbeatTimeout) { [weak self] in
            guard let self, self.heartbeatGeneration == generation, case .pending = self.heartbeat else { return }
            self.declareHung(since: since)
        }
        Task { @EngineActor [weak self] in
            // An error (the document went away mid-call) also means the process answered.
            _ = try? await view.evaluateJavaScript("1", in: .isolated("hybridshell-heartbeat"))
            guard let self, self.heartbeatGeneration == generation, case .pending = self.heartbeat else { return }
            self.heartbeatDeadline?.cancel()
            self.heartbeat = .waiting
            self.lastHeartbeat = .now
            self.lastHeartbeatMilliseconds = (ContinuousClock.now - since).milliseconds
        }
    }

    func declareHung(since: ContinuousClock.Instant) {
        hangs += 1
        heartbeat = .idle
        heartbeatDeadline?.cancel()
        onEvent(.hung(heartbeatMilliseconds: (ContinuousClock.now - since).milliseconds))
        // Counted and recovered like a crash: home, capped, error page (PageManager.recoveryURL).
        page?.view.terminateWebProcess()
    }

    // MARK: Input, idle, cursor, screen

    func input(_ event: InputEvent) -> String? {
        let now = ContinuousClock.now
        lastInput = now
        idleResetDone = false
        if event == .motion {
            lastMotion = now
            if cursorHidden, case .hiddenWhenIdle = profile.cursor { setCursorHidden(false) }
        }
        if case .block(let reason) = inputPolicy.decide(event) { return reason }
        return nil
    }

    func scheduleIdleReset() {
        guard let idle = profile.idleReset else { return }
        let elapsed = ContinuousClock.now - lastInput
        // After a reset, look again a period later; the next input restarts the count anyway.
        let due = idleResetDone || elapsed >= idle ? idle : idle - elapsed
        idleTimer = LoopTimer(after: max(.milliseconds(50), due)) { [weak self] in
            guard let self else { return }
            if !self.idleResetDone, ContinuousClock.now - self.lastInput >= idle {
                self.idleResetDone = true
                self.idleReset()
            }
            self.scheduleIdleReset()
        }
    }

    func idleReset() {
        let clear = profile.idleClearData
        onEvent(.idleReset(clearedData: clear))
        guard clear else { goHome(); return }
        Task { @EngineActor [weak self] in
            await self?.manager.context.clearWebsiteData()
            self?.goHome()
        }
    }

    func setCursorHidden(_ hidden: Bool) {
        cursorHidden = hidden
        page?.view.setCursorHidden(hidden)
    }

    func scheduleCursorHiding() {
        guard case .hiddenWhenIdle(let idle) = profile.cursor else { return }
        let due = max(.milliseconds(50), idle - (ContinuousClock.now - lastMotion))
        cursorTimer = LoopTimer(after: due) { [weak self] in
            guard let self else { return }
            if !self.cursorHidden, ContinuousClock.now - self.lastMotion >= idle { self.setCursorHidden(true) }
            self.scheduleCursorHiding()
        }
    }

    /// How the screen is kept on (X11: the screen saver and DPMS timers are reset every 30 s;
    /// Wayland: the compositor's idle inhibitor, held while the window is shown); nil when the
    /// profile lets the screen sleep.
    var screenKeptOn: ScreenSaver.KeepOn? { profile.inhibitScreenSaver ? screenKeepOn : nil }

    func keepScreenOn() {
        guard profile.inhibitScreenSaver, let view = page?.view else { return }
        if screenKeepOn == nil { screenKeepOn = ScreenSaver.keepOn(showing: view) }
        guard screenKeepOn == .resetTimers else { return }
        ScreenSaver.reset()
        screenSaverTimer = LoopTimer(after: .seconds(30)) { [weak self] in self?.keepScreenOn() }
    }
}
