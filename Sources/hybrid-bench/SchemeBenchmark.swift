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
        // Like the C baseline: a visible 800×600 window. The window's size is part of the fixture:
        // the web process paints it (llvmpipe under Xvfb) while the transfer starts, and the UI
        // process maps its buffers (memfd, MIT-SHM), so a larger window alone grows the UI process.
        configuration.window = .visible()
        configuration.width = 800
        configuration.height = 600
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
                result.fulfill(String(title.dropLast())
                    + #","stall_max_ms":\#(monitor.stallMax),"stall_cpu_max_ms":\#(monitor.cpuStall),"rss_growth_mib":\#(monitor.growth),"#
                    + #""anon_growth_mib":\#(monitor.anonGrowth)}"#)
            default:
                break
            }
        }
        defer { token.cancel() }
        if blobMode { monitor.start() }
        view.load(url)
        let line = try await result.value(timeout: .seconds(120), "the benchmark's result")
        guard !line.contains(#""error""#) else { throw ShellError.invalidArgument("the benchmark page failed: \(line)") }
        // Every mode must have moved the whole file into the page's Blob, base64 included.
        if blobMode, let expected = try? FileManager.default.attributesOfItem(atPath: directory + "/big.bin")[.size] as? NSNumber,
           !line.contains(#""size":\#(expected.int64Value)"#) {
            throw ShellError.invalidArgument("the page's Blob is not the whole file (\(expected.int64Value) bytes): \(line)")
        }
        return line
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return ((Double(seconds) * 1000 + Double(attoseconds) / 1e15) * 10).rounded() / 10
    }
}

/// Ticks every 5 ms on the engine's loop (a chain of GLib timeouts, like bench/c/scheme.c's
/// `g_timeout_add(5, …)`; a sleeping Swift task would add its own wake-up latency): the longest
/// gap between ticks is the main loop's longest stall; the loop thread's CPU time between two ticks
/// (`CLOCK_THREAD_CPUTIME_ID`) is the longest stretch of work the loop itself did, which the
/// machine's load does not inflate. It also samples the process's RSS without allocating.
/// (A measuring tick, not synchronisation.)
@EngineActor
final class LoopMonitor {
    private var timer: LoopTimer?
    private var lastTick = ContinuousClock.now
    private var lastCPU = 0.0
    private(set) var stallMax = 0.0
    private(set) var stallCPUMax = 0.0
    private var rssStart = 0.0
    private var rssMax = 0.0
    private var anonStart = 0.0
    private var anonMax = 0.0
    var growth: Double { ((rssMax - rssStart) * 10).rounded() / 10 }
    /// The growth of RssAnon alone: the private heap, where a buffered response would sit.
    var anonGrowth: Double { ((anonMax - anonStart) * 10).rounded() / 10 }
    var cpuStall: Double { (stallCPUMax * 10).rounded() / 10 }

    func start() {
        restart()
        schedule()
    }

    private func schedule() {
        timer = LoopTimer(after: .milliseconds(5)) { [weak self] in
            guard let self, self.timer != nil else { return }
            self.tick()
            self.schedule()
        }
    }

    private func tick() {
        let now = ContinuousClock.now
        stallMax = max(stallMax, SchemeBenchmark.milliseconds(now - lastTick))
        lastTick = now
        let cpu = Self.threadCPUMilliseconds()
        stallCPUMax = max(stallCPUMax, cpu - lastCPU)
        lastCPU = cpu
        let memory = Self.memoryMiB()
        rssMax = max(rssMax, memory.rss)
        anonMax = max(anonMax, memory.anon)
    }

    func restart() {
        stallMax = 0
        stallCPUMax = 0
        lastTick = ContinuousClock.now
        lastCPU = Self.threadCPUMilliseconds()
        (rssStart, anonStart) = Self.memoryMiB()
        rssMax = rssStart
        anonMax = anonStart
    }

    func stop() {
        timer?.cancel()
        timer = nil
    }

    static func threadCPUMilliseconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1e6
    }

    /// VmRSS and RssAnon from /proc/self/status, read into a fixed buffer (no allocation per
    /// sample, so the sampling itself does not grow the heap it measures).
    static func memoryMiB() -> (rss: Double, anon: Double) {
        let descriptor = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return (0, 0) }
        defer { close(descriptor) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer -> (rss: Double, anon: Double) in
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            guard count > 0 else { return (0, 0) }
            let text = UnsafeBufferPointer(rebasing: buffer[0..<count])
            return (kibField("VmRSS:", in: text) / 1024, kibField("RssAnon:", in: text) / 1024)
        }
    }

    /// The number after `key` in the status text, 0 if absent.
    private static func kibField(_ key: StaticString, in text: UnsafeBufferPointer<UInt8>) -> Double {
        let key = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        guard text.count >= key.count,
              let start = (0...(text.count - key.count)).first(where: { index in key.indices.allSatisfy { text[index + $0] == key[$0] } })
        else { return 0 }
        var kib = 0.0
        for byte in text[(start + key.count)...] {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { continue }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            kib = kib * 10 + Double(byte - UInt8(ascii: "0"))
        }
        return kib
    }
}
