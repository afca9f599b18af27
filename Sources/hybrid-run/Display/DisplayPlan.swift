import HybridShell

/// Whether a run uses the session's display or starts a private X server: decided from the flag
/// and the environment only (``VirtualDisplay`` does the starting).
enum DisplayPlan: Equatable, Sendable {
    case current
    case virtual

    /// `auto` starts a server only when GTK would find no display: no `DISPLAY`, and no Wayland
    /// display it may use (``DisplayBackend``: Wayland when `WAYLAND_DISPLAY` is set, unless
    /// `GDK_BACKEND` says otherwise). `kiosk` without `--check` passes `startsWhenMissing: false`: a kiosk
    /// started before its screen is up should fail (and be restarted) rather than run unseen.
    static func decide(_ choice: DisplayChoice, environment: [String: String], startsWhenMissing: Bool = true) -> DisplayPlan {
        switch choice {
        case .current: return .current
        case .virtual: return .virtual
        case .auto:
            if !(environment["DISPLAY"] ?? "").isEmpty { return .current }
            if !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty, DisplayBackend.usesWayland(environment: environment) { return .current }
            return startsWhenMissing ? .virtual : .current
        }
    }
}
