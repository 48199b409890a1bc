// The table's menu on a phone. The phone's first screen is the felt and the player's own
// place; above them only the club's name, the table's name and "Menu" (a disclosure
// button). Everything else of the table's bar — the links (lobby, hands, account, log out,
// admin), the connection, the hand's line and commitment, the table's options, the rules
// line — is folded in #table-options, which the style sheet takes out of the page (and
// out of the Tab order) until the menu opens over the felt. On a laptop the same elements
// are the table's bar as they always were, and the Menu button is not shown.
//
// Opening takes the keyboard into the menu; Escape, a second tap on Menu, a tap outside it
// or the keyboard leaving it close it. An option that does something (sit out, stand up,
// last hand…) closes it too; a switch (sound, 4-colour deck, notifications) leaves it open,
// its new state in sight. Closed by the keyboard or by an option, the focus goes back to
// Menu, unless the option took it elsewhere (the result, a dialog).

const PHONE = window.matchMedia("(max-width: 760px)");
const OPEN = "is-open";

const button = /** @type {HTMLButtonElement} */ (document.getElementById("menu-toggle"));
const panel = /** @type {HTMLElement} */ (document.getElementById("table-options"));

function isOpen() {
  return panel.classList.contains(OPEN);
}

/** What the keyboard can reach in the menu, as shown now. */
function focusable() {
  return [...panel.querySelectorAll("a[href], button:not(:disabled), input:not([type='hidden'])")]
    .filter((el) => el instanceof HTMLElement && el.getClientRects().length > 0);
}

function open() {
  panel.classList.add(OPEN);
  button.setAttribute("aria-expanded", "true");
  const first = focusable()[0];
  if (first instanceof HTMLElement) first.focus();
}

/** Fold the menu; `refocus`: give Menu the keyboard if it was in the menu (or lost). */
function close(refocus) {
  if (!isOpen()) return;
  const within = panel.contains(document.activeElement) || document.activeElement === document.body;
  panel.classList.remove(OPEN);
  button.setAttribute("aria-expanded", "false");
  if (refocus && within) button.focus();
}

button.addEventListener("click", () => {
  if (isOpen()) close(true);
  else open();
});

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || !isOpen() || event.defaultPrevented) return;
  // A dialog opened from the menu (the buy-in chooser) closes first, by its own Escape.
  if (document.querySelector("dialog[open]")) return;
  event.preventDefault();
  close(true);
});

// A tap or click anywhere but the menu and its button folds it.
document.addEventListener("pointerdown", (event) => {
  const target = /** @type {Node} */ (event.target);
  if (isOpen() && !panel.contains(target) && !button.contains(target)) close(false);
});

// The keyboard left the menu (Tab past its end, `h` to the cards): folded behind it.
panel.addEventListener("focusout", (event) => {
  const next = /** @type {Node | null} */ (event.relatedTarget);
  if (next && !panel.contains(next) && next !== button) close(false);
});

// An option that acts closes the menu once its own handler has run; a switch does not.
panel.addEventListener("click", (event) => {
  const option = event.target instanceof Element ? event.target.closest("button") : null;
  if (!option || option.hasAttribute("aria-pressed") || option.type === "submit") return;
  close(true);
});

// Turned to a laptop's width, the bar is laid out whole again: no menu left open.
PHONE.addEventListener("change", () => close(false));
