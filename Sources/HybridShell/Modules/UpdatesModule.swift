import Foundation
import HybridShellCore
import HybridShellWebKit

/// The `updates` module: the update manager for pages (``PackageUpdates``) as `hybrid.updates` and
/// `wx.getUpdateManager()`. `updates.status` and `updates.check` answer what the calling page's app
/// has (``PackageUpdateStatus``, against the version the page's document came from),
/// `updates.apply` reloads the caller into the installed newer version's entry page. Events
/// `updates.checked`, `updates.ready`, `updates.failed` go to the pages of the app they concern.
/// The caller's app is its origin's (`app://<app-id>`); other origins have none.
public enum UpdatesModule {
    public static let name = "updates"
    public static let events = ["updates.checked", "updates.ready", "updates.failed"]

    @EngineActor
    static func module(host: ModuleHost, updates: PackageUpdates?) -> NativeModule {
        updates?.observe { [weak host] event in
            if let host, let updates { push(event, host: host, updates: updates) }
        }
        return NativeModule(name: name, events: events) { [weak host] handlers in
            handlers.registerRaw("updates.status", inOrder: { data, call in
                _ = try ModuleArguments(data, handler: "updates.status", fields: [])
                let (updates, app) = try caller(call, updates)
                return answer(updates.status(appID: app, view: host?.page(of: call)?.view), appID: app)
            })
            handlers.registerRaw("updates.check", inOrder: { data, call in
                _ = try ModuleArguments(data, handler: "updates.check", fields: [])
                let (updates, app) = try caller(call, updates)
                await updates.check()
                return answer(updates.status(appID: app, view: host?.page(of: call)?.view), appID: app)
            })
            handlers.registerRaw("updates.apply", inOrder: { data, call in
                _ = try ModuleArguments(data, handler: "updates.apply", fields: [])
                let (updates, app) = try caller(call, updates)
                guard let page = host?.page(of: call) else { throw BridgeError(.bridgeReset, "the calling page is gone") }
                let status = updates.status(appID: app, view: page.view)
                guard status.ready else {
                    throw BridgeError(.handlerError, "no newer version of \(app) is installed (apply after the 'ready' event)", details: ["reason": "notReady"])
                }
                let entry: InstalledPackage
                do throws(PackageError) {
                    guard let signed = try updates.store.signedInstalled(app) else { throw .notInstalled("\(app) is not installed") }
                    entry = signed
                } catch {
                    throw BridgeError(.handlerError, "the new version of \(app) cannot be opened: \(error)", details: ["reason": "unsigned"])
                }
                updates.noteApplied(appID: app, sequence: entry.sequence)
                // The answer goes first; the page's document then ends with the load.
                let url = PackageServing.entryURL(of: entry)
                Task { @EngineActor [weak page] in page?.view.load(url) }
                return RawJSON(unchecked: JSONValue.object(["version": .string(entry.version), "sequence": .number(Double(entry.sequence))]).jsonText)
            })
        }
    }

    /// The update manager and the caller's app, or why the caller has none.
    @EngineActor
    static func caller(_ call: BridgeCall, _ updates: PackageUpdates?) throws(BridgeError) -> (PackageUpdates, String) {
        guard let updates else {
            throw BridgeError(.handlerError, "no update URL is configured (update_url, --update-url)", details: ["reason": "noUpdateURL"])
        }
        let prefix = PackageServing.scheme + "://"
        guard call.origin.hasPrefix(prefix), let app = updates.appID(host: String(call.origin.dropFirst(prefix.count))) else {
            throw BridgeError(.handlerError, "\(call.origin) is not an installed package's origin (app://APP-ID)", details: ["reason": "noPackage"])
        }
        return (updates, app)
    }

    static func answer(_ status: PackageUpdateStatus, appID: String) -> RawJSON {
        RawJSON(unchecked: object(status, appID: appID).jsonText)
    }

    static func object(_ status: PackageUpdateStatus, appID: String) -> JSONValue {
        var object: [String: JSONValue] = ["appID": .string(appID), "hasUpdate": .bool(status.hasUpdate), "ready": .bool(status.ready),
                                           "checking": .bool(status.checking), "checked": .bool(status.checked)]
        if let version = status.version { object["version"] = .string(version) }
        if let sequence = status.sequence { object["sequence"] = .number(Double(sequence)) }
        if let failure = status.failure { object["failure"] = .string(failure) }
        return .object(object)
    }

    /// Tells each page allowed the module, whose app the event concerns, what it means for that page.
    @EngineActor
    static func push(_ event: PackageUpdateEvent, host: ModuleHost, updates: PackageUpdates) {
        let prefix = PackageServing.scheme + "://"
        for page in host.manager.stack {
            guard let session = page.bridge.currentSession, session.allowed, session.origin.hasPrefix(prefix),
                  host.policy.decide(handler: "updates.checked", origin: session.origin) == .allowed,
                  let app = updates.appID(host: String(session.origin.dropFirst(prefix.count))) else { continue }
            let sequence = updates.pageSequence(appID: app, view: page.view)
            guard PackageUpdateTracker.concerns(event, appID: app, pageSequence: sequence) else { continue }
            switch event {
            case .checked:
                let status = updates.status(appID: app, view: page.view)
                try? page.bridge.emit("updates.checked", data: object(status, appID: app))
            case .ready(_, let version, let sequence):
                try? page.bridge.emit("updates.ready", data: JSONValue.object(["appID": .string(app), "version": .string(version), "sequence": .number(Double(sequence))]))
            case .failed(_, let reason):
                try? page.bridge.emit("updates.failed", data: JSONValue.object(["appID": .string(app), "reason": .string(reason)]))
            case .applied:
                break
            }
        }
    }
}
