/// A user input event on its way to a page (the `event` signal of the view's widget, before WebKit
/// handles it), as a kiosk's input policy sees it.
public enum InputEvent: Sendable, Equatable {
    /// A key press; `key` is GDK's key name (`F5`, `r`, `plus`, `Left`, `BackSpace`).
    case key(String, modifiers: KeyModifiers)
    /// A mouse button press (1 left, 2 middle, 3 right, 8 back, 9 forward).
    case button(Int, modifiers: KeyModifiers)
    /// A wheel or touchpad scroll.
    case scroll(modifiers: KeyModifiers)
    /// A touchpad pinch (`GDK_TOUCHPAD_PINCH`).
    case pinch
    /// A touchscreen touch.
    case touch
    /// The pointer moved.
    case motion
}

/// Modifier keys held during an ``InputEvent`` (`GdkModifierType`).
public struct KeyModifiers: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let shift = KeyModifiers(rawValue: 1)
    public static let control = KeyModifiers(rawValue: 2)
    public static let alt = KeyModifiers(rawValue: 4)
    public static let superKey = KeyModifiers(rawValue: 8)
}

/// Input produced by HybridShell itself (`gtk_main_do_event` with a synthesized `GdkEvent`), the
/// way WebKit's own API tests drive a view: for `kiosk --check` and tests.
public enum SyntheticInput: Sendable, Equatable {
    case click(button: Int, x: Double, y: Double, modifiers: KeyModifiers = [])
    case scroll(up: Bool, x: Double, y: Double, modifiers: KeyModifiers = [])
    case key(String, modifiers: KeyModifiers = [])
    /// Typed text: a key press and release per character (`gdk_unicode_to_keyval`), as a keyboard
    /// would send them; "\n" is Return and "\t" is Tab.
    case text(String)
    case pinch(scale: Double, x: Double, y: Double)
    case motion(x: Double, y: Double)
}
