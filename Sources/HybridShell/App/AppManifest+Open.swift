import Foundation
import HybridShellCore

extension AppManifest {
    /// Reads an app: `path` is its folder (holding `app.toml`) or the `app.toml` itself. Beyond
    /// ``load(path:)`` it checks the `[kiosk]` table against the kiosk profile keys, so every
    /// problem of the file is found before anything runs.
    public static func open(_ path: String) throws(ShellError) -> AppManifest {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        let file = exists && isDirectory.boolValue ? URL(fileURLWithPath: path).appendingPathComponent(fileName).path : path
        guard FileManager.default.fileExists(atPath: file) else {
            throw .invalidArgument(exists ? "\(path) has no \(fileName)" : "no such app folder or file: \(path)")
        }
        let manifest = try load(path: file)
        _ = try KioskProfile.app(manifest, home: manifest.entryURL)
        return manifest
    }
}
