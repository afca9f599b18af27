import Foundation
import HybridShellCore
import HybridShellWebKit

/// The `system` module: `system.info` (app, engine, os, locale, screen, network — wx.getSystemInfo),
/// `system.locale`, `system.screen`, `system.network` (wx.getNetworkType) and the event
/// `system.networkStatusChange` (wx.onNetworkStatusChange), from GLib's `GNetworkMonitor`.
/// `override` fixes the network status for deterministic headless runs. See docs/modules.md.
public enum SystemModule {
    public static let name = "system"
    public static let networkEvent = "system.networkStatusChange"

    @EngineActor
    static func module(host: ModuleHost, override: ModuleConfiguration.NetworkStatus?) -> NativeModule {
        let monitor = Desktop.networkStatus()
        let network: @EngineActor () -> JSONValue = {
            if let override {
                return ["isConnected": .bool(override == .online), "networkType": override == .online ? "unknown" : "none",
                        "connectivity": override == .online ? "full" : "none", "source": "configuration"]
            }
            let connectivity = monitor.connectivity
            return ["isConnected": .bool(connectivity == .full || connectivity == .limited || connectivity == .portal),
                    "networkType": connectivity == .none ? "none" : "unknown",
                    "connectivity": .string(connectivity.rawValue), "source": "GNetworkMonitor"]
        }
        if override == nil {
            monitor.onChange { [weak host] _ in host?.emit(networkEvent, data: network()) }
        }
        let manager = host.manager
        return NativeModule(name: name, events: [networkEvent]) { handlers in
            handlers.registerRaw("system.info", inOrder: { [weak manager] data, call in
                _ = try ModuleArguments(data, handler: "system.info", fields: [])
                return RawJSON(unchecked: info(manager: manager, call: call, network: network()).jsonText)
            })
            handlers.registerRaw("system.locale", inOrder: { data, _ in
                _ = try ModuleArguments(data, handler: "system.locale", fields: [])
                return RawJSON(unchecked: locale().jsonText)
            })
            handlers.registerRaw("system.screen", inOrder: { [weak manager] data, _ in
                _ = try ModuleArguments(data, handler: "system.screen", fields: [])
                return RawJSON(unchecked: screen(manager: manager).jsonText)
            })
            handlers.registerRaw("system.network", inOrder: { data, _ in
                _ = try ModuleArguments(data, handler: "system.network", fields: [])
                return RawJSON(unchecked: network().jsonText)
            })
        }
    }

    @EngineActor
    static func info(manager: PageManager?, call: BridgeCall, network: JSONValue) -> JSONValue {
        let userAgent = manager?.stack.first { $0.bridge.currentSession?.id == call.sessionID }?.view.userAgent ?? ""
        var members: [String: JSONValue] = [
            "os": "Linux", "osVersion": .string(ProcessInfo.processInfo.operatingSystemVersionString), "platform": "linux",
            "engine": "WebKitGTK", "engineVersion": .string(WebContext.engineVersion),
            "userAgent": .string(userAgent), "appName": .string(manager?.appName ?? ""), "appVersion": .string(manager?.appVersion ?? ""),
            "shell": "HybridShell", "shellVersion": .string(HybridShellVersion.current),
            "network": network,
        ]
        for (key, value) in locale().objectValue ?? [:] { members[key] = value }
        for (key, value) in screen(manager: manager).objectValue ?? [:] { members[key] = value }
        return .object(members)
    }

    /// The process's locale as BCP 47 (`LANG=de_DE.UTF-8` → `de-DE`), `en-US` for `C`/`POSIX`.
    static func locale() -> JSONValue {
        let environment = ProcessInfo.processInfo.environment
        let raw = [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]].compactMap { $0 }.first { !$0.isEmpty } ?? "C"
        let base = raw.split(separator: ".").first.map(String.init) ?? raw
        let tag = (base == "C" || base == "POSIX") ? "en-US" : base.replacingOccurrences(of: "_", with: "-")
        let languages = (environment["LANGUAGE"] ?? "").split(separator: ":").map { $0.replacingOccurrences(of: "_", with: "-") }
        return ["language": .string(tag), "languages": .array((languages.isEmpty ? [tag] : languages).map(JSONValue.string)),
                "timeZone": .string(TimeZone.current.identifier)]
    }

    @EngineActor
    static func screen(manager: PageManager?) -> JSONValue {
        let display = Desktop.screen()
        return ["screenWidth": .number(Double(display?.width ?? 0)), "screenHeight": .number(Double(display?.height ?? 0)),
                "pixelRatio": .number(Double(display?.scale ?? 1)),
                "windowWidth": .number(Double(manager?.configuration.width ?? 0)), "windowHeight": .number(Double(manager?.configuration.height ?? 0)),
                "windowMode": .string(manager?.configuration.window.isVisible == true ? "window" : "headless")]
    }
}
