// The hand so far, in words, beside the felt. Each game's front end words its own events
// (`eventLine`) and what the turn timer did for a player (`timeoutWords`); this log keeps
// the lines, the hand's headings and the end of the hand, which every game shares. Built
// only from the events this viewer's socket receives, which the server has already
// filtered: another player's exchange is a count, never cards.
import { h, chips } from "../dom.js";
import { cardElement, cardLabel, rankLabel, suitSymbol } from "../cards.js";
import { t, tn } from "../i18n.js";

// Lines kept: a long Bourré hand at eight seats is about a hundred.
const KEEP = 300;

/** A card as people write it: 7♥, 10♠. */
export function cardShort(card) {
  return `${rankLabel(card[0])}${suitSymbol(card[1])}`;
}

export function cardCount(n) {
  return tn("{n} card", "{n} cards", n);
}

/** A translated sentence as the children of an element: each `{key}` placeholder that
 *  `nodes` names becomes that node (a name in bold, an amount in its span), the rest text.
 *  The sentence is translated whole; only its parts are set apart. */
export function withNodes(text, nodes) {
  return text.split(/(\{\w+\})/).filter(Boolean).map((part) => {
    const key = /^\{(\w+)\}$/.exec(part)?.[1];
    return key !== undefined && key in nodes ? nodes[key] : part;
  });
}

/** What the turn timer did, from the `timed_out` event's data (the server's words for an
 *  action, see app/engine/driver.py `timeout_said`), in the past tense: the game's own words
 *  for its actions, else the action's name. */
export function timeoutWords(said, game) {
  const words = game.timeoutWords?.(said);
  if (words) return words;
  if (said.action === "pass") return t("passed");
  return said.action ? String(said.action).replace(/_/g, " ") : t("acted");
}

/** "Dave timed out: passed." */
export function timeoutSentence(name, said, game) {
  return t("{name} timed out: {what}.", { name, what: timeoutWords(said, game) });
}

/** A line of the log as a game's `eventLine` returns it: `strong` for a milestone (a trick
 *  won), `ownAction: false` for an event that carries a seat without being its move. */
export function logLine(text, { strong = false, ownAction = true } = {}) {
  return { text, strong, ownAction };
}

/** One event as a line of the log — `{text, strong, ownAction}` — or null for events that
 *  say nothing a player needs here. `name(seat)` is the display name at that seat;
 *  `who(username)` for a report's names; `me` the viewer's seat. `ownAction`: the line says
 *  what its seat did (so a move the timer made, already said as a timeout, is not said
 *  twice). */
function line(kind, data, game, { name, who, me }) {
  if (kind === "new_hand") return null; // the heading says it
  if (kind === "hand_over") {
    // The engine's event (seats, no number) is followed by the table's report: say that.
    if (data.number === undefined) return null;
    return { text: handOverWords(data, who), strong: true, ownAction: false };
  }
  const seat = data.seat;
  const someone = seat === undefined || seat === null ? "" : name(seat);
  return game.eventLine?.(kind, data, { someone, name, me }) ?? null;
}

function handOverWords(data, who) {
  if (data.pots) {
    if (!data.pots.length) return t("Everyone passed: the pot carries over.");
    return data.pots.map((p) => t("{name} wins {amount}.", { name: who(p.winner), amount: chips(p.amount) })).join(" ");
  }
  return data.winner
    ? t("{name} wins the pot of {amount}.", { name: who(data.winner), amount: chips(data.pot) })
    : t("Nobody takes the pot of {amount}.", { amount: chips(data.pot) });
}

/** The log of the hand in play, and the last trick of a Bourré hand. */
export class HandLog {
  /** @param {{list: HTMLElement, heading: HTMLElement}} els
   *  @param {object} game the table's game front end, which words its events */
  constructor(els, game) {
    this.list = els.list;
    this.heading = els.heading;
    this.game = game;
    // The seat whose next action the timer took: its line says so instead.
    this.timedOut = new Map();
    /** @type {number | undefined} the hand in play, once its heading is written */
    this.number = undefined;
  }

  /** A new hand: its heading in the log (the hands before stay above it, for a while). */
  start(number) {
    this.timedOut.clear();
    this.game.newHand?.();
    this.number = number;
    this.heading.textContent = t("Hand {number}", { number });
    this.add(t("Hand {number}", { number }), "hand").dataset.hand = String(number);
  }

  /** The hand in play as the server tells it on every (re)connection (`hand_log`: the
   *  events this viewer may see, in order): its lines are written again from them, in
   *  place of what this page had of it. The hands before stay. */
  rebuild(frame, names) {
    if (frame.hand === null || frame.hand === undefined) return;
    const heading = this.list.querySelector(`li[data-hand="${frame.hand}"]`);
    if (heading) {
      while (heading.nextElementSibling) heading.nextElementSibling.remove();
      heading.remove();
    }
    this.start(frame.hand);
    for (const { kind, data } of frame.events) {
      if (kind !== "new_hand") this.event({ kind, data }, names);
    }
  }

  add(text, kind = "") {
    const line = h("li", { class: `log-line${kind ? ` log-line--${kind}` : ""}`, text });
    this.list.append(line);
    while (this.list.children.length > KEEP) this.list.firstElementChild.remove();
    this.list.scrollTop = this.list.scrollHeight;
    return line;
  }

  /** Log one event; returns the sentence for a timeout (for the chat notices), else null. */
  event(frame, names) {
    const { kind, data } = frame;
    if (kind === "new_hand") {
      this.start(data.number);
      return null;
    }
    if (kind === "timed_out") {
      const said = timeoutSentence(names.name(data.seat), data, this.game);
      this.timedOut.set(data.seat, said);
      this.add(said, "timeout");
      // The notice names its hand: read later, it is not taken for the hand in play.
      return this.number === undefined ? said : t("Hand {number}: {text}", { number: this.number, text: said });
    }
    const said = line(kind, data, this.game, names);
    if (!said?.text) return null;
    // The timer's action was already said, as a timeout: not twice.
    if (said.ownAction && data.seat !== undefined && this.timedOut.has(data.seat)) {
      this.timedOut.delete(data.seat);
      return null;
    }
    this.add(said.text, said.strong ? "strong" : "");
    return null;
  }
}

/** Which card of a Bourré trick wins it so far (rules/bourre.md §5): the highest trump, or
 *  without one the highest card of the suit led. Returns its index in `trick`, or -1. */
export function winningIndex(trick, trump) {
  if (!trick.length) return -1;
  const order = "23456789TJQKA";
  const led = trick[0].card[1];
  let best = -1;
  trick.forEach(({ card }, i) => {
    if (best < 0) {
      best = i;
      return;
    }
    const top = trick[best].card;
    const beats = card[1] === top[1]
      ? order.indexOf(card[0]) > order.indexOf(top[0])
      : card[1] === trump && top[1] !== trump;
    if (beats && (card[1] === led || card[1] === trump)) best = i;
  });
  return best;
}

/** The previous trick of a Bourré hand: its cards, who played each, who won it. */
export function lastTrickView(hand, name, cardOptions) {
  const last = hand?.tricks?.[hand.tricks.length - 1];
  if (!last) return null;
  return h("div", { class: "last-trick", role: "group", "aria-label": t("Last trick, won by {name}", { name: name(last.winner) }) },
    h("p", { class: "last-trick-title" },
      withNodes(t("Trick {number}: {name} won it.", { number: hand.tricks.length }), { name: h("strong", { text: name(last.winner) }) })),
    h("ol", { class: "last-trick-cards" },
      ...last.cards.map(({ seat, card }) => h("li", {
        class: seat === last.winner ? "last-trick-card is-winner" : "last-trick-card",
        "aria-label": seat === last.winner
          ? t("{name}: {card}, won the trick", { name: name(seat), card: cardLabel(card) })
          : `${name(seat)}: ${cardLabel(card)}`,
      }, cardElement(card, cardOptions), h("span", { class: "last-trick-name", text: name(seat) })))));
}
