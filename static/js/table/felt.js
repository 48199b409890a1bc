// The felt: seats placed around an oval with the viewer at the bottom, each showing name,
// stack, dealer button, what the game says about that player, and — for the player to
// act — a ring that empties as the turn timer runs down.
import { h, chips } from "../dom.js";
import { cardBackElement, cardElement } from "../cards.js";
import { t, tn, tp } from "../i18n.js";

const RING_RADIUS = 46;
const COLOUR_KEY = "salon.fourColour";

/** How cards are drawn, as the viewer chose on the table page (four-colour deck or not). */
export function deckOptions() {
  return { fourColour: localStorage.getItem(COLOUR_KEY) === "on" };
}

export function setFourColour(on) {
  localStorage.setItem(COLOUR_KEY, on ? "on" : "off");
}
const RING_LENGTH = 2 * Math.PI * RING_RADIUS;

/** Where seat `seat` sits, in percent of the felt from its left and top, when `anchor` is
 *  at the bottom: the game's direction of play, the same on a right-to-left page. */
export function seatPosition(seat, anchor, count) {
  const rel = (seat - anchor + count) % count;
  const angle = (90 + (rel * 360) / count) * (Math.PI / 180);
  return { x: 50 + 41 * Math.cos(angle), y: 50 + 39 * Math.sin(angle) };
}

export function place(el, { x, y }) {
  el.style.setProperty("--x", `${x}%`);
  el.style.setProperty("--y", `${y}%`);
}

/** The seat at the bottom of the felt: the viewer's, or the first seat for a spectator. */
export function anchorOf(view) {
  return view.you.seat ?? 0;
}

/**
 * Place a card of the trick on the edge of the trick area, on the side of seat `seat`: the
 * direction from the middle of the felt to the seat, carried out to the area's border
 * (table.css turns --dx and --dy, each from -1 to 1, into a place inside the area).
 */
export function placeToward(el, view, seat) {
  const spot = seatPosition(seat, anchorOf(view), view.table.seat_count);
  const dx = (spot.x - 50) / 41;
  const dy = (spot.y - 50) / 39;
  const reach = Math.max(Math.abs(dx), Math.abs(dy)) || 1;
  el.style.setProperty("--dx", (dx / reach).toFixed(3));
  el.style.setProperty("--dy", (dy / reach).toFixed(3));
}

function timerRing(secondsLeft, total) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", "timer-ring");
  svg.setAttribute("aria-hidden", "true");
  const track = document.createElementNS(ns, "circle");
  const bar = document.createElementNS(ns, "circle");
  for (const c of [track, bar]) {
    c.setAttribute("cx", "50");
    c.setAttribute("cy", "50");
    c.setAttribute("r", String(RING_RADIUS));
  }
  track.setAttribute("class", "timer-track");
  bar.setAttribute("class", "timer-bar");
  bar.setAttribute("stroke-dasharray", String(RING_LENGTH));
  const left = Math.max(0, Math.min(1, secondsLeft / Math.max(1, total)));
  const from = RING_LENGTH * (1 - left);
  bar.setAttribute("stroke-dashoffset", String(from));
  svg.append(track, bar);
  if (secondsLeft > 0) {
    bar.animate(
      [{ strokeDashoffset: from }, { strokeDashoffset: RING_LENGTH }],
      { duration: secondsLeft * 1000, fill: "forwards", easing: "linear" },
    );
  }
  return svg;
}

/**
 * Draw every seat. `game` supplies the game's own words for a seat (status, tricks, stake).
 * `onSit(seat)` is offered on empty seats when the viewer may sit down; `turnLeft` is the
 * seconds the player to act has left (null: no timer running).
 */
function renderSeats(container, view, game, { onSit, anchor, turnLeft, cardOptions, live }) {
  const count = view.table.seat_count;
  const hand = view.hand;
  const toAct = new Set(hand?.to_act ?? []);
  const bySeat = new Map(view.seats.map((s) => [s.seat, s]));
  const me = view.you.seat;
  const nodes = [];
  for (let seat = 0; seat < count; seat += 1) {
    const info = bySeat.get(seat);
    const handSeat = hand?.seats?.[seat];
    const el = h("div", {
      class: "seat",
      role: "group",
      dataset: { seat: String(seat) },
      "aria-label": info ? t("Seat {n}: {name}", { n: seat + 1, name: info.name }) : t("Seat {n}: empty", { n: seat + 1 }),
    });
    place(el, seatPosition(seat, anchor, count));
    if (!info) {
      el.classList.add("seat--empty");
      el.append(h("span", { class: "seat-empty", text: tp("seat", "Empty") }));
      if (onSit && me === null && view.table.status !== "closed") {
        el.append(h("button", { type: "button", class: "small sit-here", text: t("Sit here"), onclick: () => onSit(seat) }));
      }
      nodes.push(el);
      continue;
    }
    const active = toAct.has(seat);
    if (active) el.classList.add("seat--active");
    if (seat === me) el.classList.add("seat--me");
    if (info.sitting_out) el.classList.add("seat--away");
    // A replay has no presence: who is connected now says nothing about the hand.
    const offline = live && !info.connected;
    if (offline) el.classList.add("seat--offline");
    const stack = handSeat && handSeat.status !== "out" ? handSeat.stack : info.stack;
    const avatar = h("div", { class: "avatar" }, h("span", { text: info.name.slice(0, 1).toUpperCase() }));
    if (active && turnLeft !== null) {
      avatar.append(timerRing(turnLeft, view.table.turn_seconds));
    }
    const dealer = hand ? hand.dealer : null;
    const tags = game.seatTags(handSeat, hand, seat);
    if (info.bot) tags.push(t("Bot"));
    if (info.sitting_out) tags.push(t("Sitting out"));
    if (info.leaving) tags.push(t("Leaving"));
    if (offline) tags.push(t("Offline"));
    const backs = seat === me ? null : seatCards(handSeat, hand?.hands?.[seat], cardOptions);
    el.append(...[
      avatar,
      h("div", { class: "seat-name", text: info.name }),
      h("div", { class: "seat-stack", dataset: { testid: "stack" } }, chips(stack)),
      tags.length ? h("div", { class: "seat-tags" }, ...tags.map((t) => h("span", { class: "tag", text: t }))) : null,
      backs,
      dealer === seat ? h("span", { class: "dealer-button", title: t("Dealer"), "aria-label": t("Dealer"), text: tp("dealer button", "D") }) : null,
    ].filter(Boolean));
    nodes.push(el);
  }
  container.replaceChildren(...nodes);
  keepInside(container);
}

/**
 * Move each seat in from the rim as far as it takes for its whole box (avatar, name, stack,
 * tags) to lie inside the felt. On a laptop the seats fit where they are placed; on a
 * phone's felt a seat on the rim would hang over it, or off the screen.
 */
function keepInside(container) {
  const width = container.clientWidth;
  const height = container.clientHeight;
  if (!width || !height) return;
  for (const seat of container.children) {
    const x = Number.parseFloat(seat.dataset.x ?? seat.style.getPropertyValue("--x"));
    const y = Number.parseFloat(seat.dataset.y ?? seat.style.getPropertyValue("--y"));
    seat.dataset.x = String(x);
    seat.dataset.y = String(y);
    const halfW = Math.min(50, (seat.offsetWidth / 2 / width) * 100);
    const halfH = Math.min(50, (seat.offsetHeight / 2 / height) * 100);
    place(seat, {
      x: Math.min(100 - halfW, Math.max(halfW, x)),
      y: Math.min(100 - halfH, Math.max(halfH, y)),
    });
  }
}

// Room kept between a seat and the trick area, and between the area and the rim (px).
const AREA_GAP = 4;

// The trick's cards are at most this wide (px, as table.css's 3.4rem), a share of the
// area's height and width (its 19cqh and 30cqw): what a cut of the area leaves them.
const TRICK_CARD_MAX = 54;
function cardRoom(half, top, bottom) {
  return Math.min(TRICK_CARD_MAX, 0.19 * (bottom - top), 0.3 * 2 * half);
}

/**
 * Size the trick area (`centre`: the pot, the trump or upcard, the trick's cards) to a box
 * around the middle of the felt that no seat's box reaches: the seats stay where they are
 * and nothing of theirs covers a played card or the pot. Each seat in the way cuts the
 * box, either at both sides (the box stays centred, as the seats are placed in mirrored
 * pairs) or at the end facing it, whichever leaves the trick's cards larger (then more
 * room); the seat cutting the least goes first.
 */
function fitTrickArea(seats, centre) {
  const width = seats.clientWidth;
  const height = seats.clientHeight;
  if (!width || !height) return;
  const origin = seats.getBoundingClientRect();
  const boxes = [...seats.children].map((seat) => {
    const r = seat.getBoundingClientRect();
    return [r.left - origin.left - AREA_GAP, r.top - origin.top - AREA_GAP,
      r.right - origin.left + AREA_GAP, r.bottom - origin.top + AREA_GAP];
  });
  const mid = width / 2;
  let area = { half: mid - AREA_GAP, top: AREA_GAP, bottom: height - AREA_GAP };
  const meets = (b, a) => b[0] < mid + a.half && mid - a.half < b[2] && b[1] < a.bottom && a.top < b[3];
  const score = (a) => cardRoom(a.half, a.top, a.bottom) * 1e6 + a.half * (a.bottom - a.top);
  for (let round = 0; round < boxes.length; round += 1) {
    let best = null;
    for (const box of boxes.filter((b) => meets(b, area))) {
      const sides = (box[0] + box[2]) / 2 < mid ? mid - box[2] : box[0] - mid;
      const cuts = [(box[1] + box[3]) / 2 < height / 2 ? { ...area, top: box[3] } : { ...area, bottom: box[1] }];
      if (sides > 0) cuts.push({ ...area, half: sides });
      for (const cut of cuts) {
        if (cut.bottom > cut.top && (!best || score(cut) > score(best))) best = cut;
      }
    }
    if (!best) break;
    area = best;
  }
  // Physical `left`, as every place on the felt: the felt does not mirror on a
  // right-to-left page (table.css).
  centre.style.left = `${((mid - area.half) / width) * 100}%`;
  centre.style.top = `${(area.top / height) * 100}%`;
  centre.style.width = `${((2 * area.half) / width) * 100}%`;
  centre.style.height = `${((area.bottom - area.top) / height) * 100}%`;
}

// A felt that changes size (a phone turned, a window resized) keeps its seats inside, and
// its trick area clear of them.
const watched = new WeakSet();
function watchSize(container, centre) {
  if (watched.has(container) || typeof ResizeObserver === "undefined") return;
  watched.add(container);
  new ResizeObserver(() => {
    keepInside(container);
    fitTrickArea(container, centre);
  }).observe(container);
}

/** Another player's cards: face down, or face up in an admin's full view (`faces`). */
function seatCards(handSeat, faces, cardOptions) {
  if (Array.isArray(faces) && faces.length) {
    return h("div", { class: "seat-cards seat-cards--open", role: "group", "aria-label": tn("{n} card", "{n} cards", faces.length) },
      ...faces.map((card) => cardElement(card, cardOptions)));
  }
  const count = handSeat?.cards ?? 0;
  if (!(count > 0)) return null;
  return h("div", { class: "seat-cards", role: "img", "aria-label": tn("{n} card", "{n} cards", count) },
    ...Array.from({ length: Math.min(count, 5) }, () => cardBackElement()));
}

/**
 * Draw a view on the felt: the seats and the middle (pot, trump or upcard, the trick).
 * The live table and the hand replay (`live: false`: no presence shown) both draw with
 * this; `ctx` is what the game's `centre` needs (`cardOptions`, `placeToward`).
 */
export function drawFelt({ seats, centre }, view, game, ctx, { onSit = null, turnLeft = null, live = true } = {}) {
  renderSeats(seats, view, game, { onSit, anchor: anchorOf(view), turnLeft, cardOptions: ctx.cardOptions, live });
  fitTrickArea(seats, centre);
  watchSize(seats, centre);
  centre.replaceChildren(...game.centre(view, ctx));
}

/** Animate copies of `cards` (elements) from where they are to the seat element. */
export function flyTo(layer, cardEls, target) {
  const felt = layer.getBoundingClientRect();
  const dest = target.getBoundingClientRect();
  for (const card of cardEls) {
    const box = card.getBoundingClientRect();
    const clone = card.cloneNode(true);
    clone.classList.add("flying-card");
    // Measured and placed in physical coordinates: the felt does not mirror.
    clone.style.setProperty("left", `${box.left - felt.left}px`);
    clone.style.setProperty("top", `${box.top - felt.top}px`);
    clone.style.setProperty("width", `${box.width}px`);
    clone.style.setProperty("height", `${box.height}px`);
    layer.append(clone);
    const dx = dest.left + dest.width / 2 - (box.left + box.width / 2);
    const dy = dest.top + dest.height / 2 - (box.top + box.height / 2);
    const motion = clone.animate(
      [{ transform: "translate(0, 0) scale(1)", opacity: 1 },
        { transform: `translate(${dx}px, ${dy}px) scale(0.4)`, opacity: 0.2 }],
      { duration: 650, delay: 450, easing: "ease-in", fill: "forwards" },
    );
    motion.finished.then(() => clone.remove(), () => clone.remove());
    // A page in the background may never finish its animations: do not keep the clones.
    setTimeout(() => clone.remove(), 2000);
  }
}

let shownDecision = null;

/**
 * On the player's turn, scroll the least that brings the whole felt and the player's cards
 * and controls (`panel`, under the felt) on screen together: on a phone the table's bar
 * above the felt scrolls away. When both cannot fit, the controls win. `decision` names
 * the choice the player is asked for: each is brought into view once, and the player may
 * scroll away from it.
 */
export function showTurn(felt, panel, decision) {
  if (decision === shownDecision) return;
  shownDecision = decision;
  const top = felt.getBoundingClientRect().top;
  const bottom = panel.getBoundingClientRect().bottom;
  const below = bottom - window.innerHeight; // how far the controls end under the screen
  const by = bottom - top <= window.innerHeight ? Math.min(Math.max(0, below), top) : below;
  if (Math.abs(by) >= 1) window.scrollBy({ top: by, behavior: "smooth" });
}

/**
 * The turn brought into view ends flush with the screen's bottom; when the controls then
 * grow (a longer amount on the bet button, a line that wraps, an armed "Va tout"), their
 * last row would slip under the screen. While `myTurn()` says so, and the controls ended
 * on screen before they grew, the page follows them down by what they grew. A player who
 * scrolled them out of sight is left where they are.
 */
export function keepTurnInView(panel, myTurn) {
  let lastBottom = panel.getBoundingClientRect().bottom;
  new ResizeObserver(() => {
    const bottom = panel.getBoundingClientRect().bottom;
    const wasInView = lastBottom <= window.innerHeight + 1;
    if (myTurn() && wasInView && bottom > window.innerHeight + 0.5) {
      window.scrollBy({ top: bottom - window.innerHeight });
    }
    lastBottom = panel.getBoundingClientRect().bottom;
  }).observe(panel);
  window.addEventListener("scroll", () => { lastBottom = panel.getBoundingClientRect().bottom; }, { passive: true });
}
