import Foundation
import HybridShell

/// `hybrid-run mcp`: one shell, set up as `run` sets it up (modules, mocks, packages, transcript),
/// driven by an agent through an ``AgentSession`` over MCP on stdio. Ends when stdin closes (or on
/// SIGINT/SIGTERM), closing every page so no web process outlives it.
@EngineActor
final class McpCommand {
    private let options: RunOptions
    private let opensPage: Bool
    private let outcome = Handoff<RunOutcome>()
    /// The native modules live as long as the command.
    private var modules: ModuleHost?

    init(options: RunOptions, opensPage: Bool) {
        self.options = options
        self.opensPage = opensPage
    }

    func run() async -> RunOutcome {
        ShutdownDeadline.onTerminationSignal { [weak self] _ in self?.outcome.fulfill(.success) }
        defer { options.packages?.finish() }
        if let problem = MainLoop.displayError { return .noDisplay(problem) }
        var route = options.route
        if let packages = options.packages {
            do { route = try await packages.start(route: route) } catch { return RunOutcome(.failure, PackageRunOptions.message(for: error)) }
        }
        let manager: PageManager
        let session: AgentSession
        do {
            manager = try PageManager(configuration: options.shell)
            manager.appName = "hybrid-run"
            if let path = options.bridgeLog { manager.transcript = try BridgeTranscript(path: path) }
            modules = try ModuleHost.builtins(options.shell.modules, manager: manager, openedURL: try route.request().url,
                                                  dataDirectory: options.shell.storage.directory)
            // Mocks replace module handlers of the same name, as in `run`.
            options.mockHandlers?.register(in: manager.handlers)
            session = AgentSession(manager: manager, describe: { $0.jsonObject })
            session.customSchemes += route.customSchemes.filter { !session.customSchemes.contains($0) }
            if opensPage { try manager.open(route) }
        } catch {
            return RunOutcome(.usage, "\(error)")
        }
        // The agent's first call sees the page it was started with, not the blank view before it.
        await session.settleLoad(within: route.timeout)
        Task { @EngineActor [outcome] in
            do {
                try await McpServer.serve(session, transport: McpStdioTransport())
                outcome.fulfill(.success)
            } catch {
                outcome.fulfill(RunOutcome(.failure, "the MCP server stopped: \(error)"))
            }
        }
        let result = (try? await outcome.value()) ?? .success
        ShutdownDeadline.arm(status: result.status, what: "the MCP client left")
        // Warming stops first: closing a page would otherwise refill the pool with a view whose web
        // process outlives the display (and this process).
        await manager.stopWarming()
        await manager.closeAll()
        return result
    }
}
