import HybridShell
import Foundation

/// Parses `WIDTHxHEIGHT` (`1280x800`).
enum ViewportSize {
    static func parse(_ text: String) throws(ShellError) -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (1...16384).contains(width), (1...16384).contains(height)
        else {
            throw .invalidArgument("--size takes WIDTHxHEIGHT with each side between 1 and 16384, not \(JSONValue.quoted(text))")
        }
        return (width, height)
    }
}
