extension ConfigReader {
    /// A string value that must name one of `type`'s values.
    public func choice<Choice: SettingChoice>(_ key: String, _ type: Choice.Type) throws(ShellError) -> Choice? {
        try choice(key, Choice.allCases.map(\.rawValue)).flatMap(Choice.init(rawValue:))
    }
}
