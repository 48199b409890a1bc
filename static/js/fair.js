// Checking a hand in the browser: the commitment, the seed and the deck, recomputed with
// Web Crypto exactly as docs/fair-shuffle.md specifies (and app/engine/rng.py implements).
// It runs in a page and in Node (≥ 18, `globalThis.crypto`). Each game's packs come from
// its description (GET /api/games): a page finds it by the game's key in the description
// every page embeds; elsewhere the caller passes the description itself.
import { gameNamed } from "./dom.js";

const SUITS = "SHDC";
const RANKS = "23456789TJQKA";
const encoder = new TextEncoder();
const SHUFFLE_DOMAIN = encoder.encode("salon.shuffle/v1");
const MIX_DOMAIN = encoder.encode("salon.mix/v1");
const WORD_SPACE = 2 ** 32;
const SEED_BYTES = 32;

/** A card's name from its number (13 × suit + rank): 0 → "2S", 12 → "AS", 51 → "AC". */
export function cardName(card) {
  return RANKS[card % 13] + SUITS[Math.floor(card / 13)];
}

/** Every suit of each rank ("8", "9", "K", "A"), in canonical order (card numbers ascending). */
function cardsOfRanks(ranks) {
  const cards = [];
  for (let suit = 0; suit < SUITS.length; suit += 1) {
    for (const rank of ranks) cards.push(13 * suit + RANKS.indexOf(rank));
  }
  return cards.sort((a, b) => a - b);
}

/**
 * The cards a game's hand is shuffled from, in canonical order (card numbers ascending).
 * `game`: its description (`packs`: players dealt in → ranks) or, in a page, its key. A game
 * with one pack (Bourré's 52 cards) needs no size; one whose pack depends on the players
 * dealt in (Bouillotte's 16, 20 or 24 cards) is told it by `packSize`, the cards dealt from.
 */
export function pack(game, packSize) {
  const described = typeof game === "string" ? gameNamed(game) : game;
  if (!described?.packs) throw new Error(`unknown game: ${game}`);
  const packs = [];
  for (const ranks of Object.values(described.packs)) {
    const cards = cardsOfRanks(ranks);
    if (!packs.some((known) => known.join() === cards.join())) packs.push(cards);
  }
  if (packs.length === 1) return packs[0];
  const sized = packs.find((cards) => cards.length === packSize);
  if (!sized) {
    const sizes = packs.map((cards) => cards.length);
    const said = `${sizes.slice(0, -1).join(", ")} or ${sizes.at(-1)}`;
    throw new Error(`a ${described.title ?? described.name} pack has ${said} cards`);
  }
  return sized;
}

export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length === 0 || hex.length % 2 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new Error("not a hex string of whole bytes");
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function be32(n) {
  return new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
}

async function sha256(bytes) {
  return new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
}

/** The commitment to a seed: lowercase hex SHA-256 of its bytes. */
export async function commitmentOf(seedHex) {
  return bytesToHex(await sha256(hexToBytes(seedHex)));
}

/**
 * The hand's seed from the server seed and the players' contributions (seat → hex):
 * SHA-256("salon.mix/v1" ‖ server seed ‖ for each seat ascending: 1-byte seat ‖ 32 bytes).
 */
export async function mixSeed(serverSeedHex, contributions = {}) {
  const server = hexToBytes(serverSeedHex);
  if (server.length !== SEED_BYTES) throw new Error("a server seed is 32 bytes");
  const seats = Object.keys(contributions).map(Number).sort((a, b) => a - b);
  const parts = [MIX_DOMAIN, server];
  for (const seat of seats) {
    const value = hexToBytes(contributions[seat]);
    if (!Number.isInteger(seat) || seat < 0 || seat > 255) throw new Error("a seat is 0 to 255");
    if (value.length !== SEED_BYTES) throw new Error("a contribution is 32 bytes");
    parts.push(new Uint8Array([seat]), value);
  }
  return bytesToHex(await sha256(concat(...parts)));
}

/** The word stream of shuffle `index`: SHA-256(domain ‖ BE32(index) ‖ seed ‖ BE32(block)). */
class Stream {
  constructor(seed, index) {
    this.prefix = concat(SHUFFLE_DOMAIN, be32(index), seed);
    this.block = 0;
    this.words = [];
  }

  async word() {
    if (this.words.length === 0) {
      const digest = await sha256(concat(this.prefix, be32(this.block)));
      this.block += 1;
      const view = new DataView(digest.buffer);
      for (let i = 0; i < 8; i += 1) this.words.push(view.getUint32(4 * i, false));
    }
    return this.words.shift();
  }

  // Rejection sampling: a word at or above the largest multiple of n is drawn again.
  async uniform(n) {
    const limit = WORD_SPACE - (WORD_SPACE % n);
    for (;;) {
      const w = await this.word();
      if (w < limit) return w % n;
    }
  }
}

/** Fisher–Yates of `cards` (sorted first) driven by shuffle `index` of the seed; top first. */
export async function shuffle(cards, seedHex, index = 0) {
  const out = [...cards].sort((a, b) => a - b);
  const stream = new Stream(hexToBytes(seedHex), index);
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = await stream.uniform(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A hand's deck (shuffle 0 of its pack, see `pack`) as card names, top first. */
export async function deckFromSeed(seedHex, game, packSize) {
  const cards = await shuffle(pack(game, packSize), seedHex, 0);
  return cards.map(cardName);
}

/** Reshuffle `index` ≥ 1 of out-of-play cards (names; Bourré's draw): the new stock, top first. */
export async function reshuffle(seedHex, index, cardNames) {
  const numbers = cardNames.map((name) => 13 * SUITS.indexOf(name[1]) + RANKS.indexOf(name[0]));
  return (await shuffle(numbers, seedHex, index)).map(cardName);
}

/**
 * Check a finished hand. `commitment`: what was shown before the deal; `serverSeed` and
 * `contributions` (seat → hex): published with the result; `seed`: the hand's seed;
 * `game`: as for `pack`; `deck`: the cards dealt, top first (its length tells a game's packs
 * apart).
 * A hand without `serverSeed` (dealt before contributions existed) committed to its seed.
 * Returns which checks hold, and the deck computed from the seed.
 */
export async function verifyHand({ commitment, serverSeed, contributions = {}, seed, game, deck }) {
  const legacy = serverSeed === null || serverSeed === undefined || serverSeed === "";
  const result = { commitment: false, seed: false, deck: false, computedDeck: [] };
  try {
    result.commitment = (await commitmentOf(legacy ? seed : serverSeed)) === String(commitment).toLowerCase();
  } catch {
    result.commitment = false;
  }
  try {
    result.seed = legacy || (await mixSeed(serverSeed, contributions ?? {})) === String(seed).toLowerCase();
  } catch {
    result.seed = false;
  }
  try {
    result.computedDeck = await deckFromSeed(seed, game, deck?.length);
    result.deck = Array.isArray(deck) && deck.length === result.computedDeck.length
      && deck.every((card, i) => card === result.computedDeck[i]);
  } catch {
    result.deck = false;
  }
  return result;
}
