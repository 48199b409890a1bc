// The buy-in chooser: how many chips to bring to a seat, within the table's range and the
// member's balance. Used by the lobby (join) and the table (sit here, top up).
import { h, chips } from "./dom.js";

/**
 * Ask for an amount. Resolves to a number, or null if the member cancels.
 * `fixed` (Bouillotte's cave) shows the one possible amount instead of a slider.
 */
export function chooseAmount({ title, min, max, balance, chipUnit, confirm = "Buy in" }) {
  const high = Math.min(max, balance);
  const fixed = min === max;
  return new Promise((resolve) => {
    const number = h("input", {
      type: "number", min, max: high, step: 1, value: Math.max(min, Math.min(high, min)),
      "aria-label": "Amount", class: "buyin-number", readonly: fixed,
    });
    const slider = h("input", {
      type: "range", min, max: Math.max(min, high), step: 1, value: number.value,
      "aria-label": "Amount slider", class: "buyin-slider", hidden: fixed,
    });
    slider.addEventListener("input", () => { number.value = slider.value; check(); });
    number.addEventListener("input", () => { slider.value = number.value; check(); });
    const problem = h("p", { class: "error", role: "alert" });
    const ok = h("button", { type: "submit", text: confirm });
    const cancel = h("button", { type: "button", class: "secondary", text: "Cancel" });
    const dialog = h("dialog", { class: "buyin-dialog", "aria-label": title },
      h("form", { method: "dialog" },
        h("h2", { text: title }),
        h("p", { class: "muted" },
          fixed ? `Everyone sits down with ${chips(min)} ${chipUnit}.`
            : `Between ${chips(min)} and ${chips(max)} ${chipUnit}.`,
          " Your balance: ", h("strong", { class: "buyin-balance", text: chips(balance) }),
          ` ${chipUnit}.`),
        slider, number, problem,
        h("div", { class: "dialog-buttons" }, cancel, ok)));
    function check() {
      const value = Number(number.value);
      let why = "";
      if (!Number.isInteger(value)) why = "Enter a whole number of chips.";
      else if (value > balance) why = "That is more than your balance.";
      else if (value < min || value > max) why = `Choose between ${chips(min)} and ${chips(max)}.`;
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
      problem.textContent = `You need at least ${chips(min)} ${chipUnit}; ask an admin for chips.`;
      ok.disabled = true;
    }
    dialog.showModal();
    number.focus();
  });
}
