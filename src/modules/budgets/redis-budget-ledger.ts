import { type RedisClient, RedisScripts, withinRedisDeadline } from '../../common/redis/redis-client';
import { BudgetLedger, type LedgerLine, type LedgerTotals, type ReserveResult } from './budget-ledger';

/*
 * Each budget's period is one hash: field `s` its spent total in units, and one field `r:<reservation id>` per live
 * reservation, `<units>:<lease end in ms>`. Leases are read by Redis's own clock (TIME), the same for every instance.
 * Integers go through string.format('%d'): Lua's default number formatting keeps 14 digits only.
 */

/** Drops the ended leases of the hash KEYS[i] and sums the live ones; defines `totals(key, now)`. */
const TOTALS_FUNCTION = `
local function totals(key, now)
  local fields = redis.call('HGETALL', key)
  local spent, reserved = nil, 0
  for j = 1, #fields, 2 do
    local field, value = fields[j], fields[j + 1]
    if field == 's' then
      spent = tonumber(value)
    else
      local sep = string.find(value, ':', 1, true)
      if tonumber(string.sub(value, sep + 1)) <= now then
        redis.call('HDEL', key, field)
      else
        reserved = reserved + tonumber(string.sub(value, 1, sep - 1))
      end
    end
  end
  return spent, reserved
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
`;

/**
 * The reservations and settlements of one turn, in the order below. ARGV: the number of settlements and of
 * reservations, then each settlement as `id, actual units, n, n key indexes`, then each reservation as
 * `id, units, lease ms, n, n pairs of key index and limit` (indexes into KEYS). Settlements go first: they free what
 * they held. Each reservation is then made against all of its lines or none, after the ones before it, so two
 * reservations of one turn see each other as two separate calls would. Replies, one per reservation, flat:
 * `1, 2n, spent1, reserved1, …` reserved on all; `0, 3, index, spent, reserved` refused by line `index`;
 * `-1, m, index…` lines without a spent total. A line's totals are read once per script and kept up to date in it.
 */
const TURN_SCRIPT = `${TOTALS_FUNCTION}
local settlements, reservations = tonumber(ARGV[1]), tonumber(ARGV[2])
local at = 3
for _ = 1, settlements do
  local field, actual, n = 'r:' .. ARGV[at], ARGV[at + 1], tonumber(ARGV[at + 2])
  for j = at + 3, at + 2 + n do
    local key = KEYS[tonumber(ARGV[j])]
    redis.call('HDEL', key, field)
    if redis.call('HEXISTS', key, 's') == 1 then redis.call('HINCRBY', key, 's', actual) end
  end
  at = at + 3 + n
end
local known = {}
local reply = {}
for _ = 1, reservations do
  local id, units, lease, n = ARGV[at], tonumber(ARGV[at + 1]), tonumber(ARGV[at + 2]), tonumber(ARGV[at + 3])
  local value = ARGV[at + 1] .. ':' .. string.format('%d', now + lease)
  local first = at + 4
  at = first + 2 * n
  local missing = {}
  for j = 0, n - 1 do
    local index = tonumber(ARGV[first + 2 * j])
    if not known[index] and redis.call('HEXISTS', KEYS[index], 's') == 0 then missing[#missing + 1] = j + 1 end
  end
  if #missing > 0 then
    reply[#reply + 1] = -1
    reply[#reply + 1] = #missing
    for _, line in ipairs(missing) do reply[#reply + 1] = line end
  else
    local refused = nil
    for j = 0, n - 1 do
      local index = tonumber(ARGV[first + 2 * j])
      local entry = known[index]
      if not entry then
        local spent, reserved = totals(KEYS[index], now)
        entry = {spent, reserved}
        known[index] = entry
      end
      if not refused and entry[1] + entry[2] + units > tonumber(ARGV[first + 2 * j + 1]) then refused = j + 1 end
    end
    if refused then
      local entry = known[tonumber(ARGV[first + 2 * (refused - 1)])]
      reply[#reply + 1] = 0
      reply[#reply + 1] = 3
      reply[#reply + 1] = refused
      reply[#reply + 1] = string.format('%d', entry[1])
      reply[#reply + 1] = string.format('%d', entry[2])
    else
      reply[#reply + 1] = 1
      reply[#reply + 1] = 2 * n
      for j = 0, n - 1 do
        local index = tonumber(ARGV[first + 2 * j])
        local entry = known[index]
        entry[2] = entry[2] + units
        redis.call('HSET', KEYS[index], 'r:' .. id, value)
        reply[#reply + 1] = string.format('%d', entry[1])
        reply[#reply + 1] = string.format('%d', entry[2])
      end
    end
  end
end
return reply
`;

/** KEYS[1]: the line; ARGV: spent units, expiry (ms since the epoch). */
const SEED_SCRIPT = `
if redis.call('HSETNX', KEYS[1], 's', ARGV[1]) == 1 then redis.call('PEXPIREAT', KEYS[1], ARGV[2]) end
return 0
`;

/** KEYS[1]: the line; ARGV[1]: spent units it should have at least. */
const RAISE_SCRIPT = `
local spent = tonumber(redis.call('HGET', KEYS[1], 's'))
if spent and spent < tonumber(ARGV[1]) then redis.call('HSET', KEYS[1], 's', ARGV[1]) end
return 0
`;

/** KEYS: the lines. Returns spent and reserved of each, spent -1 for a line without a spent total. */
const TOTALS_SCRIPT = `${TOTALS_FUNCTION}
local reply = {}
for _, key in ipairs(KEYS) do
  local spent, reserved = totals(key, now)
  reply[#reply + 1] = spent and string.format('%d', spent) or '-1'
  reply[#reply + 1] = string.format('%d', reserved)
end
return reply
`;

/**
 * How long a ledger script may take. Longer than other Redis calls' deadline: a budget call that cannot be checked is
 * refused, so a burst of calls on a loaded instance must not turn into refusals; a reservation whose answer comes too
 * late holds its units until its lease ends (never less than it should).
 */
const LEDGER_DEADLINE_MS = 2_000;

/** A reservation waiting for its turn's script, with its caller's answer. */
interface QueuedReservation {
  lines: LedgerLine[];
  id: string;
  units: number;
  leaseMs: number;
  resolve: (result: ReserveResult) => void;
  reject: (error: unknown) => void;
}

/** A settlement waiting for its turn's script. */
interface QueuedSettlement {
  keys: string[];
  id: string;
  actualUnits: number;
}

/** What one turn sends for one hash tag: its settlements and reservations, and the one answer its settlements share. */
interface Turn {
  settlements: QueuedSettlement[];
  reservations: QueuedReservation[];
  settled?: { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void };
}

/**
 * How long a settlement may wait for reservations to travel with: under load, some come within a millisecond, so
 * settlements add no script of their own. Far below the shortest lease (30 s).
 */
const SETTLE_WITHIN_MS = 10;

/**
 * The ledger in Redis, shared by every instance. The reservations an instance makes in one pass of its event loop go
 * to Redis together at the end of it, as one script per hash tag (see TURN_SCRIPT), with the settlements queued
 * since; settlements queued with no reservation to travel with go at most SETTLE_WITHIN_MS later. A script is atomic, so each reservation is still one all-or-none step against all of
 * a request's budgets, and two instances can never both take the last units. Keys carry the tenant as their hash tag,
 * so a request's budgets, and a turn's script, share a slot. Other operations first send what is queued, so a read
 * sees every settlement made before it. Redis away or slower than its deadline: the operation fails (the caller
 * decides; see BudgetSpendingService); a settlement that fails leaves its reservation to its lease.
 */
export class RedisBudgetLedger extends BudgetLedger {
  private readonly scripts: RedisScripts;
  /** Operations not sent yet, by hash tag. */
  private queued = new Map<string, Turn>();
  private turnScheduled = false;
  private settleTimer?: NodeJS.Timeout;
  private lastKey = '';
  private lastTag = '';

  constructor(private readonly client: RedisClient) {
    super();
    this.scripts = new RedisScripts(client);
  }

  reserve(lines: LedgerLine[], reservationId: string, units: number, leaseMs: number): Promise<ReserveResult> {
    if (!this.client.isReady) return Promise.reject(new Error('Redis is not connected'));
    return new Promise((resolve, reject) => {
      this.turnOf(lines[0].key).reservations.push({ lines, id: reservationId, units, leaseMs, resolve, reject });
      if (!this.turnScheduled) {
        this.turnScheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  settle(keys: string[], reservationId: string, actualUnits: number): Promise<void> {
    if (!this.client.isReady) return Promise.reject(new Error('Redis is not connected'));
    const turn = this.turnOf(keys[0]);
    turn.settlements.push({ keys, id: reservationId, actualUnits });
    if (!turn.settled) {
      let resolve!: () => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<void>((ok, fail) => ((resolve = ok), (reject = fail)));
      turn.settled = { promise, resolve, reject };
    }
    // With a reservation queued, it travels with it at the end of this pass of the event loop.
    if (!this.turnScheduled) this.settleTimer ??= setTimeout(() => void this.flush(), SETTLE_WITHIN_MS).unref();
    return turn.settled.promise;
  }

  async seed(key: string, spent: number, expiresAt: Date): Promise<void> {
    await this.run(SEED_SCRIPT, [key], [String(spent), String(expiresAt.getTime())]);
  }

  async raise(key: string, spent: number): Promise<void> {
    await this.run(RAISE_SCRIPT, [key], [String(spent)]);
  }

  async totals(keys: string[]): Promise<(LedgerTotals | null)[]> {
    const numbers = (await this.run(TOTALS_SCRIPT, keys, [])).map(Number);
    return keys.map((_, i) => (numbers[2 * i] < 0 ? null : { spent: numbers[2 * i], reserved: numbers[2 * i + 1] }));
  }

  async flush(): Promise<void> {
    this.turnScheduled = false;
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = undefined;
    const turns = this.queued;
    if (turns.size === 0) return;
    this.queued = new Map();
    await Promise.all([...turns.values()].map((turn) => this.send(turn)));
  }

  /** The queued operations of a key's hash tag. */
  private turnOf(key: string): Turn {
    // A budget's calls in one period name the same key: its tag is read once.
    if (key !== this.lastKey) {
      this.lastKey = key;
      this.lastTag = hashTagOf(key);
    }
    const tag = this.lastTag;
    let turn = this.queued.get(tag);
    if (!turn) {
      turn = { settlements: [], reservations: [] };
      this.queued.set(tag, turn);
    }
    return turn;
  }

  private async send(turn: Turn): Promise<void> {
    const { keys, args } = turnArguments(turn);
    try {
      const results = readTurnReply(await this.run(TURN_SCRIPT, keys, args), turn.reservations.length);
      turn.settled?.resolve();
      turn.reservations.forEach((reservation, i) => reservation.resolve(results[i]));
    } catch (error) {
      turn.settled?.reject(error);
      for (const reservation of turn.reservations) reservation.reject(error);
    }
  }

  private async run(script: string, keys: string[], args: string[]): Promise<(string | number)[]> {
    // What is queued goes first: a read sees every settlement made before it.
    if (script !== TURN_SCRIPT) void this.flush();
    if (!this.client.isReady) throw new Error('Redis is not connected');
    const reply = this.scripts.run(script, { keys, arguments: args }) as Promise<(string | number)[]>;
    return withinRedisDeadline(reply, LEDGER_DEADLINE_MS);
  }
}

/**
 * A key's hash tag, as Redis Cluster reads it (the text between the first `{` and the next `}`, when not empty): the
 * keys of one tag share a slot, so one script may hold them all. A key without one is its own.
 */
export function hashTagOf(key: string): string {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

/** A turn's KEYS (each key once) and ARGV, as TURN_SCRIPT reads them. */
export function turnArguments(turn: Pick<Turn, 'settlements' | 'reservations'>): { keys: string[]; args: string[] } {
  const keys: string[] = [];
  const indexes = new Map<string, string>();
  const indexOf = (key: string): string => {
    let index = indexes.get(key);
    if (index === undefined) {
      index = String(keys.push(key));
      indexes.set(key, index);
    }
    return index;
  };
  const args = [String(turn.settlements.length), String(turn.reservations.length)];
  for (const { id, actualUnits, keys: lines } of turn.settlements) {
    args.push(id, String(actualUnits), String(lines.length));
    for (const key of lines) args.push(indexOf(key));
  }
  for (const { id, units, leaseMs, lines } of turn.reservations) {
    args.push(id, String(units), String(leaseMs), String(lines.length));
    for (const line of lines) args.push(indexOf(line.key), String(line.limit));
  }
  return { keys, args };
}

/** TURN_SCRIPT's reply read back: one result per reservation, in their order. */
export function readTurnReply(reply: (string | number)[], reservations: number): ReserveResult[] {
  const results: ReserveResult[] = [];
  let at = 0;
  for (let r = 0; r < reservations; r++) {
    const code = Number(reply[at]);
    const count = Number(reply[at + 1]);
    const values = reply.slice(at + 2, at + 2 + count).map(Number);
    at += 2 + count;
    if (code === -1) {
      results.push({ outcome: 'unseeded', indexes: values.map((line) => line - 1) });
    } else if (code === 0) {
      results.push({ outcome: 'refused', index: values[0] - 1, totals: { spent: values[1], reserved: values[2] } });
    } else {
      const totals: LedgerTotals[] = [];
      for (let i = 0; i < values.length; i += 2) totals.push({ spent: values[i], reserved: values[i + 1] });
      results.push({ outcome: 'reserved', totals });
    }
  }
  if (at !== reply.length) throw new Error('The budget ledger answered a turn it was not sent');
  return results;
}
