@testable import HybridShellCore
import Testing

@Suite("GDK backend: the session's own, unless the user chose")
struct DisplayBackendTests {
    @Test(arguments: [
        (["WAYLAND_DISPLAY": "wayland-0"], DisplayBackend?.some(.wayland)),
        // A Wayland session's DISPLAY is Xwayland: the native backend wins.
        (["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"], .wayland),
        (["DISPLAY": ":0"], .x11),
        (["WAYLAND_DISPLAY": "", "DISPLAY": ":1"], .x11),
        ([:], .x11),
        // The user's choice is left alone.
        (["WAYLAND_DISPLAY": "wayland-0", "GDK_BACKEND": "x11"], nil),
        (["DISPLAY": ":0", "GDK_BACKEND": "wayland"], nil),
    ])
    func theBackendFollowsTheSession(environment: [String: String], backend: DisplayBackend?) {
        #expect(DisplayBackend.choose(environment: environment).backend == backend)
    }

    @Test func theReasonNamesWhatDecided() {
        #expect(DisplayBackend.choose(environment: ["WAYLAND_DISPLAY": "wl-7"]).reason.contains("wl-7"))
        #expect(DisplayBackend.choose(environment: ["GDK_BACKEND": "x11"]).reason == "GDK_BACKEND=x11 (set by the user)")
    }

    @Test(arguments: [
        (["WAYLAND_DISPLAY": "w"], true),
        (["WAYLAND_DISPLAY": "w", "GDK_BACKEND": "wayland,x11"], true),
        (["WAYLAND_DISPLAY": "w", "GDK_BACKEND": "x11,wayland"], false),
        (["WAYLAND_DISPLAY": "w", "GDK_BACKEND": "*"], true),
        (["DISPLAY": ":0"], false),
    ])
    func waylandIsTriedFirstOnlyWhenItLeads(environment: [String: String], wayland: Bool) {
        #expect(DisplayBackend.usesWayland(environment: environment) == wayland)
    }
}
