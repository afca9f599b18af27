/// One page `hybrid-run test` runs.
public struct TestPage: Sendable, Hashable {
    /// As reports name it: the path relative to the working directory, or the URL.
    public let name: String
    public let url: String

    public init(name: String, url: String) {
        self.name = name
        self.url = url
    }
}
