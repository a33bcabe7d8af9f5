import type { DynamicModule, INestApplication, NestApplicationOptions } from '@nestjs/common';
import { type AbstractHttpAdapter, NestFactory } from '@nestjs/core';
import type * as ExpressPlatform from '@nestjs/platform-express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyServerOptions } from 'fastify';
import { type IncomingMessage, maxHeaderSize, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AppModule, AppModuleOptions } from './app.module';
import { KeyAuthenticator } from './common/auth/key-authenticator';
import { PreBodyAuthMiddleware } from './common/auth/pre-body-auth.middleware';
import {
  AdminExceptionFilter,
  ExecutionExceptionFilter,
  GlobalExceptionFilter,
  McpExceptionFilter,
} from './common/http/exception-filters';
import { drainAfterEarlyAnswers } from './common/http/drain-after-answer';
import { assertJsonDepth } from './common/http/json-depth';
import { ProtocolErrors } from './common/http/protocol-errors';
import { openRequestContext } from './common/http/request-context';
import { RequestIdMiddleware } from './common/http/request-id.middleware';
import { securityHeadersFor } from './common/http/security-headers';
import { bodyLimitOf, hasAdminBodyLimit, keyedSurfaceOf } from './common/http/surface';
import { AppLogger } from './common/logging/app-logger';
import { Metrics } from './common/metrics/metrics';
import { RequestMetrics } from './common/metrics/request-metrics';
import { type AppConfig, ConfigError } from './config/app-config';
import { setupOpenApi } from './openapi';
import {
  DASHBOARD_DIR,
  DASHBOARD_PREFIX,
  dashboardBuilt,
  dashboardHeaders,
} from './modules/dashboard/dashboard-assets';

type RawCarrier<T> = T & { raw?: T };

/** Node's HTTP server, with the settings its typings leave out. */
type NodeServer = Server & {
  maxHeaderSize?: number;
  requireHostHeader?: boolean;
  connectionsCheckingInterval?: number;
};

/** Where the HTTP server's own refusals go; the handlers exist once the application (and its filters) does. */
interface ProtocolErrorHandlers {
  current?: ProtocolErrors;
}

/**
 * Builds and initialises the application. This is the one place that knows the HTTP adapter (HTTP_ADAPTER, Fastify by default, as
 * measured in BENCHMARKS.md); modules only use Nest's abstractions and common/http/http-context.ts.
 */
export async function createApplication(options: AppModuleOptions): Promise<INestApplication> {
  const { config } = options;
  const module = AppModule.forRoot(options);
  // A failing start rejects (main prints one line and exits 1) instead of Nest's default process.abort().
  // Each adapter parses JSON bodies itself, with the MAX_BODY_BYTES limit.
  const nestOptions = { bufferLogs: true, abortOnError: false, bodyParser: false };
  const protocolErrors: ProtocolErrorHandlers = {};
  const app =
    config.httpAdapter === 'fastify'
      ? await fastifyApplication(module, options, nestOptions, protocolErrors)
      : await expressApplication(module, options, nestOptions);
  const logger = app.get(AppLogger);
  app.useLogger(logger);
  const server = app.getHttpServer() as NodeServer;
  // Nest's request hook runs first on either adapter, before routing and body parsing, so the answers those refuse
  // (404, 413, malformed JSON) carry X-Request-Id too. Fastify hands over its request and reply; Express the raw ones.
  // Then a missing or repeated Host is refused, and the keyed surfaces authenticate, so a request without a valid key
  // is refused before its body is read, and so is a body sent to a route that takes none. Every answer carries the
  // security headers of the page or API it comes from. With metrics on, each request of a keyed surface is counted
  // when answered. The request's context (its surface, from the surface table, then its principal) is created here,
  // once, and read by the pre-body check, the metrics, the guards and the rate limits.
  const requestIds = new RequestIdMiddleware(logger, config.tracing !== undefined);
  const metrics = app.get(Metrics);
  const requestMetrics = metrics.enabled ? new RequestMetrics(metrics) : null;
  const filters = {
    admin: app.get(AdminExceptionFilter),
    execution: app.get(ExecutionExceptionFilter),
    mcp: app.get(McpExceptionFilter),
  };
  const globalFilter = new GlobalExceptionFilter(filters.admin, filters.execution, filters.mcp);
  const preBodyAuth = new PreBodyAuthMiddleware(app.get(KeyAuthenticator), config, { ...filters, open: globalFilter });
  const protocol = new ProtocolErrors(globalFilter, requestIds, logger, server.maxHeaderSize ?? maxHeaderSize);
  protocolErrors.current = protocol;
  (app.getHttpAdapter() as AbstractHttpAdapter).setOnRequestHook(
    (request: RawCarrier<IncomingMessage>, response: RawCarrier<ServerResponse>, done: () => void) => {
      const nodeRequest = request.raw ?? request;
      const nodeResponse = response.raw ?? response;
      const headers = securityHeadersFor(nodeRequest.url ?? '/');
      for (const name in headers) nodeResponse.setHeader(name, headers[name]);
      const context = openRequestContext(nodeRequest);
      requestMetrics?.use(nodeRequest, nodeResponse, context.surface);
      requestIds.use(nodeRequest, nodeResponse, () => {
        if (!protocol.refuseMalformedHost(request, response)) preBodyAuth.use(context, request, response, done);
      });
    },
  );
  answerProtocolErrors(server, protocol, config);
  applyRequestTimeouts(server, config);
  drainAfterEarlyAnswers(server);
  setupOpenApi(app);
  await serveDashboard(app, config, logger);
  await app.init();
  // Fastify finalises its routes (and their hooks) when ready; listen() would do it too, but callers may drive the
  // server directly (tests, supertest).
  if (config.httpAdapter === 'fastify') await (app as NestFastifyApplication).getHttpAdapter().getInstance().ready();
  return app;
}

/**
 * What Node's HTTP server refuses by itself is answered in the surface's shape with an X-Request-Id
 * (ProtocolErrors): its parser's errors and request timeouts (Fastify takes its listener as an option), an Expect
 * other than 100-continue, and an HTTP/1.1 request without Host (which Node would answer with an empty 400, so the
 * request hook refuses it instead, with a repeated Host).
 */
function answerProtocolErrors(server: NodeServer, protocol: ProtocolErrors, config: AppConfig): void {
  if (config.httpAdapter === 'express') server.on('clientError', protocol.onClientError);
  server.on('checkExpectation', protocol.onCheckExpectation);
  server.requireHostHeader = false;
}

/**
 * A request whose headers and body have not all arrived within REQUEST_TIMEOUT_MS is answered 408 and closed by
 * Node's HTTP server, on either adapter. Node checks its connections every `connectionsCheckingInterval` (30 s by
 * default, read when the server starts listening), so the check runs often enough for the timeout to hold.
 */
function applyRequestTimeouts(server: NodeServer, config: AppConfig): void {
  server.requestTimeout = config.requestTimeoutMs;
  server.headersTimeout = config.requestTimeoutMs;
  server.connectionsCheckingInterval = Math.max(10, Math.min(1000, Math.floor(config.requestTimeoutMs / 4)));
}

/**
 * The dashboard's built files under DASHBOARD_PREFIX, with their caching (their Content-Security-Policy comes with
 * every answer's security headers), by the adapter's own static file support. The build writes brotli and gzip copies
 * of the larger files beside them, sent to browsers that accept one (with `Vary: Accept-Encoding`). Without a build
 * (`npm start` and `npm test` make one) the service runs without it and says so.
 */
async function serveDashboard(app: INestApplication, config: AppConfig, logger: AppLogger): Promise<void> {
  if (!dashboardBuilt()) {
    logger.warn(`The dashboard is not built (${DASHBOARD_DIR}): run npm run build:dashboard`, 'Dashboard');
    return;
  }
  if (config.httpAdapter === 'fastify') {
    (app as NestFastifyApplication).useStaticAssets({
      root: DASHBOARD_DIR,
      prefix: DASHBOARD_PREFIX,
      decorateReply: false,
      redirect: false,
      wildcard: true,
      preCompressed: true,
      // @fastify/static hands over Fastify's reply here.
      setHeaders: (reply: unknown, filePath: string) =>
        (reply as { headers(values: Record<string, string>): void }).headers(dashboardHeaders(filePath)),
    });
  } else {
    // Installed with the Express adapter, both optional.
    const { default: expressStaticGzip } = await import('express-static-gzip');
    const serve = expressStaticGzip(DASHBOARD_DIR, {
      enableBrotli: true,
      orderPreference: ['br'],
      serveStatic: {
        redirect: false,
        setHeaders: (response: ServerResponse, filePath: string) => {
          for (const [name, value] of Object.entries(dashboardHeaders(filePath))) response.setHeader(name, value);
        },
      },
    });
    (app as NestExpressApplication).use(DASHBOARD_PREFIX, serve);
  }
}

/** The longest path parameter Fastify's router passes on (Express has no such limit). */
const MAX_PATH_PARAMETER_LENGTH = 1000;

// Each adapter's package is loaded only when it is the one in use (about 150 ms of start-up and 15 MB each).

async function fastifyApplication(
  module: DynamicModule,
  { config }: AppModuleOptions,
  nestOptions: NestApplicationOptions,
  protocolErrors: ProtocolErrorHandlers,
): Promise<INestApplication> {
  const { FastifyAdapter } = await import('@nestjs/platform-fastify');
  /**
   * Routes are written in Nest's Express 5 syntax (path-to-regexp: a trailing wildcard is named, `api/v1/*path`);
   * Fastify's router spells it `api/v1/*`. Handlers read the path from the request, so only the spelling changes.
   */
  class PromptgateFastifyAdapter extends FastifyAdapter {
    private static fastifyPath(path: unknown): unknown {
      return typeof path === 'string' ? path.replace(/\/\*[A-Za-z_][A-Za-z0-9_]*$/, '/*') : path;
    }

    override get(...args: unknown[]) {
      return super.get(PromptgateFastifyAdapter.fastifyPath(args[0]), ...args.slice(1));
    }

    override post(...args: unknown[]) {
      return super.post(PromptgateFastifyAdapter.fastifyPath(args[0]), ...args.slice(1));
    }

    override put(...args: unknown[]) {
      return super.put(PromptgateFastifyAdapter.fastifyPath(args[0]), ...args.slice(1));
    }

    override delete(...args: unknown[]) {
      return super.delete(PromptgateFastifyAdapter.fastifyPath(args[0]), ...args.slice(1));
    }
  }

  // Bodies above MAX_BODY_BYTES answer 413 (Fastify's own limit, FST_ERR_CTP_BODY_TOO_LARGE, which also counts
  // chunked bodies as they arrive); admin and MCP routes have the lower MAX_ADMIN_BODY_BYTES. Each route gets its
  // surface's limit (onRoute below); the instance's own, which the not-found handler reads with, is the lowest.
  // Path parameters up to MAX_PATH_PARAMETER_LENGTH reach the routes (whose pipes refuse a malformed id with a 400);
  // a longer one, and a malformed percent escape, are refused by the router itself (frameworkErrors).
  const fastifyOptions: FastifyServerOptions = {
    bodyLimit: bodyLimitOf('admin', config),
    keepAliveTimeout: 65_000,
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    frameworkErrors: (error, request, reply) => protocolErrors.current!.onFrameworkError(error, request, reply),
    clientErrorHandler: (error: Error, socket: Socket) => {
      if (protocolErrors.current) protocolErrors.current.onClientError(error, socket);
      else socket.destroy();
    },
  };
  const adapter = new PromptgateFastifyAdapter(fastifyOptions);
  const fastify = await NestFactory.create<NestFastifyApplication>(module, adapter, nestOptions);
  const instance = fastify.getHttpAdapter().getInstance();
  instance.addHook('onRoute', (route) => {
    route.bodyLimit = bodyLimitOf(keyedSurfaceOf(route.url), config);
  });
  // Fastify's own (prototype-poisoning-safe) JSON parser, but an empty body is no body, as with Express: lifecycle
  // actions such as POST /prompts/{id}/promote are sent with Content-Type: application/json and nothing else. A body
  // nested deeper than MAX_JSON_DEPTH is refused here, before anything walks it recursively.
  const parseJson = instance.getDefaultJsonParser('error', 'error');
  instance.removeContentTypeParser('application/json');
  instance.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    // The default parser answers through its callback; what it returns carries nothing.
    void parseJson(request, body as string, (error, parsed) => {
      if (error) return done(error, undefined);
      try {
        assertJsonDepth(parsed);
      } catch (tooDeep) {
        return done(tooDeep as Error, undefined);
      }
      done(null, parsed);
    });
  });
  return fastify;
}

async function expressApplication(
  module: DynamicModule,
  { config }: AppModuleOptions,
  nestOptions: NestApplicationOptions,
): Promise<INestApplication> {
  const { ExpressAdapter } = await loadExpressAdapter();
  const express = await NestFactory.create<NestExpressApplication>(module, new ExpressAdapter(), nestOptions);
  // Admin and MCP bodies are parsed with the MAX_ADMIN_BODY_BYTES limit, every other JSON body with MAX_BODY_BYTES
  // (a body the first parser read is skipped by the second).
  express.useBodyParser('json', { limit: bodyLimitOf('admin', config), type: isAdminJson });
  express.useBodyParser('json', { limit: config.maxBodyBytes });
  // A body nested deeper than MAX_JSON_DEPTH is refused right after parsing, before anything walks it recursively.
  express.use((request: { body?: unknown }, _response: unknown, next: (error?: unknown) => void) => {
    try {
      assertJsonDepth(request.body);
      next();
    } catch (tooDeep) {
      next(tooDeep);
    }
  });
  return express;
}

/**
 * @nestjs/platform-express is an optional dependency: a production install may leave it out (the container image
 * does), and then HTTP_ADAPTER=express stops the start with a message saying what to do.
 */
export async function loadExpressAdapter(
  load: () => Promise<typeof ExpressPlatform> = () => import('@nestjs/platform-express'),
): Promise<typeof ExpressPlatform> {
  try {
    return await load();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') throw error;
    const problem =
      'HTTP_ADAPTER=express needs the optional package @nestjs/platform-express, which is not installed: ' +
      'install it (npm install --include=optional) or leave HTTP_ADAPTER unset to run on Fastify';
    throw new ConfigError([problem], problem);
  }
}

function isAdminJson(request: IncomingMessage): boolean {
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  return hasAdminBodyLimit(keyedSurfaceOf(request.url ?? '/')) && mediaType === 'application/json';
}
