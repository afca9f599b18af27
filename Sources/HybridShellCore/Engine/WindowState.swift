/// What the display shows of a view's window, as GDK reports it: for checking that kiosk settings
/// really took effect.
public struct WindowState: Sendable, Equatable {
    /// `GDK_WINDOW_STATE_FULLSCREEN` is set.
    public var fullscreen: Bool
    public var decorated: Bool
    public var width: Int
    public var height: Int
    /// The size of the monitor the window is on.
    public var screenWidth: Int
    public var screenHeight: Int
    /// The view's background colour as `#rrggbb`.
    public var background: String
    /// The page zoom level (1 = 100 %).
    public var zoomLevel: Double

    public init(fullscreen: Bool, decorated: Bool, width: Int, height: Int, screenWidth: Int, screenHeight: Int,
                background: String, zoomLevel: Double) {
        self.fullscreen = fullscreen
        self.decorated = decorated
        self.width = width
        self.height = height
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        self.background = background
        self.zoomLevel = zoomLevel
    }
}
