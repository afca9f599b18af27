import Foundation
@testable import HybridShellCore
import Testing

@Suite("print.page: where a page may print, and notification.show's arguments")
struct PrintPolicyTests {
    static let directory: String = {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("print-policy-\(getpid())")
        try? FileManager.default.createDirectory(atPath: path + "/sub", withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: path + "/escape")
        try? FileManager.default.createSymbolicLink(atPath: path + "/escape", withDestinationPath: "/etc")
        try? FileManager.default.removeItem(atPath: path + "/link.pdf")
        try? FileManager.default.createSymbolicLink(atPath: path + "/link.pdf", withDestinationPath: "/etc/hostname")
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }()

    func decide(_ json: String, dialog: Bool = true) -> Result<PrintTarget, BridgeError> {
        let policy = PrintPolicy(directories: [Self.directory], printers: ["receipts"], dialogAllowed: dialog)
        return Result { () throws(BridgeError) in try policy.decide(RawJSON(unchecked: json)) }
    }

    func reason(_ result: Result<PrintTarget, BridgeError>) -> String? {
        if case .failure(let error) = result { return error.details?["reason"]?.stringValue ?? error.code.rawValue }
        return nil
    }

    @Test func filesInsidePrintDirsAndListedPrintersAreAllowed() throws {
        #expect(try decide(#"{"file":"\#(Self.directory)/a.pdf"}"#).get() == .file(path: Self.directory + "/a.pdf"))
        #expect(try decide(#"{"file":"\#(Self.directory)/sub/b.PDF","silent":true}"#).get() == .file(path: Self.directory + "/sub/b.PDF"))
        #expect(try decide(#"{"printer":"receipts","silent":true}"#).get() == .printer(name: "receipts"))
        #expect(try decide(#"{"printer":"office"}"#).get() == .dialog(printer: "office"))
        #expect(try decide("null").get() == .dialog(printer: nil))
    }

    @Test(arguments: [
        ("{\"file\":\"/tmp/x.pdf\"}", "pathNotAllowed"),
        ("{\"file\":\"DIR/../x.pdf\"}", "pathNotAllowed"),
        ("{\"file\":\"DIR//x.pdf\"}", "pathNotAllowed"),
        ("{\"file\":\"DIR/.x.pdf\"}", "pathNotAllowed"),
        ("{\"file\":\"DIR/escape/x.pdf\"}", "pathNotAllowed"),    // a link out of the directory
        ("{\"file\":\"DIR/link.pdf\"}", "pathNotAllowed"),        // an existing link is never written through
        ("{\"file\":\"DIR/missing/x.pdf\"}", "pathNotAllowed"),
        ("{\"file\":\"DIR/x.txt\"}", "INVALID_MESSAGE"),
        ("{\"file\":\"x.pdf\"}", "INVALID_MESSAGE"),
        ("{\"file\":\"DIR/x.pdf\",\"printer\":\"receipts\"}", "INVALID_MESSAGE"),
        ("{\"printer\":\"office\",\"silent\":true}", "printerNotAllowed"),
        ("{\"silent\":true}", "INVALID_MESSAGE"),
        ("{\"printer\":\"\"}", "INVALID_MESSAGE"),
        ("{\"copies\":2}", "INVALID_MESSAGE"),
    ])
    func refusals(json: String, expected: String) {
        #expect(reason(decide(json.replacingOccurrences(of: "DIR", with: Self.directory))) == expected, "\(json)")
    }

    @Test func aKioskShowsNoDialog() throws {
        #expect(reason(decide("{}", dialog: false)) == "dialogNotAllowed")
        #expect(try decide(#"{"printer":"receipts","silent":true}"#, dialog: false).get() == .printer(name: "receipts"))
    }

    @Test func notificationArgumentsAreChecked() throws {
        let parsed = try NotificationRequest.parse(RawJSON(unchecked: #"{"title":"t","actions":[{"id":"open","label":"Open"}]}"#))
        #expect(parsed == NotificationRequest(title: "t", body: "", actions: [.init(id: "open", label: "Open")]))
        for bad in [#"{"body":"no title"}"#, #"{"title":"t","icon":"/etc/passwd"}"#, #"{"title":"t","icon":"../x"}"#,
                    #"{"title":"t","actions":[{"id":"a","label":"A"},{"id":"a","label":"B"}]}"#,
                    #"{"title":"t","actions":[{"id":"a"}]}"#, #"{"title":"t","actions":"open"}"#, #"{"title":"t","extra":1}"#] {
            #expect(throws: BridgeError.self, "\(bad)") { try NotificationRequest.parse(RawJSON(unchecked: bad)) }
        }
    }
}
