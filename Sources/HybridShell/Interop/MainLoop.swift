internal import CWebKitGTK
import Foundation
import Synchronization

/// Who iterates GLib's default main context, and whether GTK could open a display.
///
/// An executable calls ``run(_:)`` on its main thread. Anything else (tests, a library user who
/// never calls `run`) gets a dedicated loop thread, started by the first job sent to
/// ``EngineActor``. Either way GTK is initialised on the thread that runs the loop.
public enum MainLoop {
    private enum Mode {
        case unstarted
        case mainThread
        case backgroundThread
    }

    private struct State {
        var mode = Mode.unstarted
        var initialised = false
        var displayError: String?
    }

    private static let state = Mutex(State())
    private static let initialisedCondition = NSCondition()

    /// Initialises GTK on the calling (main) thread, runs `body` on ``EngineActor`` and iterates the
    /// GLib main loop until `body` returns; then returns what `body` returned. `body` runs in a
    /// task that prefers the loop as its executor (``EngineActor/taskExecutor``): keep blocking
    /// work out of it.
    ///
    /// Corresponds to `gtk_init_check` followed by `g_main_loop_run` on the default context. A plain
    /// GLib loop (rather than `gtk_main`) keeps Swift jobs running even when GTK found no display.
    public static func run(_ body: @escaping @EngineActor @Sendable () async -> Int32) -> Int32 {
        let claimed = state.withLock { state -> Bool in
            guard state.mode == .unstarted else { return false }
            state.mode = .mainThread
            return true
        }
        precondition(claimed, "MainLoop.run must be called once, before any engine work")
        initialiseGTK()
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

    /// Why GTK could not start (no X display), or nil when it did. Waits for initialisation.
    public static var displayError: String? {
        ensureRunning()
        initialisedCondition.lock()
        while !state.withLock({ $0.initialised }) { initialisedCondition.wait() }
        initialisedCondition.unlock()
        return state.withLock { $0.displayError }
    }

    /// Starts the background loop thread unless a loop is already (or about to be) running.
    static func ensureRunning() {
        let start = state.withLock { state -> Bool in
            guard state.mode == .unstarted else { return false }
            state.mode = .backgroundThread
            return true
        }
        guard start else { return }
        let thread = Thread {
            // Named here, by the thread itself: Foundation's `name` does not reach the kernel on
            // Linux, so the thread kept its creator's name ("…root.default-qos", a Swift pool
            // thread's) and a crash on it read like a crash off the loop thread.
            hs_name_this_thread("HybridShellLoop")
            initialiseGTK()
            let loop = g_main_loop_new(nil, 0)
            g_main_loop_run(loop)
        }
        thread.name = "HybridShell GLib main loop"
        thread.stackSize = 8 << 20
        thread.start()
    }

    private static func initialiseGTK() {
        WebKitEnvironment.applyDefaults()
        LargeBufferReuse.apply()
        var error: String?
        if gtk_init_check(nil, nil) == 0 {
            let display = ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
            error = display.isEmpty
                ? "no X display (DISPLAY is not set)"
                : "cannot open X display '\(display)'"
        }
        initialisedCondition.lock()
        state.withLock {
            $0.initialised = true
            $0.displayError = error
        }
        initialisedCondition.broadcast()
        initialisedCondition.unlock()
    }
}

/// A `GMainLoop*` handed to the task that quits it.
private struct LoopHandle: @unchecked Sendable {
    let pointer: OpaquePointer?
    init(_ pointer: OpaquePointer?) { self.pointer = pointer }
}
