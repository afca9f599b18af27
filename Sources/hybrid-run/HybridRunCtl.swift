import ArgumentParser
import Foundation
import HybridShell

/// `hybrid-run ctl COMMAND [ARGUMENT]`: one request to a running kiosk over its control socket.
/// The flags only gather values; ``ControlRequest`` and ``ControlClient`` (in the library) do the work.
struct HybridRunCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Send one command to a running kiosk (hybrid-run kiosk) and print its JSON reply.",
        usage: "hybrid-run ctl [--socket PATH] [--timeout SECONDS] COMMAND [ARGUMENT]",
        discussion: """
            Commands:
              status               the kiosk's state (its reply has the details)
              open URL             load URL
              reload               reload the page
              home                 go back to the start page
              screenshot FILE.png  save a PNG of the page (a relative path is made absolute here, \
            and the rest of the line is the path, so it may contain spaces)
              quit                 stop the kiosk

            The reply, one line of JSON such as {"ok":true}, is printed to stdout. The default socket \
            is $XDG_RUNTIME_DIR/hybrid-run/kiosk.sock, or /tmp/hybrid-run-UID/kiosk.sock without \
            XDG_RUNTIME_DIR; only the kiosk's own user and root may use it. With the default socket, ctl \
            refuses a directory of another user or one others can write into, and a socket another \
            user serves.

            Examples:
              hybrid-run ctl status
              hybrid-run ctl open https://example.org/
              hybrid-run ctl --socket /run/kiosk/ctl.sock screenshot shots/front.png

            Exit codes: 0 done · 1 the kiosk refused (its error is on stderr) · 2 no kiosk reached, \
            or no reply · 4 usage error.
            """
    )

    @Option(name: .long, help: ArgumentHelp(
        "The kiosk's control socket (default: the kiosk's default, see above). Example: --socket /run/kiosk/ctl.sock", valueName: "path"))
    var socket: String?

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for the reply. Example: --timeout 30", valueName: "seconds"))
    var timeout: Double = 10

    @Argument(help: ArgumentHelp("The command and its argument. Example: open https://example.org/", valueName: "command"))
    var words: [String] = []

    /// The request, checked as the kiosk would check it, with a relative screenshot path resolved.
    func request(workingDirectory: String = FileManager.default.currentDirectoryPath) throws(ShellError) -> ControlRequest {
        guard !words.isEmpty else {
            throw .invalidArgument("no command given: the commands are \(ControlRequest.commandList)")
        }
        return try ControlRequest.parse(words.joined(separator: " ")).resolvingPaths(against: workingDirectory)
    }

    func timeoutDuration() throws(ShellError) -> Duration {
        guard timeout > 0, timeout.isFinite, timeout <= 86_400 else {
            throw .invalidArgument("--timeout takes a positive number of seconds up to 86400, not \(timeout)")
        }
        return .milliseconds(Int64((timeout * 1000).rounded()))
    }

    /// Sends the request and reports; returns the exit code. Needs no GLib loop: the client blocks.
    func execute() -> Int32 {
        let errors = OutputLines.standardError
        let request: ControlRequest
        let limit: Duration
        do {
            request = try self.request()
            limit = try timeoutDuration()
        } catch {
            errors.write("hybrid-run: error: \(error)")
            return ExitStatus.usage.rawValue
        }
        let line: String
        let reply: ControlReply
        do {
            // The default path may have been made by another user first: check whose it is.
            line = try ControlClient.send(request, socketPath: socket ?? ControlSocketPath.default, timeout: limit,
                                          trustedUser: socket == nil ? geteuid() : nil)
            OutputLines.standardOutput.write(line)
            reply = try ControlReply(parsing: line)
        } catch {
            errors.write("hybrid-run: error: \(error)")
            return ExitStatus.failure.rawValue
        }
        guard reply.ok else {
            errors.write("hybrid-run: error: \(reply.error ?? "the kiosk refused the request without saying why")")
            return Self.refused
        }
        return ExitStatus.success.rawValue
    }

    /// The kiosk answered, with `"ok":false`.
    static let refused: Int32 = 1
}
