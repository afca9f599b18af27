import Foundation
import HybridShell

/// `hybrid-bench scheme blob|load DIR URL [--share|--share-stream|--base64]`: the Swift counterpart
/// of bench/c/scheme.c. DIR is served on `app:` by a ``DirectoryHandler``; `--share` hands the page
/// DIR/big.bin as a `hybrid-file://` URL (appended as `&src=`), `--share-stream` the same bytes as
/// a Swift chunk stream (socket pair + pump), `--base64` answers
/// `hybrid.call('bench.file')` with it as base64 text. `blob` prints the page's transfer time
/// with the main loop's longest stall and the RSS growth from load finished to the result;
/// `load` prints the time from `load` to load finished.
enum SchemeBenchmark {
    @EngineActor
    static func run(_ arguments: [String]) async throws -> String {
        guard arguments.count >= 3, ["blob", "load"].contains(arguments[0]) else {
            throw ShellError.invalidArgument("usage: hybrid-bench scheme blob|load DIR URL [--share|--share-stream|--base64]")
        }
        let blobMode = arguments[0] == "blob"
        let directory = URL(fileURLWithPath: arguments[1]).standardizedFileURL.path
        var url = arguments[2]
        let shares = FileShares()
        let context = try WebContext(headless: false, schemes: [
            try DirectoryMount(scheme: "app", path: directory).registration(), try shares.registration(),
        ])
        var configuration = WebViewConfiguration()
        configuration.window = .visible()  // like the C baseline
        configuration.capturesConsole = false
        let view = try WebView(configuration: configuration, context: context)
        defer { view.close() }
        if arguments.contains("--share") {
            let shared = try shares.share(file: directory + "/big.bin", origin: "app://")
            url += "&src=" + (shared.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? shared)
        }
        if arguments.contains("--share-stream") {
            // The same bytes as a Swift chunk stream: through the socket pair and its pump.
            let path = directory + "/big.bin"
            let size = UInt64((try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0)
            let shared = try shares.share(stream: { FileChunks.stream(path: path, offset: 0, length: size) }, length: size,
                                          name: "big.bin", origin: "app://")
            url += "&src=" + (shared.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? shared)
        }
        var bridge: Bridge?
        if arguments.contains("--base64") {
            var bridgeConfiguration = BridgeConfiguration(originPolicy: .opening(url))
            bridgeConfiguration.maxPayload = 256 << 20
            let made = Bridge(view: view, configuration: bridgeConfiguration)
            let file = directory + "/big.bin"
            made.handlers.registerRaw("bench.file") { _, _ in
                try RawJSON(encoding: try Data(contentsOf: URL(fileURLWithPath: file)).base64EncodedString())
            }
            bridge = made
        }
        defer { _ = bridge }

        let result = Handoff<String>()
        let monitor = LoopMonitor()
        let started = ContinuousClock.now
        let token = view.observe { event in
            switch event {
            case .loadFinished(_, let succeeded):
                if !succeeded { result.fulfill(#"{"error":"load failed"}"#) }
                if blobMode { monitor.restart() } else { result.fulfill(#"{"load_ms":\#(milliseconds(ContinuousClock.now - started))}"#) }
            case .titleChanged(let title) where title.hasPrefix("{"):
                monitor.stop()
                result.fulfill(String(title.dropLast()) + #","stall_max_ms":\#(monitor.stallMax),"rss_growth_mib":\#(monitor.growth)}"#)
            default:
                break
            }
        }
        defer { token.cancel() }
        if blobMode { monitor.start() }
        view.load(url)
        let line = try await result.value(timeout: .seconds(120), "the benchmark's result")
        guard !line.contains(#""error""#) else { throw ShellError.invalidArgument("the benchmark page failed: \(line)") }
        return line
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return ((Double(seconds) * 1000 + Double(attoseconds) / 1e15) * 10).rounded() / 10
    }
}

/// Wakes every 5 ms on the engine's loop: the longest gap is the main loop's longest stall; it
/// also samples the process's RSS. (A measuring tick, not synchronisation.)
@EngineActor
final class LoopMonitor {
    private var task: Task<Void, Never>?
    private(set) var stallMax = 0.0
    private var rssStart = 0.0
    private var rssMax = 0.0
    var growth: Double { ((rssMax - rssStart) * 10).rounded() / 10 }

    func start() {
        restart()
        task = Task { @EngineActor [weak self] in
            var last = ContinuousClock.now
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(5))
                let now = ContinuousClock.now
                guard let self else { return }
                self.stallMax = max(self.stallMax, SchemeBenchmark.milliseconds(now - last))
                self.rssMax = max(self.rssMax, Self.rssMiB())
                last = now
            }
        }
    }

    func restart() {
        stallMax = 0
        rssStart = Self.rssMiB()
        rssMax = rssStart
    }

    func stop() { task?.cancel() }

    static func rssMiB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kib / 1024
    }
}
