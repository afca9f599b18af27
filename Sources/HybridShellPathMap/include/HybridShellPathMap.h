// A WebKitGTK web-process extension (loaded by WebKit from the directory given to
// webkit_web_context_set_web_extensions_directory): rewrites requests whose exact URL is a key
// of the path map (initialisation data, a{ss}: online URL -> app://<appid>/<file>) to the
// package URL in WebKitWebPage::send-request. Nothing to call from Swift.
#pragma once
