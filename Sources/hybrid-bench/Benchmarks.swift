import HybridShell

/// The scenarios `hybrid-bench` knows; each returns the JSON line to print.
enum Benchmarks {
    typealias Benchmark = @EngineActor @Sendable ([String]) async throws -> String

    static let usage = "roundtrip PAGE | bridge PAGE [NATIVE_CALLS] | pool cold|warm PAGE [R] | pool memory N PAGE [--related] | scheme blob|load DIR URL [--share|--share-stream|--base64] | flood PAGE | agent PAGE [N] | streams PAGE"

    static func named(_ name: String) -> Benchmark? {
        switch name {
        case "roundtrip": { try await RoundtripBenchmark.run($0) }
        case "bridge": { try await BridgeBenchmark.run($0) }
        case "pool": { try await PoolBenchmark.run($0) }
        case "scheme": { try await SchemeBenchmark.run($0) }
        case "flood": { try await FloodBenchmark.run($0) }
        case "agent": { try await AgentBenchmark.run($0) }
        case "streams": { try await StreamBenchmark.run($0) }
        default: nil
        }
    }

    static func location(_ arguments: [String]) throws -> String {
        guard let page = arguments.first else { throw ShellError.invalidArgument("missing PAGE argument") }
        let (path, query) = page.contains("?") && !page.contains("://")
            ? (String(page.prefix { $0 != "?" }), String(page.drop { $0 != "?" })) : (page, "")
        return try PageLocation.resolve(path, currentDirectory: PageLocation.currentDirectory) + query
    }
}
