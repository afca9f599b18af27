import Foundation

/// Where an app's window was and how large: what ``WebView/windowGeometry`` reads and
/// ``WebView/restoreWindowGeometry(_:)`` gives back at the next launch (stored as JSON).
public struct WindowGeometry: Sendable, Equatable, Codable {
    public var width: Int
    public var height: Int
    public var x: Int
    public var y: Int
    public var maximized: Bool

    public init(width: Int, height: Int, x: Int, y: Int, maximized: Bool) {
        self.width = width
        self.height = height
        self.x = x
        self.y = y
        self.maximized = maximized
    }

    /// The stored geometry, or nil when there is none or it is not usable (a damaged file, a
    /// window smaller than 100 px or larger than 32k: the defaults are better then).
    public static func read(from path: String) -> WindowGeometry? {
        guard let data = FileManager.default.contents(atPath: path),
              let geometry = try? JSONDecoder().decode(WindowGeometry.self, from: data),
              (100...32_768).contains(geometry.width), (100...32_768).contains(geometry.height),
              abs(geometry.x) <= 65_536, abs(geometry.y) <= 65_536 else { return nil }
        return geometry
    }

    /// Writes the geometry whole or not at all (a temporary file renamed over the old one).
    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
