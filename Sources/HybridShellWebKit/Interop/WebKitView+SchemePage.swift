internal import CWebKitGTK

extension WebKitView {
    /// The id scheme requests of this view carry (``SchemePage/id``: the `WebKitWebView` address).
    var schemePageID: UInt { UInt(bitPattern: view) }
}
