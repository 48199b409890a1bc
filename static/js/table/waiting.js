// What stands between the table and its next deal, said where the seated player looks:
// why no hand can be dealt (the server's `waiting_for`: a stable code and its parameters),
// the gathering countdown with its "Deal now" button, a new cave for a player whose stack
// is empty, and a player sat out by the turn timer, with a large "I'm back" button.
// The server decides all of it; this module only words it and asks.
import { chips, h } from "../dom.js";
import { t, tn } from "../i18n.js";

// English says small counts in words ("two timeouts", "one more player"), as people do:
// the sentences hold them as {count}; a translation may take {n}, the digits, instead.
const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight"];

function inWords(n) {
  return NUMBER_WORDS[n] ?? String(n);
}

/** "Ann", "Ann or Bob", "Ann, Bob or Cy". */
function either(words) {
  if (words.length <= 1) return words.join("");
  return t("{list} or {last}", { list: words.slice(0, -1).join(", "), last: words[words.length - 1] });
}

/** The sentence for a `more_players` reason, from the viewer's place: "Waiting for Carol's
 *  cave, or one more player." `name(seat)`: the name at a seat; `fixed`: the buy-in is one
 *  amount (a cave); `me`: the viewer's seat (their own empty stack is said apart). */
function morePlayers(reason, { name, fixed, me }) {
  // The viewer's own empty stack is the banner's to say: the prompt tells the rest.
  const mine = reason.broke.includes(me) ? 1 : 0;
  const missing = reason.missing - mine;
  if (missing <= 0) return "";
  const others = (seats) => seats.filter((seat) => seat !== me);
  const refill = others(reason.broke)
    .map((seat) => (fixed ? t("{name}'s cave", { name: name(seat) }) : t("{name} to top up", { name: name(seat) })));
  const back = others(reason.sitting_out).map((seat) => t("{name} to come back", { name: name(seat) }));
  const ways = [...refill, ...back];
  const said = { count: inWords(missing), ways: either(ways) };
  if (!ways.length) {
    return tn("Waiting for {count} more player to sit down.", "Waiting for {count} more players to sit down.", missing, said);
  }
  if (missing === 1) return t("Waiting for {ways}, or one more player.", said);
  return tn("Waiting for {count} more player ({ways} would each count as one).",
    "Waiting for {count} more players ({ways} would each count as one).", missing, said);
}

/** Why no hand is dealt, as one sentence for the prompt (empty when the gathering banner
 *  says what comes next). */
export function waitingSentence(view, { name, fixed }) {
  const reason = view.waiting_for;
  if (view.gathering) return "";
  if (!reason) return view.next_hand_in !== null ? t("Next hand soon.") : "";
  switch (reason.code) {
    case "table_paused":
      return t("The table is paused.");
    case "table_closed":
      return t("This table is closing.");
    case "more_players":
      return morePlayers(reason, { name, fixed, me: view.you.seat });
    default:
      return t("Waiting for the next hand.");
  }
}

/** The banners above the player's own place. */
export class WaitingBanner {
  /** @param {HTMLElement} el where the banners go
   *  @param {{name: (seat: number) => string, fixed: boolean, nextHandAt: () => number | null,
   *    topUp: (amount: number) => void, openTopUp: () => void, comeBack: () => void,
   *    dealNow: () => void}} hooks */
  constructor(el, hooks) {
    this.el = el;
    this.hooks = hooks;
    this.key = "";
  }

  render(view) {
    const parts = this.parts(view);
    const key = JSON.stringify(parts.map((p) => p.key));
    this.el.hidden = !parts.length;
    if (key !== this.key) {
      const before = this.key;
      this.key = key;
      this.el.replaceChildren(...parts.map((p) => p.node));
      // A player sat out or out of chips has something to do: bring it into sight (on a
      // phone the place sits below the felt), once, when it appears.
      const urgent = parts.find((p) => /^(sat-out|broke):/.test(p.key) && !before.includes(p.key));
      if (urgent) requestAnimationFrame(() => urgent.node.scrollIntoView({ block: "nearest" }));
    }
    this.tick();
  }

  /** Each banner with a key saying what it shows (it is redrawn only when that changes, so
   *  a button keeps its focus across snapshots). */
  parts(view) {
    const me = view.you.seat;
    const seat = view.seats.find((s) => s.seat === me);
    const parts = [];
    if (!seat) return parts;
    if (seat.sat_out_after) parts.push(this.satOut(seat.sat_out_after));
    if (!view.hand && seat.stack <= 0 && !seat.leaving) parts.push(this.broke(view));
    if (view.hand && view.you.dealt_in === false) {
      parts.push({ key: "next-hand", node: h("p", { class: "table-notice-line", dataset: { testid: "dealt-next-hand" }, text: t("You'll be dealt in next hand.") }) });
    }
    if (view.gathering) parts.push(this.gathering(view));
    return parts;
  }

  satOut(count) {
    return {
      key: `sat-out:${count}`,
      node: h("div", { class: "sat-out-banner", role: "alert", dataset: { testid: "sat-out" } },
        h("p", { class: "sat-out-text", text: tn("You were sat out after {count} timeout.", "You were sat out after {count} timeouts.", count, { count: inWords(count) }) }),
        h("button", { type: "button", class: "im-back", dataset: { testid: "im-back" }, text: t("I'm back"), onclick: () => this.hooks.comeBack() })),
    };
  }

  broke(view) {
    const table = view.table;
    const fixed = this.hooks.fixed;
    const text = fixed ? t("You have no chips left: buy a new cave to play on.") : t("You have no chips left: top up to play on.");
    const cave = table.buy_in_min;
    const label = fixed
      ? tn("Buy a new cave: {n} chip", "Buy a new cave: {n} chips", cave, { n: chips(cave) })
      : t("Top up");
    const onclick = fixed ? () => this.hooks.topUp(table.buy_in_min) : () => this.hooks.openTopUp();
    return {
      key: `broke:${label}`,
      node: h("div", { class: "broke-banner", dataset: { testid: "broke" } },
        h("p", { class: "table-notice-line", text }),
        h("button", { type: "button", class: "buy-cave", dataset: { testid: "buy-cave" }, text: label, onclick })),
    };
  }

  gathering(view) {
    const me = view.you.seat;
    const { ready, awaited } = view.gathering;
    const mine = awaited.includes(me);
    const waitingOn = awaited.filter((seat) => seat !== me).map((seat) => this.hooks.name(seat));
    const said = ready.includes(me) && waitingOn.length
      ? tn("Dealing when {names} says so, or when the countdown ends.",
        "Dealing when {names} say so, or when the countdown ends.", waitingOn.length, { names: either(waitingOn) })
      : "";
    return {
      key: `gathering:${mine}:${said}`,
      node: h("div", { class: "gathering-banner", dataset: { testid: "gathering" } },
        h("p", { class: "table-notice-line gathering-count", "aria-live": "off" }),
        said ? h("p", { class: "table-notice-line muted", text: said }) : null,
        mine ? h("button", { type: "button", class: "deal-now", dataset: { testid: "deal-now" }, text: t("Deal now"), onclick: () => this.hooks.dealNow() }) : null),
    };
  }

  /** The gathering's seconds left (the table's one clock tick calls it). */
  tick() {
    const el = this.el.querySelector(".gathering-count");
    if (!el) return;
    const at = this.hooks.nextHandAt();
    const seconds = at === null ? 0 : Math.max(0, Math.ceil((at - performance.now()) / 1000));
    el.textContent = seconds > 0 ? t("Dealing in {seconds} s: time for everyone to sit down.", { seconds }) : t("Dealing…");
  }
}
