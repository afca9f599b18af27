import HybridShellCore
import HybridShellWebKit

/// Whether a page may use the clipboard: only the page the user sees — the top of the page stack,
/// in a window that is shown (headless: the top page) — unless a capability grants its origin the
/// pseudo-handler `clipboard.background`. A page pushed under another one, or a hidden view, could
/// otherwise read what the user copies elsewhere, or replace it, without being seen.
///
///     --grant 'https://app.example=clipboard.background'
public enum ClipboardVisibility {
    /// The handler name a capability grants to let hidden pages use the clipboard.
    public static let backgroundGrant = "clipboard.background"

    /// Nil when the call may go ahead; else `DENIED` with reason `pageHidden`.
    public static func refusal(handler: String, isOnTop: Bool, isShown: Bool, backgroundGranted: Bool) -> BridgeError? {
        guard !(isOnTop && isShown), !backgroundGranted else { return nil }
        let why = isOnTop ? "its view is hidden" : "another page is on top of it"
        return BridgeError(.denied, "\(handler): only the visible page may use the clipboard (\(why)); grant \(backgroundGrant) to allow it",
                           details: ["reason": "pageHidden", "handler": .string(handler)])
    }

    /// Whether a capability matching `origin` grants ``backgroundGrant`` (and none denies it).
    static func granted(to origin: String, by capabilities: [Capability]) -> Bool {
        let matching = capabilities.filter { $0.applies(to: origin) }
        if matching.contains(where: { $0.deny.contains(backgroundGrant) || $0.deny.contains(ClipboardModule.name) }) { return false }
        return matching.contains { $0.handlers.contains(backgroundGrant) }
    }
}
