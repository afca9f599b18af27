import ArgumentParser

/// `--display`: where WebKit draws. `auto` uses the session's display when there is one and a
/// private Xvfb otherwise; `current` never starts one (no display is an error); `virtual` always does.
enum DisplayChoice: String, CaseIterable, Sendable, ExpressibleByArgument {
    case auto
    case current
    case virtual
}
