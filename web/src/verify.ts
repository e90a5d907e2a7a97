// Checking a finished game's exported log in the browser, as `donkeypost verify` does:
// the hash chain, the revealed seed against the commitment made at creation, and every
// private part against its commitment. Hashes cover canonical JSON (keys sorted, no
// spaces, numbers as the server wrote them), so the log is parsed keeping each number's
// text: re-printing 1.0 as 1 would break the chain.
import { t } from "./i18n";

type Json = null | boolean | string | RawNumber | Json[] | JsonObject;
type JsonObject = { kind: "object"; entries: [string, Json][] };
class RawNumber { constructor(readonly text: string) {} }

function parse(text: string): Json {
  let i = 0;
  const ws = () => { while (" \t\n\r".includes(text[i]) && i < text.length) i++; };
  const value = (): Json => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const entries: [string, Json][] = [];
      ws();
      if (text[i] === "}") { i++; return { kind: "object", entries }; }
      for (;;) {
        ws();
        const key = value() as string;
        ws(); i++; // :
        entries.push([key, value()]);
        ws();
        if (text[i++] === "}") return { kind: "object", entries };
      }
    }
    if (c === "[") {
      i++;
      const items: Json[] = [];
      ws();
      if (text[i] === "]") { i++; return items; }
      for (;;) {
        items.push(value());
        ws();
        if (text[i++] === "]") return items;
      }
    }
    if (c === '"') {
      const start = i++;
      while (text[i] !== '"') {
        if (i >= text.length) throw new Error("unterminated string");
        i += text[i] === "\\" ? 2 : 1;
      }
      i++;
      return JSON.parse(text.slice(start, i)) as string;
    }
    for (const [word, v] of [["true", true], ["false", false], ["null", null]] as const) {
      if (text.startsWith(word, i)) { i += word.length; return v; }
    }
    const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 40));
    if (!m) throw new Error(`not JSON at ${i}`);
    i += m[0].length;
    return new RawNumber(m[0]);
  };
  return value();
}

function canonical(v: Json): string {
  if (v === null || typeof v === "boolean") return String(v);
  if (typeof v === "string") return JSON.stringify(v);
  if (v instanceof RawNumber) return v.text;
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  const sorted = [...v.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${sorted.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(",")}}`;
}

const get = (o: Json, key: string): Json | undefined =>
  o !== null && typeof o === "object" && "kind" in o ? o.entries.find(([k]) => k === key)?.[1] : undefined;
const isEmpty = (v: Json | undefined) => v !== undefined && v !== null && typeof v === "object" && "kind" in v && !v.entries.length;

/** The event as its hash covers it: without hash; private parts only through commitments;
 *  fields at their default left out. */
function chained(ev: JsonObject): JsonObject {
  const committed = !isEmpty(get(ev, "commitments")) && get(ev, "commitments") !== undefined;
  return { kind: "object", entries: ev.entries.filter(([k, v]) =>
    k !== "hash" && !(k === "private" && (committed || isEmpty(v))) &&
    !((k === "data" || k === "commitments") && isEmpty(v)) && !(k === "actor" && v === null)) };
}

const encoder = new TextEncoder();
const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

async function sha256(text: string): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

async function hmac(key: Uint8Array<ArrayBuffer>, message: string): Promise<ArrayBuffer> {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return crypto.subtle.sign("HMAC", k, encoder.encode(message));
}

export interface Verification { ok: boolean; checked: string[]; problems: string[]; seed: string | null; seedHash: string }

export async function verifyLog(ndjson: string): Promise<Verification> {
  const out: Verification = { ok: false, checked: [], problems: [], seed: null, seedHash: "" };
  if (!globalThis.crypto?.subtle) {
    out.problems.push(t("this page is not on a secure origin (https or this computer): the browser offers no hashing here"));
    return out;
  }
  let events: JsonObject[];
  try {
    events = ndjson.split("\n").filter((l) => l.trim()).map((l) => parse(l) as JsonObject);
  } catch {
    out.problems.push(t("the log is not JSON, one event a line"));
    return out;
  }
  let prev = "";
  for (const [n, ev] of events.entries()) {
    const hash = get(ev, "hash");
    const seq = get(ev, "seq");
    if (!(seq instanceof RawNumber) || Number(seq.text) !== n + 1 || hash !== await sha256(prev + canonical(chained(ev)))) {
      out.problems.push(t("the hash chain breaks at event {n}: the log was altered", { n: n + 1 }));
      return out;
    }
    prev = hash as string;
  }
  out.checked.push(t("the hash chain over {n} events", { n: events.length }));
  const seedHash = get(get(events[0], "data") ?? null, "seed_hash");
  out.seedHash = typeof seedHash === "string" ? seedHash : "";
  const finished = events.filter((e) => get(e, "type") === "game_finished").pop();
  const seed = finished ? get(get(finished, "data")!, "seed") : undefined;
  if (typeof seed !== "string") {
    out.problems.push(t("the game is not finished: its seed is not revealed yet"));
    return out;
  }
  out.seed = seed;
  if (await sha256(seed) !== out.seedHash) {
    out.problems.push(t("the revealed seed does not match the commitment made at creation"));
    return out;
  }
  out.checked.push(t("the revealed seed against its commitment"));
  const key = new Uint8Array(await hmac(encoder.encode(seed), "donkeypost commitment key v1"));
  let parts = 0;
  for (const ev of events) {
    const commitments = get(ev, "commitments");
    if (!commitments || typeof commitments !== "object" || !("kind" in commitments)) continue;
    const priv = get(ev, "private");
    for (const [seat, committed] of commitments.entries) {
      const part = get(priv ?? null, seat);
      const seq = (get(ev, "seq") as RawNumber).text;
      if (part === undefined || hex(await hmac(key, `${seq}:${seat}:${canonical(part)}`)) !== committed) {
        out.problems.push(t("event {n}: a private part does not match its commitment", { n: seq }));
      }
      parts++;
    }
  }
  if (!out.problems.length) {
    out.checked.push(t("{n} private parts against their commitments", { n: parts }));
    out.ok = true;
  }
  return out;
}
