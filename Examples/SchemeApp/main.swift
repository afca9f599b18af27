// An app that embeds HybridShell: it serves a page from its own directory through a URL-scheme
// handler, registers a typed native handler, calls into the page and reacts to lifecycle events.
// Run it: `swift build --product example-scheme-app && xvfb-run -a .build/debug/example-scheme-app`.
import Foundation
import HybridShell

/// What the page sends to `greet`, and what native answers: plain Codable values.
struct Greeting: Codable, Sendable { var name: String }
struct Welcome: Codable, Sendable { var message: String; var letters: Int }

// The page's files live beside this source file; an installed app would use its data directory.
let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("web").path

let status = MainLoop.run {                       // GLib owns the main thread; this runs on EngineActor
    do {
        // snippet: scheme-app
        var shell = ShellConfiguration()
        shell.dirHandlers = [DirectoryMount(scheme: "example", path: web)]   // example:///… is a secure origin
        let manager = try PageManager(configuration: shell)
        let greeted = AsyncStream.makeStream(of: String.self)
        manager.handlers.register("greet") { (greeting: Greeting) -> Welcome in   // typed in, typed out
            greeted.continuation.yield(greeting.name)
            return Welcome(message: "Hello, \(greeting.name)!", letters: greeting.name.count)
        }
        let page = try manager.open(WebRoute("example:///index.html"))
        let lifecycle = page.lifecycleEvents()                                   // ready, show, hide, unload
        // endsnippet
        var events = lifecycle.makeAsyncIterator()
        guard await events.next() == .ready else { print("example-scheme-app: the page never became ready"); return 1 }
        print("lifecycle: ready")
        var names = greeted.stream.makeAsyncIterator()
        guard let name = await names.next() else { return 1 }
        print("the page called greet with \(name)")
        // snippet: call-page
        let total: Int = try await page.bridge.call("page.sum", with: [1, 2, 3, 4])   // the page's handler
        try page.bridge.emit("native.done", data: ["total": total])                  // hybrid.on('native.done')
        // endsnippet
        print("page.sum([1, 2, 3, 4]) = \(total)")
        await manager.close(page)
        while let event = await events.next() {
            print("lifecycle: \(event.rawValue)")
            if event == .unload { break }
        }
        await manager.stopWarming()
        print("example-scheme-app: done")
        return total == 10 ? 0 : 1
    } catch {
        print("example-scheme-app: \(error)")
        return 1
    }
}
exit(status)
