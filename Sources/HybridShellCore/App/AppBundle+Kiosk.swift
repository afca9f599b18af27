import Foundation
import TOMLKit

extension AppBundle {
    /// The keys of an app.toml a kiosk profile shares (`hybrid-run kiosk --config` reads them).
    static let kioskProfileKeys = Array(ModuleConfiguration.keys) + ["kiosk"]

    /// `--kiosk`: the systemd unit, the kiosk profile `/usr/share/<id>/kiosk.toml`, and `web/`
    /// beside it. The profile serves that folder on the app's own origin (`app://<id>/`, a
    /// directory handler on `app`), with the app's modules, capabilities and `[kiosk]` keys, and
    /// keeps its data in the unit's state directory.
    func kioskFiles() throws(ShellError) -> [File] {
        let source: TOMLTable
        do {
            source = try TOMLTable(string: try String(contentsOfFile: app.file, encoding: .utf8))
        } catch {
            throw .invalidArgument("\(app.file): cannot read it again for the kiosk profile: \(error)")
        }
        let profile = TOMLTable()
        profile["home"] = app.entryURL
        profile["dir_handlers"] = TOMLArray(["\(PackageSchemeHandler.scheme):web"] as [TOMLValueConvertible])
        profile["data_dir"] = "/var/lib/\(debianPackage)"
        for key in Self.kioskProfileKeys.sorted() { if let value = source[key] { profile[key] = value } }
        let text = "# The kiosk profile of \(app.id), written by \(runner.package) bundle --kiosk (docs/kiosk.md).\n" + profile.convert(to: .toml) + "\n"
        var files = [File("lib/systemd/system/\(debianPackage)-kiosk.service", Data(kioskUnit.utf8)),
                     File(String(installedDirectory.dropFirst()) + "/kiosk.toml", Data(text.utf8))]
        let root = URL(fileURLWithPath: app.web)
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        while let url = walker?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.path
            guard let data = FileManager.default.contents(atPath: path) else { throw .invalidArgument("cannot read \(path)") }
            files.append(File(String(installedDirectory.dropFirst()) + "/web/" + path.dropFirst(root.standardizedFileURL.path.count + 1), data))
        }
        return files
    }
}
