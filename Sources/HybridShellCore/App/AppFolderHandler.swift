/// Serves an app's `web` folder on its installed origin, `app://<id lower-cased>/`, for
/// `hybrid-run dev`: the page runs on the origin, with the modules and capabilities, it will have
/// installed, and every save is there at the next load (no package in between). Other hosts of
/// the scheme are not this app: 404.
public struct AppFolderHandler: URLSchemeHandler {
    let host: String
    let files: DirectoryHandler

    public init(app: AppManifest) throws(ShellError) {
        host = app.id.lowercased()
        files = try DirectoryHandler(root: app.web)
    }

    public func response(for request: SchemeRequest) async throws -> SchemeResponse {
        guard request.host.lowercased() == host else {
            return .error(404, "not found: this is \(PackageSchemeHandler.scheme)://\(host)/, not \(request.url)")
        }
        return try await files.response(for: request)
    }
}
