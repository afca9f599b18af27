/// Something the kiosk host did or saw, for its log (`--print-events` writes each as a JSON line).
public enum KioskEvent: Sendable, Equatable {
    case started(home: String)
    case loaded(url: String)
    case lifecycle(String)
    /// `count`: ends within the crash-recovery window, this one included (what the cap counts).
    case webProcessEnded(reason: String, count: Int)
    /// The page's document is back (bridge ready) this long after its web process ended.
    case recovered(milliseconds: Double)
    case hung(heartbeatMilliseconds: Double)
    case gaveUp(crashes: Int, retryAfterSeconds: Double)
    case loadFailed(url: String, message: String, retryAfterSeconds: Double)
    case retrying(url: String)
    case navigationBlocked(url: String)
    case windowOpenBlocked(url: String)
    case inputBlocked(String)
    case contextMenuSuppressed
    case permission(kind: String, origin: String, granted: Bool)
    /// A GTK dialog the page asked for (print, a file or colour chooser, an HTTP password) was refused.
    case nativeDialogRefused(NativeDialogRequest)
    case idleReset(clearedData: Bool)
    case control(request: String, ok: Bool)
    case stopping(reason: String)

    public var jsonObject: [String: JSONValue] {
        switch self {
        case .started(let home): ["event": "started", "home": .string(home)]
        case .loaded(let url): ["event": "loaded", "url": .string(url)]
        case .lifecycle(let name): ["event": "lifecycle", "name": .string(name)]
        case .webProcessEnded(let reason, let count): ["event": "webProcessEnded", "reason": .string(reason), "count": .number(Double(count))]
        case .recovered(let ms): ["event": "recovered", "ms": .number(ms)]
        case .hung(let ms): ["event": "hung", "heartbeatMs": .number(ms)]
        case .gaveUp(let crashes, let retry): ["event": "gaveUp", "crashes": .number(Double(crashes)), "retryAfter": .number(retry)]
        case .loadFailed(let url, let message, let retry):
            ["event": "loadFailed", "url": .string(url), "message": .string(message), "retryAfter": .number(retry)]
        case .retrying(let url): ["event": "retrying", "url": .string(url)]
        case .navigationBlocked(let url): ["event": "navigationBlocked", "url": .string(url)]
        case .windowOpenBlocked(let url): ["event": "windowOpenBlocked", "url": .string(url)]
        case .inputBlocked(let input): ["event": "inputBlocked", "input": .string(input)]
        case .contextMenuSuppressed: ["event": "contextMenuSuppressed"]
        case .permission(let kind, let origin, let granted):
            ["event": "permission", "kind": .string(kind), "origin": .string(origin), "granted": .bool(granted)]
        case .nativeDialogRefused(let request): ["event": "nativeDialogRefused", "dialog": .string(request.name)]
        case .idleReset(let cleared): ["event": "idleReset", "clearedData": .bool(cleared)]
        case .control(let request, let ok): ["event": "control", "request": .string(request), "ok": .bool(ok)]
        case .stopping(let reason): ["event": "stopping", "reason": .string(reason)]
        }
    }

    /// One line for the log on stderr; nil for events too frequent or too dull to log.
    public var logLine: String? {
        switch self {
        case .started(let home): "starting \(home)"
        case .loaded, .lifecycle, .control: nil
        case .webProcessEnded(let reason, let count): "the web process ended (\(reason)); \(count) in the recovery window"
        case .recovered(let ms): "the app is back \(Int(ms)) ms after its web process ended"
        case .hung(let ms): "the page did not answer a heartbeat for \(Int(ms)) ms; replacing its web process"
        case .gaveUp(let crashes, let retry): "the web process ended \(crashes) times; showing the error page, next try in \(Int(retry)) s"
        case .loadFailed(let url, let message, let retry): "failed to load \(url): \(message); retrying in \(Int(retry)) s"
        case .retrying(let url): "retrying \(url)"
        case .navigationBlocked(let url): "blocked a navigation to \(url) (not on the allow-list)"
        case .windowOpenBlocked(let url): "blocked window.open of \(url)"
        case .inputBlocked(let input): "blocked \(input)"
        case .contextMenuSuppressed: "suppressed a context menu"
        case .permission(let kind, let origin, let granted): "\(granted ? "granted" : "denied") \(kind) to \(origin)"
        case .nativeDialogRefused(let request): "refused \(request.summary)"
        case .idleReset(let cleared): cleared ? "idle: went home and cleared cookies and storage" : "idle: went home"
        case .stopping(let reason): "stopping: \(reason)"
        }
    }
}
