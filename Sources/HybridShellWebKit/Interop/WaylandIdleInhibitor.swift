internal import CWebKitGTK
import HybridShellCore

/// Keeps a Wayland compositor from blanking the screen while a window is shown
/// (`zwp_idle_inhibit_manager_v1`, see wayland_idle.h): what the X11 screen-saver reset does on X.
@EngineActor
enum WaylandIdleInhibitor {
    enum Outcome: Equatable {
        case inhibited
        case notWayland
        case noSurface
        case unsupportedByCompositor
    }

    static var isWaylandDisplay: Bool {
        guard let display = gdk_display_get_default() else { return false }
        return hs_is_wayland_display(display) != 0
    }

    /// Inhibits idle for the toplevel window holding `widget`.
    static func inhibit(showing widget: UnsafeMutablePointer<GtkWidget>) -> Outcome {
        guard isWaylandDisplay else { return .notWayland }
        guard let toplevel = gtk_widget_get_toplevel(widget), gtk_widget_get_realized(toplevel) != 0,
              let gdkWindow = gtk_widget_get_window(toplevel) else { return .noSurface }
        return hs_wayland_inhibit_idle(gdkWindow) != 0 ? .inhibited : .unsupportedByCompositor
    }
}

extension WebKitView {
    /// Inhibits the compositor's idle behaviour for the window this view is shown in.
    func inhibitIdle() -> WaylandIdleInhibitor.Outcome { WaylandIdleInhibitor.inhibit(showing: hs_widget(view)) }
}
