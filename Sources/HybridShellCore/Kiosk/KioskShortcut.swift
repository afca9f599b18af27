/// Keyboard and mouse shortcuts a kiosk blocks unless the profile allows them
/// (`allow_shortcuts = ["reload"]`).
public enum KioskShortcut: String, Sendable, CaseIterable {
    /// F5, Ctrl+R, Ctrl+Shift+R, Ctrl+F5.
    case reload
    /// Alt+Left, the Back key, mouse button 8.
    case back
    /// Alt+Right, the Forward key, mouse button 9.
    case forward
    /// F12, Ctrl+Shift+I/J/C (the Web Inspector, if enabled).
    case devtools
    /// Ctrl+P.
    case print
    /// Ctrl+W, Ctrl+Q.
    case close
    /// Ctrl+U.
    case viewSource = "view-source"
}
