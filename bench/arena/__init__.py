"""`python -m bench.arena`: bots against bots, in process, without HTTP or Redis.

    python -m bench.arena --game ochs-und-esel --seats strong,basic,random --games 50 \
        [--seed 1] [--budget-ms 750 | --iterations 2000] [--expert-budget-ms 5000 |
        --expert-iterations 8000] [--options '{"rounds": 2}'] [--jobs 2] [--json out.json]

Each game is pure domain, played with `domain.bots.match` (the loop the bots' calibration
plays too), with RNGs derived from the seed and the game's number, so a run is reproducible
(up to the searching bots' wall-clock budgets: with iteration budgets instead it is
exact, whatever the machine's load; the time per move is still reported). The seat order
rotates from game to game so that no level keeps the first seat. In simultaneous phases
the acting seats move one at a time in a random order; each bot only ever gets its `Observation`
(`domain.bots.observe`).

Reported per level: the win rate (share of first places; a first place shared by k
players counts 1/k), the mean score (penalty, slots, points: whatever the game's outcome
reports) and the mean place, each with its 95% confidence interval (Student t), and the
move times; then, for each
pair of levels, the mean per-game score difference with its 95% interval and how often the
first placed better than the second (paired: both sat at the same table).

Modules: `games` (playing the games), `stats` (the figures per level and per pair),
`report` (the tables and the JSON document), `cli` (the command).
"""
