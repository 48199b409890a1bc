// The offline page (templates/offline.html), shown by the service worker in place of a page
// the club's server did not answer for. It asks the server again every few seconds and, as
// soon as it answers, loads the page the member wanted (this page stands at its address).
// Its words come from the words file the worker stored with the page (templates/sw.js).
import { t, tn } from "./i18n.js";

const EVERY_SECONDS = 5;
const status = /** @type {HTMLElement} */ (document.getElementById("offline-status"));
const retry = /** @type {HTMLButtonElement} */ (document.getElementById("retry"));

/** Whether the club's server answers (the worker never answers /api/ for it).
 *  @returns {Promise<boolean>} */
async function answers() {
  try {
    return (await fetch("/api/health", { cache: "no-store" })).ok;
  } catch {
    return false;
  }
}

/** Try once: reload the wanted page if the server answers, else say when the next try is. */
async function tryAgain() {
  retry.disabled = true;
  status.textContent = t("Trying…");
  if (await answers()) {
    window.location.reload();
    return;
  }
  retry.disabled = false;
  status.textContent = tn(
    "Still unreachable. Trying again every {n} second.",
    "Still unreachable. Trying again every {n} seconds.",
    EVERY_SECONDS,
  );
}

retry.addEventListener("click", tryAgain);
setInterval(() => { if (!retry.disabled) tryAgain(); }, EVERY_SECONDS * 1000);
