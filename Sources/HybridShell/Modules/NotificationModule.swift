import Logging
import Synchronization
import HybridShellCore
import HybridShellWebKit

/// The `notification` module: `notification.show {title, body, icon?, actions?: [{id, label}]}` →
/// `{id}` through the desktop's notification server (`org.freedesktop.Notifications`, D-Bus), and
/// the events `notification.action {id, action}` (a click on one of its actions) and
/// `notification.closed {id, reason}`. Headless (page tests) nothing is sent: every notification is
/// logged and gets the next id, so runs are deterministic and never reach a desktop.
public enum NotificationModule {
    public static let name = "notification"
    public static let events = ["notification.action", "notification.closed"]

    /// `busAddress`: the D-Bus to reach the server on (nil: the session bus).
    @EngineActor
    static func module(host: ModuleHost, headless: Bool, busAddress: String? = nil,
                       logger: Logger = Logger(label: "hybridshell.notification")) -> NativeModule {
        let client = headless ? nil : DesktopNotifications(address: busAddress)
        client?.onEvent = { [weak host] event in
            switch event {
            case .action(let id, let action):
                host?.emit("notification.action", data: ["id": .number(Double(id)), "action": .string(action)])
            case .closed(let id, let reason):
                let reasons = [1: "expired", 2: "dismissed", 3: "closed"]
                host?.emit("notification.closed", data: ["id": .number(Double(id)), "reason": .string(reasons[Int(reason)] ?? "undefined")])
            }
        }
        let headlessIDs = Mutex<UInt32>(0)
        return NativeModule(name: name, events: events) { [weak host] handlers in
            handlers.registerRaw("notification.show", inOrder: { data, call in
                let request = try NotificationRequest.parse(data)
                let id: UInt32
                if let client {
                    do {
                        id = try await client.show(appName: host?.manager.appName ?? "HybridShell", title: request.title, body: request.body, icon: request.icon,
                                                   actions: request.actions.map { ($0.id, $0.label) })
                    } catch {
                        throw BridgeError(.handlerError, "notification.show: \(error)", details: ["handler": "notification.show", "reason": "unavailable"])
                    }
                } else {
                    id = headlessIDs.withLock {
                        $0 += 1
                        return $0
                    }
                }
                logger.info("notification \(id): \(request.title)", metadata: ["origin": .string(call.origin), "headless": .stringConvertible(client == nil)])
                return RawJSON(unchecked: JSONValue.object(["id": .number(Double(id))]).jsonText)
            })
        }
    }
}
