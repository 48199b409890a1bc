// Keyboard shortcuts at the table. A shortcut clicks the very button a person would click
// (found in #controls by its `data-shortcut`), so it asks the same confirmation (Va tout
// takes two presses, as it takes two taps) and sends nothing the button would not. `?`
// opens the list of shortcuts; Escape closes it. Keys do nothing while the player types
// (chat, an amount) or while a dialog is open.

// The key of each action's button (lower case), shared by the games' modules.
export const SHORTCUTS = {
  play: "p",
  pass: "x",
  take_trump: "t",
  discard: "e",
  straddle: "s",
  buy_back: "b",
  decline: "d",
  call: "c",
  fold: "f",
  all_in: "v",
  open: "o",
  raise: "r",
};

/** The key for an action's button, for its `data-shortcut` ("": none). */
export function shortcutFor(action) {
  return SHORTCUTS[action] ?? "";
}

// What the overlay lists after the game's own shortcuts (its module's SHORTCUT_LIST).
const COMMON = [["?", "Show this list"], ["Esc", "Close this list"]];

function typing(target) {
  if (!(target instanceof Element)) return false;
  return Boolean(target.closest("input, textarea, select, [contenteditable=''], [contenteditable='true']"));
}

/** Show each shortcut on its button: the tooltip and `aria-keyshortcuts`. Called after
 *  every redraw of the controls. */
export function labelShortcuts(controls) {
  for (const button of controls.querySelectorAll("[data-shortcut]:not([data-shortcut=''])")) {
    const key = button.dataset.shortcut.toUpperCase();
    button.setAttribute("aria-keyshortcuts", key);
    button.title = `Shortcut: ${key}`;
  }
}

function fillOverlay(dialog, shortcuts) {
  const rows = [...shortcuts, ...COMMON];
  const list = dialog.querySelector("dl");
  list.replaceChildren(...rows.flatMap(([key, what]) => {
    const dt = document.createElement("dt");
    const kbd = document.createElement("kbd");
    kbd.textContent = key;
    dt.append(kbd);
    const dd = document.createElement("dd");
    dd.textContent = what;
    return [dt, dd];
  }));
}

/** Listen for the table's shortcuts on this page. */
export function installShortcuts({ controls, dialog, shortcuts, opener }) {
  fillOverlay(dialog, shortcuts);
  const open = () => {
    if (!dialog.open) dialog.showModal();
  };
  opener?.addEventListener("click", open);
  dialog.querySelector("[data-close]")?.addEventListener("click", () => dialog.close());
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event.target)) return;
    // A dialog open (this list, the buy-in chooser) has the keyboard to itself; its own
    // Escape closes it.
    if (document.querySelector("dialog[open]")) return;
    if (event.key === "?") {
      event.preventDefault();
      open();
      return;
    }
    if (event.key.length !== 1) return;
    const key = event.key.toLowerCase();
    const button = [...controls.querySelectorAll("[data-shortcut]")].find((b) => b.dataset.shortcut === key);
    if (!button || button.disabled || button.offsetParent === null) return;
    event.preventDefault();
    button.click();
  });
}
