import Foundation

/// The text files of an app's `.deb`, each from its ``AppManifest``: the launcher, the desktop
/// entry, the AppStream metainfo, the Debian control, copyright and changelog, the kiosk unit.
extension AppBundle {
    /// `/usr/bin/<command>`: runs the installed app; deep links and files arrive as arguments.
    var launcher: String {
        """
        #!/bin/sh
        # \(oneLine(app.name)): the installed app (/usr/share/\(app.id)/app.toml), run by \(runner.package).
        exec /usr/bin/\(runner.package) app \(installedManifest) "$@"

        """
    }

    /// `/usr/share/applications/<id>.desktop`. `%u` hands a deep link to the launcher (without it
    /// desktops open the app but drop the URL); one `x-scheme-handler` per declared scheme.
    var desktopEntry: String {
        var lines = ["[Desktop Entry]", "Type=Application", "Name=\(desktopValue(app.name))"]
        if let summary = app.summary { lines.append("Comment=\(desktopValue(summary))") }
        lines += ["Exec=\(app.command) %u", "Icon=\(app.id)", "Terminal=false", "Categories=Utility;", "StartupNotify=true"]
        if !app.schemes.isEmpty { lines.append("MimeType=" + app.schemes.map { "x-scheme-handler/\($0);" }.joined()) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `/usr/share/metainfo/<id>.metainfo.xml` (AppStream 1.0: what software centres show).
    var metainfo: String {
        let paragraphs = paragraphs(app.description ?? app.summary ?? app.name)
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<component type="desktop-application">"#,
            "  <id>\(xml(app.id))</id>",
            "  <metadata_license>CC0-1.0</metadata_license>",
            "  <project_license>\(xml(app.license ?? "LicenseRef-proprietary"))</project_license>",
            "  <name>\(xml(app.name))</name>",
            "  <summary>\(xml(app.summary ?? app.name))</summary>",
            "  <description>",
        ] + paragraphs.map { "    <p>\(xml($0))</p>" } + [
            "  </description>",
            #"  <launchable type="desktop-id">\#(xml(app.id)).desktop</launchable>"#,
        ]
        if let maintainer = app.maintainer { lines.append("  <developer_name>\(xml(personName(maintainer)))</developer_name>") }
        if let homepage = app.homepage { lines.append(#"  <url type="homepage">\#(xml(homepage.absoluteString))</url>"#) }
        lines += ["  <provides>", "    <binary>\(xml(app.command))</binary>", "  </provides>"]
        lines += [#"  <content_rating type="oars-1.1"/>"#, "  <releases>",
                  #"    <release version="\#(xml(app.version))" date="\#(day)"/>"#, "  </releases>", "</component>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `DEBIAN/control`.
    func control(installedSize: Int) -> String {
        let summary = oneLine(app.summary ?? app.name)
        let long = paragraphs(app.description ?? summary).map { wrapped($0, width: 78).map { " " + $0 }.joined(separator: "\n") }
            .joined(separator: "\n .\n")
        var fields = [
            "Package: \(debianPackage)", "Version: \(app.version)", "Architecture: amd64",
            "Maintainer: \(oneLine(app.maintainer ?? "\(app.name) <\(app.command)@localhost.invalid>"))",
            "Installed-Size: \(installedSize)", "Depends: \(runner.package) (>= \(runner.version))", "Section: web", "Priority: optional",
        ]
        if let homepage = app.homepage { fields.append("Homepage: \(homepage.absoluteString)") }
        fields.append("Description: \(summary)")
        return fields.joined(separator: "\n") + "\n" + long + "\n"
    }

    /// `/usr/share/doc/<package>/copyright` (machine-readable, DEP-5).
    var copyright: String {
        let holder = oneLine(app.maintainer ?? app.name)
        let license = oneLine(app.license ?? "LicenseRef-proprietary")
        return """
            Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
            Upstream-Name: \(oneLine(app.name))

            Files: *
            Copyright: \(year) \(holder)
            License: \(license)
             See the app's documentation\(app.homepage.map { " (\($0.absoluteString))" } ?? "") for the license text.

            """
    }

    /// `/usr/share/doc/<package>/changelog.gz`'s text (a native package: the version has no revision).
    var changelog: String {
        """
        \(debianPackage) (\(app.version)) unstable; urgency=medium

          * Bundled by \(runner.package) \(runner.version).

         -- \(oneLine(app.maintainer ?? "\(app.name) <\(app.command)@localhost.invalid>"))  \(rfc2822)

        """
    }

    /// `/lib/systemd/system/<package>-kiosk.service`: the app full screen as a kiosk (`--kiosk`),
    /// like hybrid-run-kiosk@.service: watchdog, restart, a private runtime directory.
    var kioskUnit: String {
        """
        # \(oneLine(app.name)) as a kiosk: systemctl enable --now \(debianPackage)-kiosk. Set the user and the display
        # with systemctl edit \(debianPackage)-kiosk ([Service] User=…, Environment=DISPLAY=…).
        [Unit]
        Description=\(oneLine(app.name)) kiosk
        After=graphical.target
        Wants=graphical.target

        [Service]
        Type=notify
        NotifyAccess=main
        WatchdogSec=30
        Restart=on-failure
        RestartSec=2
        Environment=DISPLAY=:0
        Environment=WEBKIT_A11Y_BUS_ADDRESS=
        StateDirectory=\(debianPackage)
        RuntimeDirectory=\(debianPackage)-kiosk
        RuntimeDirectoryMode=0700
        ExecStart=/usr/bin/\(runner.package) kiosk --config /usr/share/\(app.id)/kiosk.toml --control-socket %t/\(debianPackage)-kiosk/ctl.sock
        TimeoutStopSec=15

        [Install]
        WantedBy=graphical.target

        """
    }

    /// `/usr/share/man/man1/<command>.1.gz`'s text: what the command runs and takes.
    var manPage: String {
        let name = roff(app.name), command = roff(app.command)
        let summary = roff(app.summary ?? app.name)
        let schemes = app.schemes.map { "\\fB\(roff($0))://\\fR" }.joined(separator: ", ")
        return """
            .TH "\(command.uppercased())" 1 "\(day)" "\(name) \(roff(app.version))" "User Commands"
            .SH NAME
            \(command) \\- \(summary)
            .SH SYNOPSIS
            .B \(command)
            .RI [ URL ...]
            .SH DESCRIPTION
            Runs \(name), an H5 app, with \(roff(runner.package)) app /usr/share/\(roff(app.id))/app.toml.
            A second launch hands its URLs to the running app\(schemes.isEmpty ? "." : " (deep links: \(schemes)).")

            """
    }

    /// Paragraphs (blank-line separated), each joined into one line.
    private func paragraphs(_ text: String) -> [String] {
        text.components(separatedBy: "\n\n").map { $0.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// `text` in lines of at most `width` characters (a longer word stays whole).
    private func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return line.isEmpty ? lines : lines + [line]
    }

    /// Text for a roff line: backslashes and hyphens escaped, no leading control character.
    private func roff(_ text: String) -> String {
        let escaped = oneLine(text).replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    private var year: String { String(day.prefix(4)) }

    private func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// A desktop-entry string value: backslash and control characters escaped.
    private func desktopValue(_ text: String) -> String {
        oneLine(text).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
    }

    private func xml(_ text: String) -> String { AppScaffold.htmlEscaped(text) }

    /// `Jane Doe <jane@example.org>` → `Jane Doe`.
    private func personName(_ maintainer: String) -> String {
        String(maintainer.prefix { $0 != "<" }).trimmingCharacters(in: .whitespaces)
    }

    private var day: String { utc("yyyy-MM-dd") }

    private var rfc2822: String { utc("EEE, dd MMM yyyy HH:mm:ss '+0000'") }

    /// ``date`` in UTC, in an English `format`.
    private func utc(_ format: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter.string(from: date)
    }
}
