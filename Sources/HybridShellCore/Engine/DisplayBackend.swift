/// The windowing system GTK draws on (`GDK_BACKEND`): the session's own, unless the user chose.
public enum DisplayBackend: String, Sendable, Equatable {
    case x11, wayland

    /// What GTK will use and why, decided from the environment alone. A `GDK_BACKEND` the user
    /// set is kept as it is (`backend` is nil: nothing to set); otherwise a Wayland display wins
    /// over an X11 one, because a Wayland session's `DISPLAY` is Xwayland — a compatibility layer
    /// where a kiosk cannot ask the compositor to keep the screen on.
    public static func choose(environment: [String: String]) -> (backend: DisplayBackend?, reason: String) {
        if let chosen = environment["GDK_BACKEND"], !chosen.isEmpty {
            return (nil, "GDK_BACKEND=\(chosen) (set by the user)")
        }
        if let wayland = environment["WAYLAND_DISPLAY"], !wayland.isEmpty {
            return (.wayland, "the session's Wayland display \(wayland)")
        }
        if let x11 = environment["DISPLAY"], !x11.isEmpty {
            return (.x11, "the session's X11 display \(x11)")
        }
        return (.x11, "no display: X11, for a private X server")
    }

    /// Whether GTK will try Wayland first with this environment (the backend chosen, or a
    /// `GDK_BACKEND` list naming wayland before x11).
    public static func usesWayland(environment: [String: String]) -> Bool {
        let (backend, _) = choose(environment: environment)
        if let backend { return backend == .wayland }
        let names = (environment["GDK_BACKEND"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return names.first == "wayland" || (names.first == "*" && !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty)
    }
}
