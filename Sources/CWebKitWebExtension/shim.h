// The web-process extension API (webkit2gtk-web-extension-4.1), for the path-map extension only.
#include <webkit2/webkit-web-extension.h>
