internal import CWebKitGTK
import HybridShellCore

/// The adapter between ``AutomationHost`` and WebKit's automation API: it allows automation on a
/// `WebKitWebContext`, answers `automation-started` (application info, `create-web-view`) and
/// reports when the `WebKitAutomationSession` goes away. It makes no decisions of its own.
///
/// WebKit starts a session only when the process was launched with `WEBKIT_INSPECTOR_SERVER`
/// (WebKitWebDriver sets it to the loopback port it then connects to); the session object lives
/// as long as that connection, so its finalisation is the moment the client is gone.
@EngineActor
final class WebKitAutomation {
    struct ApplicationInfo {
        var name: String
        var major: UInt
        var minor: UInt
        var micro: UInt
    }

    private let context: WebKitContext
    private let info: ApplicationInfo
    private var connections: [SignalConnection] = []
    private var session: gpointer?

    // The domain side; set by the owner before the loop runs.
    var onSessionStarted: () -> Void = {}
    /// Called once the session object is finalised (the client disconnected or ended the session).
    var onSessionEnded: () -> Void = {}
    /// Makes a view for `create-web-view`; it must be built with `controlledByAutomation`.
    var makeView: () -> WebKitView? = { nil }

    init(context: WebKitContext, info: ApplicationInfo) {
        self.context = context
        self.info = info
        webkit_web_context_set_automation_allowed(context.pointer, 1)
        connections.append(connectSignal(UnsafeMutableRawPointer(context.pointer), "automation-started",
                                         signalCallback(pointerSignalTrampoline),
                                         { [weak self] session in self?.started(session) } as PointerSignal))
    }

    /// The variable WebKit reads at start-up to listen for an automation client; nil when unset.
    nonisolated static var inspectorServerAddress: String? {
        guard let value = getenv("WEBKIT_INSPECTOR_SERVER") else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    private func started(_ raw: gpointer?) {
        guard let raw else { return }
        let session = raw.assumingMemoryBound(to: WebKitAutomationSession.self)
        self.session = raw
        let application = webkit_application_info_new()!
        webkit_application_info_set_name(application, info.name)
        webkit_application_info_set_version(application, info.major, info.minor, info.micro)
        webkit_automation_session_set_application_info(session, application)
        webkit_application_info_unref(application)
        // No `connections.append`: the handler dies with the session object.
        _ = connectSignal(raw, "create-web-view", signalCallback(viewFactorySignalTrampoline),
                          { [weak self] () -> gpointer? in
                              guard let view = self?.makeView() else { return nil }
                              return UnsafeMutableRawPointer(view.view)
                          } as ViewFactorySignal)
        let box = Unmanaged.passRetained(SessionEndBox { [weak self] in
            self?.session = nil
            self?.onSessionEnded()
        }).toOpaque()
        g_object_weak_ref(hs_object(raw), sessionFinalised, box)
        onSessionStarted()
    }

    var hasSession: Bool { session != nil }
}

/// `WebKitWebView* (*)(WebKitAutomationSession*, gpointer)` — `create-web-view`.
typealias ViewFactorySignal = @EngineActor () -> gpointer?
private let viewFactorySignalTrampoline: @convention(c) (gpointer?, gpointer?) -> gpointer? = { _, data in
    let body = TypedSignalClosure<ViewFactorySignal>.from(data)
    let created = EngineActor.assumeIsolated { UncheckedOptionalPointer(body()) }
    return created.raw
}

/// What to run when the session object is finalised; released by the weak-reference notify.
private final class SessionEndBox: @unchecked Sendable {
    let body: @EngineActor () -> Void
    init(_ body: @escaping @EngineActor () -> Void) { self.body = body }
}

/// `GWeakNotify`: runs on the loop thread, where WebKit drops the session.
private let sessionFinalised: GWeakNotify = { data, _ in
    guard let data else { return }
    let box = Unmanaged<SessionEndBox>.fromOpaque(data).takeRetainedValue()
    EngineActor.assumeIsolated { box.body() }
}
