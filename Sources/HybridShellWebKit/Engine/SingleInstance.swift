import HybridShellCore

/// One running instance per app id (`GtkApplication` with `G_APPLICATION_HANDLES_OPEN`, the id
/// owned on the D-Bus session bus): the first process to ``claim()`` the id is primary and gets
/// the URIs later launches pass on (``onOpen``); a later process ``forward(_:)``s its URIs and exits.
@EngineActor
public final class SingleInstance {
    public let id: String
    private let application: ApplicationInstance
    /// URIs another launch handed over (deep links, `file://` URIs); empty for a plain second
    /// launch (`activate`). Runs on the loop thread.
    public var onOpen: ([String]) -> Void {
        get { application.onOpen }
        set { application.onOpen = newValue }
    }

    /// `id`: a reverse-DNS application id (`g_application_id_is_valid`).
    public init(id: String) throws(ShellError) {
        guard SingleInstance.isValid(id) else { throw .invalidArgument("\(JSONValue.quoted(id)) is not a valid application id (reverse-DNS, like org.example.Shop)") }
        self.id = id
        application = ApplicationInstance(id: id)
    }

    public static func isValid(_ id: String) -> Bool { ApplicationInstance.isValid(id) }

    /// True when this process is the primary instance (`g_application_register`). Needs a display
    /// (``MainLoop/displayError`` nil) and a session bus.
    public func claim() throws(ShellError) -> Bool { try application.register() }

    /// Hands `uris` to the primary instance (`g_application_open`, or `g_application_activate`
    /// when empty) and flushes the bus connection.
    public func forward(_ uris: [String]) throws(ShellError) { try application.forward(uris) }

    /// Counts `view`'s window as the app's (`gtk_application_add_window`).
    public func adopt(_ view: WebView) { application.adopt(view.native) }

    /// Raises `view`'s window (`gtk_window_present`).
    public func present(_ view: WebView) { application.present(view.native) }
}
