/// How one test ended, in the words every reporter uses.
public enum TestStatus: String, Sendable, Equatable, Codable, CaseIterable {
    case passed
    case failed
    /// Not run: `QUnit.skip`, Mocha's pending `it`/`.skip`, Jasmine's `xit`/pending.
    case skipped
    /// A test marked as not done yet (`QUnit.todo`, `hybrid.test.todo`); never fails the run.
    case todo
}
