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
        // WebKitGTK 4.1 is an X11 program here; a stray WAYLAND_DISPLAY must not win.
        setenv("GDK_BACKEND", "x11", 0)
    }

    /// Headless tuning, measured on Xvfb (see bench/README.md): the DMA-BUF renderer cannot use
    /// a GPU under Xvfb and only adds start-up work.
    static func applyHeadlessDefaults() {
        setenv("WEBKIT_DISABLE_DMABUF_RENDERER", "1", 0)
    }
}
