/// Which message handler a post came through, and so what its envelope's `s` must prove.
///
/// A script message carries no origin, so what a post may do depends on who can reach its handler:
/// - ``relay``: the `hybridshell` handler of the isolated world, which only the relay script of
///   the top document reaches. Its `s` is the session id; it alone may say hello (the relay reads
///   the document's address where page script cannot change it).
/// - ``direct``: the `hybridshellDirect` handler of the page world, which every frame's scripts
///   reach. Its `s` must be the session's secret, which the relay handed to the top document's
///   bridge script at document start and which no other document learns (dsbridge's synchronous
///   `prompt()` calls are gated the same way). It never says hello. The page's calls take it
///   because it skips the relay's hop (two DOM events and a Promise per call, each way).
enum PostTransport: Sendable, Equatable {
    case relay
    case direct

    /// Whether a post whose envelope names `credential` belongs to `session`.
    func admits(_ credential: String, to session: BridgeSession) -> Bool {
        switch self {
        case .relay: credential == session.id
        case .direct: constantTimeEqual(credential, session.secret)
        }
    }
}
