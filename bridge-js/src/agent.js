// The agent script of `hybrid-run mcp` (docs/mcp.md): the body of an async function called with
// `webkit_web_view_call_async_javascript_function` in the isolated world `hybridshell-agent`, with
// two typed arguments, `op` (a string) and `args` (an object); nothing is ever spliced into it.
// The isolated world shares the page's DOM but not its globals, so the page can neither read nor
// forge the ref map. Answers are plain JSON: `{error, message}` for what the agent must fix.
const state = globalThis.__hybridshellAgent || (globalThis.__hybridshellAgent = { refs: [] });

const INTERACTIVE = 'a[href], button, input, select, textarea, summary, [contenteditable=""], [contenteditable="true"], '
  + '[role], [tabindex], [onclick], h1, h2, h3, h4, h5, h6';
const ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'textbox', 'searchbox', 'combobox', 'listbox', 'slider', 'spinbutton', 'treeitem',
  'heading', 'gridcell', 'dialog', 'alert']);
const TEXT_INPUTS = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'time',
  'datetime-local', 'month', 'week']);

function implicitRole(el) {
  const tag = el.localName;
  if (/^h[1-6]$/.test(tag)) return 'heading';
  if (tag === 'a') return 'link';
  if (tag === 'button' || tag === 'summary') return 'button';
  if (tag === 'textarea') return 'textbox';
  if (tag === 'select') return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
  if (tag === 'input') {
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (type === 'hidden') return null;
    if (['button', 'submit', 'reset', 'image', 'file'].includes(type)) return 'button';
    if (type === 'checkbox' || type === 'radio') return type;
    if (type === 'range') return 'slider';
    if (type === 'number') return 'spinbutton';
    if (type === 'search') return 'searchbox';
    return 'textbox';
  }
  if (el.isContentEditable) return 'textbox';
  if (el.hasAttribute('onclick') || el.tabIndex >= 0) return 'clickable';
  return null;
}

function role(el) {
  const explicit = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
  if (explicit) return ROLES.has(explicit) ? explicit : implicitRole(el);
  return implicitRole(el);
}

function text(node) {
  return (node.innerText || node.textContent || '').replace(/\s+/g, ' ').trim();
}

function accessibleName(el) {
  const labelledBy = el.getAttribute('aria-labelledby');
  if (labelledBy) {
    const parts = labelledBy.split(/\s+/).map(function (id) { const ref = document.getElementById(id); return ref ? text(ref) : ''; });
    if (parts.join('').trim()) return parts.join(' ').trim();
  }
  const label = el.getAttribute('aria-label');
  if (label && label.trim()) return label.trim();
  const tag = el.localName;
  if (tag === 'input' || tag === 'textarea' || tag === 'select') {
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (['button', 'submit', 'reset'].includes(type)) return el.value || type;
    if (type === 'image') return el.alt || 'image';
    if (el.labels && el.labels.length) return Array.from(el.labels).map(text).join(' ');
    return el.getAttribute('placeholder') || el.title || el.name || '';
  }
  const own = text(el) || Array.from(el.querySelectorAll('img[alt]')).map(function (img) { return img.alt; }).join(' ');
  return own || el.title || '';
}

function value(el) {
  const tag = el.localName;
  if (tag === 'select') return Array.from(el.selectedOptions).map(function (o) { return text(o); }).join(', ');
  if (tag === 'textarea') return el.value;
  if (tag === 'input') {
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'hidden'].includes(type)) return undefined;
    // An agent's transcript is no place for a password.
    if (type === 'password') return el.value ? '•'.repeat(Math.min(el.value.length, 8)) : '';
    return el.value;
  }
  if (el.isContentEditable && el.localName !== 'body') return text(el);
  const now = el.getAttribute('aria-valuenow');
  return now === null ? undefined : now;
}

function states(el) {
  const out = [];
  if (el.disabled || el.getAttribute('aria-disabled') === 'true') out.push('disabled');
  if (el.checked === true || el.getAttribute('aria-checked') === 'true') out.push('checked');
  if (el.getAttribute('aria-checked') === 'mixed' || el.indeterminate) out.push('mixed');
  if (el.getAttribute('aria-pressed') === 'true') out.push('pressed');
  if (el.getAttribute('aria-selected') === 'true') out.push('selected');
  const expanded = el.getAttribute('aria-expanded');
  if (expanded === 'true' || (el.localName === 'summary' && el.parentElement && el.parentElement.open)) out.push('expanded');
  else if (expanded === 'false' || el.localName === 'summary') out.push('collapsed');
  if (el.required) out.push('required');
  if (el.readOnly) out.push('readonly');
  if (el.validity && el.willValidate && !el.validity.valid) out.push('invalid');
  if (el === document.activeElement) out.push('focused');
  return out;
}

function visible(el) {
  if (el.closest('[aria-hidden="true"], [inert]')) return false;
  if (el.checkVisibility) {
    if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: false })) return false;
  } else if (getComputedStyle(el).visibility !== 'visible') {
    return false;
  }
  const rect = el.getBoundingClientRect();
  return rect.width > 0 && rect.height > 0;
}

function snapshot() {
  const elements = [];
  const refs = [];
  for (const el of document.querySelectorAll(INTERACTIVE)) {
    const found = role(el);
    if (!found || !visible(el)) continue;
    const item = { role: found, name: accessibleName(el) };
    const current = value(el);
    if (current !== undefined) item.value = String(current);
    if (found === 'heading') item.level = Number(el.getAttribute('aria-level')) || Number(el.localName.slice(1)) || 2;
    const flags = states(el);
    if (flags.length) item.states = flags;
    elements.push(item);
    refs.push(new WeakRef(el));
  }
  state.refs = refs;
  return { url: location.href, title: document.title, elements: elements };
}

function describe(el) {
  let out = el.localName;
  if (el.id) out += '#' + el.id;
  if (typeof el.className === 'string' && el.className.trim()) out += '.' + el.className.trim().split(/\s+/).join('.');
  return out;
}

function find(target) {
  if (typeof target.ref === 'string') {
    const weak = state.refs[Number(target.ref.slice(1)) - 1];
    const el = weak && weak.deref();
    if (!el || !el.isConnected) return { error: 'gone', message: 'the element of ' + target.ref + ' is no longer in the page; call snapshot again' };
    return { el: el };
  }
  let el;
  try {
    el = document.querySelector(target.selector);
  } catch (e) {
    return { error: 'selector', message: 'the selector ' + JSON.stringify(target.selector) + ' is not valid CSS (' + e.message + ')' };
  }
  if (!el) return { error: 'none', message: 'no element matches the selector ' + JSON.stringify(target.selector) + '; call snapshot to see what the page has' };
  return { el: el };
}

// Scrolls the element into view and gives the point a real click there would hit.
function locate(target, needsHit) {
  const found = find(target);
  if (!found.el) return found;
  const el = found.el;
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const rect = el.getBoundingClientRect();
  if (!(rect.width > 0 && rect.height > 0) || !visible(el)) {
    return { error: 'hidden', message: 'the element (' + describe(el) + ') is not visible; wait_for it, or open what reveals it first' };
  }
  const x = Math.min(Math.max(rect.left + rect.width / 2, 0), innerWidth - 1);
  const y = Math.min(Math.max(rect.top + rect.height / 2, 0), innerHeight - 1);
  if (needsHit) {
    const hit = document.elementFromPoint(x, y);
    if (hit && hit !== el && !el.contains(hit) && !(hit.control === el) && !(el.labels && Array.from(el.labels).includes(hit))) {
      return { error: 'covered', message: 'the element (' + describe(el) + ') is covered by ' + describe(hit) + ' at its centre; close what covers it or use another element' };
    }
  }
  const type = (el.getAttribute('type') || '').toLowerCase();
  const editable = el.isContentEditable || el.localName === 'textarea' || (el.localName === 'input' && TEXT_INPUTS.has(type));
  return {
    x: x, y: y, rect: { x: rect.left, y: rect.top, width: rect.width, height: rect.height },
    editable: editable, disabled: !!el.disabled, element: describe(el),
  };
}

function select(target, values) {
  const found = find(target);
  if (!found.el) return found;
  const el = found.el;
  if (el.localName !== 'select') return { error: 'type', message: 'the element (' + describe(el) + ') is not a <select>; use click for other controls' };
  if (el.disabled) return { error: 'disabled', message: 'the <select> (' + describe(el) + ') is disabled' };
  if (!el.multiple && values.length > 1) return { error: 'single', message: 'the <select> takes one value, not ' + values.length };
  const options = Array.from(el.options);
  const chosen = [];
  for (const wanted of values) {
    const option = options.find(function (o) { return o.value === wanted; }) || options.find(function (o) { return text(o) === wanted.trim(); });
    if (!option) {
      return { error: 'option', message: 'no option ' + JSON.stringify(wanted) + '; the options are ' + JSON.stringify(options.map(function (o) { return text(o); })) };
    }
    chosen.push(option);
  }
  el.focus();
  for (const option of options) option.selected = chosen.includes(option);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { selected: chosen.map(function (o) { return o.value; }) };
}

// Resolves when the text or selector shows up (a MutationObserver, no polling), or with
// `{timeout: true}` after `ms`.
function waitFor(condition, ms) {
  function met() {
    if (typeof condition.text === 'string') return !!document.body && text(document.body).includes(condition.text);
    let el;
    try { el = document.querySelector(condition.selector); } catch (e) { return { error: 'selector', message: 'the selector is not valid CSS (' + e.message + ')' }; }
    return !!el && visible(el);
  }
  const first = met();
  if (first) return first === true ? { met: true } : first;
  return new Promise(function (resolve) {
    const observer = new MutationObserver(function () {
      if (met() === true) { observer.disconnect(); clearTimeout(timer); resolve({ met: true }); }
    });
    observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    const timer = setTimeout(function () { observer.disconnect(); resolve({ timeout: true }); }, ms);
  });
}

// Counts the DOM events of one type the page sees from now on (a capture listener on window runs
// before the page's own), so the caller can wait for the input it fed WebKit to arrive.
function arm(type) {
  if (state.watch) removeEventListener(state.watch.type, state.watch.listener, true);
  const watch = { type: type, seen: 0, wake: null };
  watch.listener = function () { watch.seen += 1; if (watch.wake) watch.wake(); };
  addEventListener(type, watch.listener, true);
  state.watch = watch;
  return { armed: type };
}

function settle(type, count, ms) {
  const watch = state.watch;
  if (!watch || watch.type !== type) return { seen: 0, navigated: true };
  function done() {
    removeEventListener(watch.type, watch.listener, true);
    if (state.watch === watch) state.watch = null;
    return { seen: watch.seen };
  }
  if (watch.seen >= count) return done();
  return new Promise(function (resolve) {
    const timer = setTimeout(function () { resolve(done()); }, ms);
    watch.wake = function () { if (watch.seen >= count) { clearTimeout(timer); resolve(done()); } };
  });
}

switch (op) {
  case 'arm': return arm(args.type);
  case 'settle': return settle(args.type, args.count, args.ms);
  case 'snapshot': return snapshot();
  case 'locate': return locate(args.target, args.hit !== false);
  case 'select': return select(args.target, args.values);
  case 'wait': return waitFor(args.condition, args.ms);
  case 'focused': {
    const el = document.activeElement;
    return { element: el ? describe(el) : null };
  }
  default: return { error: 'op', message: 'unknown agent operation ' + op };
}
