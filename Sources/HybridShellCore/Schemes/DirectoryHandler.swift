import Foundation
import Logging

/// Serves the files of a directory, like Cog's `--dir-handler=SCHEME:PATH`: `GET`/`HEAD` only,
/// `Content-Type` by extension, `Range` (206) for media, `ETag`/`If-None-Match` (304), and 403/404
/// for anything outside the root (see ``SchemePathResolver``). The URL's host is ignored:
/// `app:///index.html` and `app://anything/index.html` name the same file.
public struct DirectoryHandler: URLSchemeHandler {
    public let resolver: SchemePathResolver
    let logger: Logger

    public init(root: String, logger: Logger = Logger(label: "hybridshell.schemes")) throws(ShellError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .fileNotFound("\(root) (the directory to serve)")
        }
        resolver = SchemePathResolver(root: root)
        self.logger = logger
    }

    public func response(for request: SchemeRequest) async throws -> SchemeResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = SchemeResponse.error(405, "method \(request.method) is not allowed")
            response.headers.append(("Allow", "GET, HEAD"))
            return response
        }
        switch resolver.resolve(request.path) {
        case .forbidden(let reason):
            logger.warning("refused \(request.url): \(reason)")
            return .error(403, "forbidden: \(reason)")
        case .notFound:
            return .error(404, "not found: \(request.path)")
        case .file(let path):
            return FileResponder.respond(path: path, request: request, contentType: ContentTypes.forFile(path))
        }
    }
}

/// The 200/206/304/416 answer for one file on disk; shared by directories and file shares.
enum FileResponder {
    static func respond(path: String, request: SchemeRequest, contentType: String,
                        extraHeaders: [(name: String, value: String)] = [], etag givenTag: String? = nil) -> SchemeResponse {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .error(404, "not found") }
        let size = UInt64(info.st_size)
        let modified = UInt64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ UInt64(info.st_mtim.tv_nsec)
        let etag = givenTag ?? "\"\(String(size, radix: 16))-\(String(modified, radix: 16))\""
        var headers: [(name: String, value: String)] = [
            ("Content-Type", contentType), ("Accept-Ranges", "bytes"), ("ETag", etag), ("Cache-Control", "no-cache"),
        ] + extraHeaders
        if let match = request.header("If-None-Match"),
           match.split(separator: ",").contains(where: { let tag = $0.trimmingCharacters(in: .whitespaces); return tag == etag || tag == "*" || tag == "W/" + etag }) {
            return SchemeResponse(status: 304, headers: headers)
        }
        let isHead = request.method == "HEAD"
        switch ByteRange.resolve(request.header("Range"), size: size) {
        case .whole:
            return SchemeResponse(status: 200, headers: headers,
                                  body: isHead ? .bytes(Data()) : .file(path: path, offset: 0, length: size))
        case .partial(let range):
            headers.append(("Content-Range", range.contentRange(size: size)))
            return SchemeResponse(status: 206, headers: headers,
                                  body: isHead ? .bytes(Data()) : .file(path: path, offset: range.offset, length: range.length))
        case .unsatisfiable:
            headers.append(("Content-Range", "bytes */\(size)"))
            return SchemeResponse(status: 416, headers: headers)
        }
    }
}
