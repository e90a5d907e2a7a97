// boardgame.io's server (Koa: the Lobby API over HTTP, the moves over socket.io) serving
// the peer's Ochs & Esel, with its in-memory storage or its FlatFile storage (node-persist
// files in a folder). One process, as boardgame.io deploys. Prints `ready <port>` once it
// listens; SIGTERM or SIGINT stops it.
//
//     NODE_PATH=<peer cache>/node_modules node bench/peer/server.js \
//         --port 8001 --storage memory|flatfile [--dir <folder for FlatFile>]

'use strict';

const { Server, FlatFile } = require('boardgame.io/server');
const { OchsUndEsel } = require('./game');

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const port = Number(option('port', '8000'));
const storage = option('storage', 'memory');
let db; // undefined: boardgame.io's default, InMemory
if (storage === 'flatfile') {
  // FlatFile keeps each match in files through node-persist, which by default reads every
  // file of its folder every 2 minutes to drop expired keys. Moves write their files
  // meanwhile: a file read half-written fails to parse, the rejection goes unhandled and
  // the process dies (it did at 32 clients). Nothing expires here (ttl: false), so the
  // sweep is switched off: FlatFile's call init({dir, logging, ttl}) gets one more option.
  const persist = require('node-persist');
  const init = persist.init;
  persist.init = (options) => init({ ...options, expiredInterval: 0 });
  db = new FlatFile({ dir: option('dir', 'peer-flatfile'), logging: false, ttl: false });
} else if (storage !== 'memory') {
  process.stderr.write(`unknown storage ${storage}: memory or flatfile\n`);
  process.exit(2);
}

// `origins` only matters to browsers (CORS); the benchmark's clients are not.
const server = Server({ games: [OchsUndEsel], db, origins: [] });
server.run({ port, callback: () => process.stdout.write(`ready ${port}\n`) }).then((running) => {
  const storage = db && require('node-persist').defaultInstance;
  if (storage && (storage.options.expiredInterval || storage._expiredKeysInterval)) {
    process.stderr.write('node-persist still sweeps for expired keys\n');
    process.exit(3);
  }
  const stop = () => {
    server.kill(running);
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
});
