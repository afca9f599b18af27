import ArgumentParser
import HybridShell

// The values of the library's closed settings, for help, completion and parsing: the same enums
// the configuration reader uses (the flags keep the library's wording for a bad value, which
// names the flag and every value it takes).
extension DialogMode: ExpressibleByArgument {}
extension NewWindowMode: ExpressibleByArgument {}
extension BridgeConfiguration.Injection: ExpressibleByArgument {}
extension WebRoute.CachePolicy: ExpressibleByArgument {}
