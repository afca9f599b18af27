import HybridShellCore
import Foundation
import Logging

extension BridgeHandlers {
    /// The handlers every page can use: `echo` (returns its input unchanged, byte for byte),
    /// `system.info` (os, engine, user agent, app) and `log` (to the shell's log, one line per call:
    /// control characters escaped, at most ``LogText/defaultLimit`` characters).
    public func registerBuiltins(userAgent: String, appName: String, appVersion: String,
                                 logger: Logger = Logger(label: "hybridshell.page")) {
        registerRaw("echo", sync: { data, _ in data })
        let info: JSONValue = [
            "os": "Linux", "osVersion": .string(ProcessInfo.processInfo.operatingSystemVersionString),
            "engine": "WebKitGTK", "engineVersion": .string(WebContext.engineVersion),
            "userAgent": .string(userAgent), "appName": .string(appName), "appVersion": .string(appVersion),
            "shell": "HybridShell", "shellVersion": .string(HybridShellVersion.current),
        ]
        registerRaw("system.info", sync: { _, _ in RawJSON(unchecked: info.jsonText) })
        registerRaw("log", sync: { data, call in
            let value = data.value
            let message = value["message"]?.stringValue ?? value.stringValue ?? data.text
            let level = value["level"]?.stringValue.flatMap(Logger.Level.init(rawValue:)) ?? .info
            logger.log(level: level, "\(LogText.sanitized(message))",
                       metadata: ["origin": .string(call.origin), "dialect": .string(call.dialect.rawValue)])
            return .null
        })
    }
}
