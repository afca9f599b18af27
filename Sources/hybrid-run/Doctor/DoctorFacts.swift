/// What `hybrid-run doctor` found on this machine, gathered by ``DoctorProbes`` and judged by
/// ``DoctorVerdicts``. Optional facts are nil when the tool that finds them is missing.
struct DoctorFacts: Equatable, Sendable {
    struct Display: Equatable, Sendable {
        var x11: String?
        var wayland: String?
        var gdkBackend: String?
        /// `Xvfb` on PATH.
        var xvfb: String?
        /// The display GTK opened for the renderer check (":N", or "virtual :N"), or why it could not.
        var opened: Result<String, Problem>?
    }

    enum Paint: Equatable, Sendable {
        /// The probe page's colour read back from a snapshot (0xRRGGBB).
        case read(UInt32)
        case failed(String)
        case notTried
    }

    struct Renderer: Equatable, Sendable {
        var paint: Paint = .notTried
        /// WEBKIT_DISABLE_DMABUF_RENDERER as a run sees it (hybrid-run sets it for offscreen runs).
        var dmabufDisabledByEnvironment = false
        /// An accessible GPU render node (/dev/dri/renderD*), if any.
        var renderNode: String?
        var onVirtualDisplay = false
    }

    struct DataDirectory: Equatable, Sendable {
        var path: String
        var exists: Bool
        var isDirectory: Bool
        /// The directory, or when it is missing its nearest existing ancestor, can be written.
        var writable: Bool
    }

    /// A one-line reason something could not be found or done.
    struct Problem: Error, Equatable, Sendable {
        let message: String
        init(_ message: String) { self.message = message }
    }

    var display = Display()
    var webKitVersion = ""
    var renderer = Renderer()
    /// GStreamer element names found by `gst-inspect-1.0`.
    var gstreamerElements: Set<String>?
    var webDriver: String?
    /// `fc-match`'s answer for sans-serif ("" when it found none).
    var font: String?
    /// `bwrap` on PATH, and whether it could start a trivial sandbox.
    var bubblewrap: String?
    var bubblewrapWorks = false
    var dataDirectory = DataDirectory(path: "", exists: false, isDirectory: false, writable: false)
    var temporaryDirectoryWritable = true
}
