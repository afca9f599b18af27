/// Why a private X server could not be had. Each is one line for `hybrid-run: error: …`.
enum VirtualDisplayError: Error, Equatable, CustomStringConvertible {
    /// No `Xvfb` on `PATH`.
    case notInstalled
    /// A temporary file or the process could not be made.
    case cannotPrepare(String)
    /// Xvfb exited before it named its display; its last stderr line, if any.
    case exited(String)
    /// Xvfb named no display within the deadline.
    case timedOut(Duration)

    var description: String {
        switch self {
        case .notInstalled:
            "no X display (DISPLAY is not set) and no Xvfb to start one: install it with: apt install xvfb (or run on a display, or under xvfb-run -a)"
        case .cannotPrepare(let reason):
            "cannot start a private X server (Xvfb): \(reason)"
        case .exited(let line):
            "the private X server (Xvfb) exited at start" + (line.isEmpty ? "" : ": \(line)")
        case .timedOut(let deadline):
            "the private X server (Xvfb) did not start within \(deadline.components.seconds) s"
        }
    }
}
