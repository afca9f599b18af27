import HybridShellCore

/// The display's screen saver and power saving, which an unattended screen holds off.
@EngineActor
public enum ScreenSaver {
    /// How a screen is kept on, if it can be (``keepOn(showing:)``).
    public enum KeepOn: Equatable, Sendable {
        /// X11: the screen saver's and DPMS's timers must be reset (``reset()``) every so often.
        case resetTimers
        /// Wayland: the compositor holds the screen on while the window is shown
        /// (`zwp_idle_inhibit_manager_v1.create_inhibitor`); nothing more to do.
        case compositorInhibitor
        /// Not possible here; the reason says why and what to do.
        case unavailable(String)
    }

    /// Whether ``reset()`` does anything: only on an X11 display.
    public static var canBeReset: Bool { X11ScreenSaver.isAvailable }

    /// Restarts the screen saver's and DPMS's idle timers (`XResetScreenSaver`).
    public static func reset() { X11ScreenSaver.reset() }

    /// Keeps the screen on while `view`'s window is shown: on Wayland by asking the compositor
    /// (idle-inhibit protocol), on X11 by telling the caller to ``reset()`` the timers.
    public static func keepOn(showing view: WebView) -> KeepOn {
        if X11ScreenSaver.isAvailable { return .resetTimers }
        switch view.native.inhibitIdle() {
        case .inhibited: return .compositorInhibitor
        case .noSurface: return .unavailable("the view is not in a shown window")
        case .unsupportedByCompositor:
            return .unavailable("the Wayland compositor offers no idle-inhibit protocol (weston: start it with --idle-time=0)")
        case .notWayland: return .unavailable("neither an X11 nor a Wayland display")
        }
    }
}
