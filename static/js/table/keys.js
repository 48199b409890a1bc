// Keyboard shortcuts at the table. A shortcut clicks the very button a person would click
// (found in #controls by its `data-shortcut`), so it asks the same confirmation (Va tout
// takes two presses, as it takes two taps) and sends nothing the button would not. `?`
// opens the list of shortcuts; Escape closes it; `h` takes the keyboard to the player's
// cards, where the arrows move and Enter plays. Keys do nothing while the player types
// (chat, an amount) or while a dialog is open.
import { t } from "../i18n.js";

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
const COMMON = [
  ["H", t("Go to your cards (the first you may play)")],
  ["?", t("Show this list")],
  ["Esc", t("Close this list")],
];
const HAND_KEY = "h";

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
    button.title = t("Shortcut: {key}", { key });
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

/** The card buttons of the player's hand: the first card they may play now, else the one
 *  the keyboard last rested on, else the first. */
function cardToFocus(hand) {
  const buttons = [...hand.querySelectorAll("button")];
  return buttons.find((b) => b.classList.contains("is-legal"))
    ?? buttons.find((b) => b.tabIndex === 0) ?? buttons[0] ?? null;
}

function focusCard(hand, button) {
  for (const b of hand.querySelectorAll("button")) b.tabIndex = b === button ? 0 : -1;
  button.focus();
}

// What a card button does depends on the moment (choosing for the draw, playing to this
// trick, nothing while the others play): the moment the keyboard's card was focused in.
let focusMoment = null;

/**
 * Put the player's cards (`cards`, buttons) in `hand`, keeping the keyboard where it was
 * while the cards still mean what they meant (`moment`: the hand, phase, trick and whose
 * turn). Once they mean something else — the turn timer played the focused card, a trick
 * was taken, the turn came round — the focus goes to the hand itself, not to a card: the
 * next Enter must not play a card the player never chose. `h` or an arrow key takes the
 * keyboard back to the cards.
 */
export function redrawHand(hand, cards, moment) {
  const focused = document.activeElement?.closest?.("#my-hand [data-card]")?.dataset.card;
  const handFocused = document.activeElement === hand;
  hand.replaceChildren(...cards);
  const buttons = [...hand.querySelectorAll("button")];
  const same = moment === focusMoment ? buttons.find((b) => b.dataset.card === focused) : undefined;
  const first = same ?? cardToFocus(hand);
  for (const b of buttons) b.tabIndex = b === first ? 0 : -1;
  if (same) same.focus();
  else if (focused || handFocused) hand.focus({ preventScroll: true });
  focusMoment = moment;
}

/** Arrows move between the player's cards (from the hand itself: to the first playable);
 *  Home and End go to the ends. */
function installHandKeys(hand) {
  hand.addEventListener("keydown", (event) => {
    const buttons = [...hand.querySelectorAll("button")];
    if (!buttons.length) return;
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
    const at = buttons.indexOf(document.activeElement);
    let next = null;
    if (at < 0 && step) next = cardToFocus(hand);
    else if (step) next = buttons[(at + step + buttons.length) % buttons.length];
    if (event.key === "Home") next = buttons[0];
    if (event.key === "End") next = buttons[buttons.length - 1];
    if (!next) return;
    event.preventDefault();
    focusCard(hand, next);
  });
}

/** Listen for the table's shortcuts on this page. */
export function installShortcuts({ controls, hand, dialog, shortcuts, opener }) {
  installHandKeys(hand);
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
    if (key === HAND_KEY) {
      const card = cardToFocus(hand);
      if (!card) return;
      event.preventDefault();
      focusCard(hand, card);
      card.scrollIntoView({ block: "nearest" });
      return;
    }
    const button = [...controls.querySelectorAll("[data-shortcut]")].find((b) => b.dataset.shortcut === key);
    if (!button || button.disabled || button.offsetParent === null) return;
    event.preventDefault();
    button.click();
  });
}
