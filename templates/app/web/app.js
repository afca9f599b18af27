/// <reference path="hybrid.d.ts" />
// window.hybrid is HybridShell's bridge to native code (types: hybrid.d.ts). The storage module
// (app.toml: modules = ["storage"]) keeps values across runs, per app.

/** Counts one more visit in native storage and returns the count. */
async function countVisit() {
  const { data } = await hybrid.call('storage.get', { key: 'visits', default: 0 });
  await hybrid.call('storage.set', { key: 'visits', data: data + 1 });
  return data + 1;
}

window.addEventListener('DOMContentLoaded', async () => {
  const visits = document.getElementById('visits');
  if (!visits) return; // loaded by a test page
  const count = await countVisit();
  visits.textContent = String(count);
  console.log(`opened ${count} times`); // hybrid-run dev prints the console on stdout
  // Deep links ({{scheme}}://…) reach the running app here.
  hybrid.on('open', (event) => {
    document.getElementById('links').textContent = 'Opened: ' + event.urls.join(', ');
  });
});
