import HybridShellCore

/// The display's screen saver and power saving, which an unattended screen holds off.
@EngineActor
public enum ScreenSaver {
    /// Whether ``reset()`` does anything: only on an X11 display.
    public static var canBeReset: Bool { X11ScreenSaver.isAvailable }

    /// Restarts the screen saver's and DPMS's idle timers (`XResetScreenSaver`).
    public static func reset() { X11ScreenSaver.reset() }
}
