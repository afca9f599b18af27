// What an app gets from `import HybridShell`: the core (JSON, the bridge, packages, policies) and
// the WebKit layer (WebView, WebContext) with the manager, modules, kiosk and page tests on top.
@_exported import HybridShellCore
@_exported import HybridShellWebKit
