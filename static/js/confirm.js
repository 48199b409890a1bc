// One more tap before an admin action that cannot be taken back or that moves chips: a
// button (or a form) with data-confirm="Ban Carol? …" opens a dialog that says so, and the
// form is sent only after its confirm button. Without this script the form posts at once
// (the page still works); with it, Escape or Cancel sends nothing.
//
// The question may name the form's fields: {chips} is the "amount" field counted in the
// form's data-unit ("1 chip", "200 chips"), {member} the chosen option's data-name.

import { counted, h } from "./dom.js";
import { t } from "./i18n.js";

/** @type {HTMLDialogElement | null} */
let dialog = null;

/** The page's one confirmation dialog, made the first time it is needed. */
function confirmDialog() {
  if (dialog) return dialog;
  dialog = /** @type {HTMLDialogElement} */ (
    h("dialog", { class: "confirm-dialog", "aria-labelledby": "confirm-question" },
      h("form", { method: "dialog" },
        h("p", { id: "confirm-question" }),
        h("div", { class: "dialog-buttons" },
          h("button", { type: "submit", value: "cancel", class: "secondary", text: t("Cancel") }),
          h("button", { type: "submit", value: "confirm", id: "confirm-yes" }))))
  );
  document.body.append(dialog);
  return dialog;
}

/**
 * The question with the form's current values in it.
 * @param {string} question
 * @param {HTMLFormElement} form
 */
function filledIn(question, form) {
  const amount = /** @type {HTMLInputElement | null} */ (form.elements.namedItem("amount"));
  const member = form.querySelector("select option:checked");
  return question
    .replace("{chips}", counted(Number(amount?.value ?? 0), form.dataset.unit ?? "chips"))
    .replace("{member}", member instanceof HTMLElement ? member.dataset.name ?? member.textContent ?? "" : "");
}

/**
 * Ask; resolve true only when the admin pressed the confirm button.
 * @param {string} question
 * @param {string} yes the confirm button's words
 * @returns {Promise<boolean>}
 */
export function ask(question, yes) {
  const box = confirmDialog();
  /** @type {HTMLElement} */ (box.querySelector("#confirm-question")).textContent = question;
  /** @type {HTMLElement} */ (box.querySelector("#confirm-yes")).textContent = yes;
  box.returnValue = "";
  box.showModal();
  // The safe answer has the focus: an Enter pressed by habit cancels.
  /** @type {HTMLElement} */ (box.querySelector("button[value=cancel]")).focus();
  return new Promise((resolve) => {
    box.addEventListener("close", () => resolve(box.returnValue === "confirm"), { once: true });
  });
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.method === "dialog") return;
  const submitter = /** @type {HTMLButtonElement | null} */ (
    /** @type {SubmitEvent} */ (event).submitter
  );
  const asking = submitter?.dataset.confirm ? submitter : form.dataset.confirm ? form : null;
  if (!asking) return;
  if (form.dataset.confirmed === "yes") {
    delete form.dataset.confirmed;
    return;
  }
  event.preventDefault();
  const question = filledIn(asking.dataset.confirm ?? "", form);
  ask(question, asking.dataset.confirmYes ?? t("Yes")).then((confirmed) => {
    if (!confirmed) return;
    form.dataset.confirmed = "yes";
    form.requestSubmit(submitter);
  });
});
