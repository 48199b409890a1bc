// The hand so far, in words, beside the felt: who declared, drew how many, played what and
// won which trick (Bourré); who straddled, passed, opened, called, raised, folded or went va
// tout for how much (Bouillotte). Built only from the events this viewer's socket receives,
// which the server has already filtered: another player's exchange is a count, never cards.
// Also the words for what the turn timer did for a player ("Dave timed out: passed").
import { h, chips } from "../dom.js";
import { cardElement, cardLabel, rankLabel, suitSymbol } from "../cards.js";

// Lines kept: a long Bourré hand at eight seats is about a hundred.
const KEEP = 300;

/** A card as people write it: 7♥, 10♠. */
export function cardShort(card) {
  return `${rankLabel(card[0])}${suitSymbol(card[1])}`;
}

function cardCount(n) {
  return n === 1 ? "1 card" : `${n} cards`;
}

/** What the turn timer did, from the `timed_out` event's data (the server's words for an
 *  action, see app/tables/games.py `timeout_said`), in the past tense. */
export function timeoutWords(said) {
  switch (said.action) {
    case "pass": return "passed";
    case "play": return "played the hand";
    case "card": return said.card ? `played ${cardShort(said.card)}` : "played a card";
    case "discard": return said.count ? `exchanged ${cardCount(said.count)}` : "kept all cards";
    case "take_trump": return "took the trump card";
    case "decline": return "declined";
    case "fold": return "folded";
    case "call": return said.amount ? `called ${chips(said.amount)}` : "checked";
    default: return String(said.action ?? "acted").replace(/_/g, " ");
  }
}

/** "Dave timed out: passed." */
export function timeoutSentence(name, said) {
  return `${name} timed out: ${timeoutWords(said)}.`;
}

/** One event in words, or null for events that say nothing a player needs here.
 *  `name(seat)` is the display name at that seat; `who(username)` for a report's names;
 *  `me` the viewer's seat. */
function sentence(kind, data, { name, who, me }) {
  const seat = data.seat;
  const someone = seat === undefined || seat === null ? "" : name(seat);
  switch (kind) {
    // ----- both games
    case "new_hand": return null; // the heading says it
    // ----- Bourré
    case "trump_turned": return `Trump turned: ${cardShort(data.card)}.`;
    case "committed": return `${someone} has decided.`;
    case "revealed": {
      const play = (data.play ?? []).map(name);
      const pass = (data.pass ?? []).map(name);
      return [play.length ? `Playing: ${play.join(", ")}.` : "Nobody plays.", pass.length ? `Passed: ${pass.join(", ")}.` : ""].join(" ").trim();
    }
    case "declared":
    case "declared_again": {
      const again = kind === "declared_again" ? " again" : "";
      const ante = data.ante ? ` (ante ${chips(data.ante)})` : "";
      return data.declaration === "play" ? `${someone} plays${again}${ante}.` : `${someone} passes${again}.`;
    }
    case "trump_taken": return `${someone} takes the trump card ${cardShort(data.card)}.`;
    case "discarded": {
      const faceUp = (data.face_up ?? []).length ? `, ${data.face_up.map(cardShort).join(", ")} face up` : "";
      if (!data.count) return `${someone} keeps all cards.`;
      return `${someone} exchanges ${cardCount(data.count)}${faceUp}, draws ${data.received ?? data.count}.`;
    }
    case "drew": // sent to the drawing player alone: their own new cards
      if (seat !== me || !(data.received ?? []).length) return null;
      return `You drew ${data.received.map(cardShort).join(" ")}.`;
    case "reshuffled": return `The stock ran out: ${cardCount(data.count)} reshuffled.`;
    case "card_played": return `${someone} plays ${cardShort(data.card)}.`;
    case "trick_won": return `${someone} wins trick ${data.number}.`;
    // ----- Bouillotte
    case "straddled": return `${someone} straddles ${chips(data.added)}.`;
    case "bought_back": return `${someone} buys back for ${chips(data.added)}.`;
    case "declined": return `${someone} declines.`;
    case "upcard": return `Upcard: ${cardShort(data.card)}.`;
    case "passed": return `${someone} passes.`;
    case "opened":
      return data.all_in ? `${someone} opens va tout for ${chips(data.stake)}.` : `${someone} opens for ${chips(data.stake)}.`;
    case "raised":
      return data.all_in ? `${someone} goes va tout: raises to ${chips(data.stake)}.` : `${someone} raises to ${chips(data.stake)}.`;
    case "called":
      if (!data.added) return `${someone} checks.`;
      return data.all_in ? `${someone} calls ${chips(data.added)}, va tout.` : `${someone} calls ${chips(data.added)}.`;
    case "folded": return `${someone} folds.`;
    case "showdown": return "Showdown.";
    // ----- the end
    case "hand_over": {
      // The engine's event (seats, no number) is followed by the table's report: say that.
      if (data.number === undefined) return null;
      if (data.pots) {
        if (!data.pots.length) return "Everyone passed: the pot carries over.";
        return data.pots.map((p) => `${who(p.winner)} wins ${chips(p.amount)}.`).join(" ");
      }
      return data.winner ? `${who(data.winner)} wins the pot of ${chips(data.pot)}.` : `Nobody takes the pot of ${chips(data.pot)}.`;
    }
    default: return null;
  }
}

/** The log of the hand in play, and the last trick of a Bourré hand. */
export class HandLog {
  /** @param {{list: HTMLElement, heading: HTMLElement}} els */
  constructor(els) {
    this.list = els.list;
    this.heading = els.heading;
    // The seat whose next action the timer took: its line says so instead.
    this.timedOut = new Map();
  }

  /** A new hand: its heading in the log (the hands before stay above it, for a while). */
  start(number) {
    this.timedOut.clear();
    this.heading.textContent = `Hand ${number}`;
    this.add(`Hand ${number}`, "hand");
  }

  /** A heading for a page opened in the middle of a hand: what came before is not known. */
  joined(number) {
    if (this.heading.textContent) return;
    this.heading.textContent = `Hand ${number}`;
    this.add(`Hand ${number}`, "hand");
    this.add("You came in during this hand.", "muted");
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
      const said = timeoutSentence(names.name(data.seat), data);
      this.timedOut.set(data.seat, said);
      this.add(said, "timeout");
      return said;
    }
    const text = sentence(kind, data, names);
    if (!text) return null;
    // The timer's action was already said, as a timeout: not twice.
    if (data.seat !== undefined && this.timedOut.has(data.seat) && kind !== "trick_won" && kind !== "drew") {
      this.timedOut.delete(data.seat);
      return null;
    }
    this.add(text, kind === "trick_won" || kind === "hand_over" ? "strong" : "");
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
  return h("div", { class: "last-trick", role: "group", "aria-label": `Last trick, won by ${name(last.winner)}` },
    h("p", { class: "last-trick-title" }, `Trick ${hand.tricks.length}: `, h("strong", { text: name(last.winner) }), " won it."),
    h("ol", { class: "last-trick-cards" },
      ...last.cards.map(({ seat, card }) => h("li", {
        class: seat === last.winner ? "last-trick-card is-winner" : "last-trick-card",
        "aria-label": `${name(seat)}: ${cardLabel(card)}${seat === last.winner ? ", won the trick" : ""}`,
      }, cardElement(card, cardOptions), h("span", { class: "last-trick-name", text: name(seat) })))));
}
