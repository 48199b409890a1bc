// Bouillotte at the table (rules/bouillotte.md): caves, the upcard, the straddle chain, the
// betting controls within the legal range, and the showdown with every hand face up, each
// suit's points and the brelan bonuses.
import { h, chips } from "../dom.js";
import { cardElement, cardLabel, rankLabel, suitName, suitSymbol } from "../cards.js";
import { cardShort, logLine } from "./handlog.js";
import { shortcutFor } from "./keys.js";

// What the shared table and replay pages ask of a game's front end (see bourre.js).
export const keepsTricks = false;
export const STAGES = {};

export const SHORTCUT_LIST = [
  ["S", "Straddle"],
  ["B", "Buy back"],
  ["D", "Decline (the straddle) / stay"],
  ["X", "Pass"],
  ["O", "Open: bring your stake to the amount chosen"],
  ["C", "Call, or check when it is free"],
  ["R", "Raise: bring your stake to the amount chosen"],
  ["F", "Fold"],
  ["V", "Va tout (press twice to confirm)"],
];

/** The viewer's cards as dealt. */
export function viewerOrder(cards) {
  return cards;
}

const STATUS = { in: "In", folded: "Folded", all_in: "All in", out: "Out" };
const PHASES = {
  straddle: "straddles",
  buy_back: "buy-back",
  opening: "opening",
  calls: "calls",
  continuation: "continuation",
  over: "over",
};
// §6: the showdown's categories, by the engine's names for them.
const RANKS = { carre: "Brelan carré", brelan: "Brelan", mistigri: "Mistigri brelan", points: "Points" };

export function seatTags(handSeat, hand, seat) {
  if (!handSeat || handSeat.status === "out") return [];
  const tags = [STATUS[handSeat.status] ?? handSeat.status];
  if (handSeat.stake) tags.push(`Bet ${chips(handSeat.stake)}`);
  const straddles = hand.straddles.filter((s) => s.seat === seat && s.action !== "decline");
  if (straddles.length) tags.push(straddles.some((s) => s.action === "buy_back") ? "Bought back" : "Straddled");
  if (hand.opener === seat) tags.push("Opened");
  return tags;
}

export function centre(view, ctx) {
  const hand = view.hand;
  const pot = h("div", { class: "pot", dataset: { testid: "pot" } }, "Pot ", h("strong", { text: chips(hand ? hand.pot : view.pot) }));
  // A pot carried between hands stays in sight.
  if (!hand) return view.pot ? [h("div", { class: "centre-middle" }, pot)] : [];
  const nodes = [pot]; // the middle of the trick area, top to bottom
  // Under the pot, in sight with the player's controls: the stake every player still in must
  // reach (§5), and what of the pot was carried from the last hand.
  const notes = [];
  if (hand.highest_stake) notes.push(h("span", { dataset: { testid: "stake" }, text: `Stake to match ${chips(hand.highest_stake)}` }));
  if (hand.dead_money) notes.push(h("span", { text: `of which ${chips(hand.dead_money)} carried` }));
  if (notes.length) nodes.push(h("div", { class: "pot-notes" }, ...notes));
  nodes.push(hand.upcard
    ? h("div", { class: "upcard", role: "group", "aria-label": `Upcard: ${cardLabel(hand.upcard)}` },
      cardElement(hand.upcard, ctx.cardOptions), h("span", { class: "trump-label", text: "Upcard" }))
    : h("div", { class: "upcard upcard--none muted", text: "Straddles before the deal" }));
  return [h("div", { class: "centre-middle" }, ...nodes)];
}

/** One line for the table's bar: which hand, which stage, the stake to match. */
export function handInfo(hand) {
  const bits = [`Hand ${hand.number} · ${PHASES[hand.phase] ?? hand.phase}`];
  if (hand.highest_stake) bits.push(`stake to match ${chips(hand.highest_stake)}`);
  if (hand.opening_minimum) bits.push(`open at least ${chips(hand.opening_minimum)}`);
  return bits.join(" · ");
}

function amountPicker(action, view, ctx) {
  const { min, max } = action;
  const pot = view.hand.pot;
  const clamp = (v) => Math.max(min, Math.min(max, Math.round(v)));
  const number = h("input", { type: "number", min, max, step: 1, value: min, class: "bet-number", "aria-label": `${action.action === "open" ? "Open" : "Raise"} amount` });
  const slider = h("input", { type: "range", min, max, step: 1, value: min, class: "bet-slider", "aria-label": "Bet slider" });
  const go = h("button", { type: "button", class: "primary", dataset: { action: action.action, shortcut: shortcutFor(action.action) } });
  // §5: an opening or a raise names the player's whole stake; the button says so, and what
  // the player adds to what they have in already.
  const already = view.hand.seats?.[view.hand.viewer]?.stake ?? 0;
  const label = () => {
    const total = clamp(Number(number.value));
    const verb = action.action === "open" ? "Open to" : "Raise to";
    return already ? `${verb} ${chips(total)} (add ${chips(total - already)})` : `${verb} ${chips(total)}`;
  };
  const set = (v) => { number.value = String(clamp(v)); slider.value = number.value; go.textContent = label(); };
  slider.addEventListener("input", () => set(Number(slider.value)));
  number.addEventListener("input", () => { slider.value = number.value; go.textContent = label(); });
  go.addEventListener("click", () => ctx.act({ action: action.action, amount: clamp(Number(number.value)) }));
  set(min);
  const presets = [["Min", min], ["½ pot", min + pot / 2], ["Pot", min + pot], ["Max", max]]
    .filter(([, v], i, all) => all.findIndex(([, w]) => clamp(w) === clamp(v)) === i)
    .map(([text, v]) => h("button", { type: "button", class: "small secondary preset", text, onclick: () => set(v) }));
  return h("div", { class: "bet-picker" }, h("div", { class: "presets" }, ...presets), slider, number, go);
}

// How long an armed "Va tout" waits for its confirming tap.
const CONFIRM_MS = 4000;

/** "Va tout" stakes the whole stack: the first tap arms it (and says what it costs), a
 *  second tap within a few seconds sends it. On a touch screen a stray tap beside Fold is
 *  easy; this makes it take two. */
function allInButton(hand, ctx) {
  const stack = hand.seats?.[hand.viewer]?.stack;
  const idle = "Va tout";
  const armed = stack ? `Tap again: all in for ${chips(stack)}` : "Tap again to go all in";
  let timer = null;
  const button = h("button", {
    type: "button",
    class: "danger",
    text: idle,
    dataset: { action: "all_in", armed: "false", shortcut: shortcutFor("all_in") },
    onclick: () => {
      if (button.dataset.armed === "true") {
        clearTimeout(timer);
        ctx.act({ action: "all_in" });
        return;
      }
      button.dataset.armed = "true";
      button.textContent = armed;
      timer = setTimeout(() => {
        button.dataset.armed = "false";
        button.textContent = idle;
      }, CONFIRM_MS);
    },
  });
  return button;
}

export function myArea(view, ctx) {
  const hand = view.hand;
  const legal = hand?.legal_actions ?? [];
  const cards = (hand?.hand ?? []).map((card) => {
    const el = cardElement(card, ctx.cardOptions);
    el.classList.add("my-card");
    return el;
  });
  const controls = [];
  // The amount picker (open or raise) comes after the one-tap choices: on a phone those
  // make one row of equal buttons and the picker takes the rows under it.
  const pickers = [];
  const toCall = hand?.to_call ?? 0;
  const offered = new Set(legal.map((action) => action.action));
  for (const action of legal) {
    if (action.min !== undefined) {
      pickers.push(amountPicker(action, view, ctx));
      continue;
    }
    // In the continuation a free call means "stay" (§8): one button for one choice.
    if (action.action === "call" && !toCall && offered.has("decline")) continue;
    // §8: a straddle (or a buy-back) puts in exactly what the pot holds: say how much.
    const text = {
      straddle: `Straddle ${chips(hand.pot)}`,
      decline: hand.phase === "continuation" ? "Stay" : "Decline",
      buy_back: `Buy back ${chips(hand.pot)}`,
      pass: "Pass",
      // §5, §8: a player already level still speaks after an opening; calling is free.
      call: toCall ? `Call ${chips(toCall)}` : "Check",
      fold: "Fold",
      all_in: "Va tout",
    }[action.action] ?? action.action;
    if (action.action === "all_in") {
      controls.push(allInButton(hand, ctx));
      continue;
    }
    controls.push(h("button", {
      type: "button",
      class: action.action === "fold" || action.action === "decline" || action.action === "pass" ? "secondary" : "primary",
      text,
      dataset: { action: action.action, shortcut: shortcutFor(action.action) },
      onclick: () => ctx.act({ action: action.action }),
    }));
  }
  controls.push(...pickers);
  let prompt = "";
  if (legal.length) {
    prompt = {
      straddle: `Your turn: straddle (put in ${chips(hand.pot)}, what the pot holds) or decline?`,
      buy_back: `Your turn: buy back the straddle for ${chips(hand.pot)}?`,
      opening: "Your turn: open the betting or pass?",
      calls: toCall
        ? `Your turn: ${chips(toCall)} to call.`
        : "Your turn: you are level. Check (call for free), raise or fold.",
      continuation: "Your turn: the betting goes round again.",
    }[hand.phase] ?? "Your turn.";
  }
  return { prompt, cards, controls };
}

// §6: the order of ranks when the owner of a suit is decided (its highest card).
const RANK_ORDER = "AKQJT98765432";
const RANK_PLURAL = { A: "aces", K: "kings", Q: "queens", J: "jacks", 9: "nines", 8: "eights" };

/** Who owns `suit` at the showdown (§6): the player still in holding its highest card
 *  (the upcard is nobody's); undefined when nobody still in holds one. */
function suitOwner(report, suit) {
  let best = null;
  for (const player of report.players.filter((p) => report.showdown?.[p])) {
    for (const card of report.showdown[player].cards) {
      if (card[1] === suit && (!best || RANK_ORDER.indexOf(card[0]) < RANK_ORDER.indexOf(best.card[0]))) {
        best = { player, card };
      }
    }
  }
  return best?.player;
}

/** Why `winner` won at the showdown, in words (§6): their brelan, or the suit whose points
 *  carried it — the best suit they own (hold the highest card of, among the players still
 *  in), with its total and whether the upcard counted in it. Empty without a showdown. */
function whyWon(report, winner) {
  const shown = report.showdown?.[winner];
  if (!shown) return "";
  if (shown.rank !== "points") {
    const kind = (RANKS[shown.rank] ?? shown.rank).toLowerCase();
    const ranks = shown.cards.map((c) => c[0]);
    const main = ranks.find((r) => ranks.filter((x) => x === r).length >= 2) ?? ranks[0];
    return ` with a ${kind} of ${RANK_PLURAL[main] ?? main}`;
  }
  const owner = (suit) => suitOwner(report, suit);
  const suits = Object.entries(report.suit_points ?? {}).sort((a, b) => b[1] - a[1]);
  const won = suits.find(([suit]) => owner(suit) === winner);
  if (!won) return "";
  const [suit, total] = won;
  const upcard = report.upcard?.[1] === suit ? " (upcard counted)" : "";
  return ` with ${total} in ${suitName(suit)}${upcard}`;
}

export function result(report, ctx) {
  const name = (username) => ctx.displayName(username);
  const lines = [h("h2", { text: `Hand ${report.number}` })];
  // §5: the first pot is the main pot; the others are side pots, in the order they formed.
  report.pots.forEach((pot, n) => {
    const which = report.pots.length === 1 ? "the pot" : n === 0 ? "the main pot" : `side pot ${n}`;
    lines.push(h("p", { class: "result-headline", dataset: { testid: "winner" } },
      h("strong", { text: name(pot.winner) }), ` wins ${which} of ${chips(pot.amount)}${whyWon(report, pot.winner)}.`));
  });
  if (!report.pots.length) {
    lines.push(h("p", { class: "result-headline", text: "Everyone passed: the pot carries to the next hand." }));
  }
  const showdown = Object.entries(report.showdown ?? {});
  if (showdown.length) {
    lines.push(h("ul", { class: "showdown", "aria-label": "Showdown" },
      ...showdown.map(([player, shown]) => h("li", { dataset: { player } },
        h("span", { class: "result-name", text: name(player) }),
        h("span", { class: "showdown-cards" }, ...shown.cards.map((c) => cardElement(c, ctx.cardOptions))),
        h("span", { class: "tag", text: RANKS[shown.rank] ?? shown.rank.replace(/_/g, " ") }),
        h("span", { class: "result-stack" }, `stack ${chips(report.stacks[player])}`, ctx.delta(player, report.stacks[player]))))));
  }
  const points = Object.entries(report.suit_points ?? {});
  if (points.length) {
    lines.push(h("p", { class: "suit-points", role: "group", "aria-label": "Points by suit" }, "Points: ",
      ...points.map(([suit, total]) => {
        // §6: each suit's points go to its owner, named beside them.
        const holder = suitOwner(report, suit);
        return h("span", { class: `suit suit-${suit}`, text: `${suitSymbol(suit)} ${total}${holder ? ` (${name(holder)})` : ""} ` });
      })));
  }
  for (const bonus of report.bonuses ?? []) {
    lines.push(h("p", { class: "bonus", text: `${name(bonus.from)} pays ${name(bonus.to)} a bonus of ${chips(bonus.amount)}.` }));
  }
  if (!showdown.length) {
    lines.push(h("ul", { class: "result-players" },
      ...report.players.map((player) => h("li", { dataset: { player } },
        h("span", { class: "result-name", text: name(player) }),
        h("span", { class: "result-stack" }, `stack ${chips(report.stacks[player])}`, ctx.delta(player, report.stacks[player]))))));
  }
  if (report.carry) {
    lines.push(h("p", { class: "muted" }, "Carried to the next hand: ",
      h("span", { dataset: { testid: "carry" }, text: chips(report.carry) }), "."));
  }
  return lines;
}

// Whether this hand's betting has been opened: a "decline" then means "stay" (§8).
let betting = false;

/** The hand log starts a hand (live, or rebuilt on reconnection): nothing opened yet. */
export function newHand() {
  betting = false;
}

export function onEvent(event, ctx) {
  if (["opened", "raised", "called", "all_in"].includes(event.kind)) ctx.sounds.card();
  if (event.kind === "seats_drawn") {
    // §1: before the first hand each player drew a card; the king deals, the others sit to
    // his right from the highest card down. The names are those of the seats as drawn.
    const drawn = event.data.seats.map((s) => `${s.name} ${rankLabel(s.card[0])}`);
    ctx.notice(`Seats drawn: ${drawn.join(", ")}. ${event.data.seats[0].name} deals first.`);
  }
}

// ----- the hand log (handlog.js): this game's events and timer moves in words

/** What the turn timer did for a player, in the past tense ("folded", "checked"). */
export function timeoutWords(said) {
  switch (said.action) {
    case "decline": return betting ? "stayed" : "declined to straddle";
    case "fold": return "folded";
    case "call": return said.amount ? `called ${chips(said.amount)}` : "checked";
    default: return null;
  }
}


/** One of this game's events as a line of the hand log, or null. */
export function eventLine(kind, data, { someone }) {
  if (kind === "opened") betting = true;
  switch (kind) {
    case "straddled": return logLine(`${someone} straddles ${chips(data.added)}.`);
    case "bought_back": return logLine(`${someone} buys back for ${chips(data.added)}.`);
    // §8: after the opening a "decline" is the continuation's stay; before it, a straddle
    // (or buy-back) turned down.
    case "declined": return logLine(betting ? `${someone} stays.` : `${someone} declines to straddle.`);
    case "upcard": return logLine(`Upcard: ${cardShort(data.card)}.`);
    case "passed": return logLine(`${someone} passes.`);
    case "opened":
      return logLine(data.all_in ? `${someone} opens va tout to ${chips(data.stake)}.` : `${someone} opens to ${chips(data.stake)}.`);
    case "raised":
      return logLine(data.all_in ? `${someone} goes va tout: raises to ${chips(data.stake)}.` : `${someone} raises to ${chips(data.stake)}.`);
    case "called":
      if (!data.added) return logLine(`${someone} checks.`);
      return logLine(data.all_in ? `${someone} calls ${chips(data.added)}, va tout.` : `${someone} calls ${chips(data.added)}.`);
    case "folded": return logLine(`${someone} folds.`);
    case "showdown": return logLine("Showdown.");
    default: return null;
  }
}
