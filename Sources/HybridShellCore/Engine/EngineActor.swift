/// The actor that owns every web view: its jobs run on the GLib main-loop thread, where GTK and
/// WebKit must be called.
///
/// Do not confuse it with `@MainActor`: under Swift Testing on Linux the main thread is parked in
/// `dispatch_main()`, so HybridShell runs GLib on its own thread there and on the main thread in
/// an executable (see ``MainLoop``). Awaiting an `@EngineActor` function from any task is the way
/// in; no polling is involved.
@globalActor
public actor EngineActor {
    public static let shared = EngineActor()

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        GLibExecutor.shared.asUnownedSerialExecutor()
    }

    /// Runs `operation` synchronously when the caller is already on the GLib main-loop thread
    /// (a GLib callback, for instance) and stops the process otherwise.
    public static func assumeIsolated<T>(
        _ operation: @EngineActor () throws -> T
    ) rethrows -> T {
        GLibExecutor.shared.checkIsolated()
        // Same technique as `MainActor.assumeIsolated`: the check above establishes isolation.
        return try withoutActuallyEscaping(operation) { isolated in
            try unsafeBitCast(isolated, to: (() throws -> T).self)()
        }
    }

    /// The number of the GLib main-loop iteration running now: equal readings were taken in the
    /// same turn of the loop (between two polls).
    @EngineActor
    static var turn: UInt64 { GLibExecutor.shared.turn }

    /// The GLib main loop as a task executor (Swift's `TaskExecutor`, SE-0417). A task started with
    /// `Task(executorPreference: EngineActor.taskExecutor) { await drive(view) }` (`drive` being an
    /// `@EngineActor` function) resumes on the loop thread, in the main-loop dispatch whose WebKit
    /// callback resumed it, where a task without it would wake one of Swift's pool threads that
    /// only hands it back to the loop: two thread wake-ups per await (a native → page bridge call,
    /// a page event). ``MainLoop/run(_:)`` starts its task with this preference.
    ///
    /// With the preference, nonisolated async code of that task runs on the loop thread too:
    /// blocking work there stalls every page, so start it in a task of its own.
    public static var taskExecutor: any TaskExecutor { GLibTaskExecutor.shared }

    /// True on the thread that runs the GLib main loop.
    public static var isCurrentThread: Bool { GLibExecutor.shared.isLoopThread }
}
