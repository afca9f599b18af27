import HybridShellCore
import HybridShellWebKit

/// The blank document between isolated pages.
extension PageTestWorker {
    /// Makes a used view look new: a blank document whose one script empties `window.name`, its
    /// history as when it was new. False when the view could not be blanked (the caller replaces it).
    func blank(_ view: WebView) async -> Bool {
        if settings.hideWhileBlank { view.setVisible(false) }
        guard await loadBlank(view, resettingName: true) else { return false }
        if let blankHistory { view.restoreHistory(blankHistory) }
        return true
    }

    /// about:blank, or with `resettingName` a blank document of our own (no user script runs in
    /// it) whose one script empties `window.name`: no page script exists in it to interfere, and
    /// one load costs less than a load plus an evaluation in an isolated world (measured: 5–8 ms
    /// instead of 11–20 ms between two pages, about a quarter of a page's time on two workers).
    func loadBlank(_ view: WebView, resettingName: Bool = false) async -> Bool {
        // The end of *this* load: a page can finish (`--list`, a done signal) before its own load
        // did, and that load's late end must not count as the blank's — the next page would then
        // start while the blank commits, and read as "refused" (seen once on a fresh machine).
        // The URL in a load event is no proof: once a load is asked for, WebKit reports its URL
        // for events of the load still under way (a page that navigated itself away, whose new
        // document was committing as its run ended; its late end let the next page start while
        // the blank was still to come, and the blank then cancelled it). So our own blank names
        // itself in its title: done once that title is in and no load is under way. (WebKit
        // reports a document's title after that document's load end.)
        var blankStarted = false
        let finished = PageEventExpectation<Bool>(view) { event in
            switch event {
            case .loadStarted(let url), .loadCommitted(let url):
                if !resettingName, url == "about:blank" { blankStarted = true }
                return nil
            case .titleChanged(let title):
                guard resettingName, title == Self.blankTitle else { return nil }
                blankStarted = true
                return view.isLoading ? nil : true
            case .loadFinished(_, let succeeded): return blankStarted ? succeeded : nil
            default: return nil
            }
        }
        if resettingName {
            view.loadInternalBlank(html: "<!doctype html><title>\(Self.blankTitle)</title><script>window.name = ''</script>")
        } else {
            view.load("about:blank")
        }
        return (try? await finished.value(timeout: .seconds(10), "about:blank between pages")) == true
    }

    /// The title of the blank document between isolated pages.
    static let blankTitle = "hybridshell-blank"
}
