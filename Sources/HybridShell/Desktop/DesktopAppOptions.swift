import Foundation
import HybridShellCore
import HybridShellWebKit

/// What ``DesktopApp`` needs to run an installed app: its id and deep-link schemes, the shell
/// (window, modules, capabilities), the page to open and the package it is served from. The
/// app's description (`app.toml`) maps onto it.
public struct DesktopAppOptions: Sendable {
    /// The reverse-DNS application id (`org.example.Shop`): the D-Bus name of the running
    /// instance, and the name of its data directory.
    public var id: String
    public var name: String
    /// Deep-link URL schemes the app opens (`shop` for `shop://…`).
    public var schemes: [String] = []
    /// The window, modules and capabilities; its storage becomes ``dataDirectory``.
    public var shell = ShellConfiguration()
    /// The page to open; `app://<id>/` opens the installed package's entry page.
    public var route: WebRoute
    /// The installed package (the preset shipped with the app, then its updates), or nil to open
    /// ``route`` as it is.
    public var serving: PackageServing?
    /// The offline-package update index (`update_url`): checked in the background once the page
    /// has loaded; what it installs is served from the next load (a reload or the next launch) on.
    public var updateURL: URL?
    /// `$XDG_DATA_HOME/<id>` by default (`~/.local/share/<id>`): storage, packages, window geometry.
    public var dataDirectory: String

    public init(id: String, name: String, route: WebRoute, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.id = id
        self.name = name
        self.route = route
        dataDirectory = Self.dataDirectory(of: id, environment: environment)
    }

    /// `$XDG_DATA_HOME/<id>`, or `$HOME/.local/share/<id>` when XDG_DATA_HOME is unset or relative
    /// (the XDG base directory specification ignores relative values).
    public static func dataDirectory(of id: String, environment: [String: String]) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return (data as NSString).appendingPathComponent(id) }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return ((home as NSString).appendingPathComponent(".local/share") as NSString).appendingPathComponent(id)
    }

    /// Where the window's size, position and maximised state are kept between launches.
    public var windowStatePath: String { (dataDirectory as NSString).appendingPathComponent("window.json") }
}
