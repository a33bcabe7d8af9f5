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
 * KEYS: the lines; ARGV: reservation id, units, lease ms, then each line's limit. Returns {1, spent1, reserved1, …}
 * reserved on all; {0, index, spent, reserved} refused by line `index`; {-1, index…} lines without a spent total.
 */
const RESERVE_SCRIPT = `${TOTALS_FUNCTION}
local id, units, lease = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local missing = {}
for i, key in ipairs(KEYS) do
  if redis.call('HEXISTS', key, 's') == 0 then missing[#missing + 1] = i end
end
if #missing > 0 then
  table.insert(missing, 1, -1)
  return missing
end
local reply = {1}
for i, key in ipairs(KEYS) do
  local spent, reserved = totals(key, now)
  if spent + reserved + units > tonumber(ARGV[3 + i]) then
    return {0, i, string.format('%d', spent), string.format('%d', reserved)}
  end
  reply[#reply + 1] = string.format('%d', spent)
  reply[#reply + 1] = string.format('%d', reserved + units)
end
local value = ARGV[2] .. ':' .. string.format('%d', now + lease)
for _, key in ipairs(KEYS) do
  redis.call('HSET', key, 'r:' .. id, value)
end
return reply
`;

/** KEYS: the lines; ARGV: reservation id, actual units. */
const SETTLE_SCRIPT = `
for _, key in ipairs(KEYS) do
  redis.call('HDEL', key, 'r:' .. ARGV[1])
  if redis.call('HEXISTS', key, 's') == 1 then redis.call('HINCRBY', key, 's', ARGV[2]) end
end
return 0
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

/**
 * The ledger in Redis, shared by every instance: each operation is one script, so reserving against all of a
 * request's budgets is one atomic step. Keys carry the tenant as their hash tag, so a request's budgets share a slot.
 * Redis away or slower than its deadline: the operation fails (the caller decides; see BudgetSpendingService).
 */
export class RedisBudgetLedger extends BudgetLedger {
  private readonly scripts: RedisScripts;

  constructor(private readonly client: RedisClient) {
    super();
    this.scripts = new RedisScripts(client);
  }

  async reserve(lines: LedgerLine[], reservationId: string, units: number, leaseMs: number): Promise<ReserveResult> {
    const reply = await this.run(
      RESERVE_SCRIPT,
      lines.map((line) => line.key),
      [reservationId, String(units), String(leaseMs), ...lines.map((line) => String(line.limit))],
    );
    const numbers = reply.map(Number);
    if (numbers[0] === -1) return { outcome: 'unseeded', indexes: numbers.slice(1).map((i) => i - 1) };
    if (numbers[0] === 0) {
      return { outcome: 'refused', index: numbers[1] - 1, totals: { spent: numbers[2], reserved: numbers[3] } };
    }
    const totals: LedgerTotals[] = [];
    for (let i = 1; i < numbers.length; i += 2) totals.push({ spent: numbers[i], reserved: numbers[i + 1] });
    return { outcome: 'reserved', totals };
  }

  async settle(keys: string[], reservationId: string, actualUnits: number): Promise<void> {
    await this.run(SETTLE_SCRIPT, keys, [reservationId, String(actualUnits)]);
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

  private async run(script: string, keys: string[], args: string[]): Promise<(string | number)[]> {
    if (!this.client.isReady) throw new Error('Redis is not connected');
    const reply = this.scripts.run(script, { keys, arguments: args }) as Promise<(string | number)[]>;
    return withinRedisDeadline(reply, LEDGER_DEADLINE_MS);
  }
}
