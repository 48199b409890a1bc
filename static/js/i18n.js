// The page's language for the scripts: the same catalogs as the server's (app/i18n), as
// one JSON per language (its URL in base.html's `salon-words`). Strings are marked where
// they are written, and extracted from here into the catalogs:
//   t("Waiting for {name}.", { name })          a sentence, its {placeholders} filled
//   tn("{n} chip", "{n} chips", n)               the form of n in the language (CLDR)
//   tp("bouillotte", "Open")                     an ambiguous word, with its sense
// English, the language the code is written in, needs no catalog.

const meta = globalThis.document?.querySelector('meta[name="salon-words"]');
const EMPTY = { language: "en", direction: "ltr", plural: { one: 0, other: 1 }, messages: {} };

async function load() {
  if (!meta?.content) return EMPTY;
  try {
    const response = await fetch(meta.content, { credentials: "same-origin" });
    return response.ok ? await response.json() : EMPTY;
  } catch {
    return EMPTY; // offline: English, as the code is written, rather than nothing
  }
}

const catalog = await load();
export const LANGUAGE = globalThis.document?.documentElement.lang || catalog.language;
const pluralRules = new Intl.PluralRules(LANGUAGE);

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** `msgid` in the page's language, its `{name}` placeholders filled from `params`. */
export function t(msgid, params) {
  const found = catalog.messages[msgid];
  return fill(typeof found === "string" ? found : msgid, params);
}

/** The form of `n` (`{n}` is n, as the language writes numbers unless params says). */
export function tn(singular, plural, n, params = {}) {
  const forms = catalog.messages[singular];
  let text = n === 1 ? singular : plural;
  if (Array.isArray(forms)) {
    const index = catalog.plural[pluralRules.select(n)] ?? catalog.plural.other ?? forms.length - 1;
    text = forms[index] ?? text;
  }
  return fill(text, { n, ...params });
}

/** `msgid` in the sense `context` gives it (`tp("bouillotte", "Open")`). */
export function tp(context, msgid, params) {
  const found = catalog.messages[`${context}\u0004${msgid}`];
  return fill(typeof found === "string" ? found : msgid, params);
}
