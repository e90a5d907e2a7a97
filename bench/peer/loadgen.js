// The load generator for the boardgame.io peer: closed-loop clients in one Node process,
// driven over stdin so that the `peer` section can run it in slices that alternate with
// donkeypost's (bench/peer/donkeypost_client.py speaks the same commands).
//
//     NODE_PATH=<peer cache>/node_modules node bench/peer/loadgen.js \
//         --url http://127.0.0.1:8001 --clients 32 [--seed 1] [--timeout-ms 10000]
//
// Each client plays its own 3-seat matches, one seat after the other, as a person
// playing all seats of a hot-seat table would: it creates a match and joins its seats over
// the Lobby API (HTTP, keep-alive), holds one socket.io connection per seat (websocket
// transport) and syncs each to the match, then makes one move at a time: it picks one of
// the legal moves the server listed in the acting seat's pushed view, emits `update` with
// the match's stateID on that seat's socket, and waits until the server has pushed the
// new state to the seat that acts next. That wait is the move's latency. No rules
// knowledge, as donkeypost's generator has none.
//
// Commands, one a line; each answered with one JSON line on stdout:
//   go     the clients play (nothing is recorded)
//   start  a measured window begins
//   stop   the window ends and the clients pause after their current move; the answer
//          holds the window's moves, their latencies, the errors and this process's CPU
//   quit   the clients stop; the answer holds the totals; the process exits

'use strict';

const http = require('http');
const readline = require('readline');
const { io } = require('socket.io-client');

const GAME = 'ochs-und-esel';
const SEATS = 3;

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const url = new URL(option('url', 'http://127.0.0.1:8000'));
const clients = Number(option('clients', '1'));
const seed = Number(option('seed', '1'));
const timeoutMs = Number(option('timeout-ms', '10000'));

// -- the run's shared state -----------------------------------------------------------

const run = {
  playing: false, // between `go` and `stop`
  recording: false, // between `start` and `stop`
  over: false, // after `quit`
  gate: [], // clients waiting for `go`
  latencies: [], // ms, moves ended inside the window
  errors: {}, // in the window
  totalErrors: {},
  gamesFinished: 0,
  moves: 0,
  windowStart: 0,
  cpuStart: null,
};

function now() {
  return Number(process.hrtime.bigint()) / 1e6; // ms, monotonic
}

function error(kind) {
  run.totalErrors[kind] = (run.totalErrors[kind] || 0) + 1;
  if (run.recording) run.errors[kind] = (run.errors[kind] || 0) + 1;
}

function turn() {
  // Resolves when the clients may play; false once the run is over.
  if (run.over) return Promise.resolve(false);
  if (run.playing) return Promise.resolve(true);
  return new Promise((resolve) => run.gate.push(resolve));
}

function openGate() {
  const waiting = run.gate;
  run.gate = [];
  waiting.forEach((resolve) => resolve(!run.over));
}

function rng(state) {
  // mulberry32, seeded per client as donkeypost's generator seeds its random.Random
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// -- the Lobby API ----------------------------------------------------------------------

const agent = new http.Agent({ keepAlive: true });

function post(path, body) {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname, port: url.port, path, method: 'POST', agent,
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) },
    }, (res) => {
      const parts = [];
      res.on('data', (p) => parts.push(p));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString();
        if (res.statusCode !== 200) reject(new Error(`${path} answered ${res.statusCode}`));
        else resolve(JSON.parse(text));
      });
    });
    req.on('error', reject);
    req.end(data);
  });
}

// -- one client ---------------------------------------------------------------------------

class Table {
  // One client's sockets, one per seat, and the latest state each was pushed.
  constructor() {
    this.matchID = null;
    this.states = new Array(SEATS).fill(null);
    this.waiter = null; // { check, resolve }
    this.sockets = [];
    for (let s = 0; s < SEATS; s++) {
      const socket = io(`${url.origin}/${GAME}`, {
        transports: ['websocket'], forceNew: true, reconnection: false,
      });
      socket.on('sync', (matchID, info) => this.receive(s, matchID, info.state));
      socket.on('update', (matchID, state) => this.receive(s, matchID, state));
      socket.on('connect_error', () => error('connect_error'));
      socket.on('disconnect', (reason) => {
        if (!run.over) error(`disconnect: ${reason}`);
      });
      this.sockets.push(socket);
    }
  }

  connected() {
    return Promise.all(this.sockets.map((socket) => (socket.connected ? null
      : new Promise((resolve) => socket.once('connect', resolve)))));
  }

  receive(seat, matchID, state) {
    if (matchID !== this.matchID) return;
    this.states[seat] = state;
    if (this.waiter && this.waiter.check()) {
      const { resolve } = this.waiter;
      this.waiter = null;
      resolve(true);
    }
  }

  until(check) {
    // Resolves true once `check()` holds, false after the timeout.
    if (check()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        resolve(false);
      }, timeoutMs);
      this.waiter = { check, resolve: (v) => { clearTimeout(timer); resolve(v); } };
    });
  }

  close() {
    this.sockets.forEach((socket) => socket.close());
  }
}

async function newMatch(table) {
  const { matchID } = await post(`/games/${GAME}/create`, { numPlayers: SEATS });
  const credentials = [];
  for (let s = 0; s < SEATS; s++) {
    const joined = await post(`/games/${GAME}/${matchID}/join`,
      { playerID: String(s), playerName: `p${s}` });
    credentials.push(joined.playerCredentials);
  }
  table.matchID = matchID;
  table.states.fill(null);
  table.sockets.forEach((socket, s) => socket.emit('sync', matchID, String(s), credentials[s],
    SEATS));
  const synced = await table.until(() => table.states.every((st) => st !== null));
  return synced ? credentials : null;
}

async function playClient(number) {
  const random = rng(seed * 1000003 + number);
  const table = new Table();
  await table.connected();
  try {
    while (await turn()) {
      const credentials = await newMatch(table);
      if (!credentials) {
        error('sync timeout');
        continue;
      }
      while (await turn()) {
        // The newest state names the seat to act (the others may not have had it yet);
        // that seat's own copy is at least as new (the previous move waited for it).
        const newest = table.states.reduce((a, b) => (b._stateID > a._stateID ? b : a));
        const seat = Number(newest.ctx.currentPlayer);
        const state = table.states[seat];
        if (state.ctx.gameover) {
          run.gamesFinished += 1;
          break;
        }
        const legal = state.G.legal;
        if (!legal || !legal.length) {
          error('no legal move listed');
          break;
        }
        const choice = legal[Math.floor(random() * legal.length)];
        const stateID = state._stateID;
        const action = { type: 'MAKE_MOVE',
          payload: { type: choice.move, args: choice.args, playerID: String(seat),
            credentials: credentials[seat] } };
        const t0 = now();
        table.sockets[seat].emit('update', action, stateID, table.matchID, String(seat));
        // Done when the acting seat has the new state and the seat to act next has it too.
        const done = await table.until(() => {
          const mine = table.states[seat];
          if (mine._stateID <= stateID) return false;
          if (mine.ctx.gameover) return true;
          const next = table.states[Number(mine.ctx.currentPlayer)];
          return next._stateID === mine._stateID;
        });
        const t1 = now();
        if (!done) {
          error('move timeout');
          break;
        }
        run.moves += 1;
        if (run.recording) run.latencies.push(Math.round((t1 - t0) * 1000) / 1000);
      }
    }
  } catch (e) {
    error(`crash: ${String(e.message || e).slice(0, 120)}`);
  } finally {
    table.close();
  }
}

// -- commands -------------------------------------------------------------------------

function answer(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

const players = [];
for (let n = 0; n < clients; n++) players.push(playClient(n));

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', async (line) => {
  const command = line.trim();
  if (command === 'go') {
    run.playing = true;
    openGate();
    answer({ ok: true });
  } else if (command === 'start') {
    run.latencies = [];
    run.errors = {};
    run.recording = true;
    run.windowStart = now();
    run.cpuStart = process.cpuUsage();
    answer({ ok: true });
  } else if (command === 'stop') {
    const seconds = (now() - run.windowStart) / 1000;
    const cpu = process.cpuUsage(run.cpuStart || undefined);
    run.recording = false;
    run.playing = false;
    answer({ moves: run.latencies.length, seconds, latencies_ms: run.latencies,
      errors: run.errors, generator_cpu_s: (cpu.user + cpu.system) / 1e6 });
  } else if (command === 'quit') {
    if (run.over) return;
    run.over = true;
    run.playing = false;
    openGate();
    // Clients finish their move in flight, or are left behind after 2 s.
    await Promise.race([Promise.all(players), new Promise((r) => setTimeout(r, 2000))]);
    agent.destroy();
    answer({ games_finished: run.gamesFinished, moves: run.moves, errors: run.totalErrors });
    process.exit(0);
  } else {
    answer({ error: `unknown command ${command}` });
  }
});
lines.on('close', () => {
  if (!run.over) process.exit(0); // the section went away without a `quit`: stop at once
});
