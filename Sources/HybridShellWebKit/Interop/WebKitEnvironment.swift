import Foundation
import HybridShellCore

/// Environment variables WebKit and GTK read at start-up. They must be set before GTK initialises
/// and before the first web process is spawned (children inherit them).
enum WebKitEnvironment {
    static func applyDefaults() {
        // Without an accessibility bus every web process prints a warning; an empty address
        // turns the bridge off quietly.
        setenv("WEBKIT_A11Y_BUS_ADDRESS", "", 0)
        setenv("NO_AT_BRIDGE", "1", 0)
        // The session's own backend (Wayland when there is a Wayland display), unless the user
        // chose one; GTK would otherwise try Wayland even where WAYLAND_DISPLAY is unset.
        if let backend = DisplayBackend.choose(environment: ProcessInfo.processInfo.environment).backend {
            setenv("GDK_BACKEND", backend.rawValue, 0)
        }
    }

    /// Headless tuning, measured on Xvfb (see bench/README.md): the DMA-BUF renderer cannot use
    /// a GPU under Xvfb and only adds start-up work.
    static func applyHeadlessDefaults() {
        setenv("WEBKIT_DISABLE_DMABUF_RENDERER", "1", 0)
    }
}
