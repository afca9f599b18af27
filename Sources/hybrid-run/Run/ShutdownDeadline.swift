import Foundation
import HybridShell
import Synchronization

/// The last resort behind every orderly stop: once a command has been asked to stop (SIGTERM or
/// SIGINT, `hybrid-run ctl quit`, `--exit-after`, a global timeout), the process ends within
/// ``limit`` even if the stop never completes. Whatever a page does — a GTK dialog spinning a nested
/// main loop, a web process that no longer answers — cannot then keep the process alive.
///
/// The wait runs on a thread of its own, not on the GLib loop (the loop may be what is stuck), and
/// ends with `_exit`: `exit` would run WebKit's `atexit` handlers on a thread that does not own GTK.
enum ShutdownDeadline {
    static let limit: Duration = .seconds(4)
    private static let armed = Atomic<Bool>(false)

    /// Starts the countdown (once; later calls change nothing). `status` is the exit code if the
    /// countdown runs out; `what` names the stop for the one line on stderr.
    static func arm(status: ExitStatus, what: String, errors: OutputLines = .standardError) {
        guard !armed.exchange(true, ordering: .relaxed) else { return }
        let thread = Thread {
            Thread.sleep(forTimeInterval: Double(limit.components.seconds))
            errors.write("hybrid-run: error: still running \(limit.components.seconds) s after \(what); exiting without cleaning up")
            _exit(status.rawValue)
        }
        thread.name = "hybrid-run shutdown deadline"
        thread.start()
    }

    /// SIGINT and SIGTERM stop the command: the countdown starts (ending with `status` if the stop
    /// never completes) and `stop` is called with the signal's name.
    @EngineActor
    static func onTerminationSignal(status: ExitStatus = .success, _ stop: @escaping @EngineActor (_ signal: String) -> Void) {
        TerminationSignals.install { number in
            let name = number == SIGTERM ? "SIGTERM" : "SIGINT"
            arm(status: status, what: name)
            stop(name)
        }
    }
}
