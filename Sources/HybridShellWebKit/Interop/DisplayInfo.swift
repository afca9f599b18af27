internal import CWebKitGTK
import HybridShellCore

/// The primary monitor's geometry and scale, from GDK (`gdk_monitor_get_geometry`), for the
/// `system` module. Nil without a display.
@EngineActor
enum DisplayInfo {
    static func screen() -> (width: Int, height: Int, scale: Int)? {
        guard let display = gdk_display_get_default(),
              let monitor = gdk_display_get_primary_monitor(display) ?? gdk_display_get_monitor(display, 0) else { return nil }
        var area = GdkRectangle()
        gdk_monitor_get_geometry(monitor, &area)
        return (Int(area.width), Int(area.height), Int(gdk_monitor_get_scale_factor(monitor)))
    }
}
