"""The peer in the bench: donkeypost measured against boardgame.io, a widely used server for
turn-based games, on the same machine in the same run (`python -m bench --sections peer`).

boardgame.io is installed from npm into a cache folder (`install`) and driven: a port of
Ochs & Esel written for it (`game.js`), its server (`server.js`) with in-memory or FlatFile
storage, and a Node load generator (`loadgen.js`). `section` runs both servers pinned to one
CPU, in alternating slices, and reports moves/s, latency and server CPU per move.
"""
