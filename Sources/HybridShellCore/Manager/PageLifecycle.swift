/// The lifecycle events of a page, as pages see them (`hybrid.on('show')`, `hybrid:show`,
/// `wx.onShow`) and as Swift sees them.
public enum PageLifecycleEvent: String, Sendable, Equatable {
    /// The document's bridge session is ready.
    case ready
    /// The page is on top and visible: its load finished, or the page above it closed.
    case show
    /// Another page was pushed on top, or the view was hidden.
    case hide
    /// The page is closed, or its view navigates to another document. Last, once per document.
    case unload
}

/// The per-document state machine that turns raw signals into lifecycle events with the
/// guarantees the pages rely on: ready precedes show; a show is followed by at most one hide
/// before the next show; unload is last and exactly once. Pure, so it is table-tested.
public struct PageLifecycle: Sendable, Equatable {
    public enum Signal: Sendable, Equatable {
        /// A new document started (its bridge session is not ready yet).
        case documentStarted
        case bridgeReady
        case loadFinished
        /// This page became the top of the stack / visible.
        case becameTop
        /// Another page was pushed on top / the view was hidden.
        case coveredOrHidden
        /// The document is going away (close, navigation, crash).
        case documentEnding
    }

    private var ready = false
    private var loaded = false
    private var onTop: Bool
    private var shown = false
    private var unloaded = false
    private var started = false

    public var isUnloaded: Bool { unloaded }

    public init(onTop: Bool = true) {
        self.onTop = onTop
    }

    /// The events `signal` produces, in order.
    public mutating func handle(_ signal: Signal) -> [PageLifecycleEvent] {
        switch signal {
        case .documentStarted:
            var events: [PageLifecycleEvent] = []
            if started, !unloaded { events = [.unload] }
            self = PageLifecycle(onTop: onTop)
            started = true
            return events
        case _ where unloaded:
            return []
        case .bridgeReady:
            guard !ready else { return [] }
            ready = true
            return [.ready] + showIfDue()
        case .loadFinished:
            loaded = true
            return showIfDue()
        case .becameTop:
            onTop = true
            return showIfDue()
        case .coveredOrHidden:
            onTop = false
            guard shown else { return [] }
            shown = false
            return [.hide]
        case .documentEnding:
            guard started else { return [] }
            unloaded = true
            return [.unload]
        }
    }

    private mutating func showIfDue() -> [PageLifecycleEvent] {
        guard ready, loaded, onTop, !shown else { return [] }
        shown = true
        return [.show]
    }
}
