import HybridShellCore

/// What a kiosk locks down on a view, and how it checks the result.
extension WebView {
    /// Puts the view's input and requests under policy: `inputFilter` sees every input event before
    /// WebKit (`event` signal) and names the ones to swallow; context menus (`context-menu`) and the
    /// zoom level (`notify::zoom-level`) are held; `permission` answers `permission-request`.
    /// Swallowed input, suppressed menus and permission answers are reported as ``PageEvent``s.
    public func lockDown(inputFilter: @escaping (InputEvent) -> String?, contextMenu: Bool, zoom: Bool,
                         permission: @escaping (PermissionRequest) -> Bool) {
        native.filterInput = { [weak self] input in
            guard let reason = inputFilter(input) else { return false }
            self?.emit(.inputBlocked(reason))
            return true
        }
        native.showsContextMenu = contextMenu
        native.zoomLocked = !zoom
        native.decidePermission = permission
        native.connectKioskSignals()
    }

    /// The colour behind the page and its window (`webkit_web_view_set_background_color`).
    public func setBackground(red: Double, green: Double, blue: Double) {
        native.setBackground(red: red, green: green, blue: blue)
    }

    /// Hides the mouse pointer over the view and every document in it, or shows it again.
    public func setCursorHidden(_ hidden: Bool) {
        native.setCursorHidden(hidden)
    }

    /// The window as GDK reports it; nil for a view without a window on the display.
    public var windowState: WindowState? { native.windowState }

    /// Sends input as if the user made it (`gtk_main_do_event`); false without a window.
    @discardableResult
    public func synthesize(_ input: SyntheticInput) -> Bool { native.synthesize(input) }

    /// Gives the view the keyboard focus (`gtk_widget_grab_focus`).
    public func focus() { native.focus() }
}
