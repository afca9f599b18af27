import HybridShellCore
import HybridShellWebKit

/// Views kept ready for the next page (N pre-warmed `WebKitWebView`s): each has its
/// web process started, the bridge and console scripts installed and a blank document loaded, so
/// opening a page only navigates. Views handed out are never taken back: a used view carries the
/// previous page's JavaScript heap and web process state, so closed pages are destroyed and the
/// pool refills with fresh views instead.
@EngineActor
final class ViewPool {
    struct Entry {
        let view: WebView
        let bridge: Bridge
        /// The built-in handlers, last in the bridge's lookup order (filled in when the page's
        /// user agent is known).
        let builtins: BridgeHandlers
    }

    private let make: () throws(ShellError) -> Entry
    let size: Int
    private(set) var ready: [Entry] = []
    private var warming: [Entry] = []
    private var tokens: [ObjectIdentifier: ObservationToken] = [:]
    private var readyWaiters: [CheckedContinuation<Void, Never>] = []
    /// ``takeWarmViewWaiting()``'s waits, which also end when a warming view fails.
    private var changeWaiters: [CheckedContinuation<Void, Never>] = []

    /// Returns once a warm view is ready (at once if one is).
    func waitForReadyView() async {
        if !ready.isEmpty { return }
        await withCheckedContinuation { readyWaiters.append($0) }
    }

    init(size: Int, make: @escaping () throws(ShellError) -> Entry) {
        self.size = size
        self.make = make
    }

    /// A warm view, waiting (up to `limit`) for one still warming; nil when none is ready or
    /// warming, or warming failed or took too long: the caller makes a cold one. Taking a cold
    /// view while one warms would start a second web process and leave the warm one idle (page
    /// tests did: 4 web processes for 2 workers).
    func takeWarmViewWaiting(within limit: Duration = .seconds(10)) async -> Entry? {
        await waitForChanges(within: limit) { $0.ready.isEmpty && !$0.warming.isEmpty }
        return takeWarmView()
    }

    /// Returns once no view is warming (each became ready or failed), or after `limit`.
    func waitUntilSettled(within limit: Duration) async {
        await waitForChanges(within: limit) { !$0.warming.isEmpty }
    }

    private func waitForChanges(within limit: Duration, while condition: (ViewPool) -> Bool) async {
        let deadline = ContinuousClock.now + limit
        let timer = LoopTimer(after: limit) { [weak self] in self?.changed() }
        defer { timer.cancel() }
        while condition(self), ContinuousClock.now < deadline {
            await withCheckedContinuation { changeWaiters.append($0) }
        }
    }

    /// A view became ready or failed to.
    private func changed() {
        let waiters = changeWaiters
        changeWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// A warm view when one is ready, else nil (the caller makes a cold one).
    func takeWarmView() -> Entry? {
        guard !ready.isEmpty else { return nil }
        let entry = ready.removeFirst()
        tokens[ObjectIdentifier(entry.view)] = nil
        return entry
    }

    var count: Int { ready.count + warming.count }

    /// Starts warming views until the pool is full again. Cheap to call often.
    func refill() {
        while ready.count + warming.count < size {
            guard let entry = try? make() else { return }
            warming.append(entry)
            let id = ObjectIdentifier(entry.view)
            tokens[id] = entry.view.observe { [weak self] event in
                guard let self else { return }
                switch event {
                case .loadFinished:
                    // Still watched while it waits: a warm view whose web process dies is replaced.
                    if let index = self.warming.firstIndex(where: { $0.view === entry.view }) {
                        self.ready.append(self.warming.remove(at: index))
                        let waiters = self.readyWaiters
                        self.readyWaiters.removeAll()
                        for waiter in waiters { waiter.resume() }
                        self.changed()
                    }
                case .webProcessTerminated, .loadFailed:
                    self.tokens[id] = nil
                    let wasReady = self.ready.contains { $0.view === entry.view }
                    self.warming.removeAll { $0.view === entry.view }
                    self.ready.removeAll { $0.view === entry.view }
                    self.changed()
                    // Not from inside the view's own signal: WebKit crashes when a view is
                    // destroyed while it emits web-process-terminated.
                    Task { @EngineActor in
                        entry.view.close()
                        if wasReady { self.refill() }
                    }
                default:
                    break
                }
            }
            entry.view.load("about:blank")
        }
    }

    func drain() {
        // Unwatched first: a view closing must not make the pool refill itself.
        tokens.removeAll()
        let entries = ready + warming
        ready.removeAll()
        warming.removeAll()
        changed()
        for entry in entries { entry.view.close() }
    }
}

extension ViewPool.Entry {
    /// A view with its bridge, assembled the one way the manager and the page-test workers (and
    /// through the manager, the kiosk) do it: the bridge looks up `handlers` in order, then the
    /// built-ins, which stay empty until the caller registers them (the page's user agent is known
    /// only then).
    @EngineActor static func make(view configuration: WebViewConfiguration, context: WebContext, bridge: BridgeConfiguration,
                     handlers: [BridgeHandlers]) throws(ShellError) -> ViewPool.Entry {
        let view = try WebView(configuration: configuration, context: context)
        let builtins = BridgeHandlers()
        let bridge = Bridge(view: view, configuration: bridge, handlers: BridgeHandlers(fallbacks: handlers + [builtins]))
        return ViewPool.Entry(view: view, bridge: bridge, builtins: builtins)
    }
}
