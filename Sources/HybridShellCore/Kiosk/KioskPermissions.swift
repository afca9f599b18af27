/// Which permission requests a kiosk grants: only kinds listed for a matching origin
/// (`[kiosk.permissions] "https://app.example" = ["geolocation"]`); everything else is denied.
public struct KioskPermissions: Sendable {
    public var grants: [(origin: OriginPattern, kinds: Set<String>)]

    public init(grants: [(origin: OriginPattern, kinds: Set<String>)] = []) {
        self.grants = grants
    }

    public func allows(_ request: PermissionRequest) -> Bool {
        grants.contains { grant in
            (grant.kinds.contains(request.kind.rawValue) || grant.kinds.contains("*")) && grant.origin.matches(request.origin)
        }
    }
}
