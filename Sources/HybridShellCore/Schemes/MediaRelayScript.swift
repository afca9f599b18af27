/// The page-side half of ``SchemeMediaRelay``: a script in the page's world of every frame of one
/// origin (a user script allow-listed to `scheme://host/*`) that hands `<video>`/`<audio>` the
/// relay's loopback URL wherever the page gives them a URL of its own origin — `src` and `<source
/// src>` in markup, `.src =`, `setAttribute('src', …)`, `new Audio(url)` — and reads back the page's
/// own URL (`.src`, `.currentSrc`, `getAttribute('src')`), so the page needs no change. Why a script
/// and not a request rewrite: WebKitGTK's media player checks the element's URL itself and refuses
/// custom schemes before any request exists. The token is only in the script of its own origin.
enum MediaRelayScript {
    static func source(port: Int, token: String, scheme: String, host: String) -> String {
        let config = JSONValue.object(["port": .number(Double(port)), "token": .string(token),
                                       "scheme": .string(scheme), "host": .string(host)]).jsonText
        return "(config => {\n" + body + "\n})(" + config + ");"
    }

    private static let body = #"""
        'use strict';
        if (location.protocol !== config.scheme + ':' || location.host !== config.host) return;
        const prefix = `http://127.0.0.1:${config.port}/${config.token}`;
        const own = `${config.scheme}://${config.host}`;
        // The page's URL of its own origin → the relay's; null for anything else (left alone).
        const toRelay = value => {
            let url;
            try { url = new URL(String(value), document.baseURI); } catch (_) { return null; }
            if (url.protocol !== config.scheme + ':' || url.host !== config.host) return null;
            return prefix + url.pathname + url.search + url.hash;
        };
        const fromRelay = value => typeof value === 'string' && value.startsWith(prefix + '/') ? own + value.slice(prefix.length) : value;
        const isMedia = element => element instanceof HTMLMediaElement || element instanceof HTMLSourceElement;
        const nativeSet = Element.prototype.setAttribute;
        const nativeGet = Element.prototype.getAttribute;
        // What the page wrote, per element, while the attribute still holds our rewrite of it.
        const written = new WeakMap();
        const rewrite = (element, value) => {
            const relay = toRelay(value);
            if (relay === null) return false;
            written.set(element, {relay, value: String(value)});
            nativeSet.call(element, 'src', relay);
            return true;
        };
        const property = (proto, name, mapsWrites) => {
            const native = Object.getOwnPropertyDescriptor(proto, name);
            if (!native) return;
            Object.defineProperty(proto, name, {
                configurable: true, enumerable: native.enumerable,
                get() { return fromRelay(native.get.call(this)); },
                set: native.set && function (value) {
                    if (!(mapsWrites && rewrite(this, value))) native.set.call(this, value);
                },
            });
        };
        property(HTMLMediaElement.prototype, 'src', true);
        property(HTMLSourceElement.prototype, 'src', true);
        property(HTMLMediaElement.prototype, 'currentSrc', false);
        Element.prototype.setAttribute = function setAttribute(name, value) {
            if (isMedia(this) && String(name).toLowerCase() === 'src' && rewrite(this, value)) return;
            return nativeSet.call(this, name, value);
        };
        Element.prototype.getAttribute = function getAttribute(name) {
            const value = nativeGet.call(this, name);
            if (value === null || !isMedia(this) || String(name).toLowerCase() !== 'src') return value;
            const mine = written.get(this);
            return mine && mine.relay === value ? mine.value : fromRelay(value);
        };
        const NativeAudio = window.Audio;
        window.Audio = function Audio(src) {
            if (!new.target) throw new TypeError("Constructor Audio requires 'new'");
            const audio = new NativeAudio();
            audio.preload = 'auto';
            if (src !== undefined) audio.src = src;
            return audio;
        };
        window.Audio.prototype = NativeAudio.prototype;
        // Markup (the parser, innerHTML): the element's load starts in a task of its own, after
        // this observer's microtask has put the relay's URL in place.
        const visit = node => {
            if (node.nodeType !== 1) return;
            if (isMedia(node) && nativeGet.call(node, 'src') !== null) rewrite(node, nativeGet.call(node, 'src'));
            for (const element of node.querySelectorAll('video[src], audio[src], source[src]')) rewrite(element, nativeGet.call(element, 'src'));
        };
        new MutationObserver(records => {
            for (const record of records) {
                if (record.type === 'attributes') { if (isMedia(record.target)) visit(record.target); } else record.addedNodes.forEach(visit);
            }
        }).observe(document, {childList: true, subtree: true, attributes: true, attributeFilter: ['src']});
        """#
}
