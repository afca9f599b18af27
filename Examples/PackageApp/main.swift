// An app that embeds HybridShell and ships its pages as a signed offline package: it signs its
// site, installs it as the preset, serves it on app://shop/ with the storage module, lets the
// package's origin (and only it) use a native handler, and prints what the page did.
// Run it: `swift build --product example-package-app && xvfb-run -a .build/debug/example-package-app`.
import Foundation
import HybridShell

/// What the page reports when it is done.
struct Visit: Codable, Sendable { var visits: Int; var origin: String }

let site = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("site")
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("example-package-app-\(getpid())")

/// Signs `site` into a package file and writes the public key a consumer trusts; a real app does
/// this at build time (`hybrid-run package pack`) and ships only the public key.
func signedPreset() throws -> (package: URL, trustedKey: URL) {
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let key = PackageSigningKey()
    let (data, _) = try PackageBuilder(key: key).pack(directory: site, options: .init(appID: "shop", version: "1.0.0", sequence: 1))
    let package = scratch.appendingPathComponent("shop-1.0.0.hspkg"), trusted = scratch.appendingPathComponent("release.pub")
    try data.write(to: package)
    try Data(key.publicKey.fileText.utf8).write(to: trusted)
    return (package, trusted)
}

let status = MainLoop.run {
    defer { try? FileManager.default.removeItem(at: scratch) }
    do {
        let (preset, trustedKey) = try signedPreset()
        // snippet: package-app
        var shell = ShellConfiguration()
        shell.context.storage = .persistent(directory: scratch.appendingPathComponent("data").path)
        shell.modules.enabled = [.storage]                       // the package's origin gets storage.*
        var serving = PackageServing()
        serving.package = "shop"                                  // open app://shop/ …
        serving.preset = preset.path                              // … installed from this signed file
        serving.trustedKeys = [trustedKey.path]                   // verified against this key only
        var route = WebRoute(try PackageServing.rootURL(of: "shop"))
        guard let packages = try PackageRun.prepare(serving, shell: &shell, route: &route) else { return 1 }
        defer { packages.finish() }
        packages.events.forward { event in print("package event: \(event)") }
        route = try await packages.start(route: route)           // installs the preset, points at its entry
        let manager = try PageManager(configuration: shell)
        let modules = try ModuleHost.builtins(shell.modules, manager: manager, openedURL: try route.request().url,
                                              dataDirectory: shell.storage.directory)
        let visits = AsyncStream.makeStream(of: Visit.self)
        manager.handlers.register("shop.visited") { (visit: Visit) -> Bool in
            visits.continuation.yield(visit)
            return true
        }
        let page = try manager.open(route)
        // endsnippet
        print("opened \(page.url) with modules \(modules.modules.map(\.name).joined(separator: ", "))")
        var reports = visits.stream.makeAsyncIterator()
        guard let visit = await reports.next() else { return 1 }
        print("the page at \(visit.origin) counted \(visit.visits) visit(s) in storage")
        await manager.closeAll()
        await manager.stopWarming()
        print("example-package-app: done")
        return visit.visits == 1 && visit.origin == "app://shop" ? 0 : 1
    } catch {
        print("example-package-app: \(error)")
        return 1
    }
}
exit(status)
