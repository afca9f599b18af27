internal import CWebKitGTK
import HybridShellCore

/// What a locked-down view needs from GTK and WebKit: an input filter in front of WebKit, context
/// menu and permission answers, a fixed zoom, a background colour, a hidden cursor, and a report of
/// what the window really looks like.
extension WebKitView {
    /// Connects the `event`, `context-menu`, `permission-request` and `notify::zoom-level` signals.
    /// Until this is called WebKit's defaults apply.
    func connectKioskSignals() {
        let instance = UnsafeMutableRawPointer(view)
        connections += [
            // `event` runs before GTK's per-type handlers (WebKit's key, button and scroll
            // handlers); answering TRUE keeps the event from WebKit and the page.
            connectSignal(instance, "event", signalCallback(pointerPredicateSignalTrampoline),
                          { [weak self] event in
                              guard let self, let event, let input = WebKitView.inputEvent(OpaquePointer(event)) else { return false }
                              return self.filterInput(input)
                          } as PointerPredicateSignal),
            connectSignal(instance, "context-menu", signalCallback(threePointerPredicateSignalTrampoline),
                          { [weak self] _, _, _ in
                              guard let self, !self.showsContextMenu else { return false }
                              self.onEvent(.contextMenuSuppressed)
                              return true
                          } as ThreePointerPredicateSignal),
            connectSignal(instance, "permission-request", signalCallback(pointerPredicateSignalTrampoline),
                          { [weak self] request in
                              guard let self, let request else { return false }
                              self.answerPermission(request)
                              return true
                          } as PointerPredicateSignal),
            connectSignal(instance, "notify::zoom-level", signalCallback(pointerSignalTrampoline),
                          { [weak self] _ in
                              guard let self, self.zoomLocked, webkit_web_view_get_zoom_level(self.view) != 1 else { return }
                              webkit_web_view_set_zoom_level(self.view, 1)
                          } as PointerSignal),
        ]
    }

    private func answerPermission(_ raw: gpointer) {
        let request = PermissionRequest(kind: WebKitView.permissionKind(raw), origin: WebOrigin.of(uri ?? "") ?? "null")
        let granted = decidePermission(request)
        let permission = OpaquePointer(raw)
        granted ? webkit_permission_request_allow(permission) : webkit_permission_request_deny(permission)
        onEvent(.permissionDecided(request, granted: granted))
    }

    static func permissionKind(_ request: gpointer) -> PermissionRequest.Kind {
        switch String(cString: hs_type_name(request)) {
        case "WebKitGeolocationPermissionRequest": return .geolocation
        case "WebKitNotificationPermissionRequest": return .notifications
        case "WebKitUserMediaPermissionRequest":
            let media = request.assumingMemoryBound(to: WebKitUserMediaPermissionRequest.self)
            return webkit_user_media_permission_is_for_video_device(media) != 0 ? .camera : .microphone
        case "WebKitPointerLockPermissionRequest": return .pointerLock
        case "WebKitMediaKeySystemPermissionRequest": return .mediaKeys
        case "WebKitDeviceInfoPermissionRequest": return .deviceInfo
        case "WebKitClipboardPermissionRequest": return .clipboard
        case "WebKitWebsiteDataAccessPermissionRequest": return .websiteData
        case "WebKitInstallMissingMediaPluginsPermissionRequest": return .mediaPlugins
        default: return .other
        }
    }

    // MARK: Input

    static func inputEvent(_ event: OpaquePointer) -> InputEvent? {
        let gdkEvent = UnsafeMutablePointer<GdkEvent>(event)
        var state = GdkModifierType(rawValue: 0)
        gdk_event_get_state(gdkEvent, &state)
        let modifiers = keyModifiers(state)
        switch gdk_event_get_event_type(gdkEvent) {
        case GDK_KEY_PRESS:
            var keyval: guint = 0
            gdk_event_get_keyval(gdkEvent, &keyval)
            return .key(borrowCString(gdk_keyval_name(keyval)) ?? "0x\(String(keyval, radix: 16))", modifiers: modifiers)
        case GDK_BUTTON_PRESS:
            var button: guint = 0
            gdk_event_get_button(gdkEvent, &button)
            return .button(Int(button), modifiers: modifiers)
        case GDK_SCROLL: return .scroll(modifiers: modifiers)
        case GDK_TOUCHPAD_PINCH: return .pinch
        case GDK_TOUCH_BEGIN, GDK_TOUCH_UPDATE: return .touch
        case GDK_MOTION_NOTIFY: return .motion
        default: return nil
        }
    }

    private static func keyModifiers(_ state: GdkModifierType) -> KeyModifiers {
        var modifiers: KeyModifiers = []
        if state.rawValue & GDK_SHIFT_MASK.rawValue != 0 { modifiers.insert(.shift) }
        if state.rawValue & GDK_CONTROL_MASK.rawValue != 0 { modifiers.insert(.control) }
        if state.rawValue & GDK_MOD1_MASK.rawValue != 0 { modifiers.insert(.alt) }
        if state.rawValue & GDK_SUPER_MASK.rawValue != 0 { modifiers.insert(.superKey) }
        return modifiers
    }

    private static func modifierState(_ modifiers: KeyModifiers) -> guint {
        var state: guint = 0
        if modifiers.contains(.shift) { state |= GDK_SHIFT_MASK.rawValue }
        if modifiers.contains(.control) { state |= GDK_CONTROL_MASK.rawValue }
        if modifiers.contains(.alt) { state |= GDK_MOD1_MASK.rawValue }
        if modifiers.contains(.superKey) { state |= GDK_SUPER_MASK.rawValue }
        return state
    }

    /// Feeds a synthesized event through GTK (`gtk_main_do_event`) as if the user had made it;
    /// false when the view has no window on the display to receive it.
    @discardableResult
    func synthesize(_ input: SyntheticInput) -> Bool {
        guard let gdkWindow = gtk_widget_get_window(hs_widget(view)) else { return false }
        let seat = gdk_display_get_default_seat(gdk_window_get_display(gdkWindow))
        func dispatch(_ type: GdkEventType, _ fill: (UnsafeMutablePointer<GdkEvent>) -> Void) {
            let event = gdk_event_new(type)!
            // The event owns a reference to its window (gdk_event_free drops it).
            event.pointee.any.window = OpaquePointer(g_object_ref(UnsafeMutableRawPointer(gdkWindow)))
            event.pointee.any.send_event = 1
            fill(event)
            let keyboard = type == GDK_KEY_PRESS || type == GDK_KEY_RELEASE
            gdk_event_set_device(event, keyboard ? gdk_seat_get_keyboard(seat) : gdk_seat_get_pointer(seat))
            gtk_main_do_event(event)
            gdk_event_free(event)
        }
        func pressKey(_ keyval: guint, modifiers: KeyModifiers) {
            var keycode: guint16 = 0
            var keys: UnsafeMutablePointer<GdkKeymapKey>?
            var count: gint = 0
            if gdk_keymap_get_entries_for_keyval(gdk_keymap_get_for_display(gdk_window_get_display(gdkWindow)), keyval, &keys, &count) != 0,
               let keys, count > 0 {
                keycode = guint16(keys[0].keycode)
                g_free(keys)
            }
            for type in [GDK_KEY_PRESS, GDK_KEY_RELEASE] {
                dispatch(type) { event in
                    event.pointee.key.time = guint32(GDK_CURRENT_TIME)
                    event.pointee.key.keyval = keyval
                    event.pointee.key.hardware_keycode = keycode
                    event.pointee.key.state = Self.modifierState(modifiers)
                }
            }
        }
        switch input {
        case .click(let button, let x, let y, let modifiers):
            for type in [GDK_BUTTON_PRESS, GDK_BUTTON_RELEASE] {
                dispatch(type) { event in
                    event.pointee.button.time = guint32(GDK_CURRENT_TIME)
                    event.pointee.button.x = x
                    event.pointee.button.y = y
                    event.pointee.button.x_root = x
                    event.pointee.button.y_root = y
                    event.pointee.button.button = guint(button)
                    event.pointee.button.state = Self.modifierState(modifiers)
                }
            }
        case .scroll(let up, let x, let y, let modifiers):
            dispatch(GDK_SCROLL) { event in
                event.pointee.scroll.time = guint32(GDK_CURRENT_TIME)
                event.pointee.scroll.x = x
                event.pointee.scroll.y = y
                event.pointee.scroll.direction = up ? GDK_SCROLL_UP : GDK_SCROLL_DOWN
                event.pointee.scroll.state = Self.modifierState(modifiers)
            }
        case .key(let name, let modifiers):
            pressKey(gdk_keyval_from_name(name), modifiers: modifiers)
        case .text(let text):
            for scalar in text.unicodeScalars { pressKey(Self.keyval(typing: scalar), modifiers: []) }
        case .pinch(let scale, let x, let y):
            for phase in [GDK_TOUCHPAD_GESTURE_PHASE_BEGIN, GDK_TOUCHPAD_GESTURE_PHASE_UPDATE, GDK_TOUCHPAD_GESTURE_PHASE_END] {
                dispatch(GDK_TOUCHPAD_PINCH) { event in
                    event.pointee.touchpad_pinch.phase = gint8(phase.rawValue)
                    event.pointee.touchpad_pinch.n_fingers = 2
                    event.pointee.touchpad_pinch.time = guint32(GDK_CURRENT_TIME)
                    event.pointee.touchpad_pinch.x = x
                    event.pointee.touchpad_pinch.y = y
                    event.pointee.touchpad_pinch.scale = phase == GDK_TOUCHPAD_GESTURE_PHASE_BEGIN ? 1 : scale
                }
            }
        case .motion(let x, let y):
            dispatch(GDK_MOTION_NOTIFY) { event in
                event.pointee.motion.time = guint32(GDK_CURRENT_TIME)
                event.pointee.motion.x = x
                event.pointee.motion.y = y
                event.pointee.motion.x_root = x
                event.pointee.motion.y_root = y
            }
        }
        return true
    }

    func focus() {
        gtk_widget_grab_focus(hs_widget(view))
    }

    // MARK: Look

    /// `webkit_web_view_set_background_color`, and the same colour behind the view in its window,
    /// so nothing white shows before the first paint.
    func setBackground(red: Double, green: Double, blue: Double) {
        var color = GdkRGBA(red: red, green: green, blue: blue, alpha: 1)
        webkit_web_view_set_background_color(view, &color)
        guard let window else { return }
        let provider = gtk_css_provider_new()!
        let css = String(format: "window { background-color: rgb(%d, %d, %d); }", Int(red * 255), Int(green * 255), Int(blue * 255))
        gtk_css_provider_load_from_data(provider, css, -1, nil)
        gtk_style_context_add_provider(gtk_widget_get_style_context(window), OpaquePointer(provider),
                                       guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(provider)
    }

    /// Hides the pointer over the window and every document in it: a user style sheet with
    /// `cursor: none` (WebKit sets the widget's cursor from the page on every move, so a GDK cursor
    /// alone would not last) plus GDK's blank cursor on the window.
    func setCursorHidden(_ hidden: Bool) {
        if let cursorSheet {
            webkit_user_content_manager_remove_style_sheet(contentManager, cursorSheet)
            webkit_user_style_sheet_unref(cursorSheet)
            self.cursorSheet = nil
        }
        if hidden {
            let sheet = webkit_user_style_sheet_new("*, *::before, *::after { cursor: none !important; }",
                                                    WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES, WEBKIT_USER_STYLE_LEVEL_USER, nil, nil)!
            webkit_user_content_manager_add_style_sheet(contentManager, sheet)
            cursorSheet = sheet
        }
        for widget in [window, hs_widget(view)].compactMap({ $0 }) {
            guard let gdkWindow = gtk_widget_get_window(widget) else { continue }
            if hidden {
                let cursor = gdk_cursor_new_for_display(gdk_window_get_display(gdkWindow), GDK_BLANK_CURSOR)
                gdk_window_set_cursor(gdkWindow, cursor)
                if let cursor { g_object_unref(UnsafeMutableRawPointer(cursor)) }
            } else {
                gdk_window_set_cursor(gdkWindow, nil)
            }
        }
    }

    var windowState: WindowState? {
        guard let window, let gdkWindow = gtk_widget_get_window(window) else { return nil }
        var width: gint = 0, height: gint = 0
        gtk_window_get_size(hs_window(window), &width, &height)
        var monitorArea = GdkRectangle()
        if let monitor = gdk_display_get_monitor_at_window(gdk_window_get_display(gdkWindow), gdkWindow) {
            gdk_monitor_get_geometry(monitor, &monitorArea)
        }
        var color = GdkRGBA()
        webkit_web_view_get_background_color(view, &color)
        let hex = String(format: "#%02x%02x%02x", Int((color.red * 255).rounded()), Int((color.green * 255).rounded()),
                         Int((color.blue * 255).rounded()))
        let state = gdk_window_get_state(gdkWindow)
        return WindowState(fullscreen: state.rawValue & GDK_WINDOW_STATE_FULLSCREEN.rawValue != 0,
                           decorated: gtk_window_get_decorated(hs_window(window)) != 0,
                           width: Int(width), height: Int(height),
                           screenWidth: Int(monitorArea.width), screenHeight: Int(monitorArea.height),
                           background: hex, zoomLevel: webkit_web_view_get_zoom_level(view))
    }
}

/// Resets the X server's screen saver and DPMS timers (`XResetScreenSaver`) — what keeps an
/// unattended screen on when no screen-saver service can be asked.
@EngineActor
enum X11ScreenSaver {
    /// False when the display is not X11 (nothing to reset there).
    static var isAvailable: Bool {
        guard let display = gdk_display_get_default() else { return false }
        return hs_is_x11_display(display) != 0
    }

    static func reset() {
        guard let display = gdk_display_get_default() else { return }
        hs_x11_reset_screen_saver(display)
    }
}
