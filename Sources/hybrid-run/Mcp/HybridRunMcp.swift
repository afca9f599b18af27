import ArgumentParser
import HybridShell

/// `hybrid-run mcp [run flags]`: the shell as a Model Context Protocol server on stdio. It takes
/// `run`'s flags (they are `run`'s own, through an option group) except those that decide when a
/// run ends or what it prints; ``McpCommand`` does the work.
struct HybridRunMcp: CheckedCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the shell to a coding agent as a Model Context Protocol server on stdin/stdout.",
        usage: "hybrid-run mcp [--url URL-OR-PATH] [run options]",
        discussion: """
            An MCP client (Claude Code, VS Code, an agent SDK) starts it and talks JSON-RPC on stdin and \
            stdout; logs go to stderr. The tools open pages, outline them (snapshot) with refs, click, type, \
            press keys, select, hover with real input events, evaluate JavaScript, take screenshots, read the \
            console, page events and native calls, call page handlers and mock native ones. It ends when \
            stdin closes. Takes run's options (hybrid-run help run), except --exit-after, --timeout, \
            --print-events, --call and --automation. See docs/mcp.md.

            Examples:
              hybrid-run mcp --url app/index.html --modules storage --handlers mocks.json
              hybrid-run mcp --dir-handler app:./dist --url app:///index.html

            An agent's configuration names the command and its arguments, e.g. for Claude Code: \
            claude mcp add hybrid -- hybrid-run mcp --url app/index.html
            """
    )

    @OptionGroup var run: HybridRun

    func checkFlags() throws {
        try run.checkFlags()
        let refused: [(Bool, String)] = [
            (run.exitAfter != nil, "--exit-after"), (run.timeout != nil, "--timeout"), (run.printEvents, "--print-events"),
            (!run.call.isEmpty, "--call"), (run.automation, "--automation"),
        ]
        if let flag = refused.first(where: \.0)?.1 {
            throw ValidationError("\(flag) has no meaning for hybrid-run mcp: the agent decides what runs and when it ends")
        }
    }

    /// The run options, and whether a page opens at once (one was given).
    func options() throws -> (RunOptions, opensPage: Bool) {
        var run = self.run
        let given = try run.url ?? run.page ?? run.packageOptions.defaultPage(config: run.config)
        if given == nil { run.url = "about:blank" }
        return (try run.options(), given != nil)
    }
}
