extension BridgeCall {
    /// Shares a file with the calling document: a `hybrid-file://` URL valid for its origin and
    /// bridge session only (see ``FileShares``). Return the URL as the call's result; the page
    /// reads it with `fetch`, XHR or `<img>` — no base64 through the bridge. For `<video>`/`<audio>`,
    /// return ``FileShares/mediaURL(for:)`` of it too (a loopback http URL the media player plays).
    public func share(file path: String, name: String? = nil, contentType: String? = nil, in shares: FileShares,
                      lifetime: Duration? = nil) throws(ShellError) -> String {
        try shares.share(file: path, name: name, contentType: contentType, origin: origin,
                         session: sessionID.isEmpty ? nil : sessionID, lifetime: lifetime)
    }
}
