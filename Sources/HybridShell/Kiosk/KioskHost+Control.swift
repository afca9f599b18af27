import Foundation
import HybridShellCore
import HybridShellWebKit

extension KioskHost {
    /// The answer to one `hybrid-run ctl` request, as a reply line.
    package func answer(_ request: ControlRequest) async -> (ok: Bool, line: String) {
        switch request {
        case .status:
            return (true, ControlReply.ok(status))
        case .open(let location):
            do {
                try open(location)
                return (true, ControlReply.ok(["url": .string(try WebRoute(location).request().url)]))
            } catch {
                return (false, ControlReply.error(error.description))
            }
        case .reload:
            reload()
            return (true, ControlReply.ok())
        case .home:
            goHome()
            return (true, ControlReply.ok(["url": .string(homeURL)]))
        case .screenshot(let path):
            guard let view = page?.view else { return (false, ControlReply.error("no page is showing")) }
            do {
                try await view.snapshot(toPNG: path)
                return (true, ControlReply.ok(["path": .string(path)]))
            } catch {
                return (false, ControlReply.error(error.description))
            }
        case .quit:
            return (true, ControlReply.ok(["quitting": true]))
        }
    }

    /// What `hybrid-run ctl status` reports.
    public var status: [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "url": page?.view.url.map { .string($0) } ?? .null,
            "home": .string(homeURL),
            "uptime": .number(((ContinuousClock.now - started).seconds * 10).rounded() / 10),
            "crashes": .number(Double(webProcessEnds)),
            "hangs": .number(Double(hangs)),
            "memoryBytes": .number(Double(ProcessMemory.treeResidentBytes())),
            "showingErrorPage": .bool(showingErrorPage != nil),
            "responsive": .bool(page?.view.isWebProcessResponsive ?? false),
        ]
        if let lastHeartbeat {
            fields["lastHeartbeatAgo"] = .number(((ContinuousClock.now - lastHeartbeat).seconds * 1000).rounded() / 1000)
            fields["lastHeartbeatMs"] = .number(((lastHeartbeatMilliseconds ?? 0) * 10).rounded() / 10)
        } else {
            fields["lastHeartbeatAgo"] = .null
        }
        return fields
    }
}
