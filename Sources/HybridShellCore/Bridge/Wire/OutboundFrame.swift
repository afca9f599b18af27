/// Down-frames as JSON text, assembled around payload text that is never re-encoded.
enum OutboundFrame {
    static func ready(session: String, maxPayload: Int, maxDepth: Int, timeoutMilliseconds: Int) -> String {
        #"{"t":"ready","session":"\#(session)","limits":{"maxPayload":\#(maxPayload),"maxDepth":\#(maxDepth)},"timeout":\#(timeoutMilliseconds)}"#
    }

    static func denied(_ error: BridgeError) -> String {
        #"{"t":"denied","code":"\#(error.code.rawValue)","message":\#(JSONValue.quoted(error.message))}"#
    }

    static func reply(id: Int, _ result: Result<RawJSON, BridgeError>) -> String {
        switch result {
        case .success(let data):
            return #"{"t":"reply","id":\#(id),"ok":true,"d":"# + data.text + "}"

        case .failure(let error):
            return #"{"t":"reply","id":\#(id),"ok":false,"e":\#(error.jsonText)}"#
        }
    }

    static func progress(id: Int, _ data: RawJSON) -> String {
        #"{"t":"progress","id":\#(id),"d":"# + data.text + "}"
    }

    /// Written into one string of the right size: a native call makes one per call.
    static func call(id: Int, handler: String, _ data: RawJSON, arguments: Bool = false) -> String {
        var text = ""
        text.reserveCapacity(40 + handler.utf8.count + data.utf8Count)
        text += #"{"t":"call","id":"#
        text += String(id)
        text += #","h":"#
        JSONValue.writeQuoted(handler, to: &text)
        text += #","d":"#
        text.append(contentsOf: data.storage)
        text += arguments ? #","args":true}"# : "}"
        return text
    }

    static func event(_ name: String, _ data: RawJSON) -> String {
        #"{"t":"event","n":\#(JSONValue.quoted(name)),"d":"# + data.text + "}"
    }

    /// The whole answer to a post native refuses.
    /// `[reply]`: the answer to a post with one call, built with one copy of a large payload.
    static func singleReply(id: Int, _ result: Result<RawJSON, BridgeError>) -> String {
        guard case .success(let data) = result else { return array([reply(id: id, result)]) }
        var text = ""
        text.reserveCapacity(40 + data.utf8Count)
        text += #"[{"t":"reply","id":"#
        text += String(id)
        text += #","ok":true,"d":"#
        text.append(contentsOf: data.storage)
        text += "}]"
        return text
    }

    static func refusal(_ error: BridgeError) -> String {
        #"[{"t":"error","code":"\#(error.code.rawValue)","message":\#(JSONValue.quoted(error.message))}]"#
    }

    static func array(_ frames: [String]) -> String {
        var text = "["
        text.reserveCapacity(frames.reduce(2) { $0 + $1.utf8.count + 1 })
        text.makeContiguousUTF8()
        for (index, frame) in frames.enumerated() {
            if index > 0 { text += "," }
            text += frame
        }
        text += "]"
        return text
    }
}
