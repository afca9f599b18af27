internal import CGLib
import Foundation
import Synchronization

/// Who iterates GLib's default main context.
///
/// An executable calls ``run(_:)`` on its main thread. Anything else (tests, a library user who
/// never calls `run`) gets a dedicated loop thread, started by the first job sent to
/// ``EngineActor``. The core needs nothing but GLib here: GTK (and with it a display) is
/// initialised on the loop thread by the WebKit layer, the first time a web context or view is
/// made, so code that only uses the core — the bridge over a fake engine, packages, policies —
/// runs without a display.
public enum MainLoop {
    private enum Mode {
        case unstarted
        case mainThread
        case backgroundThread
    }

    private static let mode = Mutex(Mode.unstarted)

    /// Makes the calling (main) thread the loop thread, runs `body` on ``EngineActor`` and iterates
    /// the GLib main loop until `body` returns; then returns what `body` returned. `body` runs in a
    /// task that prefers the loop as its executor (``EngineActor/taskExecutor``): keep blocking
    /// work out of it.
    ///
    /// Corresponds to `g_main_loop_run` on the default context. A plain GLib loop (rather than
    /// `gtk_main`) keeps Swift jobs running even when GTK found no display.
    public static func run(_ body: @escaping @EngineActor @Sendable () async -> Int32) -> Int32 {
        let claimed = mode.withLock { mode -> Bool in
            guard mode == .unstarted else { return false }
            mode = .mainThread
            return true
        }
        precondition(claimed, "MainLoop.run must be called once, before any engine work")
        prepareProcess()
        let exitCode = Mutex<Int32>(0)
        let loop = LoopHandle(g_main_loop_new(nil, 0))
        // The loop as the task's executor preference: its awaits resume on the loop thread (see
        // `EngineActor.taskExecutor`).
        Task(executorPreference: GLibTaskExecutor.shared) {
            let code = await body()
            exitCode.withLock { $0 = code }
            g_main_loop_quit(loop.pointer)
        }
        g_main_loop_run(loop.pointer)
        g_main_loop_unref(loop.pointer)
        return exitCode.withLock { $0 }
    }

    /// Starts the background loop thread unless a loop is already (or about to be) running.
    package static func ensureRunning() {
        let start = mode.withLock { mode -> Bool in
            guard mode == .unstarted else { return false }
            mode = .backgroundThread
            return true
        }
        guard start else { return }
        let thread = Thread {
            // Named here, by the thread itself: Foundation's `name` does not reach the kernel on
            // Linux, so the thread kept its creator's name ("…root.default-qos", a Swift pool
            // thread's) and a crash on it read like a crash off the loop thread.
            hsg_name_this_thread("HybridShellLoop")
            prepareProcess()
            let loop = g_main_loop_new(nil, 0)
            g_main_loop_run(loop)
        }
        thread.name = "HybridShell GLib main loop"
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Process-wide settings made once, before the loop runs.
    private static func prepareProcess() {
        LargeBufferReuse.apply()
    }
}

/// A `GMainLoop*` handed to the task that quits it.
private struct LoopHandle: @unchecked Sendable {
    let pointer: OpaquePointer?
    init(_ pointer: OpaquePointer?) { self.pointer = pointer }
}
