import Foundation
import HybridShellCore
import HybridShellWebKit

/// The path-map mode: a page opened at its online URL gets the resources its installed packages'
/// path maps list from the packages (`app://<appid>/<file>`), with no network request. The
/// rewriting happens in the web process (`libHybridShellPathMap.so`, `WebKitWebPage::send-request`),
/// because WebKitGTK cannot register http(s) schemes. Documents (HTML, XHTML, SVG, XML, in any
/// letter case; ``PathMapDocuments``) are not mapped: the page keeps its online URL and origin.
public enum PathMapExtension {
    public static let libraryName = "libHybridShellPathMap.so"

    /// Online URL → `app://<appid>/<file>` for every installed, enabled app; keys that are not
    /// absolute http(s) URLs (paths) are resolved against `onlineBase` when given, else skipped.
    public static func map(_ packages: [InstalledPackage], onlineBase: URL? = nil) -> [String: String] {
        var map: [String: String] = [:]
        for package in packages where package.manifest.enable {
            let listed = Set(package.manifest.files.map(\.path))
            for (online, file) in package.pathMap where listed.contains(file) && !PathMapDocuments.isDocument(file: file) {
                let absolute: URL?
                if online.hasPrefix("http://") || online.hasPrefix("https://") { absolute = URL(string: online) } else {
                    absolute = onlineBase.flatMap { URL(string: online, relativeTo: $0)?.absoluteURL }
                }
                guard let absolute, ["http", "https"].contains(absolute.scheme ?? ""), !PathMapDocuments.isDocument(url: absolute) else { continue }
                map[absolute.absoluteString] = PackageServing.entryURL(of: package, path: file)
            }
        }
        return map
    }

    /// A private directory holding only the extension (WebKit loads every `.so` of the directory),
    /// copied from `searchDirectories` (default: beside the executable, as SwiftPM builds it, then
    /// `../lib/<program name>`, the private directory a Debian package installs it in, then `../lib`);
    /// nil when it is not built.
    /// The caller removes the directory when its web processes are gone.
    public static func installedDirectory(searchDirectories: [URL]? = nil) -> String? {
        // /proc/self/exe: argv[0] is a bare name when the program was found on PATH.
        let program = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? ""
        let resolved = URL(fileURLWithPath: program).resolvingSymlinksInPath()
        let executable = resolved.deletingLastPathComponent()
        let privateDirectory = executable.appendingPathComponent("../lib/" + resolved.lastPathComponent)
        let source = (searchDirectories ?? [executable, privateDirectory, executable.appendingPathComponent("../lib")])
            .map { $0.appendingPathComponent(libraryName).standardizedFileURL.path }
            .first { FileManager.default.fileExists(atPath: $0) }
        guard let source else { return nil }
        // mkdtemp: a fresh 0700 directory nobody else can have prepared or can write into (a
        // predictable name in /tmp would let another user plant a library the web process loads).
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("hybridshell-ext-XXXXXX").path.utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        let directory = String(cString: made)
        guard (try? FileManager.default.copyItem(atPath: source, toPath: directory + "/" + libraryName)) != nil else {
            try? FileManager.default.removeItem(atPath: directory)
            return nil
        }
        return directory
    }
}
