/// What a kiosk lets through to the page: a pure decision per input event. Zoom gestures and the
/// shortcuts a browser user would use to leave the app are swallowed before WebKit sees them.
public struct KioskInputPolicy: Sendable, Equatable {
    public var zoom: Bool
    public var allowedShortcuts: Set<KioskShortcut>

    public init(zoom: Bool = false, allowedShortcuts: Set<KioskShortcut> = []) {
        self.zoom = zoom
        self.allowedShortcuts = allowedShortcuts
    }

    public enum Decision: Sendable, Equatable {
        case pass
        /// Swallowed; the text names the input (`ctrl+r`) and why (`reload`).
        case block(String)
    }

    public func decide(_ event: InputEvent) -> Decision {
        switch event {
        case .key(let key, let modifiers):
            guard let (shortcut, reason) = Self.meaning(of: key, modifiers) else { return .pass }
            if let shortcut, allowedShortcuts.contains(shortcut) { return .pass }
            if shortcut == nil, zoom { return .pass }
            return .block("\(Self.describe(key, modifiers)) (\(reason))")
        case .button(let button, _):
            let shortcut: KioskShortcut? = button == 8 ? .back : button == 9 ? .forward : nil
            guard let shortcut, !allowedShortcuts.contains(shortcut) else { return .pass }
            return .block("mouse button \(button) (\(shortcut.rawValue))")
        case .scroll(let modifiers) where modifiers.contains(.control):
            return zoom ? .pass : .block("ctrl+scroll (zoom)")
        case .pinch:
            return zoom ? .pass : .block("pinch (zoom)")
        default:
            return .pass
        }
    }

    /// The shortcut a key chord means (nil shortcut: a zoom key), or nil when it is ordinary input.
    static func meaning(of key: String, _ modifiers: KeyModifiers) -> (KioskShortcut?, String)? {
        let ctrl = modifiers.contains(.control), alt = modifiers.contains(.alt), shift = modifiers.contains(.shift)
        let name = key.count == 1 ? key.lowercased() : key
        switch (name, ctrl, alt) {
        case ("F5", _, false), ("r", true, false), ("Reload", _, _): return (.reload, "reload")
        case ("Left", false, true), ("KP_Left", false, true), ("Back", _, _): return (.back, "back")
        case ("Right", false, true), ("KP_Right", false, true), ("Forward", _, _): return (.forward, "forward")
        case ("F12", _, _): return (.devtools, "devtools")
        case ("i", true, false) where shift, ("j", true, false) where shift, ("c", true, false) where shift: return (.devtools, "devtools")
        case ("p", true, false): return (.print, "print")
        case ("w", true, false), ("q", true, false): return (.close, "close")
        case ("u", true, false): return (.viewSource, "view source")
        case ("plus", true, _), ("equal", true, _), ("minus", true, _), ("0", true, _), ("KP_Add", true, _),
             ("KP_Subtract", true, _), ("KP_0", true, _), ("ZoomIn", _, _), ("ZoomOut", _, _):
            return (nil, "zoom")
        default:
            return nil
        }
    }

    static func describe(_ key: String, _ modifiers: KeyModifiers) -> String {
        var parts: [String] = []
        if modifiers.contains(.control) { parts.append("ctrl") }
        if modifiers.contains(.alt) { parts.append("alt") }
        if modifiers.contains(.shift) { parts.append("shift") }
        if modifiers.contains(.superKey) { parts.append("super") }
        parts.append(key.count == 1 ? key.lowercased() : key)
        return parts.joined(separator: "+")
    }
}
