internal import CGLib

/// SIGINT and SIGTERM delivered on the GLib main loop (`g_unix_signal_add`), so a command can shut
/// down cleanly instead of being killed mid-write.
package enum TerminationSignals {
    /// Calls `handler` with the signal number each time SIGINT or SIGTERM arrives. The handlers
    /// live as long as the process.
    ///
    /// The signals are also unblocked: a process inherits its parent's signal mask, and a parent
    /// that spawns from a libdispatch worker thread (Foundation's `Process`) has them blocked, which
    /// would leave a SIGTERM pending forever.
    @EngineActor
    public static func install(_ handler: @escaping @EngineActor (Int32) -> Void) {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for number in [SIGINT, SIGTERM] {
            let box = Unmanaged.passRetained(TypedSignalClosure<VoidSignal>({ handler(number) }) as SignalClosure)
            g_unix_signal_add(number, signalFired, box.toOpaque())
        }
    }
}

private let signalFired: GSourceFunc = { data in
    let body = TypedSignalClosure<VoidSignal>.from(data)
    EngineActor.assumeIsolated { body() }
    return hsg_true()  // G_SOURCE_CONTINUE
}
