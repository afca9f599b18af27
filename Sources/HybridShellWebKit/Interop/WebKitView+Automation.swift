internal import CWebKitGTK
import HybridShellCore

extension WebKitView {
    /// Keeps the page presenting frames while a WebDriver client drives it.
    ///
    /// Why: WebKit takes an element screenshot after the page's next presentation update. With the
    /// DMA-BUF renderer off (our headless setting, without which those screenshots are black under
    /// Xvfb) a page with nothing to repaint never presents again, so the screenshot command waits
    /// forever. An invisible pseudo-element (no content, no box to paint) whose opacity steps five
    /// times a second gives WebKit a frame to wait for (idle cost measured: 1.7 % of one core); it
    /// is a user style sheet, so the page's DOM and `document.styleSheets` do not see it (only
    /// `getComputedStyle(html, '::after')` does).
    func addPresentationTicker() {
        let css = """
            @keyframes hybridshell-automation-tick { from { opacity: 1 } to { opacity: 0.99 } }
            html::after { content: ""; position: fixed; left: 0; top: 0; width: 1px; height: 1px;
                pointer-events: none; animation: hybridshell-automation-tick 0.4s steps(2) infinite; }
            """
        let sheet = webkit_user_style_sheet_new(css, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME, WEBKIT_USER_STYLE_LEVEL_USER, nil, nil)!
        webkit_user_content_manager_add_style_sheet(contentManager, sheet)
        webkit_user_style_sheet_unref(sheet)
    }
}
