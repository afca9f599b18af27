import Foundation
import HybridShell

/// `hybrid-bench streams PAGE`: runs pages/bench/streams.html (`?mib=N&callmib=M`) in a shown
/// window with `hybrid.stream` handlers: `bench.down` writes N MiB (one 1 MiB block over and
/// over, as bench/c/streams.c serves it), `bench.up` counts and checks what the page writes; and
/// `hybrid.call` handlers moving the same bytes as base64 (`bench.chunk`, `bench.put`). Prints
/// the page's `{down_mibps, up_mibps, call_down_mibps, call_up_mibps}`.
enum StreamBenchmark {
    static let chunk = 4 << 20

    @EngineActor
    static func run(_ arguments: [String]) async throws -> String {
        let url = try Benchmarks.location(arguments)
        var configuration = ShellConfiguration()
        configuration.poolSize = 0
        configuration.window = .visible()  // like the C baseline
        let block = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let received = Handoff<String>()
        let streams = try configuration.byteStreams.unwrapped("byteStreams")
        streams.register("bench.down") { stream in
            let size = stream.data["size"]?.intValue ?? 0
            var sent = 0
            while sent < size {
                try await stream.write(block)
                sent += block.count
            }
        }
        streams.register("bench.up") { stream in
            var count = 0, exact = true
            for try await part in stream.incoming {
                // The page sends 4 MiB copies of the block: check the ends of each chunk.
                if part.first != block[count % block.count] || part.last != block[(count + part.count - 1) % block.count] { exact = false }
                count += part.count
            }
            let line = #"{"count":\#(count),"exact":\#(exact)}"#
            Task { @EngineActor in received.fulfill(line) }
        }
        let manager = try PageManager(configuration: configuration)
        defer { Task { await manager.closeAll() } }
        let big = Data((0..<chunk).map { block[$0 % block.count] })
        let base64 = RawJSON(unchecked: JSONValue.string(big.base64EncodedString()).jsonText)
        manager.handlers.registerRaw("bench.chunk", sync: { _, _ in base64 })
        manager.handlers.registerRaw("bench.put", sync: { data, _ in
            guard let decoded = data.value.stringValue.flatMap({ Data(base64Encoded: $0) }), decoded.count == chunk else {
                throw BridgeError(.invalidMessage, "bench.put takes 4 MiB as base64")
            }
            return .null
        })
        manager.handlers.registerRaw("bench.received", inOrder: { _, _ in
            RawJSON(unchecked: try await received.value(timeout: .seconds(600), "the uploaded count"))
        })
        let result = Handoff<String>()
        manager.handlers.registerRaw("bench.done", sync: { data, _ in
            let text = data.text
            Task { @EngineActor in result.fulfill(text) }
            return .null
        })
        _ = try manager.open(WebRoute(url))
        let line = try await result.value(timeout: .seconds(900), "the benchmark page's result")
        guard let results = try JSONValue(parsing: line).objectValue, results["error"] == nil else {
            throw ShellError.invalidArgument("the benchmark page failed: \(line)")
        }
        return JSONValue.object(results).jsonText
    }
}

extension Optional {
    fileprivate func unwrapped(_ what: String) throws -> Wrapped {
        guard let self else { throw ShellError.invalidArgument("no \(what)") }
        return self
    }
}
