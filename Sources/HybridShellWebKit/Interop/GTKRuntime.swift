internal import CWebKitGTK
import Foundation
import HybridShellCore
import Synchronization

/// GTK's initialisation, done once, on the GLib main-loop thread, the first time the WebKit layer
/// needs it (a web context, a display check). `gtk_init_check` makes its calling thread GTK's, so
/// it must run where ``MainLoop`` iterates the default context.
enum GTKRuntime {
    private struct State {
        var initialised = false
        var displayError: String?
    }

    private static let state = Mutex(State())
    private static let initialisedCondition = NSCondition()

    /// Why GTK could not start (no X display), or nil when it did. Initialises GTK on the loop
    /// thread first if nobody has yet, and waits for it.
    static var displayError: String? {
        if let done = state.withLock({ $0.initialised ? Optional($0.displayError) : nil }) { return done }
        if EngineActor.isCurrentThread {
            EngineActor.assumeIsolated { initialise() }
        } else {
            Task { @EngineActor in initialise() }
            initialisedCondition.lock()
            while !state.withLock({ $0.initialised }) { initialisedCondition.wait() }
            initialisedCondition.unlock()
        }
        return state.withLock { $0.displayError }
    }

    @EngineActor
    private static func initialise() {
        guard !state.withLock({ $0.initialised }) else { return }
        WebKitEnvironment.applyDefaults()
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

extension MainLoop {
    /// Why GTK could not start (no X display), or nil when it did. The first call initialises GTK
    /// on the loop thread (`gtk_init_check`) and waits for it.
    public static var displayError: String? { GTKRuntime.displayError }
}
