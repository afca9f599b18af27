import HybridShellCore
import HybridShellWebKit

/// Reloads a page when a file under a folder changes (`hybrid-run dev`): the folder is watched
/// with GIO's `GFileMonitor` (``DirectoryWatch``), a burst of saves is one reload, and the reload
/// (`webkit_web_view_reload`) keeps the window and the page's place in the manager.
@EngineActor
public final class FolderReload {
    private var watch: DirectoryWatch?

    /// Starts watching `folder`; `onReload` gets the changed paths just before each reload.
    public init(page: Page, folder: String, onReload: (@EngineActor ([String]) -> Void)? = nil) throws(ShellError) {
        watch = try DirectoryWatch(root: folder) { [weak page] paths in
            guard let page else { return }
            onReload?(paths)
            page.view.reload()
        }
    }

    /// Stops watching. Idempotent.
    public func stop() {
        watch?.stop()
        watch = nil
    }
}
