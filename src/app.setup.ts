import type { DynamicModule, INestApplication, NestApplicationOptions } from '@nestjs/common';
import { type AbstractHttpAdapter, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppModule, AppModuleOptions } from './app.module';
import { assertJsonDepth } from './common/http/json-depth';
import { RequestIdMiddleware } from './common/http/request-id.middleware';
import { AppLogger } from './common/logging/app-logger';
import { setupOpenApi } from './openapi';

type RawCarrier<T> = T & { raw?: T };

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
  const app =
    config.httpAdapter === 'fastify'
      ? await fastifyApplication(module, options, nestOptions)
      : await expressApplication(module, options, nestOptions);
  const logger = app.get(AppLogger);
  app.useLogger(logger);
  // Nest's request hook runs first on either adapter, before routing and body parsing, so the answers those refuse
  // (404, 413, malformed JSON) carry X-Request-Id too. Fastify hands over its request and reply; Express the raw ones.
  const requestIds = new RequestIdMiddleware(logger);
  (app.getHttpAdapter() as AbstractHttpAdapter).setOnRequestHook((request: RawCarrier<IncomingMessage>, response: RawCarrier<ServerResponse>, done: () => void) =>
    requestIds.use(request.raw ?? request, response.raw ?? response, done),
  );
  setupOpenApi(app);
  await app.init();
  // Fastify finalises its routes (and their hooks) when ready; listen() would do it too, but callers may drive the
  // server directly (tests, supertest).
  if (config.httpAdapter === 'fastify') await (app as NestFastifyApplication).getHttpAdapter().getInstance().ready();
  return app;
}

// Each adapter's package is loaded only when it is the one in use (about 150 ms of start-up and 15 MB each).

async function fastifyApplication(
  module: DynamicModule,
  { config }: AppModuleOptions,
  nestOptions: NestApplicationOptions,
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

    override get(...args: any[]) {
      return super.get(PromptgateFastifyAdapter.fastifyPath(args[0]), ...args.slice(1));
    }

    override post(...args: any[]) {
      return super.post(PromptgateFastifyAdapter.fastifyPath(args[0]), ...args.slice(1));
    }

    override put(...args: any[]) {
      return super.put(PromptgateFastifyAdapter.fastifyPath(args[0]), ...args.slice(1));
    }

    override delete(...args: any[]) {
      return super.delete(PromptgateFastifyAdapter.fastifyPath(args[0]), ...args.slice(1));
    }
  }

  // decisions.md §5: bodies above MAX_BODY_BYTES answer 413 (Fastify's own limit, FST_ERR_CTP_BODY_TOO_LARGE).
  const adapter = new PromptgateFastifyAdapter({ bodyLimit: config.maxBodyBytes, keepAliveTimeout: 65_000, return503OnClosing: false });
  const fastify = await NestFactory.create<NestFastifyApplication>(module, adapter, nestOptions);
  const instance = fastify.getHttpAdapter().getInstance();
  // Fastify's own (prototype-poisoning-safe) JSON parser, but an empty body is no body, as with Express: lifecycle
  // actions such as POST /prompts/{id}/promote are sent with Content-Type: application/json and nothing else. A body
  // nested deeper than MAX_JSON_DEPTH is refused here, before anything walks it recursively.
  const parseJson = instance.getDefaultJsonParser('error', 'error');
  instance.removeContentTypeParser('application/json');
  instance.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    parseJson(request, body as string, (error, parsed) => {
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
  const { ExpressAdapter } = await import('@nestjs/platform-express');
  const express = await NestFactory.create<NestExpressApplication>(module, new ExpressAdapter(), nestOptions);
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
