import ArgumentParser

/// The `--display` flag of the commands that open a web view (run, test, kiosk).
struct DisplayOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Where pages are drawn: auto (the session's Wayland or X11 display; a private Xvfb when there is neither, for a kiosk only with --check), current (the session's display, never Xvfb) or virtual (always a private Xvfb). Example: --display virtual",
        valueName: "auto|current|virtual"))
    var display: DisplayChoice = .auto
}
