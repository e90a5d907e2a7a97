// Ochs & Esel for boardgame.io: the peer the `peer` benchmark section measures donkeypost
// against. A port of the base game as domain/games/trick_engine/ plays it (rules:
// the project's ochs-und-esel rules file), written for boardgame.io's Game API so that its
// server does per move the work donkeypost does per move: check the turn and validate the
// play against the hand and the trick, apply it, end the trick (winner, or the donkey
// trick's taker), score the round, deal the next one, and redact the state for every seat
// (playerView, with the legal moves of the seat to act, as donkeypost's view lists
// `legal_actions`).
//
// Left out, as a random 3-seat game of the benchmark never meets them: the ox variant
// (off by default in donkeypost too), the option checks, and the waived lock of a hand of
// nothing but a locked donkey. Cards are small ints as in the Python engine: 1-13,
// JOKER 14, DONKEY 20 (a card's id is its penalty in hand).

'use strict';

const NUMBERS = 13;
const COPIES = 8;
const JOKERS = 4;
const JOKER = 14;
const DONKEY = 20;
const JOKERS_ALONE = 14; // a set of jokers only is worth 14 and cannot be beaten
const HAND_SIZE = 13; // 3-8 players
const ROUNDS = 5; // donkeypost's default
const NOBODY = -1;
const NAMES = { [JOKER]: 'joker', [DONKEY]: 'donkey' };
const INVALID_MOVE = 'INVALID_MOVE'; // boardgame.io's constant, spelled out

// -- the deal -------------------------------------------------------------------------

function newDeck() {
  const deck = [];
  for (let v = 1; v <= NUMBERS; v++) for (let k = 0; k < COPIES; k++) deck.push(v);
  for (let k = 0; k < JOKERS; k++) deck.push(JOKER);
  return deck;
}

// A full reshuffle every round; the leader holds the donkey on top of the deal.
function deal(G, random, number, leader) {
  const deck = random.Shuffle(newDeck());
  const n = G.players;
  G.hands = [];
  for (let s = 0; s < n; s++) {
    const hand = deck.slice(s * HAND_SIZE, (s + 1) * HAND_SIZE);
    if (s === leader) hand.push(DONKEY);
    G.hands.push(hand.sort(byValue));
  }
  G.known = G.hands.map((_, s) => (s === leader ? [DONKEY] : []));
  G.discards = new Array(DONKEY + 1).fill(0);
  G.round = number;
  G.trick = 1;
  G.donkeyFrom = 1;
  startTrick(G, leader);
}

function startTrick(G, leader) {
  G.leader = leader;
  G.turn = leader;
  G.kind = 'normal';
  G.count = 0;
  G.high = 0;
  G.highSeat = NOBODY;
  G.plays = [];
}

function setup({ ctx, random }) {
  const G = { players: ctx.numPlayers, rounds: ROUNDS, scores: [], over: false };
  deal(G, random, 1, random.Die(ctx.numPlayers) - 1); // "the longest ears": drawn
  return G;
}

// -- legal moves ----------------------------------------------------------------------

// Every distinct set from `hand` of `count` cards (any size if 0) worth more than `above`.
function sets(hand, count, above) {
  const jokers = countOf(hand, JOKER);
  const out = [];
  let last = 0;
  for (const value of hand) {
    if (value > NUMBERS) break;
    if (value === last || value <= above) continue;
    last = value;
    const have = countOf(hand, value);
    if (count) {
      for (let k = Math.max(1, count - jokers); k <= Math.min(have, count); k++) {
        out.push(setMove(value, k, count - k));
      }
    } else {
      for (let k = 1; k <= have; k++) {
        for (let j = 0; j <= jokers; j++) out.push(setMove(value, k, j));
      }
    }
  }
  if (above < JOKERS_ALONE) {
    if (count) {
      if (count <= jokers) out.push(setMove(JOKERS_ALONE, 0, count));
    } else {
      for (let j = 1; j <= jokers; j++) out.push(setMove(JOKERS_ALONE, 0, j));
    }
  }
  return out;
}

function setMove(value, numbers, jokers) {
  return { move: 'playSet', args: [{ value, numbers, jokers }] };
}

function legalMoves(G, seat) {
  if (G.over || seat !== G.turn) return [];
  const hand = G.hands[seat];
  if (G.kind === 'donkey') {
    // One card each, any value; a hand of only the donkey passes.
    const out = [];
    let last = 0;
    for (const c of hand) {
      if (c <= NUMBERS && c !== last) out.push({ move: 'playCard', args: [{ card: c }] });
      last = c;
    }
    if (hand.includes(JOKER)) out.push({ move: 'playCard', args: [{ card: 'joker' }] });
    return out.length ? out : [{ move: 'pass', args: [] }];
  }
  if (!G.plays.length) {
    const out = sets(hand, 0, 0);
    if (hand.includes(DONKEY) && G.trick >= G.donkeyFrom) {
      out.push({ move: 'playDonkey', args: [] });
    }
    return out;
  }
  return [{ move: 'pass', args: [] }, ...sets(hand, G.count, G.high)];
}

// -- moves: validate, then apply ----------------------------------------------------

function playSet({ G, random, playerID }, set) {
  const seat = Number(playerID);
  if (G.kind !== 'normal') return INVALID_MOVE; // must_play_one_card
  if (!set || !isInt(set.value) || !isInt(set.numbers) || !isInt(set.jokers)) {
    return INVALID_MOVE; // bad_action
  }
  const { value, numbers, jokers } = set;
  if (numbers < 0 || jokers < 0 || numbers + jokers === 0) return INVALID_MOVE;
  if (value < 1 || value > JOKERS_ALONE || (value === JOKERS_ALONE) !== (numbers === 0)) {
    return INVALID_MOVE;
  }
  const hand = G.hands[seat];
  if (G.plays.length) {
    if (numbers + jokers !== G.count) return INVALID_MOVE; // must_follow_count
    if (value <= G.high) return INVALID_MOVE; // too_low
  }
  if ((numbers && countOf(hand, value) < numbers) || countOf(hand, JOKER) < jokers) {
    return INVALID_MOVE; // not_in_hand
  }
  const cards = [];
  for (let k = 0; k < numbers; k++) cards.push(value);
  for (let k = 0; k < jokers; k++) cards.push(JOKER);
  take(G, seat, cards);
  if (!G.count) G.count = numbers + jokers;
  G.high = value;
  G.highSeat = seat;
  G.plays.push({ seat, value, numbers, jokers, special: 0 });
  afterPlay(G, random, seat);
}

function pass({ G, random, playerID }) {
  const seat = Number(playerID);
  if (G.kind === 'donkey') {
    // Only a hand of nothing but the donkey passes in a donkey trick.
    if (G.hands[seat].some((c) => c !== DONKEY)) return INVALID_MOVE; // cannot_pass
  } else if (!G.plays.length) {
    return INVALID_MOVE; // the leader must play a set
  }
  G.plays.push({ seat, value: 0, numbers: 0, jokers: 0, special: 0 });
  afterPlay(G, random, seat);
}

function playDonkey({ G, random, playerID }) {
  const seat = Number(playerID);
  if (!G.hands[seat].includes(DONKEY)) return INVALID_MOVE; // not_in_hand
  if (G.plays.length || G.kind !== 'normal') return INVALID_MOVE; // only the leader
  if (G.trick < G.donkeyFrom) return INVALID_MOVE; // donkey_locked
  take(G, seat, [DONKEY]);
  G.kind = 'donkey';
  G.count = 1;
  G.high = 0; // the donkey is worth 0
  G.highSeat = seat;
  G.plays.push({ seat, value: 0, numbers: 0, jokers: 0, special: DONKEY });
  afterPlay(G, random, seat);
}

function playCard({ G, random, playerID }, play) {
  const seat = Number(playerID);
  if (G.kind !== 'donkey') return INVALID_MOVE; // must_play_set
  const card = play && (play.card === 'joker' ? JOKER : play.card);
  if (!isInt(card) || card < 1 || card > JOKER) return INVALID_MOVE; // bad_action
  if (!G.hands[seat].includes(card)) return INVALID_MOVE; // not_in_hand
  take(G, seat, [card]);
  const value = card === JOKER ? 1 : card; // a joker is worth 1 in a donkey trick
  if (value >= G.high) {
    G.high = value; // on a tie the last one takes
    G.highSeat = seat;
  }
  G.plays.push({ seat, value, numbers: card === JOKER ? 0 : 1, jokers: card === JOKER ? 1 : 0,
    special: 0 });
  afterPlay(G, random, seat);
}

function afterPlay(G, random, seat) {
  const next = nextInTrick(G, seat);
  if (next !== NOBODY) {
    G.turn = next;
    return;
  }
  endTrick(G, random);
}

// Clockwise, skipping empty hands; NOBODY once everyone acted (back at the leader).
function nextInTrick(G, seat) {
  let next = (seat + 1) % G.players;
  while (next !== G.leader) {
    if (G.hands[next].length) return next;
    next = (next + 1) % G.players;
  }
  return NOBODY;
}

function endTrick(G, random) {
  const winner = G.highSeat;
  const table = [];
  for (const p of G.plays) table.push(...playCards(p));
  if (G.kind === 'donkey') {
    // The taker puts every card of the trick into their hand, in view of all, locked.
    G.hands[winner] = G.hands[winner].concat(table).sort(byValue);
    G.known[winner] = G.known[winner].concat(table).sort(byValue);
    G.donkeyFrom = G.trick + 2;
  } else {
    for (const c of table) G.discards[c] += 1;
  }
  G.trick += 1;
  startTrick(G, winner);
  if (G.hands.some((h) => !h.length)) endRound(G, random);
}

function endRound(G, random) {
  G.scores.push(G.hands.map((h) => h.reduce((a, c) => a + c, 0)));
  if (G.round >= G.rounds) {
    G.over = true; // (the turn stays where it is: boardgame.io ends the game via endIf)
    return;
  }
  const holder = G.hands.findIndex((h) => h.includes(DONKEY));
  deal(G, random, G.round + 1, holder >= 0 ? holder : G.leader);
}

// -- observation ----------------------------------------------------------------------

// What `playerID` may see: everything but the other hands (hand sizes, the trick played
// face up, the cards everyone saw go into each hand and out of play), and the legal moves
// when it is to act. Everything once the game is over.
function playerView({ G, playerID }) {
  const seat = playerID === null || playerID === undefined ? NOBODY : Number(playerID);
  const outOfPlay = [];
  G.discards.forEach((k, c) => {
    for (let i = 0; i < k; i++) outOfPlay.push(c);
  });
  const holder = G.hands.findIndex((h) => h.includes(DONKEY));
  const onTable = G.plays.some((p) => p.special === DONKEY);
  const view = {
    players: G.players,
    round: G.round,
    rounds: G.rounds,
    over: G.over,
    toAct: G.turn >= 0 && !G.over ? G.turn : null,
    trick: {
      number: G.trick,
      leader: G.leader,
      kind: G.kind,
      count: G.count || null,
      high: G.highSeat >= 0 ? G.high : null,
      highSeat: G.highSeat >= 0 ? G.highSeat : null,
      plays: G.plays.map(playView),
    },
    handSizes: G.hands.map((h) => h.length),
    knownCards: G.known.map(names),
    specials: {
      donkey: {
        where: onTable ? 'table' : holder >= 0 ? 'hand' : 'centre',
        seat: onTable ? null : holder,
        playableFromTrick: G.donkeyFrom,
        locked: !onTable && holder >= 0 && G.trick < G.donkeyFrom,
      },
    },
    outOfPlay: names(outOfPlay),
    scores: G.scores,
    totals: totals(G),
  };
  if (seat >= 0 && seat < G.players) {
    view.hand = names(G.hands[seat]);
    view.legal = legalMoves(G, seat);
  }
  if (G.over) view.hands = G.hands.map(names);
  return view;
}

function playView(p) {
  if (p.special) return { seat: p.seat, action: 'lead', card: NAMES[p.special] };
  if (!p.numbers && !p.jokers) return { seat: p.seat, action: 'pass' };
  return { seat: p.seat, action: 'play', value: p.value, numbers: p.numbers,
    jokers: p.jokers, cards: names(playCards(p)) };
}

function totals(G) {
  const out = new Array(G.players).fill(0);
  for (const round of G.scores) round.forEach((p, s) => { out[s] += p; });
  return out;
}

// Fewest penalty points first; tied players share the place (1, 1, 3 ...).
function places(sums) {
  return sums.map((t) => 1 + sums.filter((o) => o < t).length);
}

// -- helpers --------------------------------------------------------------------------

function playCards(p) {
  if (p.special) return [p.special];
  const out = [];
  for (let k = 0; k < p.numbers; k++) out.push(p.value);
  for (let k = 0; k < p.jokers; k++) out.push(JOKER);
  return out;
}

// `cards` leave the seat's hand (which holds them) and what everyone knew of it.
function take(G, seat, cards) {
  const hand = G.hands[seat];
  const known = G.known[seat];
  for (const c of cards) {
    hand.splice(hand.indexOf(c), 1);
    const i = known.indexOf(c);
    if (i >= 0) known.splice(i, 1);
  }
}

function countOf(hand, card) {
  let n = 0;
  for (const c of hand) if (c === card) n++;
  return n;
}

function byValue(a, b) {
  return a - b;
}

function isInt(x) {
  return Number.isInteger(x);
}

function names(cards) {
  return cards.map((c) => NAMES[c] || c);
}

const OchsUndEsel = {
  name: 'ochs-und-esel',
  minPlayers: 3,
  maxPlayers: 3,
  disableUndo: true, // donkeypost has no undo either
  setup,
  moves: {
    // client: false, as a game with hidden hands must: a client holds only its redacted
    // view, so the moves run on the server alone.
    playSet: { move: playSet, client: false },
    pass: { move: pass, client: false },
    playDonkey: { move: playDonkey, client: false },
    playCard: { move: playCard, client: false },
  },
  turn: {
    minMoves: 1,
    maxMoves: 1,
    order: { first: ({ G }) => G.turn, next: ({ G }) => G.turn },
  },
  endIf: ({ G }) => (G.over ? { totals: totals(G), places: places(totals(G)) } : undefined),
  playerView,
};

module.exports = { OchsUndEsel, legalMoves };
