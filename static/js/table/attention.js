// A turn nobody misses: when it becomes the player's turn while the table is not in view
// (another tab in front, the window in the background), the tab's title and icon say so, a
// phone vibrates, and — once the player has allowed it with the "Notify me" button — a
// system notification brings the table to the front when clicked. Title and icon come back
// when the player does, or when the turn passes. The chime is sound.js's, played by the
// table for every turn (in view or not) when sound is on.
//
// The table tells this module whether it is the player's turn on every snapshot
// (`turnAttention`); the rest it learns from the page itself.

import { t } from "../i18n.js";

const PREFERENCE = "salon.notify";
// Two short buzzes: felt in a pocket, not alarming.
const BUZZ = [180, 90, 180];

const button = /** @type {HTMLButtonElement | null} */ (document.getElementById("notify-toggle"));
const icon = /** @type {HTMLLinkElement | null} */ (document.querySelector('link[rel="icon"]'));
const turnIcon = document.querySelector('meta[name="salon-turn-icon"]')?.getAttribute("content") ?? null;
const supported = typeof Notification === "function";

const attention = {
  /** Whether it is the player's turn, as of the last snapshot. */
  turn: false,
  /** The table's name, for the title and the notification. */
  tableName: "",
  /** The page's own title and icon, while they are replaced. @type {{title: string, icon: string | null} | null} */
  saved: null,
};

/** The table is in front of the player: its tab shown and its window focused. */
function inView() {
  return document.visibilityState === "visible" && document.hasFocus();
}

/** Whether the player asked for notifications (and the browser still allows them). */
export function notificationsOn() {
  return supported && Notification.permission === "granted" && localStorage.getItem(PREFERENCE) === "on";
}

/** Called with every snapshot: whether it is now the player's turn, at which table.
 *  @param {boolean} myTurn
 *  @param {string} tableName */
export function turnAttention(myTurn, tableName) {
  const started = myTurn && !attention.turn;
  attention.turn = myTurn;
  attention.tableName = tableName;
  if (started && !inView()) callThePlayer();
  showMark();
}

/** The turn has just begun while the player looks elsewhere. */
function callThePlayer() {
  // Only once the player has touched the page: the browser refuses (and complains) before.
  if (typeof navigator.vibrate === "function" && navigator.userActivation?.hasBeenActive !== false) {
    navigator.vibrate(BUZZ);
  }
  if (notificationsOn()) notify().catch(ignore);
}

/** A notification the browser refused to show or close: the title and icon still say it. */
function ignore() {}

/** The title and icon say "your turn" exactly while it is and the table is out of view. */
function showMark() {
  const marked = attention.turn && !inView();
  if (marked && !attention.saved) {
    attention.saved = { title: document.title, icon: icon?.getAttribute("href") ?? null };
    document.title = t("● Your turn — {title}", { title: attention.saved.title });
    if (icon && turnIcon) icon.href = turnIcon;
  } else if (!marked && attention.saved) {
    document.title = attention.saved.title;
    if (icon && attention.saved.icon) icon.href = attention.saved.icon;
    attention.saved = null;
    closeNotifications().catch(ignore);
  }
}

/** The tag shared by this table's notifications: a new turn replaces the last one. */
function tag() {
  return `salon-turn:${window.location.pathname}`;
}

/** A system notification; clicked, it brings this table to the front. Shown through the
 *  service worker where there is one (phones allow no other kind), else by the page. */
async function notify() {
  const title = t("Your turn at {table}", { table: attention.tableName });
  /** @type {NotificationOptions & {renotify: boolean, vibrate: number[]}} */
  const options = {
    body: t("The table is waiting for you."),
    tag: tag(),
    renotify: true,
    icon: icon?.href,
    vibrate: BUZZ,
    data: { url: window.location.href },
  };
  const registration = await navigator.serviceWorker?.getRegistration();
  if (registration?.active) {
    await registration.showNotification(title, options);
    return;
  }
  const shown = new Notification(title, options);
  shown.addEventListener("click", () => {
    window.focus();
    shown.close();
  });
}

/** The player is back, or the turn has passed: the notification has said its piece. */
async function closeNotifications() {
  if (!notificationsOn()) return;
  const registration = await navigator.serviceWorker?.getRegistration();
  for (const shown of (await registration?.getNotifications({ tag: tag() })) ?? []) shown.close();
}

/** The "Notify me" button: pressed when notifications are on; the browser asks the player
 *  for permission only from this click, never on its own. */
function renderButton() {
  if (!button) return;
  button.hidden = !supported;
  if (!supported) return;
  const blocked = Notification.permission === "denied";
  button.setAttribute("aria-pressed", String(notificationsOn()));
  button.disabled = blocked;
  button.title = blocked
    ? t("Notifications are blocked for this site in the browser's settings.")
    : t("A system notification when it is your turn and the table is not in view.");
}

async function toggleNotifications() {
  if (notificationsOn()) {
    localStorage.setItem(PREFERENCE, "off");
  } else {
    // Answered at once, without asking, when the player allowed it before.
    const permission = await Notification.requestPermission();
    localStorage.setItem(PREFERENCE, permission === "granted" ? "on" : "off");
  }
  renderButton();
}

button?.addEventListener("click", toggleNotifications);
document.addEventListener("visibilitychange", showMark);
window.addEventListener("focus", showMark);
window.addEventListener("blur", showMark);
renderButton();
