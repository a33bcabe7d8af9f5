import type { INestApplicationContext } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { parseArgs } from 'node:util';
import { AppError } from '../common/errors/app-error';
import { allPages } from '../common/http/paging';
import { validateDto } from '../common/http/validation.pipe';
import { CreateKeyDto } from '../modules/keys/dto/create-key.dto';
import { KeysService } from '../modules/keys/keys.service';
import { BudgetsService } from '../modules/budgets/budgets.service';
import { TenantsService } from '../modules/tenants/tenants.service';
import { evalRun, type EvalRunArgs, type EvalRunWait } from './eval-run';
import { HttpEvalRunSource } from './eval-run-http';
import { LocalEvalRunSource } from './eval-run-local';

export interface CliResult {
  exitCode: number;
  stdout: string[];
  stderr: string[];
}

export const USAGE = `Usage:
  npm run cli -- tenant create <slug> [--name TEXT] [--plan free|pro|enterprise]
  npm run cli -- tenant update <slug> [--name TEXT] [--plan free|pro|enterprise]
  npm run cli -- key create --tenant <slug> --type admin|endpoint [--permission ReadWrite|ReadOnly] [--environment live|test] [--name TEXT] [--tag key=value ...]
  npm run cli -- key list --tenant <slug>
  npm run cli -- key revoke --tenant <slug> <key-id>
  npm run cli -- budget list --tenant <slug>
  npm run cli -- eval run --tenant <slug> --dataset <id> --prompt <id> [--version N] [--timeout SECONDS] [--base-url URL --admin-key KEY]`;

const OPTIONS = {
  name: { type: 'string' },
  plan: { type: 'string' },
  tenant: { type: 'string' },
  type: { type: 'string' },
  permission: { type: 'string' },
  environment: { type: 'string' },
  tag: { type: 'string', multiple: true },
  dataset: { type: 'string' },
  prompt: { type: 'string' },
  version: { type: 'string' },
  timeout: { type: 'string' },
  'base-url': { type: 'string' },
  'admin-key': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

class UsageError extends Error {}

/** How long `eval run` waits for its run by default, and at most (`--timeout`, in seconds). */
const EVAL_TIMEOUT_SECONDS = { default: 3600, max: 86_400 };
/** How `eval run` polls: often at first, then less, in this process and over HTTP (where polls count as requests). */
const EVAL_POLL_MS = { local: { first: 100, max: 1000 }, http: { first: 250, max: 5000 } };

/**
 * Whether the command runs against a running service's admin API (`eval run --base-url …`), needing neither the
 * database nor the control socket.
 */
export function isRemoteCommand(argv: string[]): boolean {
  return argv.some((arg) => arg === '--base-url' || arg.startsWith('--base-url='));
}

/** `--tag key=value` options (split at the first `=`) as a key's default tags; the DTO checks keys and values. */
function defaultTagsOf(options: string[]): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const option of options) {
    const equals = option.indexOf('=');
    if (equals < 0) throw new UsageError(`--tag must be key=value, not '${option}'`);
    const key = option.slice(0, equals);
    if (Object.hasOwn(tags, key)) throw new UsageError(`--tag '${key}' is given more than once`);
    tags[key] = option.slice(equals + 1);
  }
  return tags;
}

/**
 * The CLI's commands, run against the same services as the REST API (in this process or the running service); a
 * remote command (isRemoteCommand) runs without them, over HTTP.
 */
export async function runCliCommand(app: INestApplicationContext | undefined, argv: string[]): Promise<CliResult> {
  const stdout: string[] = [];
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    const [resource, action, ...rest] = positionals;
    if (values.help || !resource)
      return { exitCode: values.help ? 0 : 2, stdout: values.help ? [USAGE] : [], stderr: values.help ? [] : [USAGE] };
    const command = `${resource} ${action ?? ''}`.trim();
    if (command === 'eval run') return await evalRunCommand(app, values);
    if (!app) throw new UsageError(`${command} has no --base-url option`);
    const tenants = app.get(TenantsService);
    const keys = app.get(KeysService);
    switch (command) {
      case 'tenant create': {
        const tenant = await tenants.create(requireArg(rest[0], '<slug>'), { name: values.name, plan: values.plan });
        stdout.push(`Created tenant ${tenant.slug} (name: ${tenant.name}, plan: ${tenant.plan})`);
        break;
      }
      case 'tenant update': {
        const tenant = await tenants.update(requireArg(rest[0], '<slug>'), { name: values.name, plan: values.plan });
        stdout.push(`Updated tenant ${tenant.slug} (name: ${tenant.name}, plan: ${tenant.plan})`);
        break;
      }
      case 'key create': {
        const tenant = await tenants.getBySlug(requireArg(values.tenant, '--tenant'));
        const type = requireArg(values.type, '--type');
        if (type !== 'admin' && type !== 'endpoint') throw new UsageError('--type must be admin or endpoint');
        // Checked by the REST request DTO, so a bad --permission or --environment is refused as POST /admin/v1/keys refuses it.
        const input = validateDto(CreateKeyDto, {
          name: values.name ?? `${type} key`,
          type,
          permission: values.permission,
          environment: values.environment,
          defaultTags: values.tag ? defaultTagsOf(values.tag) : undefined,
        });
        const created = await keys.create(tenant.id, input);
        const level = created.type === 'admin' ? created.permission : created.environment;
        stdout.push(
          `Created ${created.type} key ${created.id} (${level}) for tenant ${tenant.slug}. It is shown once:`,
        );
        stdout.push(created.key); // The key alone on the last line
        break;
      }
      case 'key list': {
        const tenant = await tenants.getBySlug(requireArg(values.tenant, '--tenant'));
        for (const key of await allPages((page) => keys.list(tenant.id, page))) {
          const level = key.type === 'admin' ? key.permission : key.environment;
          const used = key.lastUsedAt ? new Date(key.lastUsedAt).toISOString() : 'never';
          stdout.push(
            `${key.id}  ${key.type.padEnd(8)} ${String(level).padEnd(9)} …${key.last4}  ${key.status.padEnd(7)} last used ${used}  ${key.name}`,
          );
        }
        if (stdout.length === 0) stdout.push(`No keys for tenant ${tenant.slug}`);
        break;
      }
      case 'key revoke': {
        const tenant = await tenants.getBySlug(requireArg(values.tenant, '--tenant'));
        const keyId = requireArg(rest[0], '<key-id>');
        if (!isUUID(keyId)) throw new UsageError('<key-id> must be a key id as shown by key list');
        const key = await keys.revoke(tenant.id, keyId);
        stdout.push(`Revoked key ${key.id} (…${key.last4})`);
        break;
      }
      case 'budget list': {
        const tenant = await tenants.getBySlug(requireArg(values.tenant, '--tenant'));
        for (const budget of await app.get(BudgetsService).list(tenant.id)) {
          const { scope, status } = budget;
          const target = scope.keyId ?? scope.endpointId ?? scope.tag ?? 'tenant';
          const usd = (value: number) => `$${value.toFixed(6)}`;
          stdout.push(
            `${budget.id}  ${scope.type.padEnd(8)} ${target}  ${budget.period.padEnd(5)} limit ${usd(budget.limitUsd)}  ` +
              `spent ${usd(status.spentUsd)}  reserved ${usd(status.reservedUsd)}  remaining ${usd(status.remainingUsd)}  ` +
              `${budget.enabled ? 'enabled ' : 'disabled'}  ${budget.name}`,
          );
        }
        if (stdout.length === 0) stdout.push(`No budgets for tenant ${tenant.slug}`);
        break;
      }
      default:
        throw new UsageError(`Unknown command: ${command}`);
    }
    return { exitCode: 0, stdout, stderr: [] };
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      return { exitCode: 2, stdout, stderr: [(error as Error).message, USAGE] };
    }
    if (error instanceof AppError) return { exitCode: 1, stdout, stderr: [`Error: ${error.message}`] };
    return { exitCode: 1, stdout, stderr: [`Error: ${(error as Error).message ?? error}`] };
  }
}

/**
 * `eval run`: its options checked (a usage error exits 2), then the run made and followed in this process or, with
 * `--base-url` and `--admin-key`, over the admin API.
 */
async function evalRunCommand(
  app: INestApplicationContext | undefined,
  values: { [name: string]: string | boolean | string[] | undefined },
): Promise<CliResult> {
  const text = (name: string) => values[name] as string | undefined;
  const args: EvalRunArgs = {
    tenant: requireArg(text('tenant'), '--tenant'),
    datasetId: requireUuid(text('dataset'), '--dataset'),
    promptId: requireUuid(text('prompt'), '--prompt'),
    versionNumber: optionalInteger(text('version'), '--version', 1, 2_147_483_647),
  };
  const timeoutSeconds =
    optionalInteger(text('timeout'), '--timeout', 1, EVAL_TIMEOUT_SECONDS.max) ?? EVAL_TIMEOUT_SECONDS.default;
  const baseUrl = text('base-url');
  const adminKey = text('admin-key');
  if ((baseUrl === undefined) !== (adminKey === undefined)) {
    throw new UsageError('--base-url and --admin-key go together');
  }
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/.test(baseUrl)) {
    throw new UsageError(`--base-url must be an http:// or https:// URL, not '${baseUrl}'`);
  }
  const poll = baseUrl !== undefined ? EVAL_POLL_MS.http : EVAL_POLL_MS.local;
  const wait: EvalRunWait = { firstPollMs: poll.first, maxPollMs: poll.max, timeoutMs: timeoutSeconds * 1000 };
  if (baseUrl !== undefined) return evalRun(new HttpEvalRunSource(baseUrl, adminKey!), args, wait);
  if (!app) throw new UsageError('eval run needs the database, or --base-url and --admin-key');
  return evalRun(new LocalEvalRunSource(app), args, wait);
}

function requireUuid(value: string | undefined, name: string): string {
  const id = requireArg(value, name);
  if (!isUUID(id)) throw new UsageError(`${name} must be an id (a UUID), not '${id.slice(0, 64)}'`);
  return id;
}

function optionalInteger(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!(number >= min && number <= max)) {
    throw new UsageError(`${name} must be a whole number from ${min} to ${max}, not '${value.slice(0, 64)}'`);
  }
  return number;
}

function requireArg(value: string | undefined, name: string): string {
  if (!value) throw new UsageError(`Missing ${name}`);
  return value;
}
