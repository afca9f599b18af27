import ArgumentParser
import Logging
import HybridShell

/// `hybrid-run --url URL|PATH`: the main job. The flags only gather values; ``RunCommand`` (beside
/// it, over the library) does the work.
struct HybridRun: CheckedCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Open a web page in WebKitGTK, print its console, and exit with an honest code.",
        usage: """
            hybrid-run [run] [--url] URL-OR-PATH [options]
            hybrid-run test|kiosk|ctl|package|webdriver|mcp|doctor|init|dev|bundle|app|help …
            """,
        discussion: """
            Runs headless on the session's display (Wayland natively, or X11); without one it starts a \
            private Xvfb for the run (--display), so xvfb-run is optional. Console messages are \
            printed to stdout like WebKit's MiniBrowser prints them (url:line:column: CONSOLE LOG text). \
            run is the default subcommand: hybrid-run --url … is hybrid-run run --url ….

            Examples:
              xvfb-run -a hybrid-run pages/demo/index.html --exit-after load
              xvfb-run -a hybrid-run --url https://example.org/ --print-events
              hybrid-run --url app/index.html --window --data-dir ~/.local/share/app

            Exit codes: 0 ok · 2 load failed, web process crashed or no display · 3 timeout · 4 usage error.

            Other commands: hybrid-run test PAGES… runs test pages; hybrid-run kiosk runs one app full screen; \
            hybrid-run ctl talks to a running kiosk; hybrid-run package makes and installs offline packages; \
            hybrid-run webdriver serves WebDriver sessions; hybrid-run mcp serves a coding agent (Model Context \
            Protocol); hybrid-run doctor checks this machine; hybrid-run init, dev and bundle take an H5 \
            folder to an installed app, which hybrid-run app runs \
            (see hybrid-run help test, or hybrid-run test --help).
            """,
        version: "hybrid-run \(HybridShellVersion.current) (WebKitGTK \(WebContext.engineVersion))"
    )

    @Option(name: .long, help: ArgumentHelp(
        "The page: a URL (http, https, file, about, data) or a path to a local file or directory. Example: --url pages/demo/index.html",
        valueName: "url-or-path"))
    var url: String?

    @Argument(help: ArgumentHelp("The page, when --url is not given (a page named like a subcommand, such as test, is ./test or --url test). Example: hybrid-run index.html", valueName: "url-or-path"))
    var page: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Stop when the page has loaded (load), when it calls window.close() (close), or after a number of seconds. Default: run until the window closes or SIGINT/SIGTERM. Example: --exit-after load",
        valueName: "load|close|seconds"))
    var exitAfter: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Seconds --exit-after load|close may take before giving up with exit code 3. Default: 30 for load, none for close. Example: --timeout 10",
        valueName: "seconds"))
    var timeout: Double?

    @Flag(name: .long, help: "Show a real window instead of rendering offscreen. Example: --window")
    var window = false

    @OptionGroup var displayOption: DisplayOption

    @Option(name: .long, help: ArgumentHelp("Viewport size. Example: --size 1024x768", valueName: "WxH"))
    var size: String = "1280x800"

    @Option(name: .long, help: ArgumentHelp(
        "Replace the user agent entirely. Example: --user-agent 'Kiosk/1.0'", valueName: "string"))
    var userAgent: String?

    @Option(name: .long, help: ArgumentHelp(
        "Append an application token to WebKit's user agent. Example: --user-agent-suffix MyApp/1.2", valueName: "token"))
    var userAgentSuffix: String?

    @Option(name: .long, help: ArgumentHelp(
        "Keep cookies, local storage and caches in this directory (created if missing). Default: ephemeral, nothing is written. Also serves the offline packages installed there as app://APP-ID/. Example: --data-dir ~/.cache/myapp",
        valueName: "dir"))
    var dataDir: String?

    @Flag(name: .long, help: "Write every page event as one JSON object per line on stdout (console included) instead of console lines. Example: --print-events")
    var printEvents = false

    @Flag(name: .long, help: "Do not print the page's console messages. Example: --quiet")
    var quiet = false

    @Option(name: .long, help: ArgumentHelp(
        "How alert/confirm/prompt are answered: accept (OK, default text) or dismiss (Cancel, null). They never block. Example: --dialogs dismiss",
        valueName: "accept|dismiss"), completion: .list(DialogMode.allValueStrings))
    var dialogs: String?

    @Option(name: .long, help: ArgumentHelp(
        "What window.open and target=_blank do: same-view (load there), new-page (push a page) or deny. Example: --new-windows deny",
        valueName: "same-view|new-page|deny"), completion: .list(NewWindowMode.allValueStrings))
    var newWindows: String?

    @Option(name: .long, help: ArgumentHelp(
        "Fill a {placeholder} of the URL (repeatable; values are percent-encoded). Example: --url 'https://app.example/{lang}' --param lang=en",
        valueName: "name=value"))
    var param: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "An extra header on the page's main request (repeatable). Example: --header 'X-Token: 1'",
        valueName: "'Name: value'"))
    var header: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Read settings from a TOML or JSON file (flags win over it); see README. Example: --config app.toml",
        valueName: "file"))
    var config: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Keep this many views pre-warmed for new pages (default 1). Example: --pool 2", valueName: "n"))
    var pool: Int?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Reload a page whose web process died at most N times per 60 s, then fail with exit code 2 (default 3). Example: --max-reloads 0",
        valueName: "n"))
    var maxReloads: Int?

    @Option(name: .long, help: ArgumentHelp(
        "The least important log records printed on stderr: trace, debug, info (default), notice, warning, error or critical; --quiet keeps errors only. Example: --log-level debug",
        valueName: "level"))
    var logLevel: Logger.Level?

    @Flag(name: .long, help: "With --exit-after load|close, accept a page answered with HTTP 400 or more (pages meant to be error pages); otherwise that exits 2. Example: --allow-http-errors")
    var allowHTTPErrors = false

    @Flag(name: .long, help: "Let file: pages read other local files with fetch/XHR (off by default: it lets any file: page read any file you can). Example: --allow-file-access")
    var allowFileAccess = false

    @Flag(name: .long, help: "Keep no cookies, storage or cache on disk (the default unless --data-dir or a config file says otherwise). Example: --ephemeral")
    var ephemeral = false

    @Flag(name: .long, help: "New pages share the first page's web process: less memory, one crash takes all. Example: --shared-process")
    var sharedProcess = false

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
        "Serve a directory on a custom scheme as a secure origin (repeatable). Open it as SCHEME:///index.html; SCHEME://HOST/… serves the same files as origin SCHEME://HOST. Example: --dir-handler app:./dist --url app:///index.html",
        valueName: "scheme:path"))
    var dirHandler: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Enable built-in native modules (comma-separated, repeatable): storage, navigation, system, clipboard, http, files, ui, notification, print. Example: --modules storage,system,navigation",
        valueName: "names"))
    var modules: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Let documents of an origin use modules or single handlers (repeatable; the opened page's origin has every enabled module). Example: --grant 'https://*.example.org=storage,system'",
        valueName: "origin=modules"))
    var grant: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "When the bridge scripts are added: document-start (default) or after-load (legacy pages bootstrap themselves). Example: --inject after-load",
        valueName: "when"), completion: .list(BridgeConfiguration.Injection.allValueStrings))
    var inject: String?

    @Flag(name: .long, help: "Serve one WebDriver session: give hybrid-run to WebKitWebDriver as the webkitgtk:browserOptions binary with this argument (see docs/webdriver.md). Example: --automation")
    var automation = false

    @OptionGroup var packageOptions: PackageRunOptions

    func checkFlags() throws {
        try validateAutomation()
        if url != nil, page != nil { throw ValidationError("give the page once: either --url or as an argument, not both") }
        if userAgent != nil, userAgentSuffix != nil { throw ValidationError("--user-agent and --user-agent-suffix exclude each other") }
        if ephemeral, dataDir != nil { throw ValidationError("--ephemeral and --data-dir exclude each other") }
    }

    func options() throws -> RunOptions {
        guard let input = try url ?? page ?? packageOptions.defaultPage(config: config) else {
            throw ShellError.invalidArgument("no page given; use --url URL-OR-PATH (see hybrid-run --help)")
        }
        var parameters: [String: String] = [:]
        for pair in param {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw ShellError.invalidArgument("--param takes name=value, not \(JSONValue.quoted(pair))")
            }
            parameters[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        var route = WebRoute(input, parameters: parameters, headers: try header.map { try WebRoute.Header(parsing: $0) })
        var shell = try config.map { try ShellConfiguration.load(path: $0, extraSections: PackageServing.keys) } ?? ShellConfiguration()
        var overrides = PageSettings()
        if let userAgent { overrides.userAgent = .custom(userAgent) }
        if let userAgentSuffix { overrides.userAgent = .appending(userAgentSuffix) }
        try overrides.userAgent?.validate()
        if let dialogs { overrides.dialogs = try DialogMode.parse(dialogs, setting: "--dialogs") }
        if let newWindows { overrides.newWindows = try NewWindowMode.parse(newWindows, setting: "--new-windows") }
        if let inject { overrides.injection = try BridgeConfiguration.Injection.parse(inject, setting: "--inject") }
        if !allowOrigin.isEmpty {
            overrides.allowedOrigins = (shell.defaults.allowedOrigins ?? []) + (try allowOrigin.map { try OriginPattern(parsing: $0) })
        }
        if !modules.isEmpty {
            shell.modules.enabled = try BuiltinModule.parseList(modules.flatMap { $0.split(separator: ",").map(String.init) }, what: "--modules")
        }
        let grants = try grant.map { try Capability(grant: $0) }
        for capability in grants {
            _ = try BuiltinModule.parseList(capability.modules.sorted() + capability.handlers.sorted().map { String($0.prefix { $0 != "." }) },
                                            what: "--grant")
        }
        shell.modules.capabilities += grants
        if !grants.isEmpty {
            overrides.allowedOrigins = (overrides.allowedOrigins ?? shell.defaults.allowedOrigins ?? []) + grants.flatMap(\.origins)
        }
        shell.defaults = shell.defaults.overridden(by: overrides)
        for mount in dirHandler {
            shell.dirHandlers.append(try DirectoryMount(parsing: mount, relativeTo: PageLocation.currentDirectory))
        }
        route.customSchemes = shell.customSchemes
        if let dataDir { shell.storage = .persistent(directory: dataDir) }
        if ephemeral { shell.storage = .ephemeral }
        if let pool {
            guard ShellConfiguration.poolSizes.contains(pool) else {
                throw ShellError.invalidArgument("--pool takes \(ShellConfiguration.poolSizes.lowerBound) to \(ShellConfiguration.poolSizes.upperBound) views, not \(pool)")
            }
            shell.poolSize = pool
        }
        if let maxReloads {
            guard (0...100).contains(maxReloads) else { throw ShellError.invalidArgument("--max-reloads takes 0 to 100, not \(maxReloads)") }
            shell.crashRecovery.maxReloads = maxReloads
        }
        if sharedProcess { shell.sharedProcess = true }
        if allowFileAccess { shell.allowFileAccess = true }
        shell.window = window ? .visible() : .offscreen
        let (width, height) = try ViewportSize.parse(size)
        shell.width = width
        shell.height = height
        let packageRun = try packageOptions.apply(to: &shell, route: &route, config: config)
        // Check the route (placeholders, URL, headers) before anything starts.
        let settings = shell.settings(for: try route.request().url)
        if let timeout = settings.timeout { route.timeout = timeout }
        _ = try route.request()

        var options = RunOptions(route: route)
        options.shell = shell
        options.packages = packageRun
        if let exitAfter { options.exitAfter = try ExitCondition(parsing: exitAfter) }
        if let timeout {
            guard timeout > 0, timeout.isFinite else { throw ShellError.invalidArgument("--timeout must be a positive number of seconds") }
            options.timeout = .milliseconds(Int64(timeout * 1000))
        }
        options.printEvents = printEvents
        options.printConsole = !quiet
        options.shell.developerExtras = inspector
        if let handlers { options.mockHandlers = try MockHandlers.load(path: handlers) }
        options.calls = try call.map(CallArgument.parse)
        options.bridgeLog = bridgeLog
        options.allowHTTPErrors = allowHTTPErrors
        return options
    }
}
