import Foundation

/// An app's description, `app.toml`: who it is (reverse-DNS `id`, `name`, `version` and what
/// AppStream and a `.deb` say about it), where its H5 files are (`web`, `entry`), its window, its
/// native modules and capabilities (as in a configuration file), the URL schemes it opens (deep
/// links), its icon, where its updates come from and, optionally, how it runs as a kiosk.
///
/// `hybrid-run init` writes one, `dev` runs it from its `web` folder, `bundle` makes a `.deb` of it
/// and `app` runs the installed app. Read with ``load(path:)`` through the same ``ConfigReader`` as
/// configuration files and kiosk profiles: every problem names the file, the line and the key.
/// Relative paths are relative to the folder holding the file.
public struct AppManifest: Sendable {
    /// The file name `hybrid-run` looks for in an app folder.
    public static let fileName = "app.toml"

    /// The `app.toml` this was read from (absolute).
    public var file: String
    /// Reverse-DNS, like `org.example.Shop`: the GApplication/D-Bus name, the AppStream component
    /// id, the `.desktop` file name and the package app id (served on `app://<id lower-cased>/`).
    public var id: String
    /// The name people see (the window title unless `[window] title` says otherwise).
    public var name: String
    /// The version people see, like `1.2.0`.
    public var version: String
    /// One line: what the app is for (AppStream `summary`, `.desktop` `Comment`).
    public var summary: String?
    /// Paragraphs separated by blank lines (AppStream `description`, `.deb` long description).
    public var description: String?
    /// An SPDX license expression, like `MIT` (AppStream `project_license`).
    public var license: String?
    /// The app's web page (AppStream `url type="homepage"`).
    public var homepage: URL?
    /// The folder of the H5 app (absolute; `web` in the file, default `web`). Only checked on disk
    /// without a ``preset``: an installed app has its package instead.
    public var web: String
    /// The entry page inside ``web`` (default `index.html`).
    public var entry: String
    /// Who makes the app, `Name <mail>` (the `.deb`'s `Maintainer`, AppStream's developer).
    public var maintainer: String?
    /// The signed offline package the installed app is served from (`preset`, absolute), written
    /// by `hybrid-run bundle` into the installed `app.toml`; nil in an app's source folder.
    public var preset: String?
    /// The command a `.deb` installs in `/usr/bin` (`command`, default: the id's last part, lower-cased).
    public var command: String
    public var window: Window
    /// `modules`, `[[capability]]` and `[module_settings]`, exactly as in a configuration file.
    public var modules: ModuleConfiguration
    /// Deep-link URL schemes the app opens (`schemes = ["shop"]` → `shop://…`), lower-case.
    public var schemes: [String]
    /// A PNG or SVG file (absolute), or nil.
    public var icon: String?
    /// Where updates are offered (the offline-package update index), or nil.
    public var updateURL: URL?
    /// Public key files (`.pub`, absolute) packages of this app must be signed by (at most two).
    public var trustedKeys: [String]
    /// The `[kiosk]` table (kiosk profile keys), read by the kiosk layer (`KioskProfile`), or nil.
    public var kiosk: ConfigReader?

    /// The window of the app.
    public struct Window: Sendable, Equatable {
        public var title: String
        public var width: Int
        public var height: Int
        public var resizable: Bool

        public init(title: String, width: Int = 1024, height: Int = 768, resizable: Bool = true) {
            self.title = title
            self.width = width
            self.height = height
            self.resizable = resizable
        }
    }

    /// The folder holding ``file``; relative paths in the file are relative to it.
    public var directory: String { DirectoryMount.directory(containing: file) }

    /// `app://<id lower-cased>/`: the origin the app runs on, installed or in `dev`.
    public var origin: String { "\(PackageSchemeHandler.scheme)://\(id.lowercased())" }

    /// The URL of the entry page.
    public var entryURL: String {
        origin + "/" + entry.split(separator: "/").map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0) }
            .joined(separator: "/")
    }
}
