import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { randomUUID } from 'node:crypto';
import { Client, type ClientConfig } from 'pg';
import { AppLogger } from '../../common/logging/app-logger';
import { type RedisClient, whenReady, withinRedisDeadline } from '../../common/redis/redis-client';
import { RedisConnection } from '../../common/redis/redis-connection';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { postgresConnection } from '../../config/database-tls';
import { InvalidationBus, type InvalidationHandler } from './invalidation-bus';

const CHANNEL = 'promptgate_invalidate';
const RECONNECT_MS = 1_000;

interface Message {
  /** The instance that published it (it has already run its own handlers). */
  o: string;
  /** Its number among that instance's messages: a message that arrives on two transports is handled once. */
  n: number;
  t: string;
  i: string;
}

/** How changes reach the other instances. */
interface Transport {
  readonly name: string;
  start(): Promise<void>;
  send(message: Message): Promise<void>;
  stop(): Promise<void>;
}

/** Messages already handled, remembered long enough to drop the same message arriving on another transport. */
const SEEN_MESSAGES = { max: 10_000, ttl: 60_000 };

/**
 * The bus over every transport the configuration gives: Redis pub/sub (REDIS_URL) and PostgreSQL LISTEN/NOTIFY
 * (DATABASE_URL), both when both are set; in-process only with neither (the embedded database is single-instance, and
 * the CLI reaches the running service over its control socket). Each change is sent on every transport and each
 * instance listens on all of them, so a process configured with fewer transports than the running instances (the CLI
 * with DATABASE_URL and no REDIS_URL) still reaches every one of them; a message that arrives twice is handled once.
 * Whenever a transport (re)connects, every subscriber is told that anything may have changed, since messages sent
 * while it was away are lost.
 */
@Injectable()
export class InvalidationService extends InvalidationBus implements OnModuleInit, OnApplicationShutdown {
  private readonly instanceId = randomUUID();
  private sent = 0;
  private readonly seen = new LRUCache<string, true>(SEEN_MESSAGES);
  private readonly handlers = new Map<string, Set<InvalidationHandler>>();
  private readonly transports: Transport[] = [];

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly logger: AppLogger,
    redis: RedisConnection,
  ) {
    super();
    const receive = (raw: string) => this.receive(raw);
    const reset = () => this.deliverAll(null);
    if (redis.client) this.transports.push(new RedisTransport(redis, logger, receive, reset));
    if (config.databaseUrl) {
      const connection = postgresConnection({ databaseUrl: config.databaseUrl, databaseTls: config.databaseTls });
      this.transports.push(new PostgresTransport(connection, logger, receive, reset));
    }
  }

  async onModuleInit(): Promise<void> {
    await Promise.all(this.transports.map((transport) => transport.start()));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.transports.map((transport) => transport.stop()));
  }

  subscribe(topic: string, handler: InvalidationHandler): void {
    const set = this.handlers.get(topic) ?? new Set<InvalidationHandler>();
    set.add(handler);
    this.handlers.set(topic, set);
  }

  async publish(topic: string, id: string): Promise<void> {
    await this.deliver(topic, id);
    const message: Message = { o: this.instanceId, n: ++this.sent, t: topic, i: id };
    await Promise.all(
      this.transports.map((transport) =>
        transport.send(message).catch((error: Error) => {
          // The change is committed; other instances catch up when that transport reconnects (they then drop everything).
          this.logger.write('warn', `Invalidation of ${topic} not sent over ${transport.name}: ${error.message}`, {
            context: 'Invalidation',
          });
        }),
      ),
    );
  }

  private receive(raw: string): void {
    let message: Message;
    try {
      message = JSON.parse(raw) as Message;
    } catch {
      // Not one of ours (anyone may publish on the channel): there is nothing to invalidate.
      return;
    }
    if (message.o === this.instanceId || typeof message.t !== 'string' || typeof message.i !== 'string') return;
    if (typeof message.n === 'number') {
      const messageId = `${message.o}:${message.n}`;
      if (this.seen.has(messageId)) return;
      this.seen.set(messageId, true);
    }
    void this.deliver(message.t, message.i);
  }

  private async deliver(topic: string, id: string | null): Promise<void> {
    for (const handler of this.handlers.get(topic) ?? []) {
      try {
        await handler(id);
      } catch (error) {
        this.logger.write('error', `Invalidation handler for ${topic} failed: ${(error as Error).message}`, {
          context: 'Invalidation',
        });
      }
    }
  }

  private deliverAll(id: null): void {
    for (const topic of this.handlers.keys()) void this.deliver(topic, id);
  }
}

/**
 * Publishes on the instance's shared command client and listens on its dedicated subscriber connection; both belong
 * to RedisConnection, which closes them at shutdown.
 */
class RedisTransport implements Transport {
  readonly name = 'Redis';
  private readonly publisher: RedisClient;
  private readonly subscriber: RedisClient;
  /** The shared client's one wait at start (see RedisConnection.ready). */
  private readonly publisherReady: () => Promise<boolean>;
  private subscribed = false;

  constructor(
    connection: RedisConnection,
    private readonly logger: AppLogger,
    private readonly receive: (raw: string) => void,
    private readonly reset: () => void,
  ) {
    this.publisher = connection.client!;
    this.subscriber = connection.subscriber()!;
    this.publisherReady = () => connection.ready();
  }

  async start(): Promise<void> {
    let connectedBefore = false;
    this.subscriber.on('ready', () => {
      if (connectedBefore) this.reset();
      connectedBefore = true;
      // Redis was down at start: subscribe now (once subscribed, node-redis re-subscribes by itself on reconnects).
      if (!this.subscribed) void this.subscribe();
    });
    await Promise.all([this.publisherReady(), whenReady(this.subscriber)]);
    await this.subscribe();
  }

  private async subscribe(): Promise<void> {
    if (this.subscribed || !this.subscriber.isReady) return;
    this.subscribed = true;
    await withinRedisDeadline(this.subscriber.subscribe(CHANNEL, this.receive)).catch((error: Error) => {
      this.subscribed = false;
      this.logger.write('warn', `Invalidation bus not subscribed yet: ${error.message}`, { context: 'Invalidation' });
    });
  }

  async send(message: Message): Promise<void> {
    await withinRedisDeadline(this.publisher.publish(CHANNEL, JSON.stringify(message)));
  }

  async stop(): Promise<void> {
    // Nothing to close here: RedisConnection closes the subscriber, then the command client, at shutdown.
  }
}

/** One dedicated connection that LISTENs (and NOTIFYs); reconnects after a loss. */
class PostgresTransport implements Transport {
  readonly name = 'PostgreSQL';
  private client?: Client;
  private stopped = false;
  private connectedBefore = false;
  private reconnectTimer?: NodeJS.Timeout;
  private readonly lostClients = new WeakSet<Client>();

  constructor(
    private readonly connection: ClientConfig,
    private readonly logger: AppLogger,
    private readonly receive: (raw: string) => void,
    private readonly reset: () => void,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  async send(message: Message): Promise<void> {
    if (!this.client) throw new Error('not connected');
    await this.client.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(message)]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    // Stopping: a connection that fails to end cleanly is gone either way.
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ ...this.connection, application_name: 'promptgate-invalidation' });
    client.on('notification', (notification) => {
      if (notification.channel === CHANNEL && notification.payload) this.receive(notification.payload);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      // Stopped while connecting: this connection is not wanted any more.
      if (this.stopped) return this.lost(client);
      this.client = client;
      if (this.connectedBefore) this.reset();
      this.connectedBefore = true;
    } catch (error) {
      this.logger.write('warn', `Invalidation bus cannot listen: ${(error as Error).message}`, {
        context: 'Invalidation',
      });
      this.lost(client);
    }
  }

  private lost(client: Client): void {
    if (this.lostClients.has(client)) return;
    this.lostClients.add(client);
    if (this.client === client) this.client = undefined;
    client.removeAllListeners();
    // The connection is already lost (and reported); its late errors and a failed end change nothing.
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
    if (this.stopped) return;
    this.reconnectTimer = setTimeout(() => void this.connect(), RECONNECT_MS);
    this.reconnectTimer.unref();
  }
}
