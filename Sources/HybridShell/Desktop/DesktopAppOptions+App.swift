import Foundation
import HybridShellCore
import HybridShellWebKit

extension DesktopAppOptions {
    /// An app as its `app.toml` describes it: installed (a `preset` package, verified with its
    /// `trusted_keys`, served on `app://<id>/` from `$XDG_DATA_HOME/<id>/packages`, where later
    /// updates go too) or, without a preset, from its `web` folder on the same origin.
    public init(app: AppManifest, environment: [String: String] = ProcessInfo.processInfo.environment) throws(ShellError) {
        var route = WebRoute(app.entryURL)
        route.customSchemes = [PackageServing.scheme]
        self.init(id: app.id, name: app.name, route: route, environment: environment)
        schemes = app.schemes
        updateURL = app.updateURL
        shell = ShellConfiguration(app: app, window: true)
        if let preset = app.preset {
            var serving = PackageServing()
            serving.trustedKeys = app.trustedKeys
            serving.preset = preset
            serving.package = app.id
            self.serving = serving
            self.route.template = try PackageServing.rootURL(of: app.id)
        } else {
            try shell.serveFolder(of: app)
        }
    }
}
