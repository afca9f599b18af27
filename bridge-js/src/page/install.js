// Start-up: the API and dialects first (so their objects exist before the page's own scripts
// look for them), then the handshake.

function install() {
  const bridge = createBridge();
  installHybrid(bridge);
  if (installWebViewJavascriptBridge(bridge)) bridge.dialects.push('wvjb');
  if (installDsbridge(bridge)) bridge.dialects.push('dsbridge');
  if (installWx(bridge)) bridge.dialects.push('wx');
  bridge.start();
}
