import HybridShellCore

extension KioskProfile {
    /// The kiosk an app runs as: `home` (its entry page, as it is served), the app's modules and
    /// capabilities, and the `[kiosk]` keys of its `app.toml` (the keys of a kiosk profile's
    /// `[kiosk]`; relative paths against the app's folder). Nil when the app has no `[kiosk]`.
    /// Every problem names the `app.toml`, the line and the key.
    public static func app(_ manifest: AppManifest, home: String) throws(ShellError) -> KioskProfile? {
        guard let kiosk = manifest.kiosk else { return nil }
        var profile = KioskProfile(home: home)
        profile.shell.modules = manifest.modules
        try profile.apply(kiosk, relativeTo: manifest.directory)
        return profile
    }
}
