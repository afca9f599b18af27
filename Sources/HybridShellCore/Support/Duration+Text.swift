import Foundation

/// How durations are written in messages and reports.
extension Duration {
    public var secondsText: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }

    public var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }

    public var millisecondsText: String { "\(Int(milliseconds.rounded())) ms" }

    public var seconds: Double { milliseconds / 1000 }
}
