import Foundation
@testable import hybrid_run
import Testing

@Suite("--display: the session's display or a private Xvfb")
struct DisplayPlanTests {
    @Test(arguments: [
        (DisplayChoice.auto, ["DISPLAY": ":0"], DisplayPlan.current),
        (.auto, [:], .virtual),
        (.auto, ["DISPLAY": ""], .virtual),
        // The session's Wayland display is used natively (DisplayBackend)…
        (.auto, ["WAYLAND_DISPLAY": "wayland-0"], .current),
        (.auto, ["WAYLAND_DISPLAY": "wayland-0", "GDK_BACKEND": "wayland"], .current),
        (.auto, ["WAYLAND_DISPLAY": "wayland-0", "GDK_BACKEND": "wayland,x11"], .current),
        // …unless the user keeps GTK on X11, which has no display here.
        (.auto, ["WAYLAND_DISPLAY": "wayland-0", "GDK_BACKEND": "x11"], .virtual),
        (.current, [:], .current),
        (.virtual, ["DISPLAY": ":0"], .virtual),
    ])
    func choiceAndEnvironmentDecide(choice: DisplayChoice, environment: [String: String], plan: DisplayPlan) {
        #expect(DisplayPlan.decide(choice, environment: environment) == plan)
    }

    @Test func aKioskWithoutItsScreenFailsInsteadOfRunningUnseen() {
        #expect(DisplayPlan.decide(.auto, environment: [:], startsWhenMissing: false) == .current)
        #expect(DisplayPlan.decide(.virtual, environment: [:], startsWhenMissing: false) == .virtual)
    }

    @Test func theCookieEntryIsWhatXauthWritesForAnyHostAndDisplay() {
        let entry = XauthorityEntry.cookie([1, 2, 3])
        // family ffff, empty address, empty number, "MIT-MAGIC-COOKIE-1" (18), 3 bytes of data.
        #expect(entry.bytes == [0xFF, 0xFF, 0, 0, 0, 0, 0, 18] + Array("MIT-MAGIC-COOKIE-1".utf8) + [0, 3, 1, 2, 3])
    }
}
