internal import CWebKitGTK
import HybridShellCore

/// The app's `GtkApplication` (`G_APPLICATION_HANDLES_OPEN`), used for what makes an app single:
/// its id owned on the D-Bus session bus by the first process (`g_application_register`); a later
/// one finds itself remote and hands its URIs to the first (`g_application_open`, the `Open`
/// method of org.freedesktop.Application). GLib's loop is ``MainLoop``'s, not
/// `g_application_run`: the application only answers D-Bus calls on the default context it runs.
@EngineActor
final class ApplicationInstance {
    let application: UnsafeMutablePointer<GtkApplication>
    private let reference: GObjectReference
    private var connections: [SignalConnection] = []
    var onOpen: ([String]) -> Void = { _ in }

    init(id: String) {
        application = gtk_application_new(id, GApplicationFlags(rawValue: G_APPLICATION_HANDLES_OPEN.rawValue))
        reference = GObjectReference(taking: UnsafeMutableRawPointer(application))
    }

    static func isValid(_ id: String) -> Bool { g_application_id_is_valid(id) != 0 }

    private var base: UnsafeMutablePointer<GApplication> { UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self) }

    /// Registers the id on the session bus: true for the primary instance, false when another
    /// process has it. GTK must be initialised (the display checked) first: the primary's
    /// `startup` initialises GTK itself and would abort without a display.
    func register() throws(ShellError) -> Bool {
        let instance = UnsafeMutableRawPointer(application)
        connections.append(connectSignal(instance, "open", signalCallback(openSignalTrampoline), { [weak self] uris in
            self?.onOpen(uris)
        } as OpenSignal))
        // Activation without URIs (a second launch without arguments) brings the window forward.
        connections.append(connectSignal(instance, "activate", signalCallback(voidSignalTrampoline), { [weak self] in
            self?.onOpen([])
        } as VoidSignal))
        var error: UnsafeMutablePointer<GError>?
        guard g_application_register(base, nil, &error) != 0 else {
            let failure = error.map { GLibError(consuming: $0) }
            throw .engine(domain: failure?.domain ?? "g-io-error-quark", code: failure?.code ?? 0,
                          message: "cannot register the application on the session bus: \(failure?.message ?? "unknown error")")
        }
        // Kept for the life of the process: GLib warns when a registered GtkApplication is
        // finalised without g_application_run, and the registration is the process's anyway.
        Self.registered.append(reference)
        return g_application_get_is_remote(base) == 0
    }

    private static var registered: [GObjectReference] = []

    /// Sends `uris` to the primary instance (`Open`, or `Activate` when empty) and waits until the
    /// message has left (`g_dbus_connection_flush_sync`), so the process may exit right after.
    func forward(_ uris: [String]) throws(ShellError) {
        if uris.isEmpty {
            g_application_activate(base)
        } else {
            var files = uris.map { g_file_new_for_uri($0) }
            files.withUnsafeMutableBufferPointer { g_application_open(base, $0.baseAddress, gint($0.count), "") }
            files.forEach { g_object_unref(UnsafeMutableRawPointer($0)) }
        }
        var error: UnsafeMutablePointer<GError>?
        if let connection = g_application_get_dbus_connection(base), g_dbus_connection_flush_sync(connection, nil, &error) == 0 {
            let failure = error.map { GLibError(consuming: $0) }
            throw .engine(domain: failure?.domain ?? "g-io-error-quark", code: failure?.code ?? 0,
                          message: "cannot reach the running instance: \(failure?.message ?? "unknown error")")
        }
    }

    /// Lets the application know the window (`gtk_application_add_window`) and raises it.
    func adopt(_ view: WebKitView) {
        guard let window = view.window else { return }
        gtk_application_add_window(application, hs_window(window))
    }

    func present(_ view: WebKitView) {
        guard let window = view.window else { return }
        gtk_window_present(hs_window(window))
    }

}

/// `void (*)(GApplication*, GFile **files, gint n_files, gchar *hint, gpointer)` — `open`.
typealias OpenSignal = @EngineActor ([String]) -> Void
let openSignalTrampoline: @convention(c) (gpointer?, UnsafeMutablePointer<OpaquePointer?>?, gint, UnsafeMutablePointer<gchar>?, gpointer?) -> Void = {
    _, files, count, _, data in
    let body = TypedSignalClosure<OpenSignal>.from(data)
    var uris: [String] = []
    for index in 0..<Int(max(count, 0)) {
        if let file = files?[index], let uri = g_file_get_uri(file) {
            uris.append(String(cString: uri))
            g_free(uri)
        }
    }
    EngineActor.assumeIsolated { body(uris) }
}
