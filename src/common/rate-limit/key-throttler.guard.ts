import { ExecutionContext, Injectable, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { RateLimitError } from '../errors/app-error';
import { type HttpResponseLike, setHeader } from '../http/http-context';
import { type RateLimitDecision, RateLimiter, type RateWindow } from './rate-limiter';
import { isAdminWindow, isEndpointWindow, type RateLimitedRequest, windowKey } from './surface-windows';

export type { RateLimitedRequest } from './surface-windows';

/** The one place that writes the X-RateLimit-* headers (Reset is a Unix timestamp in seconds). */
export function applyRateLimitHeaders(response: HttpResponseLike, decision: RateLimitDecision): void {
  setHeader(response, 'X-RateLimit-Limit', decision.reported.limit);
  setHeader(response, 'X-RateLimit-Remaining', decision.reported.remaining);
  setHeader(response, 'X-RateLimit-Reset', Math.ceil(decision.reported.resetAtMs / 1000));
}

export function rateLimitError(decision: RateLimitDecision): RateLimitError {
  const seconds = decision.retryAfterSeconds;
  return new RateLimitError(`Rate limit exceeded: retry in ${seconds} second${seconds === 1 ? '' : 's'}`, seconds);
}

/**
 * The parent reads six route metadata entries per throttler on every request (a tenth of a cache hit's CPU in the
 * profile). Route metadata is fixed once the application has started, so each lookup is answered from memory after
 * its first time: per metadata key, per handler, per controller class.
 */
class MemoizedReflector extends Reflector {
  private readonly memo = new Map<unknown, WeakMap<object, WeakMap<object, { value: unknown }>>>();

  constructor(private readonly reflector: Reflector) {
    super();
  }

  getAllAndOverride<TResult = unknown>(metadataKey: unknown, targets: (Type | Function)[]): TResult {
    const [handler, classRef] = targets;
    if (targets.length !== 2 || !handler || !classRef) return this.reflector.getAllAndOverride(metadataKey as string, targets);
    let byHandler = this.memo.get(metadataKey);
    if (!byHandler) this.memo.set(metadataKey, (byHandler = new WeakMap()));
    let byClass = byHandler.get(handler);
    if (!byClass) byHandler.set(handler, (byClass = new WeakMap()));
    let entry = byClass.get(classRef);
    if (!entry) byClass.set(classRef, (entry = { value: this.reflector.getAllAndOverride(metadataKey as string, targets) }));
    return entry.value as TResult;
  }
}

/**
 * @nestjs/throttler, keyed by API key: the tracker is the authenticated key's id (so it runs after the key guard).
 * The parent resolves each named throttler of the surface (skips, limits, TTLs) and, instead of counting them one by
 * one, this guard collects them and counts all of them in one atomic step through the RateLimiter port: a request
 * must pass every window, and a refused one counts in none. The windows and their storage keys are the ones
 * `surfaceWindows` gives MCP tool calls, so a key has one set of counters whatever the surface. Headers are written
 * here, on success and refusal.
 */
abstract class KeyThrottlerGuard extends ThrottlerGuard {
  private readonly collected = new WeakMap<ExecutionContext, RateWindow[]>();
  private initialized = false;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly limiter: RateLimiter,
  ) {
    super(options, storage, new MemoizedReflector(reflector));
  }

  /** Which of the configured throttlers this surface applies. */
  protected abstract appliesTo(throttlerName: string): boolean;

  async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    this.throttlers = this.throttlers.filter((throttler) => this.appliesTo(throttler.name!));
    this.initialized = true;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.initialized) await this.onModuleInit();
    const windows: RateWindow[] = [];
    this.collected.set(context, windows);
    await super.canActivate(context);
    this.collected.delete(context);
    if (windows.length === 0) return true;
    const decision = await this.limiter.consume(windows);
    applyRateLimitHeaders(context.switchToHttp().getResponse<HttpResponseLike>(), decision);
    if (!decision.allowed) throw rateLimitError(decision);
    return true;
  }

  protected async handleRequest({ context, limit, ttl, throttler, getTracker, generateKey }: ThrottlerRequest): Promise<boolean> {
    const tracker = await getTracker(context.switchToHttp().getRequest(), context);
    this.collected.get(context)!.push({ name: throttler.name!, key: generateKey(context, tracker, throttler.name!), limit, ttlMs: ttl });
    return true;
  }

  protected async getTracker(request: RateLimitedRequest): Promise<string> {
    if (!request.principal) throw new Error('The key throttler guard must run after a key guard');
    return request.principal.keyId;
  }

  protected generateKey(context: ExecutionContext, keyId: string, name: string): string {
    if (!isEndpointWindow(name)) return windowKey(name, keyId);
    return windowKey(name, keyId, context.switchToHttp().getRequest<RateLimitedRequest>().rateLimitEndpoint!.id);
  }
}

/** Admin routes: one generous per-key window, so a runaway script cannot starve the database. */
@Injectable()
export class AdminThrottlerGuard extends KeyThrottlerGuard {
  protected appliesTo(name: string): boolean {
    return isAdminWindow(name);
  }
}

/** Execution: the key's minute/hour/day windows plus, when set, the endpoint's own per-key windows. */
@Injectable()
export class ExecutionThrottlerGuard extends KeyThrottlerGuard {
  protected appliesTo(name: string): boolean {
    return !isAdminWindow(name);
  }
}
