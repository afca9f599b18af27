import HybridShell

/// A request `hybrid-run webdriver` answers itself instead of forwarding it: a WebDriver error
/// (`{"value":{"error":…,"message":…,"stacktrace":""}}`, W3C WebDriver §6.6) with an HTTP status.
struct WebDriverRefusal: Equatable, Error {
    /// The HTTP status: 403 for requests a web browser made, 400/405/413 for malformed ones, 500
    /// ("session not created") for a session this proxy will not start.
    let status: Int
    /// The WebDriver error code ("invalid argument", "session not created", …).
    let error: String
    let message: String

    static func browserMade(_ message: String) -> WebDriverRefusal {
        WebDriverRefusal(status: 403, error: "unsupported operation",
                         message: "hybrid-run webdriver refuses requests made by a web browser: \(message)")
    }

    static func invalid(_ message: String, status: Int = 400) -> WebDriverRefusal {
        WebDriverRefusal(status: status, error: "invalid argument", message: message)
    }

    static func sessionNotCreated(_ message: String) -> WebDriverRefusal {
        WebDriverRefusal(status: 500, error: "session not created", message: message)
    }

    /// The whole HTTP response. The connection closes after it: the request's body, if any, was
    /// not read, so the next bytes on the connection are not a request.
    var response: [UInt8] {
        let body = JSONValue.object(["value": .object([
            "error": .string(error), "message": .string(message), "stacktrace": "",
        ])]).jsonText
        let head = "HTTP/1.1 \(status) \(Self.reason(status))\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n"
        return Array((head + body).utf8)
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 405: "Method Not Allowed"
        case 413: "Content Too Large"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Internal Server Error"
        }
    }
}
