import HybridShell
import Testing

@Suite("Configuration files, TOML and JSON (pure)")
struct ConfigurationFileTests {
    func toml(_ text: String) throws(ShellError) -> ShellConfiguration {
        try ShellConfiguration.read(ConfigReader(ConfigDocument.parse(text, file: "app.toml", format: .toml)))
    }

    func json(_ text: String) throws(ShellError) -> ShellConfiguration {
        try ShellConfiguration.read(ConfigReader(ConfigDocument.parse(text, file: "app.json", format: .json)))
    }

    @Test func readsGlobalsAndPageOverrides() throws {
        let configuration = try toml("""
            # global defaults
            user_agent_suffix = "MyApp/1.2"
            timeout = 12.5
            dialogs = "dismiss"
            pool = 2
            max_pages = 4
            data_dir = "/var/lib/myapp"
            allow_origins = ["https://*.example.org"]

            [headers]
            X-Token = "1"

            [crash_recovery]
            max_reloads = 5
            window = 30

            [[page]]
            match = "https://shop.example/*"
            timeout = 3
            new_windows = "new-page"
            [page.headers]
            X-Shop = "yes"
            """)
        #expect(configuration.poolSize == 2)
        #expect(configuration.maxPages == 4)
        #expect(configuration.storage == .persistent(directory: "/var/lib/myapp"))
        #expect(configuration.crashRecovery.maxReloads == 5)
        #expect(configuration.crashRecovery.window == .seconds(30))
        let general = configuration.settings(for: "https://news.example/")
        #expect(general.userAgent == .appending("MyApp/1.2"))
        #expect(general.timeout == .milliseconds(12500))
        #expect(general.dialogs == .dismiss)
        #expect(general.headers == [WebRoute.Header(name: "X-Token", value: "1")])
        #expect(general.newWindows == .sameView)
        let shop = configuration.settings(for: "https://shop.example/cart")
        #expect(shop.timeout == .seconds(3))
        #expect(shop.newWindows == .newPage)
        #expect(shop.headers == [WebRoute.Header(name: "X-Shop", value: "yes")])
        #expect(shop.userAgent == .appending("MyApp/1.2"))
    }

    @Test func jsonReadsTheSameKeys() throws {
        let configuration = try json(#"{"pool": 0, "dialogs": "accept", "page": [{"match": "*", "inject": "after-load"}]}"#)
        #expect(configuration.poolSize == 0)
        #expect(configuration.settings(for: "https://a/").injection == .afterLoad)
    }

    @Test(arguments: [
        ("pool = 1\ncolour = \"red\"", "app.toml:2: colour: unknown key"),
        ("pool = \"two\"", "app.toml:1: pool: expected a whole number, got a string"),
        ("pool = 99", "app.toml:1: pool: must be between 0 and 16, not 99"),
        ("\n\ndialogs = \"maybe\"", "app.toml:3: dialogs: must be one of accept, dismiss, not \"maybe\""),
        ("timeout = true", "app.toml:1: timeout: expected a number of seconds, got a boolean"),
        ("[crash_recovery]\nmax_reload = 2", "app.toml:2: crash_recovery.max_reload: unknown key"),
        ("[headers]\nX-Bad = 1", "app.toml:2: headers.X-Bad: expected a string, got a number"),
        ("[[page]]\ntimeout = 3", "app.toml:1: page.0.match: each [[page]] needs a match pattern"),
        ("[[page]]\nmatch = \"*\"\n\n[[page]]\nmatch = \"x\"\nzoom = 2", "app.toml:6: page.1.zoom: unknown key"),
        ("allow_origins = [\"example.org\"]", "app.toml:1: allow_origins: origin pattern \"example.org\" needs a scheme"),
        ("user_agent = \"a\"\nuser_agent_suffix = \"b\"", "app.toml:2: user_agent_suffix: give user_agent or user_agent_suffix, not both"),
        ("pool = = 1", "app.toml:1: "),
        // A key inside a multi-line string is the string's text, not a key (issue 12, item 11).
        ("pool = 99\ndata_dir = \'\'\'\npool = 1\n\'\'\'", "app.toml:1: pool: must be between 0 and 16, not 99"),
        ("pool = 99\ndata_dir = \"\"\"\npool = 1\n\"\"\"\n", "app.toml:1: pool: must be between 0 and 16, not 99"),
    ])
    func tomlErrorsNameTheKeyAndLine(text: String, message: String) {
        do {
            _ = try toml(text)
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.description.hasPrefix(message), "got: \(error.description)")
        }
    }

    @Test(arguments: [
        ("{\n  \"pool\": 1,\n  \"zoom\": 2\n}", "app.json:3: zoom: unknown key"),
        ("{\n\"page\": [\n {\"match\": \"*\", \"timeout\": \"soon\"}\n]}", "app.json:3: page.0.timeout: expected a number of seconds, got a string"),
        ("{\"pool\": 1,}", "app.json:1: unexpected character '}'"),
        ("{\"pool\": 1, \"pool\": 2}", "app.json:1: duplicate key \"pool\""),
        ("[1]", "app.json:1: the configuration must be a JSON object"),
    ])
    func jsonErrorsNameTheKeyAndLine(text: String, message: String) {
        do {
            _ = try json(text)
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.description.hasPrefix(message), "got: \(error.description)")
        }
    }
}
