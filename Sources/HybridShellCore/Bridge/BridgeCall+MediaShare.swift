extension BridgeCall {
    /// Shares an audio or video file with the calling document for `<video>`/`<audio>`: its
    /// `hybrid-file://` URL (``share(file:name:contentType:in:lifetime:)``, for `fetch`) and the
    /// loopback `http://127.0.0.1` URL the media element plays and seeks
    /// (``FileShares/mediaURL(for:)``; nil when the type is not `audio/*` or `video/*`). Both use
    /// one token and end together: revoked, expired, or with this bridge session.
    @EngineActor
    public func shareMedia(file path: String, name: String? = nil, contentType: String? = nil, in shares: FileShares,
                           lifetime: Duration? = nil) throws(ShellError) -> (url: String, mediaURL: String?) {
        let url = try share(file: path, name: name, contentType: contentType, in: shares, lifetime: lifetime)
        return (url, try shares.mediaURL(for: url))
    }
}
