import HybridShell
/// The few terminal colours the console reporters use, for pass/fail marks only.
enum ANSIColor: String {
    case red = "31"
    case green = "32"
    case yellow = "33"

    /// `text` wrapped in this colour's escape sequence when `enabled`, unchanged otherwise.
    func paint(_ text: String, if enabled: Bool) -> String {
        enabled ? "\u{1B}[\(rawValue)m\(text)\u{1B}[0m" : text
    }
}
