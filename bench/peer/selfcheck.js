// Plays random games of the peer's Ochs & Esel in process, through boardgame.io's own
// client and master (its Local transport: the same reducer and playerView as the server),
// and checks what the benchmark relies on: every listed legal move is accepted, illegal
// ones are refused (a pass by the leader, a set too low or of the wrong size, a card not
// in hand, a move out of turn), a game ends, each seat sees its own hand and no other.
// Prints one JSON line.
//
//     NODE_PATH=<peer cache>/node_modules node bench/peer/selfcheck.js [games]

'use strict';

const { Client } = require('boardgame.io/client');
const { Local } = require('boardgame.io/multiplayer');
const { OchsUndEsel } = require('./game');

const SEATS = ['0', '1', '2'];
const MAX_MOVES = 5000;

function rng(seed) {
  // mulberry32: a small seeded generator, so a failing game can be replayed
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fail(message) {
  process.stdout.write(JSON.stringify({ ok: false, error: message }) + '\n');
  process.exit(1);
}

// Moves the rules forbid in this position: [seat, move, args].
function illegal(view, seat) {
  const out = [[(seat + 1) % 3, 'pass', []]]; // out of turn
  const trick = view.trick;
  const hand = view.hand;
  if (trick.kind === 'donkey') {
    out.push([seat, 'playSet', [{ value: 13, numbers: 1, jokers: 0 }]]);
    return out;
  }
  if (!trick.plays.length) {
    out.push([seat, 'pass', []]); // the leader must play
  } else {
    out.push([seat, 'playSet', [{ value: trick.high, numbers: trick.count, jokers: 0 }]]);
    out.push([seat, 'playSet', [{ value: 13, numbers: trick.count + 1, jokers: 0 }]]);
  }
  const missing = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13].find((v) => !hand.includes(v));
  if (missing !== undefined) {
    out.push([seat, 'playSet', [{ value: missing, numbers: trick.count || 1, jokers: 0 }]]);
  }
  return out;
}

let refused = 0;

function playOne(number) {
  const multiplayer = Local();
  const matchID = `check-${number}`;
  const clients = SEATS.map((playerID) =>
    Client({ game: OchsUndEsel, numPlayers: 3, multiplayer, matchID, playerID }));
  clients.forEach((c) => c.start());
  const random = rng(number + 1);
  let moves = 0;
  for (;;) {
    const states = clients.map((c) => c.getState());
    const first = states[0];
    if (first.ctx.gameover) {
      clients.forEach((c) => c.stop());
      return { moves, rounds: first.G.rounds, totals: first.ctx.gameover.totals };
    }
    if (moves >= MAX_MOVES) fail(`game ${number} did not end in ${MAX_MOVES} moves`);
    states.forEach((s, seat) => {
      if (!Array.isArray(s.G.hand) || s.G.hands !== undefined) {
        fail(`seat ${seat} sees ${JSON.stringify(Object.keys(s.G))}`);
      }
      if (s.G.handSizes[seat] !== s.G.hand.length) fail(`seat ${seat}'s hand size differs`);
    });
    const seat = Number(first.ctx.currentPlayer);
    const view = states[seat].G;
    if (view.toAct !== seat) fail(`boardgame.io's turn ${seat} is not the game's ${view.toAct}`);
    const others = states.filter((_, s) => s !== seat);
    if (others.some((s) => s.G.legal.length)) fail('a seat not to act has legal moves');
    if (!view.legal.length) fail(`seat ${seat} has no legal move`);
    const before = first._stateID;
    for (const [who, move, args] of illegal(view, seat)) {
      clients[who].moves[move](...args);
      if (clients[seat].getState()._stateID !== before) {
        fail(`game ${number}: the illegal ${move} ${JSON.stringify(args)} was accepted`);
      }
      refused += 1;
    }
    const choice = view.legal[Math.floor(random() * view.legal.length)];
    clients[seat].moves[choice.move](...choice.args);
    if (clients[seat].getState()._stateID !== before + 1) {
      fail(`game ${number}: ${JSON.stringify(choice)} was refused`);
    }
    moves += 1;
  }
}

const games = Number(process.argv[2] || 20);
const played = [];
for (let n = 0; n < games; n++) played.push(playOne(n));
const moves = played.reduce((a, g) => a + g.moves, 0);
process.stdout.write(JSON.stringify({ ok: true, games, moves, moves_per_game: moves / games,
  illegal_refused: refused }) + '\n');
