import Foundation
import HybridShell

/// `hybrid-bench pool cold|warm URL [R]` and `hybrid-bench pool memory N URL [--related]`: the
/// counterparts of bench/c/pool.c through HybridShell's PageManager.
///
/// Timing: like pool.c, one untimed base page stays open (the network process is up); then R
/// times, open() → the page's `ready` lifecycle event in Swift (and its load-finished time), the
/// page closed between repeats. `cold` uses a fresh view each time (pool 0); `warm` waits for the
/// pool's pre-warmed view before each (untimed) open. Memory: N pages open at once (shared web
/// process with --related), 1 s settle, then the process tree's PSS as pool.c sums it.
enum PoolBenchmark {
    @EngineActor
    static func run(_ arguments: [String]) async throws -> String {
        guard let scenario = arguments.first else { throw ShellError.invalidArgument("pool cold|warm|memory …") }
        switch scenario {
        case "cold", "warm":
            let url = try Benchmarks.location(Array(arguments.dropFirst()))
            let repeats = arguments.count > 2 ? Int(arguments[2]) ?? 10 : 10
            return try await timing(warm: scenario == "warm", url: url, repeats: repeats)
        case "memory":
            guard arguments.count >= 3, let count = Int(arguments[1]), count > 0 else {
                throw ShellError.invalidArgument("pool memory N URL [--related]")
            }
            let url = try Benchmarks.location([arguments[2]])
            return try await memory(count: count, url: url, related: arguments.contains("--related"))
        default:
            throw ShellError.invalidArgument("unknown pool scenario \(scenario)")
        }
    }

    @EngineActor
    static func manager(pool: Int, related: Bool = false) throws -> PageManager {
        var configuration = ShellConfiguration()
        configuration.poolSize = pool
        configuration.window = .visible()  // pool.c shows each view in a window
        configuration.maxPages = 64
        configuration.sharedProcess = related
        return try PageManager(configuration: configuration, context: WebContext(headless: false))
    }

    @EngineActor
    static func opened(_ manager: PageManager, _ url: String) async throws -> (ready: Double, loaded: Double) {
        let started = ContinuousClock.now
        let page = try manager.open(WebRoute(url))
        let ready = Handoff<Double>(), loaded = Handoff<Double>()
        let tokens = [
            page.observeLifecycle { if $0 == .ready { ready.fulfill(milliseconds(since: started)) } },
            page.view.observe { if case .loadFinished(_, true) = $0 { loaded.fulfill(milliseconds(since: started)) } },
        ]
        defer { tokens.forEach { $0.cancel() } }
        return (try await ready.value(timeout: .seconds(30)), try await loaded.value(timeout: .seconds(30)))
    }

    @EngineActor
    static func timing(warm: Bool, url: String, repeats: Int) async throws -> String {
        let manager = try manager(pool: warm ? 1 : 0)
        _ = try await opened(manager, url)  // the base page
        var readies: [Double] = [], loads: [Double] = []
        for _ in 0..<repeats {
            if warm { try await manager.waitForWarmView() }
            let (ready, loaded) = try await opened(manager, url)
            readies.append(ready)
            loads.append(loaded)
            await manager.close()
            try await Task.sleep(for: .milliseconds(300))  // like pool.c: let the closed view's process go
        }
        await manager.closeAll()
        return JSONValue.object(["scenario": .string(warm ? "warm" : "cold"), "runs": .number(Double(repeats)),
                                 "ready_ms": .number(median(readies)), "load_ms": .number(median(loads)),
                                 "ready_min_ms": .number(readies.min() ?? 0), "ready_max_ms": .number(readies.max() ?? 0)]).jsonText
    }

    @EngineActor
    static func memory(count: Int, url: String, related: Bool) async throws -> String {
        let manager = try manager(pool: 0, related: related)
        for _ in 0..<count { _ = try manager.open(WebRoute(url)) }
        for page in manager.stack {
            let loaded = PageEventExpectation(page.view) { if case .loadFinished = $0 { return true } else { return nil } }
            if page.state == .loading { _ = try await loaded.value(timeout: .seconds(60)) }
        }
        try await Task.sleep(for: .seconds(1))  // like pool.c: settle before reading PSS
        let usage = ProcessTreeMemory.measure()
        await manager.closeAll()
        var result: [String: JSONValue] = ["scenario": "memory", "views": .number(Double(count)), "related": .bool(related),
                                           "processes": .number(Double(usage.processes))]
        for (key, value) in usage.mebibytes { result[key] = .number((value * 10).rounded() / 10) }
        return JSONValue.object(result).jsonText
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        let value = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return (value * 100).rounded() / 100
    }
}

/// PSS of this process and its descendants from /proc/PID/smaps_rollup, grouped like pool.c.
enum ProcessTreeMemory {
    static func measure() -> (processes: Int, mebibytes: [String: Double]) {
        let me = getpid()
        var parents: [pid_t: pid_t] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 2, let parent = pid_t(fields[1]) { parents[pid] = parent }
        }
        var tree: Set<pid_t> = [me]
        var grew = true
        while grew {
            grew = false
            for (pid, parent) in parents where tree.contains(parent) && !tree.contains(pid) {
                tree.insert(pid)
                grew = true
            }
        }
        var totals: [String: Double] = ["pss_mib": 0, "ui_pss_mib": 0, "web_pss_mib": 0, "network_pss_mib": 0, "other_pss_mib": 0]
        for pid in tree {
            guard let rollup = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8),
                  let line = rollup.split(separator: "\n").first(where: { $0.hasPrefix("Pss:") }),
                  let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { continue }
            let mebibytes = kilobytes / 1024
            let command = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            let group = pid == me ? "ui_pss_mib" : command.hasPrefix("WebKitWebProces") ? "web_pss_mib"
                : command.hasPrefix("WebKitNetworkPr") ? "network_pss_mib" : "other_pss_mib"
            totals[group, default: 0] += mebibytes
            totals["pss_mib", default: 0] += mebibytes
        }
        return (tree.count, totals)
    }
}
