import type { ArgumentsHost } from '@nestjs/common';

type HttpArgumentsHost = ReturnType<ArgumentsHost['switchToHttp']>;

/** The ArgumentsHost an exception filter expects for an HTTP request handled outside Nest's pipeline. */
export function httpHost(request: unknown, response: unknown): ArgumentsHost {
  return new PreRoutingHost(request, response);
}

class PreRoutingHost implements ArgumentsHost, HttpArgumentsHost {
  constructor(
    private readonly request: unknown,
    private readonly response: unknown,
  ) {}

  getArgs<T extends unknown[]>(): T {
    return [this.request, this.response] as T;
  }

  getArgByIndex<T>(index: number): T {
    return this.getArgs()[index] as T;
  }

  getType<TContext extends string>(): TContext {
    return 'http' as TContext;
  }

  switchToHttp(): HttpArgumentsHost {
    return this;
  }

  getRequest<T>(): T {
    return this.request as T;
  }

  getResponse<T>(): T {
    return this.response as T;
  }

  getNext<T>(): T {
    return undefined as T;
  }

  switchToRpc(): never {
    throw new Error('Only the HTTP context is available before routing');
  }

  switchToWs(): never {
    throw new Error('Only the HTTP context is available before routing');
  }
}
