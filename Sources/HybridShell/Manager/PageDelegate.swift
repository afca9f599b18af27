import HybridShellCore
import HybridShellWebKit

/// Callbacks about a page's loading, at two levels: a page's
/// own delegate is asked first, then the manager's. Every method has a default that does nothing.
@EngineActor
public protocol PageDelegate: AnyObject {
    /// Whether a navigation may start (`decide-policy`); nil defers to the next level.
    func page(_ page: Page, shouldStartLoad action: NavigationAction) -> NavigationDecision?
    func pageDidStartLoad(_ page: Page)
    func pageDidFinishLoad(_ page: Page)
    func page(_ page: Page, didFailLoad error: LoadError)
    func page(_ page: Page, didTerminate reason: WebProcessTerminationReason)
    func page(_ page: Page, titleChanged title: String)
    func page(_ page: Page, progressChanged progress: Double)
    func page(_ page: Page, lifecycle event: PageLifecycleEvent)
}

extension PageDelegate {
    public func page(_ page: Page, shouldStartLoad action: NavigationAction) -> NavigationDecision? { nil }
    public func pageDidStartLoad(_ page: Page) {}
    public func pageDidFinishLoad(_ page: Page) {}
    public func page(_ page: Page, didFailLoad error: LoadError) {}
    public func page(_ page: Page, didTerminate reason: WebProcessTerminationReason) {}
    public func page(_ page: Page, titleChanged title: String) {}
    public func page(_ page: Page, progressChanged progress: Double) {}
    public func page(_ page: Page, lifecycle event: PageLifecycleEvent) {}
}
