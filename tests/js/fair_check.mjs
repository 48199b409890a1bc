// Runs static/js/fair.js on the cases of a JSON file (argv[2]) and prints what it computes,
// for tests/js/test_fair_js.py to compare with the Python engine.
import { readFileSync } from "node:fs";
import { commitmentOf, deckFromSeed, mixSeed, reshuffle, verifyHand } from "../../static/js/fair.js";

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = [];
for (const c of cases) {
  out.push({
    commitment: await commitmentOf(c.serverSeed),
    seed: await mixSeed(c.serverSeed, c.contributions),
    deck: await deckFromSeed(c.seed, c.game, c.packSize),
    reshuffle: c.reshuffle ? await reshuffle(c.seed, c.reshuffle.index, c.reshuffle.cards) : null,
    verified: await verifyHand(c.verify),
  });
}
process.stdout.write(JSON.stringify(out));
