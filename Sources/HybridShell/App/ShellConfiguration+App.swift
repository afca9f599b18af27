import HybridShellCore
import HybridShellWebKit

extension ShellConfiguration {
    /// The engine settings an app runs with: its modules and capabilities (origins a capability
    /// grants something get a bridge, as in a configuration file), its window's size and title.
    /// Serving its files is the caller's: ``AppFolderHandler`` in `dev`, its installed package
    /// otherwise (``PackageServing``).
    public init(app: AppManifest, window visible: Bool = true) {
        self.init()
        modules = app.modules
        defaults.allowedOrigins = (defaults.allowedOrigins ?? []) + app.modules.grantedOrigins
        width = app.window.width
        height = app.window.height
        window = visible ? .visible(title: app.window.title) : .offscreen
    }

    /// Serves the app's `web` folder on `app://<id>/` (``AppFolderHandler``): what `hybrid-run dev`
    /// runs instead of the installed package.
    public mutating func serveFolder(of app: AppManifest) throws(ShellError) {
        context.schemes.append(try SchemeRegistration(scheme: PackageServing.scheme, handler: AppFolderHandler(app: app), security: .app))
    }
}
