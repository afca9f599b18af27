internal import CWebKitGTK
import HybridShellCore

/// The adapter between ``WebView`` and a `WebKitWebView`: it owns the widget, its window, its user
/// content manager and its signal connections, and translates WebKit's C callbacks into the
/// domain callbacks below. It makes no decisions of its own.
@EngineActor
final class WebKitView {
    struct Options {
        var window: WebViewConfiguration.Window
        var width: Int
        var height: Int
        var userAgent: UserAgent
        var developerExtras: Bool
        var fileAccessFromFileURLs = false
        var related: WebKitView?
        var controlledByAutomation = false
    }

    enum NewWindowResult {
        case loadHere
        case deny
        case openedElsewhere
    }

    let view: UnsafeMutablePointer<WebKitWebView>
    let contentManager: UnsafeMutablePointer<WebKitUserContentManager>
    private let viewReference: GObjectReference
    private let contentManagerReference: GObjectReference
    private(set) var window: UnsafeMutablePointer<GtkWidget>?
    var connections: [SignalConnection] = []
    var messageHandlers: [(name: String, world: String?)] = []
    var loadFailedSinceStart = false
    var requestedURL = ""
    /// The URL of the last navigation `decide-policy` let through (a page's own `location = 'about:blank'`).
    var lastAllowedNavigation = ""
    private(set) var isClosed = false

    // The domain side; set by WebView.
    var onEvent: (PageEvent) -> Void = { _ in }
    var decideNavigation: (NavigationAction) -> NavigationDecision = { _ in .allow }
    var handleDialog: (ScriptDialog, PendingDialog) -> Bool = { _, _ in false }
    var createWindow: (NavigationAction) -> NewWindowResult = { _ in .loadHere }
    /// The target name and URL of the last new-window decision: WebKit 2.50 gives the name there
    /// and not in the `create` signal's action that follows it.
    var pendingWindowName: (url: String, name: String)?
    var onWindowDeleted: () -> Void = {}
    // Kiosk hooks, live once connectKioskSignals() has run.
    var filterInput: (InputEvent) -> Bool = { _ in false }
    var showsContextMenu = true
    var decidePermission: (PermissionRequest) -> Bool = { _ in false }
    var zoomLocked = false
    var cursorSheet: OpaquePointer?

    init(context: WebKitContext, options: Options) {
        let manager = webkit_user_content_manager_new()!
        contentManagerReference = GObjectReference(taking: UnsafeMutableRawPointer(manager))
        contentManager = manager

        let settings = webkit_settings_new()!
        defer { g_object_unref(settings) }
        let engineDefault = String(cString: webkit_settings_get_user_agent(settings))
        webkit_settings_set_user_agent(settings, options.userAgent.resolved(engineDefault: engineDefault))
        webkit_settings_set_enable_developer_extras(settings, options.developerExtras ? 1 : 0)
        // A document restored from the back/forward cache would keep a bridge session that native
        // already ended; every document is loaded fresh instead.
        webkit_settings_set_enable_page_cache(settings, 0)
        webkit_settings_set_javascript_can_open_windows_automatically(settings, 1)
        webkit_settings_set_enable_write_console_messages_to_stdout(settings, 0)
        // Opt-in: local apps and test suites that load their own files (JSON fixtures) with
        // fetch/XHR need it, but it lets any file: page read any local file.
        webkit_settings_set_allow_file_access_from_file_urls(settings, options.fileAccessFromFileURLs ? 1 : 0)

        let widget = options.controlledByAutomation
            ? hs_web_view_new_automated(context.pointer, manager, settings)!
            : hs_web_view_new(context.pointer, manager, settings, options.related?.view)!
        viewReference = GObjectReference(retaining: UnsafeMutableRawPointer(widget))
        view = widget
        placeInWindow(options)
        connectViewSignals()
        connectNativeDialogSignals()
    }

    private func placeInWindow(_ options: Options) {
        let widget = hs_widget(view)
        switch options.window {
        case .none:
            gtk_widget_set_size_request(widget, gint(options.width), gint(options.height))
        case .offscreen:
            let window = Self.headlessWindow()
            gtk_window_set_default_size(hs_window(window), gint(options.width), gint(options.height))
            gtk_container_add(hs_container(window), widget)
            gtk_widget_show_all(window)
            self.window = window
        case .visible(let fullscreen, let decorated, let title):
            let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
            gtk_window_set_default_size(hs_window(window), gint(options.width), gint(options.height))
            gtk_window_set_title(hs_window(window), title)
            gtk_window_set_decorated(hs_window(window), decorated ? 1 : 0)
            if fullscreen {
                // Without a window manager (a bare X server, Xvfb) the fullscreen request is not
                // honoured, so the window also covers the monitor by itself.
                if let display = gdk_display_get_default(),
                   let monitor = gdk_display_get_primary_monitor(display) ?? gdk_display_get_monitor(display, 0) {
                    var area = GdkRectangle()
                    gdk_monitor_get_geometry(monitor, &area)
                    gtk_window_set_default_size(hs_window(window), area.width, area.height)
                    gtk_window_move(hs_window(window), area.x, area.y)
                }
                gtk_window_fullscreen(hs_window(window))
            }
            gtk_container_add(hs_container(window), widget)
            connections.append(connectSignal(window, "delete-event", signalCallback(pointerPredicateSignalTrampoline),
                                             { [weak self] (_: gpointer?) -> Bool in
                                                 self?.onWindowDeleted()
                                                 return true  // the owner decides whether to close
                                             } as PointerPredicateSignal))
            gtk_widget_show_all(window)
            self.window = window
        }
    }

    /// The toplevel of a headless view. Not a `GtkOffscreenWindow`: WebKitGTK does not count a view
    /// in one as "in a window" (`widgetIsOnscreenToplevelWindow`), and a page that is not in a
    /// window never starts loading `<video>`/`<audio>` (networkState 3, no request). An unshown
    /// `GtkWindow` is in a window but hidden (`visibilityState` hidden, no animation frames, no
    /// snapshots). An override-redirect popup mapped outside every monitor is both: media loads,
    /// the page is visible, and nothing appears on the screen (no window manager places it, no
    /// task bar lists it). Other displays than X11 keep the offscreen window.
    private static func headlessWindow() -> UnsafeMutablePointer<GtkWidget> {
        guard let display = gdk_display_get_default(), hs_is_x11_display(display) != 0 else { return gtk_offscreen_window_new()! }
        let window = gtk_window_new(GTK_WINDOW_POPUP)!
        gtk_window_move(hs_window(window), -32000, -32000)
        return window
    }

    // MARK: Loading

    func load(uri: String, headers: [(String, String)] = []) {
        if headers.isEmpty {
            webkit_web_view_load_uri(view, uri)
            return
        }
        let request = webkit_uri_request_new(uri)!
        if let fields = webkit_uri_request_get_http_headers(request) {
            for (name, value) in headers { soup_message_headers_replace(fields, name, value) }
        }
        webkit_web_view_load_request(view, request)
        g_object_unref(request)
    }

    func load(html: String, baseURI: String?) {
        webkit_web_view_load_html(view, html, baseURI)
    }

    func reload(bypassingCache: Bool) {
        bypassingCache ? webkit_web_view_reload_bypass_cache(view) : webkit_web_view_reload(view)
    }

    func stopLoading() { webkit_web_view_stop_loading(view) }
    func goBack() { webkit_web_view_go_back(view) }
    func goForward() { webkit_web_view_go_forward(view) }
    func terminateWebProcess() { webkit_web_view_terminate_web_process(view) }

    var uri: String? { borrowCString(webkit_web_view_get_uri(view)) }
    var title: String? { borrowCString(webkit_web_view_get_title(view)) }
    var estimatedProgress: Double { webkit_web_view_get_estimated_load_progress(view) }
    var isLoading: Bool { webkit_web_view_is_loading(view) != 0 }
    /// The HTTP status of the main resource's response (`webkit_uri_response_get_status_code`);
    /// nil before a response, 0 for non-HTTP documents.
    var mainResourceStatus: Int? {
        guard let resource = webkit_web_view_get_main_resource(view),
              let response = webkit_web_resource_get_response(resource) else { return nil }
        return Int(webkit_uri_response_get_status_code(response))
    }
    var isWebProcessResponsive: Bool { webkit_web_view_get_is_web_process_responsive(view) != 0 }
    var userAgent: String {
        String(cString: webkit_settings_get_user_agent(webkit_web_view_get_settings(view)))
    }

    func setUserAgent(_ userAgent: UserAgent) {
        let settings = webkit_web_view_get_settings(view)
        // The engine's own agent comes from fresh settings; this view's may already be custom.
        let fresh = webkit_settings_new()!
        defer { g_object_unref(fresh) }
        let engineDefault = String(cString: webkit_settings_get_user_agent(fresh))
        webkit_settings_set_user_agent(settings, userAgent.resolved(engineDefault: engineDefault))
    }

    func setVisible(_ visible: Bool) {
        guard let window else { return }
        visible ? gtk_widget_show(window) : gtk_widget_hide(window)
    }

    var isShown: Bool {
        guard let window else { return true }
        return gtk_widget_get_visible(window) != 0
    }

    // MARK: Teardown

    /// Disconnects everything and destroys the widget (and its window); the page's web process
    /// exits unless another view shares it. Idempotent.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        for connection in connections { connection.disconnect() }
        connections.removeAll()
        for handler in messageHandlers {
            if let world = handler.world {
                webkit_user_content_manager_unregister_script_message_handler_in_world(contentManager, handler.name, world)
            } else {
                webkit_user_content_manager_unregister_script_message_handler(contentManager, handler.name)
            }
        }
        messageHandlers.removeAll()
        webkit_user_content_manager_remove_all_scripts(contentManager)
        if let cursorSheet {
            webkit_user_style_sheet_unref(cursorSheet)
            self.cursorSheet = nil
        }
        if let window {
            gtk_widget_destroy(window)
            self.window = nil
        } else {
            gtk_widget_destroy(hs_widget(view))
        }
    }

    isolated deinit {
        close()
    }
}
