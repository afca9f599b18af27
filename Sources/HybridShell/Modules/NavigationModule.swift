import Foundation
import HybridShellCore
import HybridShellWebKit

/// The `navigation` module over the ``PageManager`` stack: `navigation.open {url}` pushes a page
/// (wx.navigateTo), `navigation.back {delta}` closes pages from the top (wx.navigateBack),
/// `navigation.replace {url}` opens a page in place of the caller (wx.redirectTo),
/// `navigation.close` closes the caller, `navigation.setTitle {title}` names the caller's window
/// (wx.setNavigationBarTitle), `navigation.pages` lists the stack. URLs are relative to the
/// caller's and must stay on an origin the caller may open (its own, or the opened page's).
public enum NavigationModule {
    public static let name = "navigation"
    static let maxURLLength = 8192

    @EngineActor
    static func module(host: ModuleHost) -> NativeModule {
        NativeModule(name: name) { [weak host] handlers in
            handlers.registerRaw("navigation.open", inOrder: { data, call in
                let arguments = try ModuleArguments(data, handler: "navigation.open", fields: ["url"])
                guard let host else { throw BridgeError(.bridgeReset, "the shell is closing") }
                let url = try target(arguments, call: call, host: host)
                let page: Page
                do { page = try host.manager.open(WebRoute(url)) } catch {
                    throw BridgeError(.handlerError, "cannot open \(url): \(error)", details: ["reason": "openFailed"])
                }
                return RawJSON(unchecked: JSONValue.object(["pageId": .number(Double(page.id)), "url": .string(page.url)]).jsonText)
            })
            handlers.registerRaw("navigation.replace", inOrder: { data, call in
                let arguments = try ModuleArguments(data, handler: "navigation.replace", fields: ["url"])
                guard let host, let caller = host.page(of: call) else { throw BridgeError(.bridgeReset, "the calling page is gone") }
                let url = try target(arguments, call: call, host: host)
                let page: Page
                do { page = try host.manager.open(WebRoute(url)) } catch {
                    throw BridgeError(.handlerError, "cannot open \(url): \(error)", details: ["reason": "openFailed"])
                }
                // The caller's document ends with its page; the answer is sent first.
                Task { @EngineActor [weak host] in await host?.manager.close(caller) }
                return RawJSON(unchecked: JSONValue.object(["pageId": .number(Double(page.id)), "url": .string(page.url)]).jsonText)
            })
            handlers.registerRaw("navigation.back", inOrder: { data, _ in
                let arguments = try ModuleArguments(data, handler: "navigation.back", fields: ["delta"])
                let delta = try arguments.optionalInt("delta", in: 1...64) ?? 1
                guard let host else { throw BridgeError(.bridgeReset, "the shell is closing") }
                let count = host.manager.stack.count
                guard count > 1 else {
                    throw BridgeError(.handlerError, "there is no page to go back to (this is the only page)", details: ["reason": "noPage"])
                }
                let closing = Array(host.manager.stack.suffix(min(delta, count - 1)))
                Task { @EngineActor [weak host] in
                    for page in closing.reversed() { await host?.manager.close(page) }
                }
                return RawJSON(unchecked: JSONValue.object(["closed": .number(Double(closing.count))]).jsonText)
            })
            handlers.registerRaw("navigation.close", inOrder: { data, call in
                _ = try ModuleArguments(data, handler: "navigation.close", fields: [])
                guard let host, let caller = host.page(of: call) else { throw BridgeError(.bridgeReset, "the calling page is gone") }
                guard host.manager.stack.count > 1 else {
                    throw BridgeError(.handlerError, "the only page cannot be closed this way; use window.close()", details: ["reason": "noPage"])
                }
                Task { @EngineActor [weak host] in await host?.manager.close(caller) }
                return .null
            })
            handlers.registerRaw("navigation.setTitle", inOrder: { data, call in
                let arguments = try ModuleArguments(data, handler: "navigation.setTitle", fields: ["title"])
                let title = try arguments.string("title", maxLength: 1024, allowEmpty: true)
                guard let host, let caller = host.page(of: call) else { throw BridgeError(.bridgeReset, "the calling page is gone") }
                caller.view.setWindowTitle(title)
                return .null
            })
            handlers.registerRaw("navigation.pages", inOrder: { data, call in
                _ = try ModuleArguments(data, handler: "navigation.pages", fields: [])
                guard let host else { throw BridgeError(.bridgeReset, "the shell is closing") }
                let pages = host.manager.stack.map { page -> JSONValue in
                    ["id": .number(Double(page.id)), "url": .string(page.url), "title": page.title.map(JSONValue.string) ?? .null,
                     "isCaller": .bool(page.bridge.currentSession?.id == call.sessionID)]
                }
                return RawJSON(unchecked: JSONValue.array(pages).jsonText)
            })
        }
    }

    /// The absolute URL a navigation asks for, checked: resolvable, an origin the caller may
    /// open (its own or a trusted one), and for local files an existing file.
    @EngineActor
    static func target(_ arguments: ModuleArguments, call: BridgeCall, host: ModuleHost) throws(BridgeError) -> String {
        let text = try arguments.string("url", maxLength: maxURLLength)
        guard let url = URL(string: text, relativeTo: URL(string: call.url))?.absoluteURL,
              let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else {
            throw arguments.invalid("url", "\(JSONValue.quoted(text)) is not an http, https or file URL (relative to the page's)")
        }
        let absolute = url.absoluteString
        let origin = WebOrigin.of(absolute) ?? ""
        let ownOrigin = WebOrigin.of(call.url)
        guard origin == ownOrigin || host.policy.trusted.contains(where: { $0.matches(origin) }) else {
            throw BridgeError(.denied, "navigation to \(origin) is not allowed from \(call.origin): only the page's own origin or the opened app's",
                              details: ["reason": "urlNotAllowed", "url": .string(absolute)])
        }
        if scheme == "file", !FileManager.default.fileExists(atPath: url.path) {
            throw BridgeError(.handlerError, "unknown route \(JSONValue.quoted(text)): no file \(url.path)",
                              details: ["reason": "unknownRoute", "url": .string(absolute)])
        }
        return absolute
    }
}
