import Foundation

/// The built-in error page shown when a page cannot be recovered (texts are escaped, not spliced).
package enum ErrorPage {
    /// - Parameter background: `#rrggbb`; a dark one gets light text.
    package static func html(title: String, message: String, background: String = "#f4f4f4") -> String {
        let dark = Int(background.dropFirst().prefix(2), radix: 16).map { $0 < 0x80 } ?? false
        return """
        <!doctype html><html><head><meta charset="utf-8"><title>\(escape(title))</title>
        <style>body{font:18px/1.5 sans-serif;margin:15vh auto;max-width:40em;color:\(dark ? "#ddd" : "#333");background:\(escape(background))}</style>
        </head><body><h1>\(escape(title))</h1><p>\(escape(message))</p></body></html>
        """
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
