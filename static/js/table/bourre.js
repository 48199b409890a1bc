// Bourré at the table (rules/bourre.md): the turned trump, the trick in play, the declaration,
// the draw picker and the hand played card by card; at the end, who took the pot and who
// went bourré.
import { h, chips } from "../dom.js";
import { cardElement, cardLabel, sortHand, suitName, suitSymbol } from "../cards.js";
import { t, tn, tp } from "../i18n.js";
import { cardShort, logLine, winningIndex, withNodes } from "./handlog.js";
import { shortcutFor } from "./keys.js";

// Module constants may hold translated words: i18n.js has its catalog before this runs.
const STATUS = {
  to_declare: tp("bourre", "To speak"),
  deciding: tp("bourre", "Deciding"),
  committed: tp("bourre", "Has decided"),
  playing: tp("bourre", "Playing"),
  passed: tp("bourre", "Passed"),
  out: tp("bourre", "Out"),
};
const BUTTONS = { play: tp("bourre", "Play"), pass: tp("bourre", "Pass"), take_trump: t("Take the trump card") };

// What the shared table and replay pages ask of a game's front end.
// The tricks are played one by one: the previous trick may be looked at again.
export const keepsTricks = true;
// The stages before the tricks, by the phase an action was taken in (the replay's "Jump to").
export const STAGES = { declare: t("Declaration"), second: t("Second declaration"), draw: t("The draw") };

// The keyboard shortcuts' overlay, before the common keys (the card keys work wherever cards
// are buttons).
export const SHORTCUT_LIST = [
  ["P", t("Play the hand (declare)")],
  ["X", tp("bourre", "Pass")],
  ["T", t("Take the trump card")],
  ["E", t("Confirm the draw (exchange the chosen cards, or keep all)")],
  ["← →", t("Move between your cards")],
  [t("Enter / Space"), t("Play the focused card, or choose it for the draw")],
];

/** The viewer's cards in the order they are shown: by suit, trumps first. */
export function viewerOrder(cards, hand) {
  return sortHand(cards, hand?.trump);
}

function trickCount(n) {
  return tn("{n} trick", "{n} tricks", n);
}

export function seatTags(handSeat, hand) {
  if (!handSeat || handSeat.status === "out") return [];
  const tags = [STATUS[handSeat.status] ?? handSeat.status];
  // As soon as a player has drawn, a draw of no card says so as plainly as one of two.
  if (handSeat.drawn) tags.push(handSeat.exchanged ? t("Drew {n}", { n: handSeat.exchanged }) : t("Kept all"));
  if (handSeat.status === "playing" && (hand.phase === "tricks" || hand.phase === "over")) {
    tags.push(trickCount(handSeat.tricks));
  }
  return tags;
}

export function centre(view, ctx) {
  const hand = view.hand;
  const pot = h("div", { class: "pot", dataset: { testid: "pot" } }, tp("noun", "Pot") + " ", h("strong", { text: chips(hand ? hand.pot : view.pot) }));
  // A pot carried between hands stays in sight.
  if (!hand) return view.pot ? [h("div", { class: "centre-middle" }, pot)] : [];
  const trump = h("div", { class: "trump", role: "group", "aria-label": t("Trump: {suit}", { suit: suitName(hand.trump) }) },
    cardElement(hand.turned_card, ctx.cardOptions),
    h("span", { class: "trump-label" }, tp("noun", "Trump") + " ", h("strong", { class: `suit suit-${hand.trump}`, text: suitSymbol(hand.trump) })));
  // The pot and the trump together in the middle of the trick area, the trick around them.
  const middle = h("div", { class: "centre-middle" }, pot, trump);
  // The card winning the trick so far stands out, and says so to a screen reader.
  const winning = winningIndex(hand.trick, hand.trump);
  const trick = h("div", { class: "trick", role: "group", "aria-label": t("Cards in this trick") },
    ...hand.trick.map(({ seat, card }, i) => {
      const el = cardElement(card, ctx.cardOptions);
      el.classList.add("trick-card");
      el.dataset.seat = String(seat);
      if (i === winning && hand.trick.length > 1) {
        el.classList.add("is-winning");
        el.setAttribute("aria-label", t("{card}, winning", { card: cardLabel(card) }));
      }
      ctx.placeToward(el, seat);
      return el;
    }));
  return [middle, trick];
}

/** One line for the table's bar: which hand, which stage. */
export function handInfo(hand) {
  const stage = hand.phase === "tricks"
    ? t("trick {n} of {count}", { n: hand.tricks.length + 1, count: hand.hand_size })
    : phaseName(hand.phase);
  // The extractor reads no call inside a template literal: the words are joined outside.
  const stock = hand.stock ? " · " + t("{n} in the stock", { n: hand.stock }) : "";
  return t("Hand {number}", { number: hand.number }) + ` · ${stage}${stock}`;
}

function phaseName(phase) {
  return {
    declare: tp("phase", "declaration"),
    second: tp("phase", "second declaration"),
    draw: tp("phase", "the draw"),
    tricks: tp("phase", "tricks"),
    over: tp("phase", "over"),
  }[phase] ?? phase;
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
    prompt = t("Your turn: tap the cards to exchange (up to {n}), then confirm.", { n: cap });
    controls.push(
      h("span", { class: "draw-cap", text: t("{chosen} of at most {n} chosen", { chosen: chosen.length, n: cap }) }),
      h("button", {
        type: "button",
        class: "primary",
        disabled: !match,
        dataset: { shortcut: shortcutFor("discard") },
        text: chosen.length ? t("Exchange {n}", { n: chosen.length }) : t("Keep all"),
        onclick: () => ctx.act({ action: "discard", cards: chosen }),
      }),
    );
    if (chosen.length) {
      controls.push(h("button", { type: "button", class: "secondary", text: tp("button", "Clear"), onclick: () => { ctx.selected.clear(); ctx.rerender(); } }));
    }
  } else if (cardMoves.size) {
    prompt = t("Your turn: play a card.");
  } else if (myTurn) {
    prompt = hand.phase === "declare" || hand.phase === "second"
      ? t("Your turn: play this hand or pass?")
      : t("Your turn.");
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
    prompt = {
      play: t("You chose to play; waiting for the others."),
      pass: t("You chose to pass; waiting for the others."),
    }[hand.my_declaration] ?? t("You chose to {choice}; waiting for the others.", { choice: hand.my_declaration });
  }
  return { prompt, cards, controls };
}

/** The result of the hand just played, from the server's hand report. */
export function result(report, ctx) {
  const name = (username) => ctx.displayName(username);
  const lines = [];
  lines.push(h("h2", { text: t("Hand {number}", { number: report.number }) }));
  // §7: the winner takes the pot and each bourré pays its size, both capped at pot_limit.
  const limit = ctx.rules().pot_limit ?? Infinity;
  const capped = Math.min(report.pot, limit);
  if (report.winner) {
    lines.push(h("p", { class: "result-headline", dataset: { testid: "winner" } },
      withNodes(capped < report.pot
        ? t("{name} wins {amount} of the pot of {pot}.", { amount: chips(capped), pot: chips(report.pot) })
        : t("{name} wins the pot of {pot}.", { pot: chips(report.pot) }), { name: h("strong", { text: name(report.winner) }) })));
  } else {
    lines.push(h("p", { class: "result-headline", text: t("No one took the pot of {pot}.", { pot: chips(report.pot) }) }));
  }
  const bourre = new Set(report.bourre);
  lines.push(h("ul", { class: "result-players" },
    ...report.players.map((player) => h("li", { dataset: { player } },
      h("span", { class: "result-name", text: name(player) }),
      h("span", { text: trickCount(report.tricks[player] ?? 0) }),
      bourre.has(player) ? h("span", { class: "tag tag-bourre", text: t("Bourré") }) : null,
      h("span", { class: "result-stack" }, t("stack {amount}", { amount: chips(report.stacks[player]) }), ctx.delta(player, report.stacks[player]))))));
  if (report.bourre.length) {
    // §7 and §2: the bourré pays the pot into the next one, and is spared the next ante
    // (unless the table plays double ante, or the dealer antes for everyone).
    const rules = ctx.rules();
    const spared = !rules.double_ante && (rules.ante_mode ?? "each") === "each";
    const said = { names: report.bourre.map(name).join(", "), amount: chips(capped) };
    const count = report.bourre.length;
    lines.push(h("p", { dataset: { testid: "bourre-line" } }, spared
      ? tn("Went bourré: {names} — pays {amount} into the next pot and skips the next ante.",
        "Went bourré: {names} — each pays {amount} into the next pot and skip the next ante.", count, said)
      : tn("Went bourré: {names} — pays {amount} into the next pot.",
        "Went bourré: {names} — each pays {amount} into the next pot.", count, said)));
  }
  lines.push(h("p", { class: "muted" }, withNodes(t("Next pot: {amount}. Trump was {suit}.", { suit: suitName(report.trump) }),
    { amount: h("span", { dataset: { testid: "carry" }, text: chips(report.carry) }) })));
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
    case "play": return t("played the hand");
    case "card": return said.card ? t("played {card}", { card: cardShort(said.card) }) : t("played a card");
    case "discard": return said.count ? tn("exchanged {n} card", "exchanged {n} cards", said.count) : t("kept all cards");
    case "take_trump": return t("took the trump card");
    default: return null;
  }
}

/** One of this game's events as a line of the hand log, or null. */
export function eventLine(kind, data, { someone, name, me }) {
  switch (kind) {
    case "trump_turned": return logLine(t("Trump turned: {card}.", { card: cardShort(data.card) }));
    case "committed": return logLine(t("{name} has decided.", { name: someone }));
    case "revealed": {
      const play = (data.play ?? []).map(name);
      const pass = (data.pass ?? []).map(name);
      return logLine([
        play.length ? t("Playing: {names}.", { names: play.join(", ") }) : t("Nobody plays."),
        pass.length ? t("Passed: {names}.", { names: pass.join(", ") }) : "",
      ].join(" ").trim());
    }
    case "declared":
    case "declared_again": {
      const said = { name: someone, amount: chips(data.ante) };
      const again = kind === "declared_again";
      if (data.declaration !== "play") return logLine(again ? t("{name} passes again.", said) : t("{name} passes.", said));
      if (data.ante) {
        return logLine(again ? t("{name} plays again (ante {amount}).", said) : t("{name} plays (ante {amount}).", said));
      }
      return logLine(again ? t("{name} plays again.", said) : t("{name} plays.", said));
    }
    case "trump_taken": return logLine(t("{name} takes the trump card {card}.", { name: someone, card: cardShort(data.card) }));
    case "discarded": {
      if (!data.count) return logLine(t("{name} keeps all cards.", { name: someone }));
      const said = { name: someone, received: data.received ?? data.count, cards: (data.face_up ?? []).map(cardShort).join(", ") };
      return logLine((data.face_up ?? []).length
        ? tn("{name} exchanges {n} card, {cards} face up, draws {received}.",
          "{name} exchanges {n} cards, {cards} face up, draws {received}.", data.count, said)
        : tn("{name} exchanges {n} card, draws {received}.", "{name} exchanges {n} cards, draws {received}.", data.count, said));
    }
    case "drew": // sent to the drawing player alone: their own new cards
      if (data.seat !== me || !(data.received ?? []).length) return null;
      return logLine(t("You drew {cards}.", { cards: data.received.map(cardShort).join(" ") }), { ownAction: false });
    case "reshuffled":
      return logLine(tn("The stock ran out: {n} card reshuffled.", "The stock ran out: {n} cards reshuffled.", data.count));
    case "card_played": return logLine(t("{name} plays {card}.", { name: someone, card: cardShort(data.card) }));
    case "trick_won":
      return logLine(t("{name} wins trick {number}.", { name: someone, number: data.number }), { strong: true, ownAction: false });
    default: return null;
  }
}
