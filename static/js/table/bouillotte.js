// Bouillotte at the table (rules/bouillotte.md): caves, the upcard, the straddle chain, the
// betting controls within the legal range, and the showdown with every hand face up, each
// suit's points and the brelan bonuses.
import { h, chips } from "../dom.js";
import { cardElement, cardLabel, rankLabel, suitName, suitSymbol } from "../cards.js";
import { t, tp } from "../i18n.js";
import { cardShort, logLine, withNodes } from "./handlog.js";
import { shortcutFor } from "./keys.js";

// What the shared table and replay pages ask of a game's front end (see bourre.js).
export const keepsTricks = false;
export const STAGES = {};

export const SHORTCUT_LIST = [
  ["S", tp("bouillotte", "Straddle")],
  ["B", tp("bouillotte", "Buy back")],
  ["D", t("Decline (the straddle) / stay")],
  ["X", tp("bouillotte", "Pass")],
  ["O", t("Open: bring your stake to the amount chosen")],
  ["C", t("Call, or check when it is free")],
  ["R", t("Raise: bring your stake to the amount chosen")],
  ["F", tp("bouillotte", "Fold")],
  ["V", t("Va tout (press twice to confirm)")],
];

/** The viewer's cards as dealt. */
export function viewerOrder(cards) {
  return cards;
}

// Module constants may hold translated words: i18n.js has its catalog before this runs.
const STATUS = {
  in: tp("bouillotte", "In"),
  folded: tp("bouillotte", "Folded"),
  all_in: tp("bouillotte", "All in"),
  out: tp("bouillotte", "Out"),
};
const PHASES = {
  straddle: tp("phase", "straddles"),
  buy_back: tp("phase", "buy-back"),
  opening: tp("phase", "opening"),
  calls: tp("phase", "calls"),
  continuation: tp("phase", "continuation"),
  over: tp("phase", "over"),
};
// §6: the showdown's categories, by the engine's names for them.
const RANKS = { carre: t("Brelan carré"), brelan: t("Brelan"), mistigri: t("Mistigri brelan"), points: t("Points") };

export function seatTags(handSeat, hand, seat) {
  if (!handSeat || handSeat.status === "out") return [];
  const tags = [STATUS[handSeat.status] ?? handSeat.status];
  if (handSeat.stake) tags.push(t("Bet {amount}", { amount: chips(handSeat.stake) }));
  const straddles = hand.straddles.filter((s) => s.seat === seat && s.action !== "decline");
  if (straddles.length) tags.push(straddles.some((s) => s.action === "buy_back") ? tp("bouillotte", "Bought back") : tp("bouillotte", "Straddled"));
  if (hand.opener === seat) tags.push(tp("bouillotte", "Opened"));
  return tags;
}

export function centre(view, ctx) {
  const hand = view.hand;
  const pot = h("div", { class: "pot", dataset: { testid: "pot" } }, tp("noun", "Pot") + " ", h("strong", { text: chips(hand ? hand.pot : view.pot) }));
  // A pot carried between hands stays in sight.
  if (!hand) return view.pot ? [h("div", { class: "centre-middle" }, pot)] : [];
  const nodes = [pot]; // the middle of the trick area, top to bottom
  // Under the pot, in sight with the player's controls: the stake every player still in must
  // reach (§5), and what of the pot was carried from the last hand.
  const notes = [];
  if (hand.highest_stake) notes.push(h("span", { dataset: { testid: "stake" }, text: t("Stake to match {amount}", { amount: chips(hand.highest_stake) }) }));
  if (hand.dead_money) notes.push(h("span", { text: t("of which {amount} carried", { amount: chips(hand.dead_money) }) }));
  if (notes.length) nodes.push(h("div", { class: "pot-notes" }, ...notes));
  nodes.push(hand.upcard
    ? h("div", { class: "upcard", role: "group", "aria-label": t("Upcard: {card}", { card: cardLabel(hand.upcard) }) },
      cardElement(hand.upcard, ctx.cardOptions), h("span", { class: "trump-label", text: t("Upcard") }))
    : h("div", { class: "upcard upcard--none muted", text: t("Straddles before the deal") }));
  return [h("div", { class: "centre-middle" }, ...nodes)];
}

/** One line for the table's bar: which hand, which stage, the stake to match. */
export function handInfo(hand) {
  // The extractor reads no call inside a template literal: the words are joined outside.
  const bits = [t("Hand {number}", { number: hand.number }) + ` · ${PHASES[hand.phase] ?? hand.phase}`];
  if (hand.highest_stake) bits.push(t("stake to match {amount}", { amount: chips(hand.highest_stake) }));
  if (hand.opening_minimum) bits.push(t("open at least {amount}", { amount: chips(hand.opening_minimum) }));
  return bits.join(" · ");
}

function amountPicker(action, view, ctx) {
  const { min, max } = action;
  const pot = view.hand.pot;
  const clamp = (v) => Math.max(min, Math.min(max, Math.round(v)));
  const number = h("input", { type: "number", min, max, step: 1, value: min, class: "bet-number", "aria-label": action.action === "open" ? t("Open amount") : t("Raise amount") });
  const slider = h("input", { type: "range", min, max, step: 1, value: min, class: "bet-slider", "aria-label": t("Bet slider") });
  const go = h("button", { type: "button", class: "primary", dataset: { action: action.action, shortcut: shortcutFor(action.action) } });
  // §5: an opening or a raise names the player's whole stake; the button says so, and what
  // the player adds to what they have in already.
  const already = view.hand.seats?.[view.hand.viewer]?.stake ?? 0;
  const labelFor = (total) => {
    const said = { amount: chips(total), added: chips(total - already) };
    if (action.action === "open") return already ? t("Open to {amount} (add {added})", said) : t("Open to {amount}", said);
    return already ? t("Raise to {amount} (add {added})", said) : t("Raise to {amount}", said);
  };
  const label = () => labelFor(clamp(Number(number.value)));
  const set = (v) => { number.value = String(clamp(v)); slider.value = number.value; go.textContent = label(); };
  slider.addEventListener("input", () => set(Number(slider.value)));
  number.addEventListener("input", () => { slider.value = number.value; go.textContent = label(); });
  go.addEventListener("click", () => ctx.act({ action: action.action, amount: clamp(Number(number.value)) }));
  set(min);
  // A preset's short word says which amount; its title, what choosing it sets ("Raise to 40").
  const presets = [[t("Min"), min], [t("½ pot"), min + pot / 2], [tp("noun", "Pot"), min + pot], [t("Max"), max]]
    .filter(([, v], i, all) => all.findIndex(([, w]) => clamp(w) === clamp(v)) === i)
    .map(([text, v]) => h("button", {
      type: "button", class: "small secondary preset", text, title: labelFor(clamp(v)), onclick: () => set(v),
    }));
  return h("div", { class: "bet-picker" }, h("div", { class: "presets" }, ...presets), slider, number, go);
}

// How long an armed "Va tout" waits for its confirming tap.
const CONFIRM_MS = 4000;

/** "Va tout" stakes the whole stack: the first tap arms it (and says what it costs), a
 *  second tap within a few seconds sends it. On a touch screen a stray tap beside Fold is
 *  easy; this makes it take two. */
function allInButton(hand, ctx) {
  const stack = hand.seats?.[hand.viewer]?.stack;
  const idle = tp("bouillotte", "Va tout");
  const armed = stack ? t("Tap again: all in for {amount}", { amount: chips(stack) }) : t("Tap again to go all in");
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
      straddle: t("Straddle {amount}", { amount: chips(hand.pot) }),
      decline: hand.phase === "continuation" ? tp("bouillotte", "Stay") : tp("bouillotte", "Decline"),
      buy_back: t("Buy back {amount}", { amount: chips(hand.pot) }),
      pass: tp("bouillotte", "Pass"),
      // §5, §8: a player already level still speaks after an opening; calling is free.
      call: toCall ? t("Call {amount}", { amount: chips(toCall) }) : tp("bouillotte", "Check"),
      fold: tp("bouillotte", "Fold"),
      all_in: tp("bouillotte", "Va tout"),
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
      straddle: t("Your turn: straddle (put in {amount}, what the pot holds) or decline?", { amount: chips(hand.pot) }),
      buy_back: t("Your turn: buy back the straddle for {amount}?", { amount: chips(hand.pot) }),
      opening: t("Your turn: open the betting or pass?"),
      calls: toCall
        ? t("Your turn: {amount} to call.", { amount: chips(toCall) })
        : t("Your turn: you are level. Check (call for free), raise or fold."),
      continuation: t("Your turn: the betting goes round again."),
    }[hand.phase] ?? t("Your turn.");
  }
  return { prompt, cards, controls };
}

// §6: the order of ranks when the owner of a suit is decided (its highest card).
const RANK_ORDER = "AKQJT98765432";
// As they follow "a brelan of" (in some languages, a case of their own).
const RANK_PLURAL = {
  A: tp("brelan of", "aces"),
  K: tp("brelan of", "kings"),
  Q: tp("brelan of", "queens"),
  J: tp("brelan of", "jacks"),
  9: tp("brelan of", "nines"),
  8: tp("brelan of", "eights"),
};

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

/** How `winner` won `which` pot of `amount`, in words, their name left as `{name}` (§6):
 *  with their brelan, or the suit whose points carried it — the best suit they own (hold
 *  the highest card of, among the players still in), with its total and whether the upcard
 *  counted in it. Without a showdown, only what they won. */
function winsSentence(report, winner, which, amount) {
  const said = { pot: which, amount };
  const shown = report.showdown?.[winner];
  if (!shown) return t("{name} wins {pot} of {amount}.", said);
  if (shown.rank !== "points") {
    const ranks = shown.cards.map((c) => c[0]);
    const main = ranks.find((r) => ranks.filter((x) => x === r).length >= 2) ?? ranks[0];
    const of = { ranks: RANK_PLURAL[main] ?? main };
    const hand = {
      carre: t("a brelan carré of {ranks}", of),
      brelan: t("a brelan of {ranks}", of),
      mistigri: t("a mistigri brelan of {ranks}", of),
    }[shown.rank] ?? t("a {kind} of {ranks}", { kind: shown.rank, ...of });
    return t("{name} wins {pot} of {amount} with {hand}.", { ...said, hand });
  }
  const owner = (suit) => suitOwner(report, suit);
  const suits = Object.entries(report.suit_points ?? {}).sort((a, b) => b[1] - a[1]);
  const won = suits.find(([suit]) => owner(suit) === winner);
  if (!won) return t("{name} wins {pot} of {amount}.", said);
  const [suit, total] = won;
  const points = { ...said, total, suit: suitName(suit) };
  return report.upcard?.[1] === suit
    ? t("{name} wins {pot} of {amount} with {total} in {suit} (upcard counted).", points)
    : t("{name} wins {pot} of {amount} with {total} in {suit}.", points);
}

export function result(report, ctx) {
  const name = (username) => ctx.displayName(username);
  const lines = [h("h2", { text: t("Hand {number}", { number: report.number }) })];
  // §5: the first pot is the main pot; the others are side pots, in the order they formed.
  report.pots.forEach((pot, n) => {
    const which = report.pots.length === 1 ? t("the pot") : n === 0 ? t("the main pot") : t("side pot {n}", { n });
    lines.push(h("p", { class: "result-headline", dataset: { testid: "winner" } },
      withNodes(winsSentence(report, pot.winner, which, chips(pot.amount)), { name: h("strong", { text: name(pot.winner) }) })));
  });
  if (!report.pots.length) {
    lines.push(h("p", { class: "result-headline", text: t("Everyone passed: the pot carries to the next hand.") }));
  }
  const showdown = Object.entries(report.showdown ?? {});
  if (showdown.length) {
    lines.push(h("ul", { class: "showdown", "aria-label": t("Showdown") },
      ...showdown.map(([player, shown]) => h("li", { dataset: { player } },
        h("span", { class: "result-name", text: name(player) }),
        h("span", { class: "showdown-cards" }, ...shown.cards.map((c) => cardElement(c, ctx.cardOptions))),
        h("span", { class: "tag", text: RANKS[shown.rank] ?? shown.rank.replace(/_/g, " ") }),
        h("span", { class: "result-stack" }, t("stack {amount}", { amount: chips(report.stacks[player]) }), ctx.delta(player, report.stacks[player]))))));
  }
  const points = Object.entries(report.suit_points ?? {});
  if (points.length) {
    lines.push(h("p", { class: "suit-points", role: "group", "aria-label": t("Points by suit") }, t("Points:") + " ",
      ...points.map(([suit, total]) => {
        // §6: each suit's points go to its owner, named beside them.
        const holder = suitOwner(report, suit);
        return h("span", { class: `suit suit-${suit}`, text: `${suitSymbol(suit)} ${total}${holder ? ` (${name(holder)})` : ""} ` });
      })));
  }
  for (const bonus of report.bonuses ?? []) {
    lines.push(h("p", { class: "bonus", text: t("{from} pays {to} a bonus of {amount}.", { from: name(bonus.from), to: name(bonus.to), amount: chips(bonus.amount) }) }));
  }
  if (!showdown.length) {
    lines.push(h("ul", { class: "result-players" },
      ...report.players.map((player) => h("li", { dataset: { player } },
        h("span", { class: "result-name", text: name(player) }),
        h("span", { class: "result-stack" }, t("stack {amount}", { amount: chips(report.stacks[player]) }), ctx.delta(player, report.stacks[player]))))));
  }
  if (report.carry) {
    lines.push(h("p", { class: "muted" }, withNodes(t("Carried to the next hand: {amount}."),
      { amount: h("span", { dataset: { testid: "carry" }, text: chips(report.carry) }) })));
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
    ctx.notice(t("Seats drawn: {list}. {name} deals first.", { list: drawn.join(", "), name: event.data.seats[0].name }));
  }
}

// ----- the hand log (handlog.js): this game's events and timer moves in words

/** What the turn timer did for a player, in the past tense ("folded", "checked"). */
export function timeoutWords(said) {
  switch (said.action) {
    case "decline": return betting ? t("stayed") : t("declined to straddle");
    case "fold": return t("folded");
    case "call": return said.amount ? t("called {amount}", { amount: chips(said.amount) }) : t("checked");
    default: return null;
  }
}


/** One of this game's events as a line of the hand log, or null. */
export function eventLine(kind, data, { someone }) {
  if (kind === "opened") betting = true;
  const said = { name: someone, added: chips(data.added), stake: chips(data.stake) };
  switch (kind) {
    case "straddled": return logLine(t("{name} straddles {added}.", said));
    case "bought_back": return logLine(t("{name} buys back for {added}.", said));
    // §8: after the opening a "decline" is the continuation's stay; before it, a straddle
    // (or buy-back) turned down.
    case "declined": return logLine(betting ? t("{name} stays.", said) : t("{name} declines to straddle.", said));
    case "upcard": return logLine(t("Upcard: {card}.", { card: cardShort(data.card) }));
    case "passed": return logLine(t("{name} passes.", said));
    case "opened":
      return logLine(data.all_in ? t("{name} opens va tout to {stake}.", said) : t("{name} opens to {stake}.", said));
    case "raised":
      return logLine(data.all_in ? t("{name} goes va tout: raises to {stake}.", said) : t("{name} raises to {stake}.", said));
    case "called":
      if (!data.added) return logLine(t("{name} checks.", said));
      return logLine(data.all_in ? t("{name} calls {added}, va tout.", said) : t("{name} calls {added}.", said));
    case "folded": return logLine(t("{name} folds.", said));
    case "showdown": return logLine(t("Showdown."));
    default: return null;
  }
}
