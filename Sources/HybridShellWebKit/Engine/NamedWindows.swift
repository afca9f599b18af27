import HybridShellCore

/// The windows pages opened under a name (`target=NAME` links), for shells that open each new
/// window as a view of their own (``NewWindowPolicy/delegate``).
///
/// `window.open(url, NAME)` windows stay nameless: WebKitGTK 2.50.6 reports the name of neither
/// (measured: no new-window decision precedes that `create` signal, whose action has no frame name).
///
/// WebKit names a window it creates itself; a view the shell makes instead starts nameless, and a
/// second link to the same name would open yet another window. So the shell asks ``view(named:)``
/// first and loads the URL there when a window of that name is still open, and otherwise gives the
/// view it opens the name with ``adopt(_:name:)``, which sets `window.name` (through a function
/// call with the name as an argument, never spliced into source) when its first document commits.
/// The opener is not given to the new window: it stays `null`, as with `noopener`.
@EngineActor
public final class NamedWindows {
    private var windows: [Entry] = []

    public init() {}

    /// The name a new-window action asks for; nil for none, `_blank` and the other `_` keywords
    /// (`_self`, `_parent`, `_top` never reach the `create` signal).
    public nonisolated static func name(of action: NavigationAction) -> String? {
        guard let name = action.targetName, !name.isEmpty, !name.hasPrefix("_") else { return nil }
        return name
    }

    /// The open window last given `name`, if any.
    public func view(named name: String) -> WebView? {
        windows.removeAll { $0.view == nil || $0.view?.isClosed == true }
        return windows.last { $0.name == name }?.view
    }

    /// Loads `url` in the open window named `name`; false when there is none. The name is given
    /// again when the new document commits: WebKit clears a top-level window's name on a
    /// cross-origin navigation, which a named target keeps in every browser.
    public func load(_ url: String, inWindowNamed name: String) -> Bool {
        guard let view = view(named: name), let entry = windows.last(where: { $0.view === view }) else { return false }
        entry.armed = true
        view.load(url)
        return true
    }

    /// Records `view` under `name` and names its window once its first document has committed
    /// (not a blank placeholder the shell may show first).
    public func adopt(_ view: WebView, name: String) {
        let entry = Entry(name: name, view: view)
        windows.append(entry)
        view.observe { [weak view, weak entry] event in
            guard let entry, entry.armed, case .loadCommitted(let url) = event, let view,
                  url != "about:blank", !url.hasPrefix(WebView.internalBlankURL) else { return }
            entry.armed = false
            // Sent now, in the commit's own callback: a Task would let the load finish first.
            view.callFunctionReturningString("window.name = name; return null;", strings: ["name": entry.name], in: .page) { _ in }
        }
    }

    private final class Entry {
        let name: String
        weak var view: WebView?
        /// Name the window at its next committed document.
        var armed = true
        init(name: String, view: WebView) {
            self.name = name
            self.view = view
        }
    }
}
