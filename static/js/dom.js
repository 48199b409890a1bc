// Small DOM helpers shared by the lobby and the table. Everything shown to the user is
// set through textContent or attributes, never parsed as HTML, so names and chat stay text.

/** Build an element: h("button", {class: "x", onclick: fn, text: "Go"}, child, …). */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = String(value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** A translated sentence with an element inside it (a name, an amount in bold): the text
 *  before `{name}`, the node, the text after, as h()'s children. The sentence stays whole for
 *  its translator, who may put the element anywhere in it.
 *  @param {string} text @param {string} name @param {Node} node */
export function around(text, name, node) {
  const at = text.indexOf(`{${name}}`);
  if (at < 0) return [text, " ", node];
  return [text.slice(0, at), node, text.slice(at + name.length + 2)].filter((part) => part !== "");
}

/** Put `nodes` in `parent` in place of its children, leaving in place each child that is
 *  already the same (tag, attributes and text, all the way down). A redraw that changes
 *  nothing about a button then leaves the button itself: a tap or a click under way on it,
 *  and the focus, are not lost to a snapshot that arrived meanwhile (on a slow phone, every
 *  action of another player's redraws the table). A kept child keeps its own handlers,
 *  which do what the new ones would: it is the same control.
 *  @param {Element} parent
 *  @param {Node[]} nodes */
export function replaceChildrenKeeping(parent, nodes) {
  nodes.forEach((node, at) => {
    const current = parent.childNodes[at];
    if (current === undefined) parent.append(node);
    else if (!current.isEqualNode(node)) current.replaceWith(node);
  });
  while (parent.childNodes.length > nodes.length) parent.lastChild.remove();
}

/** Format a chip count the way people read them: 12 500. */
export function chips(amount) {
  return Number(amount ?? 0).toLocaleString("en-US").replace(/,/g, "\u202f");
}

/** A count of chips with its unit, singular for one (as the server writes it:
 *  app.web.display.counted): "1 chip", "12 500 chips". The club names its unit in the
 *  plural; one of it drops the final "s".
 *  @param {number} amount
 *  @param {string} [unit] */
export function counted(amount, unit = "chips") {
  const one = Math.abs(amount) === 1 && unit.length > 1 && unit.endsWith("s");
  return `${chips(amount)} ${one ? unit.slice(0, -1) : unit}`;
}

/** A gain or a loss as people write it: +12, −5, 0. */
export function signedChips(amount) {
  return amount > 0 ? `+${chips(amount)}` : amount < 0 ? `−${chips(-amount)}` : "0";
}

// The games the club deals, as the server's registry describes them (the same as GET
// /api/games); every page embeds them (base.html), so a new game needs no line here.
export const GAMES = JSON.parse(globalThis.document?.getElementById("salon-games")?.textContent ?? "[]");
export const GAME_NAMES = Object.fromEntries(GAMES.map((game) => [game.name, game.title]));

/** A game's description by its key, or undefined. */
export function gameNamed(name) {
  return GAMES.find((game) => game.name === name);
}

/** A game's front end (static/js/table/<key>.js): how its table and replay are drawn. */
export function frontEnd(name) {
  if (!gameNamed(name)) throw new Error(`unknown game: ${name}`);
  return import(`./table/${name}.js`);
}
