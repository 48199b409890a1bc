// Playing cards for the Salon tables (Bourré, Bouillotte).
//
// Builds card faces and backs as inline SVG, drawn from scratch for this
// project, plus the helpers the table UI needs around them: accessible labels,
// suit names and symbols, and hand sorting. A browser ES module with no
// dependencies and no build step; styled by static/css/cards.css.
//
// Card names are two characters: a rank from "23456789TJQKA" followed by a
// suit from "SHDC", e.g. "QH", "TD", "AS".
//
// Everything is created with document.createElementNS and coloured through
// SVG presentation attributes, never inline style attributes, so the cards
// work under the site's Content-Security-Policy (style-src 'self').

import { t, tp } from "./i18n.js";

export const SUITS = ["S", "H", "D", "C"];

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];

const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const SUIT_SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
// What a screen reader says: the rank's word in a phrase of its suit's, since languages
// decline the suit ("туз пик") or put it elsewhere; the page's language is known by now.
const RANK_WORDS = { T: "10", J: tp("card", "Jack"), Q: tp("card", "Queen"), K: tp("card", "King"), A: tp("card", "Ace") };
const SUIT_WORDS = { S: tp("suit", "spades"), H: tp("suit", "hearts"), D: tp("suit", "diamonds"), C: tp("suit", "clubs") };
const CARD_PHRASES = {
  S: (rank) => t("{rank} of spades", { rank }),
  H: (rank) => t("{rank} of hearts", { rank }),
  D: (rank) => t("{rank} of diamonds", { rank }),
  C: (rank) => t("{rank} of clubs", { rank }),
};

const INK = "#1c1c21";
const RED = "#c4142c";
const TWO_COLOUR = { S: INK, H: RED, D: RED, C: INK };
const FOUR_COLOUR = { S: INK, H: RED, D: "#1550b8", C: "#14753a" };

const SANS = "'Helvetica Neue', Helvetica, Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif";
const SERIF = "Georgia, 'Times New Roman', 'Liberation Serif', 'DejaVu Serif', serif";

const SVG_NS = "http://www.w3.org/2000/svg";

// The face is drawn on a 100 x 140 grid (the 5:7 card ratio used in the CSS).
const W = 100;
const H = 140;
const CORNER = 6;

// ---------------------------------------------------------------------------
// Names and labels

function checkSuit(suit) {
  if (!Object.hasOwn(SUIT_NAMES, suit)) {
    throw new Error(`Unknown suit ${JSON.stringify(suit)}: expected one of S, H, D, C`);
  }
  return suit;
}

function checkRank(rank) {
  if (typeof rank !== "string" || !RANKS.includes(rank)) {
    throw new Error(`Unknown rank ${JSON.stringify(rank)}: expected one of ${RANKS.join(" ")}`);
  }
  return rank;
}

function parseCard(name) {
  if (typeof name !== "string" || name.length !== 2
      || !RANKS.includes(name[0]) || !Object.hasOwn(SUIT_NAMES, name[1])) {
    throw new Error(
      `Unknown card ${JSON.stringify(name)}: expected a rank (2-9, T, J, Q, K, A) `
      + `followed by a suit (S, H, D, C), e.g. "QH"`,
    );
  }
  return { rank: name[0], suit: name[1] };
}

export function suitName(suit) {
  return SUIT_WORDS[checkSuit(suit)];
}

export function suitSymbol(suit) {
  return SUIT_SYMBOLS[checkSuit(suit)];
}

export function rankLabel(rank) {
  checkRank(rank);
  return rank === "T" ? "10" : rank;
}

export function cardLabel(name) {
  const { rank, suit } = parseCard(name);
  return CARD_PHRASES[suit](RANK_WORDS[rank] ?? rank);
}

// ---------------------------------------------------------------------------
// Sorting

export function sortHand(names, trumpSuit) {
  const hasTrump = trumpSuit != null && trumpSuit !== "";
  if (hasTrump) checkSuit(trumpSuit);
  const suitOrder = !hasTrump
    ? SUITS
    : [trumpSuit, ...SUITS.filter((s) => s !== trumpSuit)];
  const keyed = Array.from(names, (name) => {
    const { rank, suit } = parseCard(name);
    return { name, suit: suitOrder.indexOf(suit), rank: RANKS.indexOf(rank) };
  });
  keyed.sort((a, b) => a.suit - b.suit || b.rank - a.rank);
  return keyed.map((k) => k.name);
}

// ---------------------------------------------------------------------------
// SVG helpers

function el(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value != null) node.setAttribute(key, String(value));
  }
  for (const child of children) node.append(child);
  return node;
}

function circlePath(cx, cy, r) {
  return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
}

// Suit shapes on a 100 x 100 box centred on the origin.
const SUIT_PATHS = {
  H: "M0 44C-14 30-50 8-50-18C-50-36-37-46-24-46C-12-46-4-38 0-28"
    + "C4-38 12-46 24-46C37-46 50-36 50-18C50 8 14 30 0 44Z",
  D: "M0-50C10-32 22-16 38 0C22 16 10 32 0 50C-10 32-22 16-38 0C-22-16-10-32 0-50Z",
  S: "M0-48C-10-30-48-14-48 12C-48 28-36 37-23 37C-13 37-6 32-3 26"
    + "C-4 36-9 44-18 48L18 48C9 44 4 36 3 26C6 32 13 37 23 37"
    + "C36 37 48 28 48 12C48-14 10-30 0-48Z",
  C: circlePath(0, -25, 21) + circlePath(-24, 8, 21) + circlePath(24, 8, 21)
    + circlePath(0, 2, 12)
    + "M-3 8C-3 27-9 41-18 48L18 48C9 41 3 27 3 8Z",
};

// A suit pip of the given size (in face units) centred on (cx, cy).
function pip(suit, cx, cy, size, colour, { inverted = false } = {}) {
  const turn = inverted ? " rotate(180)" : "";
  return el("path", {
    d: SUIT_PATHS[suit],
    fill: colour,
    transform: `translate(${cx} ${cy}) scale(${size / 100})${turn}`,
  });
}

// ---------------------------------------------------------------------------
// Face parts

// Rank over suit, in the top-left corner; the copy is turned for bottom-right.
function cornerIndex(rank, suit, colour) {
  const label = rankLabel(rank);
  const text = el("text", {
    x: 13,
    y: 28,
    "text-anchor": "middle",
    "font-family": SANS,
    "font-size": 30,
    "font-weight": 700,
    fill: colour,
    // "10" is squeezed to the width of one wide letter so every index lines up.
    textLength: label.length > 1 ? 24 : null,
    lengthAdjust: label.length > 1 ? "spacingAndGlyphs" : null,
  });
  text.textContent = label;
  return el("g", { class: "card-index" }, [text, pip(suit, 13, 43, 20, colour)]);
}

// Pip positions for 2-10 on the face grid: classic arrangement, pips in the
// lower half drawn upside down.
const LEFT = 35;
const MID = 50;
const RIGHT = 65;
const TOP = 24;
const BOTTOM = 116;
const CENTRE = (TOP + BOTTOM) / 2;
const ROWS4 = [0, 1, 2, 3].map((i) => TOP + (i * (BOTTOM - TOP)) / 3);
const sides = (ys) => ys.flatMap((y) => [[LEFT, y], [RIGHT, y]]);

const PIP_LAYOUTS = {
  2: [[MID, TOP], [MID, BOTTOM]],
  3: [[MID, TOP], [MID, CENTRE], [MID, BOTTOM]],
  4: sides([TOP, BOTTOM]),
  5: [...sides([TOP, BOTTOM]), [MID, CENTRE]],
  6: sides([TOP, CENTRE, BOTTOM]),
  7: [...sides([TOP, CENTRE, BOTTOM]), [MID, (TOP + CENTRE) / 2]],
  8: [...sides([TOP, CENTRE, BOTTOM]), [MID, (TOP + CENTRE) / 2], [MID, (CENTRE + BOTTOM) / 2]],
  9: [...sides(ROWS4), [MID, CENTRE]],
  10: [...sides(ROWS4), [MID, (ROWS4[0] + ROWS4[1]) / 2], [MID, (ROWS4[2] + ROWS4[3]) / 2]],
};

function pipCentre(count, suit, colour) {
  const size = count >= 9 ? 16 : 19;
  return el("g", { class: "card-pips" }, PIP_LAYOUTS[count].map(([x, y]) =>
    pip(suit, x, y, size, colour, { inverted: y > CENTRE + 0.5 })));
}

function aceCentre(suit, colour) {
  return el("g", { class: "card-pips" }, [pip(suit, W / 2, H / 2, 54, colour)]);
}

// Small emblems above the court letter: a crown, a coronet, a plumed cap band.
function courtEmblem(rank, colour) {
  const at = (d) => el("path", { d, fill: colour, transform: "translate(50 30)" });
  if (rank === "K") {
    return el("g", {}, [
      at("M-15 7L-15-7L-7 0L0-11L7 0L15-7L15 7Z"),
      at("M-15 9H15V12H-15Z"),
    ]);
  }
  if (rank === "Q") {
    return el("g", {}, [
      at("M-13 8L-11-2L-5 3L0-5L5 3L11-2L13 8Z"),
      at(circlePath(-11, -5, 2.4) + circlePath(0, -8, 2.4) + circlePath(11, -5, 2.4)),
      at("M-13 10H13V12.5H-13Z"),
    ]);
  }
  return el("g", {}, [
    at("M-12 8C-12-2-6-8 2-8C8-8 12-5 13-1L4 1C0 1-5 3-6 8Z"),
    at("M9-3C14-12 20-12 22-9C18-9 15-6 12-1Z"),
    at("M-13 10H13V12.5H-13Z"),
  ]);
}

// Mix a #rrggbb colour with white; used for the court panel's tint.
function tint(hex, amount) {
  const n = Number.parseInt(hex.slice(1), 16);
  const mix = (c) => Math.round(c + (255 - c) * (1 - amount));
  const r = mix((n >> 16) & 255);
  const g = mix((n >> 8) & 255);
  const b = mix(n & 255);
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}

function courtCentre(rank, suit, colour) {
  const letter = el("text", {
    x: 50,
    y: 87,
    "text-anchor": "middle",
    "font-family": SERIF,
    "font-size": 46,
    "font-weight": 700,
    fill: colour,
  });
  letter.textContent = rank;
  return el("g", { class: "card-court" }, [
    el("rect", {
      x: 27, y: 12, width: 46, height: 116, rx: 4,
      fill: tint(colour, 0.09), stroke: colour, "stroke-width": 1.6,
    }),
    el("rect", {
      x: 30.5, y: 15.5, width: 39, height: 109, rx: 2,
      fill: "none", stroke: colour, "stroke-width": 0.6,
    }),
    courtEmblem(rank, colour),
    letter,
    pip(suit, 50, 106, 24, colour),
  ]);
}

function svgRoot(className) {
  return el("svg", {
    xmlns: SVG_NS,
    viewBox: `0 0 ${W} ${H}`,
    class: className,
    "aria-hidden": "true",
    focusable: "false",
  });
}

// ---------------------------------------------------------------------------
// Public builders

export function cardSvg(name, { fourColour = false } = {}) {
  const { rank, suit } = parseCard(name);
  const colour = (fourColour ? FOUR_COLOUR : TWO_COLOUR)[suit];
  const svg = svgRoot("card-svg card-svg--face");

  svg.append(el("rect", {
    class: "card-outline",
    x: 0.5, y: 0.5, width: W - 1, height: H - 1, rx: CORNER,
    fill: "#fff", stroke: "#a9a49a", "stroke-width": 1,
    "vector-effect": "non-scaling-stroke",
  }));

  if (rank === "A") svg.append(aceCentre(suit, colour));
  else if ("JQK".includes(rank)) svg.append(courtCentre(rank, suit, colour));
  else svg.append(pipCentre(Number(rankLabel(rank)), suit, colour));

  svg.append(cornerIndex(rank, suit, colour));
  const turned = cornerIndex(rank, suit, colour);
  turned.setAttribute("transform", `rotate(180 ${W / 2} ${H / 2})`);
  svg.append(turned);
  return svg;
}

const BACK_FELT = "#0f5132";
const BACK_WINE = "#6e1a35";
const BACK_GOLD = "#c8a658";
const BACK_CREAM = "#fbf8f1";

export function cardBackSvg() {
  const svg = svgRoot("card-svg card-svg--back");
  svg.append(
    el("rect", {
      x: 0.5, y: 0.5, width: W - 1, height: H - 1, rx: CORNER,
      fill: BACK_CREAM, stroke: "#a9a49a", "stroke-width": 1,
      "vector-effect": "non-scaling-stroke",
    }),
    el("rect", { x: 5, y: 5, width: W - 10, height: H - 10, rx: 3, fill: BACK_FELT }),
  );

  // Harlequin lattice: a wine-coloured diamond in every cell, leaving green
  // diamonds between them, with gold studs where the points meet.
  const x0 = 8;
  const y0 = 8;
  const cols = 6;
  const rows = 8;
  const cw = (W - 2 * x0) / cols;
  const ch = (H - 2 * y0) / rows;
  let diamonds = "";
  let studs = "";
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < cols; c += 1) {
      const cx = x0 + (c + 0.5) * cw;
      const cy = y0 + (r + 0.5) * ch;
      diamonds += `M${cx} ${cy - ch / 2}L${cx + cw / 2} ${cy}L${cx} ${cy + ch / 2}L${cx - cw / 2} ${cy}Z`;
    }
  }
  for (let r = 0; r <= rows; r += 1) {
    for (let c = 0; c <= cols; c += 1) {
      studs += circlePath(x0 + c * cw, y0 + r * ch, 0.9);
    }
  }
  svg.append(
    el("path", { d: diamonds, fill: BACK_WINE, stroke: BACK_GOLD, "stroke-width": 0.5 }),
    el("path", { d: studs, fill: BACK_GOLD }),
    el("rect", {
      x: x0, y: y0, width: W - 2 * x0, height: H - 2 * y0,
      fill: "none", stroke: BACK_GOLD, "stroke-width": 1,
    }),
  );

  // Centre medallion with the four suits.
  svg.append(
    el("ellipse", {
      cx: 50, cy: 70, rx: 17, ry: 22,
      fill: BACK_FELT, stroke: BACK_GOLD, "stroke-width": 1.6,
    }),
    pip("S", 50, 58, 10, BACK_CREAM),
    pip("H", 41, 70, 10, BACK_CREAM),
    pip("D", 59, 70, 10, BACK_CREAM),
    pip("C", 50, 82, 10, BACK_CREAM),
  );
  return svg;
}

export function cardElement(name, options) {
  const label = cardLabel(name);
  const span = document.createElement("span");
  span.className = "card";
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", label);
  span.dataset.card = name;
  span.append(cardSvg(name, options));
  return span;
}

export function cardBackElement() {
  const span = document.createElement("span");
  span.className = "card card--back";
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", t("Face-down card"));
  span.append(cardBackSvg());
  return span;
}
