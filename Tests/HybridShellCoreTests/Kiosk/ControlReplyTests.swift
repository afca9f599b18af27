@testable import HybridShellCore
import Testing

@Suite("Control replies (pure)")
struct ControlReplyTests {
    @Test func buildsReplyLines() {
        #expect(ControlReply.ok() == #"{"ok":true}"#)
        #expect(ControlReply.ok(["url": "https://example.org/", "views": 1, "ok": false]) == #"{"ok":true,"url":"https://example.org/","views":1}"#)
        #expect(ControlReply.error("unknown command \"x\"\n") == #"{"error":"unknown command \"x\"\n","ok":false}"#)
    }

    @Test func readsReplyLines() throws {
        let success = try ControlReply(parsing: #"{"ok":true,"url":"https://example.org/"}"#)
        #expect(success.ok)
        #expect(success.error == nil)
        #expect(success.fields["url"] == "https://example.org/")

        let failure = try ControlReply(parsing: ControlReply.error("no page"))
        #expect(!failure.ok)
        #expect(failure.error == "no page")

        #expect(try ControlReply(parsing: #"{"ok":false}"#).error == nil)
    }

    @Test(arguments: [
        ("not json", "the kiosk's reply is not JSON (unexpected character 'o' at byte 1): not json"),
        ("[1]", "the kiosk's reply is an array, not a JSON object: [1]"),
        (#"{"ok":"yes"}"#, #"the kiosk's reply has no boolean "ok": {"ok":"yes"}"#),
        ("{}", #"the kiosk's reply has no boolean "ok": {}"#),
    ] as [(String, String)])
    func rejectsWhatIsNotAReply(line: String, message: String) {
        #expect(throws: ShellError.invalidArgument(message)) { try ControlReply(parsing: line) }
    }
}
