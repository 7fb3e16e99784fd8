#!/usr/bin/env node
// The adapter that puts seven-up.js before the conformance suite, with the adapter kit:
//   matador conform --engine "node docs/examples/seven-up-adapter.js"
// The engine deals itself from its own generator: the kit works out the numbers that make
// its shuffle give each case's deal (it deals a tile at a time round the table). It lays
// its own opening, keeps a score and plays a match; it gives no refusal reasons.
"use strict";

const path = require("path");
const kit = require(process.env.MATADOR_KIT || path.join(__dirname, "../../conformance/examples/matador-kit.js"));
const engine = require("./seven-up.js");
const { Move } = kit;
const SIDES = ["left", "right"];

kit.serve({
  name: "seven-up",
  version: "1.0",
  variants: { "gamerules-com": {} },
  opensItself: true,

  newGame(variant, options, players) { this.game = engine.newGame(players); },

  start(table) {
    if (table.hands.some((hand) => hand.length !== engine.HAND_SIZE[table.players])) return false;
    try {
      const stack = kit.stackFor(table.hands, table.boneyard, { dealing: "rounds" });
      this.game.random = kit.riggedRandom(engine.boneyardInOrder(), stack, { fallback: this.game.random });
    } catch (notTheSet) {
      return false;
    }
    const { tile, seat } = engine.dealHand(this.game).opening;
    return { move: Move.opening(...tile), seat };
  },

  seat() { return this.game.over ? null : this.game.turn; },
  moves() { return engine.legalMoves(this.game).map(toMove); },

  play(move) {
    if (move.kind !== "play") return engine.makeMove(this.game, { type: move.kind === "draw" ? "draw" : "knock" });
    if (move.shape !== "inline" || move.end > 1) return false;
    return engine.makeMove(this.game, { type: "play", tile: move.tile, side: SIDES[move.end], outer: move.open });
  },

  openEnds() { return this.game.left === null ? [] : [this.game.left, this.game.right]; },
  tiles(seat) { return this.game.hands[seat]; },
  winner() { return this.game.winner; },
  points() { return this.game.points; },
  matchWinner() { return engine.matchWinner(this.game); },
});

function toMove(m) {
  if (m.type === "draw") return Move.draw;
  if (m.type === "knock") return Move.pass;
  return Move.inline(m.tile[0], m.tile[1], SIDES.indexOf(m.side), m.outer);
}
