import HybridShell
import Testing

@Suite("Kiosk policies: input, allow-list, permissions")
struct KioskPolicyTests {
    static let locked = KioskInputPolicy()

    @Test(arguments: [
        (InputEvent.key("F5", modifiers: []), "F5 (reload)"),
        (.key("r", modifiers: .control), "ctrl+r (reload)"),
        (.key("R", modifiers: [.control, .shift]), "ctrl+shift+r (reload)"),
        (.key("Left", modifiers: .alt), "alt+Left (back)"),
        (.key("Right", modifiers: .alt), "alt+Right (forward)"),
        (.key("F12", modifiers: []), "F12 (devtools)"),
        (.key("I", modifiers: [.control, .shift]), "ctrl+shift+i (devtools)"),
        (.key("p", modifiers: .control), "ctrl+p (print)"),
        (.key("w", modifiers: .control), "ctrl+w (close)"),
        (.key("u", modifiers: .control), "ctrl+u (view source)"),
        (.key("plus", modifiers: .control), "ctrl+plus (zoom)"),
        (.key("minus", modifiers: .control), "ctrl+minus (zoom)"),
        (.key("0", modifiers: .control), "ctrl+0 (zoom)"),
        (.button(8, modifiers: []), "mouse button 8 (back)"),
        (.button(9, modifiers: []), "mouse button 9 (forward)"),
        (.scroll(modifiers: .control), "ctrl+scroll (zoom)"),
        (.pinch, "pinch (zoom)"),
    ] as [(InputEvent, String)])
    func lockedDownBlocks(event: InputEvent, reason: String) {
        #expect(Self.locked.decide(event) == .block(reason))
    }

    @Test(arguments: [
        InputEvent.key("r", modifiers: []), .key("Left", modifiers: []), .key("BackSpace", modifiers: []),
        .key("c", modifiers: .control), .key("v", modifiers: .control), .key("a", modifiers: .control),
        .key("Return", modifiers: []), .button(1, modifiers: []), .button(3, modifiers: []),
        .scroll(modifiers: []), .scroll(modifiers: .shift), .touch, .motion,
    ])
    func ordinaryInputPasses(event: InputEvent) {
        #expect(Self.locked.decide(event) == .pass)
    }

    @Test func allowedShortcutsAndZoomPass() {
        let policy = KioskInputPolicy(zoom: true, allowedShortcuts: [.reload, .back])
        #expect(policy.decide(.key("F5", modifiers: [])) == .pass)
        #expect(policy.decide(.key("Left", modifiers: .alt)) == .pass)
        #expect(policy.decide(.button(8, modifiers: [])) == .pass)
        #expect(policy.decide(.key("plus", modifiers: .control)) == .pass)
        #expect(policy.decide(.pinch) == .pass)
        #expect(policy.decide(.key("F12", modifiers: [])) == .block("F12 (devtools)"))
        #expect(policy.decide(.button(9, modifiers: [])) == .block("mouse button 9 (forward)"))
    }

    @Test(arguments: [
        ("https://app.example:8443/kiosk/index.html?x=1", "https://app.example:8443/*"),
        ("http://127.0.0.1:8000/", "http://127.0.0.1:8000/*"),
        ("file:///opt/app/index.html", "file:///opt/app/*"),
        ("file:///opt/app/index.html?mode=lobby#top", "file:///opt/app/*"),
    ])
    func defaultAllowListIsTheHomesOrigin(home: String, pattern: String) {
        #expect(KioskAllowList(home: home, patterns: []).patterns == [pattern])
    }

    @Test func allowListAdmitsHomeAboutAndPatternsOnly() {
        let list = KioskAllowList(home: "https://app.example/index.html", patterns: ["https://login.example/*", "https://app.example/kiosk/*"])
        #expect(list.allows("https://app.example/index.html"))
        #expect(list.allows("about:blank"))
        #expect(list.allows("https://login.example/sso?return=1"))
        #expect(list.allows("https://app.example/kiosk/menu"))
        #expect(!list.allows("https://app.example/admin"))
        #expect(!list.allows("https://login.example.evil.test/"))
        #expect(!list.allows("https://evil.test/?https://login.example/"))
    }

    @Test func permissionsAreGrantedOnlyAsListed() throws {
        let permissions = KioskPermissions(grants: [
            (try OriginPattern(parsing: "https://maps.example"), ["geolocation"]),
            (try OriginPattern(parsing: "https://*.cams.example"), ["camera", "microphone"]),
            (try OriginPattern(parsing: "file://"), ["*"]),
        ])
        #expect(permissions.allows(PermissionRequest(kind: .geolocation, origin: "https://maps.example")))
        #expect(!permissions.allows(PermissionRequest(kind: .notifications, origin: "https://maps.example")))
        #expect(!permissions.allows(PermissionRequest(kind: .geolocation, origin: "https://maps.example:8443")))
        #expect(permissions.allows(PermissionRequest(kind: .camera, origin: "https://lobby.cams.example")))
        #expect(permissions.allows(PermissionRequest(kind: .clipboard, origin: "file://")))
        #expect(!permissions.allows(PermissionRequest(kind: .geolocation, origin: "null")))
        #expect(!KioskPermissions().allows(PermissionRequest(kind: .notifications, origin: "https://maps.example")))
    }
}
