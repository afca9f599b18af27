/// HybridShell's version: the one constant `system.info`, reports and `--version` all print.
public enum HybridShellVersion {
    public static let current = "0.1.0"
}
