/// What happened to a bridge's sessions, for observers (the page manager's lifecycle, logs).
public enum BridgeEvent: Sendable, Equatable {
    /// A document's bridge is ready (its handshake completed).
    case ready(session: String, origin: String, url: String)
    /// A document's origin may not use the bridge; all its calls get `DENIED`.
    case denied(session: String, origin: String, url: String)
    /// A document's session ended (navigation, reload, web-process crash, close).
    case ended(session: String, reason: String)
}
