// The buy-in chooser: how many chips to bring to a seat, within the table's range and the
// member's balance. Used by the lobby (join) and the table (sit here, top up).
import { around, h, chips } from "./dom.js";
import { t } from "./i18n.js";

/**
 * Ask for an amount. Resolves to a number, or null if the member cancels.
 * `fixed` (Bouillotte's cave) shows the one possible amount instead of a slider.
 */
export function chooseAmount({ title, min, max, balance, chipUnit, confirm = t("Buy in") }) {
  const high = Math.min(max, balance);
  const fixed = min === max;
  return new Promise((resolve) => {
    const number = h("input", {
      type: "number", min, max: high, step: 1, value: Math.max(min, Math.min(high, min)),
      "aria-label": t("Amount"), class: "buyin-number", readonly: fixed,
    });
    const slider = h("input", {
      type: "range", min, max: Math.max(min, high), step: 1, value: number.value,
      "aria-label": t("Amount slider"), class: "buyin-slider", hidden: fixed,
    });
    slider.addEventListener("input", () => { number.value = slider.value; check(); });
    number.addEventListener("input", () => { slider.value = number.value; check(); });
    const problem = h("p", { class: "error", role: "alert" });
    const ok = h("button", { type: "submit", text: confirm });
    const cancel = h("button", { type: "button", class: "secondary", text: t("Cancel") });
    const dialog = h("dialog", { class: "buyin-dialog", "aria-label": title },
      h("form", { method: "dialog" },
        h("h2", { text: title }),
        h("p", { class: "muted" },
          fixed ? t("Everyone sits down with {amount} {unit}.", { amount: chips(min), unit: chipUnit })
            : t("Between {min} and {max} {unit}.", { min: chips(min), max: chips(max), unit: chipUnit }),
          " ",
          ...around(t("Your balance: {balance} {unit}.", { unit: chipUnit }), "balance",
            h("strong", { class: "buyin-balance", text: chips(balance) }))),
        slider, number, problem,
        h("div", { class: "dialog-buttons" }, cancel, ok)));
    function check() {
      const value = Number(number.value);
      let why = "";
      if (!Number.isInteger(value)) why = t("Enter a whole number of chips.");
      else if (value > balance) why = t("That is more than your balance.");
      else if (value < min || value > max) why = t("Choose between {min} and {max}.", { min: chips(min), max: chips(max) });
      problem.textContent = why;
      ok.disabled = Boolean(why);
      return !why;
    }
    function done(value) {
      dialog.close();
      dialog.remove();
      resolve(value);
    }
    cancel.addEventListener("click", () => done(null));
    dialog.addEventListener("cancel", (event) => { event.preventDefault(); done(null); });
    dialog.querySelector("form").addEventListener("submit", (event) => {
      event.preventDefault();
      if (check()) done(Number(number.value));
    });
    document.body.append(dialog);
    check();
    if (balance < min) {
      problem.textContent = t("You need at least {amount} {unit}; ask an admin for chips.", {
        amount: chips(min), unit: chipUnit,
      });
      ok.disabled = true;
    }
    dialog.showModal();
    number.focus();
  });
}
