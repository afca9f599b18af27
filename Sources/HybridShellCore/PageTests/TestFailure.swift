/// One failed expectation or thrown error inside a test, as the page's framework described it.
public struct TestFailure: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Equatable, Codable {
        /// An assertion that did not hold (JUnit `<failure>`).
        case assertion
        /// An exception, a rejected Promise or a framework timeout (JUnit `<error>`).
        case error
    }

    public var kind: Kind
    public var message: String
    public var stack: String?
    /// What the assertion got and wanted, as the page formatted them.
    public var actual: String?
    public var expected: String?

    public init(kind: Kind = .assertion, message: String, stack: String? = nil, actual: String? = nil, expected: String? = nil) {
        self.kind = kind
        self.message = message
        self.stack = stack
        self.actual = actual
        self.expected = expected
    }
}
