import Testing

/// `hybrid-run test` end to end. One run at a time: each run starts its own WebKit processes, and
/// dozens of them at once on a small CI machine would turn every deadline into a coin toss.
@Suite("hybrid-run test, end to end", .serialized)
struct PageTestCommandLineTests {}
