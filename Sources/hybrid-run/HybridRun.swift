import ArgumentParser
import HybridShell

/// `hybrid-run --url URL|PATH`: the main job. The flags only gather values; ``RunCommand`` (in the
/// library) does the work.
struct HybridRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hybrid-run",
        abstract: "Open a web page in WebKitGTK, print its console, and exit with an honest code.",
        discussion: """
            Runs headless under an X display (Xvfb in CI: xvfb-run -a hybrid-run …). Console messages are \
            printed to stdout like WebKit's MiniBrowser prints them (url:line:column: CONSOLE LOG text).

            Examples:
              xvfb-run -a hybrid-run --url pages/demo/index.html --exit-after load
              xvfb-run -a hybrid-run --url https://example.org/ --print-events --exit-after 5
              hybrid-run --url app/index.html --window --data-dir ~/.local/share/myapp

            Exit codes: 0 ok · 2 load failed, web process crashed or no display · 3 timeout · 4 usage error.
            """,
        version: "hybrid-run 0.1 (WebKitGTK \(WebContext.engineVersion))"
    )

    @Option(name: .long, help: ArgumentHelp(
        "The page: a URL (http, https, file, about, data) or a path to a local file or directory. Example: --url pages/demo/index.html",
        valueName: "url-or-path"))
    var url: String?

    @Argument(help: ArgumentHelp("The page, when --url is not given. Example: hybrid-run index.html", valueName: "url-or-path"))
    var page: String?

    @Option(name: .long, help: ArgumentHelp(
        "Stop when the page has loaded (load), when it calls window.close() (close), or after a number of seconds. Default: run until the window closes or SIGINT/SIGTERM. Example: --exit-after load",
        valueName: "load|close|seconds"))
    var exitAfter: String?

    @Option(name: .long, help: ArgumentHelp(
        "Seconds --exit-after load|close may take before giving up with exit code 3. Default: 30 for load, none for close. Example: --timeout 10",
        valueName: "seconds"))
    var timeout: Double?

    @Flag(name: .long, help: "Show a real window instead of rendering offscreen. Example: --window")
    var window = false

    @Option(name: .long, help: ArgumentHelp("Viewport size. Example: --size 1024x768", valueName: "WxH"))
    var size: String = "1280x800"

    @Option(name: .long, help: ArgumentHelp(
        "Replace the user agent entirely. Example: --user-agent 'Kiosk/1.0'", valueName: "string"))
    var userAgent: String?

    @Option(name: .long, help: ArgumentHelp(
        "Append an application token to WebKit's user agent. Example: --user-agent-suffix MyApp/1.2", valueName: "token"))
    var userAgentSuffix: String?

    @Option(name: .long, help: ArgumentHelp(
        "Keep cookies, local storage and caches in this directory (created if missing). Default: ephemeral, nothing is written. Example: --data-dir ~/.cache/myapp",
        valueName: "dir"))
    var dataDir: String?

    @Flag(name: .long, help: "Write every page event as one JSON object per line on stdout (console included) instead of console lines. Example: --print-events")
    var printEvents = false

    @Flag(name: .long, help: "Do not print the page's console messages. Example: --quiet")
    var quiet = false

    @Option(name: .long, help: ArgumentHelp(
        "How alert/confirm/prompt are answered: accept (OK, default text) or dismiss (Cancel, null). They never block. Example: --dialogs dismiss",
        valueName: "accept|dismiss"))
    var dialogs: String = "accept"

    @Option(name: .long, help: ArgumentHelp(
        "What window.open and target=_blank do: same-view (load there) or deny. Example: --new-windows deny",
        valueName: "same-view|deny"))
    var newWindows: String = "same-view"

    @Flag(name: .long, help: "Allow the Web Inspector (developer extras). Example: --inspector --window")
    var inspector = false

    @Option(name: .long, help: ArgumentHelp(
        "Fake native handlers from a JSON file: name → {\"result\": …}, {\"error\": {\"code\", \"message\"}} or {\"echo\": true}. Example: --handlers mocks.json",
        valueName: "file"))
    var handlers: String?

    @Option(name: .long, help: ArgumentHelp(
        "Once the page's bridge is ready, call its handler NAME with JSON and print the reply as one JSON line (repeatable). Example: --call 'cart.total={\"currency\":\"EUR\"}'",
        valueName: "name=json"))
    var call: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Write a JSONL transcript of every bridge message (direction, session, handler, size, latency, outcome). Example: --bridge-log bridge.jsonl",
        valueName: "file"))
    var bridgeLog: String?

    @Option(name: .long, help: ArgumentHelp(
        "Also give documents from these origins a working bridge (repeatable; * and *.domain allowed). Example: --allow-origin 'https://*.example.org'",
        valueName: "pattern"))
    var allowOrigin: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "When the bridge scripts are added: document-start (default) or after-load (legacy pages bootstrap themselves). Example: --inject after-load",
        valueName: "when"))
    var inject: String = "document-start"

    func validate() throws {
        if url != nil, page != nil { throw ValidationError("give the page once: either --url or as an argument, not both") }
        if userAgent != nil, userAgentSuffix != nil { throw ValidationError("--user-agent and --user-agent-suffix exclude each other") }
    }

    func options() throws -> RunOptions {
        guard let input = url ?? page else {
            throw ShellError.invalidArgument("no page given; use --url URL-OR-PATH (see hybrid-run --help)")
        }
        var options = RunOptions(url: try PageLocation.resolve(input, currentDirectory: FileManagerPath.current))
        if let exitAfter { options.exitAfter = try ExitCondition(parsing: exitAfter) }
        if let timeout {
            guard timeout > 0, timeout.isFinite else { throw ShellError.invalidArgument("--timeout must be a positive number of seconds") }
            options.timeout = .milliseconds(Int64(timeout * 1000))
        } else if options.exitAfter == .load {
            options.timeout = .seconds(30)
        }
        let (width, height) = try ViewportSize.parse(size)
        options.width = width
        options.height = height
        options.window = window ? .visible() : .offscreen
        if let userAgent { options.userAgent = .custom(userAgent) }
        if let userAgentSuffix { options.userAgent = .appending(userAgentSuffix) }
        try options.userAgent.validate()
        if let dataDir { options.storage = .persistent(directory: dataDir) }
        options.printEvents = printEvents
        options.printConsole = !quiet
        switch dialogs {
        case "accept": options.dialogPolicy = .automatic(confirm: true, prompt: .defaultText)
        case "dismiss": options.dialogPolicy = .automatic(confirm: false, prompt: .cancel)
        default: throw ShellError.invalidArgument("--dialogs takes accept or dismiss, not \(JSONValue.quoted(dialogs))")
        }
        switch newWindows {
        case "same-view": options.newWindowPolicy = .sameView
        case "deny": options.newWindowPolicy = .deny
        default: throw ShellError.invalidArgument("--new-windows takes same-view or deny, not \(JSONValue.quoted(newWindows))")
        }
        options.developerExtras = inspector
        if let handlers { options.mockHandlers = try MockHandlers.load(path: handlers) }
        options.calls = try call.map(CallArgument.parse)
        options.bridgeLog = bridgeLog
        options.allowedOrigins = try allowOrigin.map { try OriginPattern(parsing: $0) }
        switch inject {
        case "document-start": options.injection = .documentStart
        case "after-load": options.injection = .afterLoad
        default: throw ShellError.invalidArgument("--inject takes document-start or after-load, not \(JSONValue.quoted(inject))")
        }
        return options
    }
}
