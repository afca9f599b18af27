import Foundation

extension Duration {
    var secondsText: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }

    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }

    var millisecondsText: String { "\(Int(milliseconds.rounded())) ms" }

    var seconds: Double { milliseconds / 1000 }
}
