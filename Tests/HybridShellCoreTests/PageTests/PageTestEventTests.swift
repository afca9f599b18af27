@testable import HybridShellCore
import Testing

@Suite("Test adapter events: decoding and precise errors")
struct PageTestEventTests {
    func decode(_ text: String) throws -> PageTestEvent {
        try PageTestEvent(JSONParser().parse(text))
    }

    @Test func decodesEveryEvent() throws {
        #expect(try decode(#"{"event":"loaded","frameworks":["qunit"]}"#) == .loaded(frameworks: ["qunit"]))
        #expect(try decode(#"{"event":"runStart","framework":"mocha","version":null,"total":3}"#)
                == .runStart(framework: "mocha", version: nil, total: 3))
        #expect(try decode(#"{"event":"testStart","name":"a","suite":["s","t"]}"#) == .testStart(name: "a", suite: ["s", "t"]))
        #expect(try decode(#"{"event":"testEnd","name":"a","suite":[],"status":"failed","duration":1.5,"failures":[{"kind":"error","message":"m","stack":"s","actual":null,"expected":"2"}]}"#)
                == .testEnd(name: "a", suite: [], status: .failed, duration: 1.5,
                            failures: [TestFailure(kind: .error, message: "m", stack: "s", actual: nil, expected: "2")]))
        #expect(try decode(#"{"event":"runEnd","status":"passed","duration":2,"counts":{"passed":1,"failed":0,"skipped":2,"todo":0},"failures":[]}"#)
                == .runEnd(status: "passed", duration: 2, counts: .init(passed: 1, skipped: 2), failures: []))
        #expect(try decode(#"{"event":"list","tests":[{"name":"a","suite":["s"]}]}"#) == .list(tests: [("a", ["s"])]))
        #expect(try decode(#"{"event":"error","message":"broke","stack":null}"#) == .error(message: "broke", stack: nil))
    }

    @Test func stacksLoseTheFramesOfHybridShellsOwnScripts() {
        let stack = "AssertionError@user-script:8:964:10\nequal@user-script:8:980:31\n@file:///t/suite.html:23:19\nrun@user-script:8:1214:29"
        #expect(PageTestEvent.pageFrames(stack) == "@file:///t/suite.html:23:19")
        #expect(PageTestEvent.pageFrames("run@user-script:8:1:2") == nil)
        #expect(PageTestEvent.pageFrames("@file:///a.html:1:2\n@file:///b.js:3:4") == "@file:///a.html:1:2\n@file:///b.js:3:4")
        #expect(PageTestEvent.pageFrames(nil) == nil)
    }

    @Test(arguments: [
        (#"{"name":"a"}"#, "event.event: missing"),
        (#"{"event":"party"}"#, "event.event: unknown event \"party\""),
        (#"{"event":"testEnd","name":"a","status":"won"}"#, "event.status: expected passed, failed, skipped or todo, got \"won\""),
        (#"{"event":"testEnd","name":5,"status":"passed"}"#, "event.name: expected a string, got a number"),
        (#"{"event":"testEnd","name":"a","status":"passed","duration":-1}"#, "event.duration: expected a number of milliseconds, got a number"),
        (#"{"event":"testEnd","name":"a","status":"failed","failures":[{"kind":"oops"}]}"#, "event.failures[0].kind: expected assertion or error, got \"oops\""),
        (#"{"event":"testStart","name":"a","suite":[1]}"#, "event.suite[0]: expected a string, got a number"),
        (#"{"event":"runEnd","counts":{"passed":1.5}}"#, "event.counts.passed: expected a count, got 1.5"),
        (#"{"event":"list","tests":{}}"#, "event.tests: expected an array"),
        (#"[]"#, "event.event: missing"),
    ])
    func malformedEventsNameTheField(text: String, message: String) {
        #expect(throws: BridgeError(.invalidMessage, message)) { try decode(text) }
    }
}
