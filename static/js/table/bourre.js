// Bourré at the table (rules/bourre.md): the turned trump, the trick in play, the declaration,
// the draw picker and the hand played card by card; at the end, who took the pot and who
// went bourré.
import { h, chips } from "../dom.js";
import { cardElement, cardLabel, sortHand, suitName, suitSymbol } from "../cards.js";
import { cardCount, cardShort, logLine, winningIndex } from "./handlog.js";
import { shortcutFor } from "./keys.js";

const STATUS = {
  to_declare: "To speak",
  deciding: "Deciding",
  committed: "Has decided",
  playing: "Playing",
  passed: "Passed",
  out: "Out",
};
const BUTTONS = { play: "Play", pass: "Pass", take_trump: "Take the trump card" };

// What the shared table and replay pages ask of a game's front end.
// The tricks are played one by one: the previous trick may be looked at again.
export const keepsTricks = true;
// The stages before the tricks, by the phase an action was taken in (the replay's "Jump to").
export const STAGES = { declare: "Declaration", second: "Second declaration", draw: "The draw" };

// The keyboard shortcuts' overlay, before the common keys (the card keys work wherever cards
// are buttons).
export const SHORTCUT_LIST = [
  ["P", "Play the hand (declare)"],
  ["X", "Pass"],
  ["T", "Take the trump card"],
  ["E", "Confirm the draw (exchange the chosen cards, or keep all)"],
  ["← →", "Move between your cards"],
  ["Enter / Space", "Play the focused card, or choose it for the draw"],
];

/** The viewer's cards in the order they are shown: by suit, trumps first. */
export function viewerOrder(cards, hand) {
  return sortHand(cards, hand?.trump);
}

function trickCount(n) {
  return n === 1 ? "1 trick" : `${n} tricks`;
}

export function seatTags(handSeat, hand) {
  if (!handSeat || handSeat.status === "out") return [];
  const tags = [STATUS[handSeat.status] ?? handSeat.status];
  // As soon as a player has drawn, a draw of no card says so as plainly as one of two.
  if (handSeat.drawn) tags.push(handSeat.exchanged ? `Drew ${handSeat.exchanged}` : "Kept all");
  if (handSeat.status === "playing" && (hand.phase === "tricks" || hand.phase === "over")) {
    tags.push(trickCount(handSeat.tricks));
  }
  return tags;
}

export function centre(view, ctx) {
  const hand = view.hand;
  const pot = h("div", { class: "pot", dataset: { testid: "pot" } }, "Pot ", h("strong", { text: chips(hand ? hand.pot : view.pot) }));
  // A pot carried between hands stays in sight.
  if (!hand) return view.pot ? [h("div", { class: "centre-middle" }, pot)] : [];
  const trump = h("div", { class: "trump", role: "group", "aria-label": `Trump: ${suitName(hand.trump)}` },
    cardElement(hand.turned_card, ctx.cardOptions),
    h("span", { class: "trump-label" }, "Trump ", h("strong", { class: `suit suit-${hand.trump}`, text: suitSymbol(hand.trump) })));
  // The pot and the trump together in the middle of the trick area, the trick around them.
  const middle = h("div", { class: "centre-middle" }, pot, trump);
  // The card winning the trick so far stands out, and says so to a screen reader.
  const winning = winningIndex(hand.trick, hand.trump);
  const trick = h("div", { class: "trick", role: "group", "aria-label": "Cards in this trick" },
    ...hand.trick.map(({ seat, card }, i) => {
      const el = cardElement(card, ctx.cardOptions);
      el.classList.add("trick-card");
      el.dataset.seat = String(seat);
      if (i === winning && hand.trick.length > 1) {
        el.classList.add("is-winning");
        el.setAttribute("aria-label", `${cardLabel(card)}, winning`);
      }
      ctx.placeToward(el, seat);
      return el;
    }));
  return [middle, trick];
}

/** One line for the table's bar: which hand, which stage. */
export function handInfo(hand) {
  const stage = hand.phase === "tricks" ? `trick ${hand.tricks.length + 1} of ${hand.hand_size}` : phaseName(hand.phase);
  return `Hand ${hand.number} · ${stage}${hand.stock ? ` · ${hand.stock} in the stock` : ""}`;
}

function phaseName(phase) {
  return { declare: "declaration", second: "second declaration", draw: "the draw", tricks: "tricks", over: "over" }[phase] ?? phase;
}

function sameSet(a, b) {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** My cards and what I may do now. */
export function myArea(view, ctx) {
  const hand = view.hand;
  const mine = hand?.hand ?? [];
  const legal = hand?.legal_actions ?? [];
  const myTurn = legal.length > 0;
  const cardMoves = new Set(legal.filter((a) => a.action === "card").map((a) => a.card));
  const discards = legal.filter((a) => a.action === "discard");
  const drawing = discards.length > 0;
  const cards = sortHand(mine, hand?.trump).map((card) => {
    const button = h("button", {
      type: "button",
      class: "card-button",
      "aria-label": cardLabel(card),
      dataset: { card },
    }, cardElement(card, ctx.cardOptions));
    button.firstChild.setAttribute("aria-hidden", "true");
    if (hand.phase === "tricks" && myTurn) {
      // Only on the player's own turn are the cards that may not be played dimmed: while
      // the others play, the hand looks as cards do (the same grey would say "illegal").
      const ok = cardMoves.has(card);
      button.classList.toggle("is-legal", ok);
      button.classList.toggle("is-disabled", !ok);
      if (!ok) button.setAttribute("aria-disabled", "true");
      // An illegal card is still sent: the server says why it cannot be played.
      button.addEventListener("click", () => ctx.act({ action: "card", card }));
    } else if (drawing) {
      const selected = ctx.selected.has(card);
      button.classList.toggle("is-selected", selected);
      button.setAttribute("aria-pressed", String(selected));
      button.addEventListener("click", () => {
        if (ctx.selected.has(card)) ctx.selected.delete(card);
        else ctx.selected.add(card);
        ctx.rerender();
      });
    } else {
      button.setAttribute("aria-disabled", "true");
      button.classList.add("is-idle");
    }
    return button;
  });

  const controls = [];
  let prompt = "";
  if (drawing) {
    const cap = Math.max(...discards.map((a) => a.cards.length));
    const chosen = [...ctx.selected].filter((c) => mine.includes(c));
    const match = discards.find((a) => sameSet(a.cards, chosen));
    prompt = `Your turn: tap the cards to exchange (up to ${cap}), then confirm.`;
    controls.push(
      h("span", { class: "draw-cap", text: `${chosen.length} of at most ${cap} chosen` }),
      h("button", {
        type: "button",
        class: "primary",
        disabled: !match,
        dataset: { shortcut: shortcutFor("discard") },
        text: chosen.length ? `Exchange ${chosen.length}` : "Keep all",
        onclick: () => ctx.act({ action: "discard", cards: chosen }),
      }),
    );
    if (chosen.length) {
      controls.push(h("button", { type: "button", class: "secondary", text: "Clear", onclick: () => { ctx.selected.clear(); ctx.rerender(); } }));
    }
  } else if (cardMoves.size) {
    prompt = "Your turn: play a card.";
  } else if (myTurn) {
    prompt = hand.phase === "declare" || hand.phase === "second"
      ? "Your turn: play this hand or pass?"
      : "Your turn.";
  }
  for (const action of legal) {
    if (action.action === "card" || action.action === "discard") continue;
    controls.push(h("button", {
      type: "button",
      class: action.action === "pass" ? "secondary" : "primary",
      text: BUTTONS[action.action] ?? action.action.replace(/_/g, " "),
      dataset: { action: action.action, shortcut: shortcutFor(action.action) },
      onclick: () => ctx.act({ action: action.action }),
    }));
  }
  if (!myTurn && hand?.my_declaration) {
    prompt = `You chose to ${hand.my_declaration}; waiting for the others.`;
  }
  return { prompt, cards, controls };
}

/** The result of the hand just played, from the server's hand report. */
export function result(report, ctx) {
  const name = (username) => ctx.displayName(username);
  const lines = [];
  lines.push(h("h2", { text: `Hand ${report.number}` }));
  // §7: the winner takes the pot and each bourré pays its size, both capped at pot_limit.
  const limit = ctx.rules().pot_limit ?? Infinity;
  const capped = Math.min(report.pot, limit);
  if (report.winner) {
    lines.push(h("p", { class: "result-headline", dataset: { testid: "winner" } },
      h("strong", { text: name(report.winner) }),
      capped < report.pot ? ` wins ${chips(capped)} of the pot of ${chips(report.pot)}.` : ` wins the pot of ${chips(report.pot)}.`));
  } else {
    lines.push(h("p", { class: "result-headline", text: `No one took the pot of ${chips(report.pot)}.` }));
  }
  const bourre = new Set(report.bourre);
  lines.push(h("ul", { class: "result-players" },
    ...report.players.map((player) => h("li", { dataset: { player } },
      h("span", { class: "result-name", text: name(player) }),
      h("span", { text: trickCount(report.tricks[player] ?? 0) }),
      bourre.has(player) ? h("span", { class: "tag tag-bourre", text: "Bourré" }) : null,
      h("span", { class: "result-stack" }, `stack ${chips(report.stacks[player])}`, ctx.delta(player, report.stacks[player]))))));
  if (report.bourre.length) {
    // §7 and §2: the bourré pays the pot into the next one, and is spared the next ante
    // (unless the table plays double ante, or the dealer antes for everyone).
    const rules = ctx.rules();
    const spared = !rules.double_ante && (rules.ante_mode ?? "each") === "each";
    const many = report.bourre.length > 1;
    lines.push(h("p", { dataset: { testid: "bourre-line" } },
      `Went bourré: ${report.bourre.map(name).join(", ")} — ${many ? "each pays" : "pays"} ${chips(capped)} into the next pot`
      + (spared ? ` and ${many ? "skip" : "skips"} the next ante.` : ".")));
  }
  lines.push(h("p", { class: "muted" }, "Next pot: ", h("span", { dataset: { testid: "carry" }, text: chips(report.carry) }),
    `. Trump was ${suitName(report.trump)}.`));
  return lines;
}

/** Animations and sounds for events as they arrive (the snapshot that follows redraws). */
export function onEvent(event, ctx) {
  if (event.kind === "card_played") ctx.sounds.card();
  if (event.kind === "trick_won") ctx.flyTrick(event.data.cards, event.data.seat);
}

// ----- the hand log (handlog.js): this game's events and timer moves in words

/** What the turn timer did for a player, in the past tense ("passed", "played 7♥"). */
export function timeoutWords(said) {
  switch (said.action) {
    case "play": return "played the hand";
    case "card": return said.card ? `played ${cardShort(said.card)}` : "played a card";
    case "discard": return said.count ? `exchanged ${cardCount(said.count)}` : "kept all cards";
    case "take_trump": return "took the trump card";
    default: return null;
  }
}

/** One of this game's events as a line of the hand log, or null. */
export function eventLine(kind, data, { someone, name, me }) {
  switch (kind) {
    case "trump_turned": return logLine(`Trump turned: ${cardShort(data.card)}.`);
    case "committed": return logLine(`${someone} has decided.`);
    case "revealed": {
      const play = (data.play ?? []).map(name);
      const pass = (data.pass ?? []).map(name);
      return logLine([play.length ? `Playing: ${play.join(", ")}.` : "Nobody plays.", pass.length ? `Passed: ${pass.join(", ")}.` : ""].join(" ").trim());
    }
    case "declared":
    case "declared_again": {
      const again = kind === "declared_again" ? " again" : "";
      const ante = data.ante ? ` (ante ${chips(data.ante)})` : "";
      return logLine(data.declaration === "play" ? `${someone} plays${again}${ante}.` : `${someone} passes${again}.`);
    }
    case "trump_taken": return logLine(`${someone} takes the trump card ${cardShort(data.card)}.`);
    case "discarded": {
      const faceUp = (data.face_up ?? []).length ? `, ${data.face_up.map(cardShort).join(", ")} face up` : "";
      if (!data.count) return logLine(`${someone} keeps all cards.`);
      return logLine(`${someone} exchanges ${cardCount(data.count)}${faceUp}, draws ${data.received ?? data.count}.`);
    }
    case "drew": // sent to the drawing player alone: their own new cards
      if (data.seat !== me || !(data.received ?? []).length) return null;
      return logLine(`You drew ${data.received.map(cardShort).join(" ")}.`, { ownAction: false });
    case "reshuffled": return logLine(`The stock ran out: ${cardCount(data.count)} reshuffled.`);
    case "card_played": return logLine(`${someone} plays ${cardShort(data.card)}.`);
    case "trick_won": return logLine(`${someone} wins trick ${data.number}.`, { strong: true, ownAction: false });
    default: return null;
  }
}
