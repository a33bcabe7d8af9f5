import type { ArgumentsHost } from '@nestjs/common';

/** The ArgumentsHost an exception filter expects for an HTTP request handled outside Nest's pipeline. */
export function httpHost(request: unknown, response: unknown): ArgumentsHost {
  const args = [request, response];
  const http = { getRequest: () => request, getResponse: () => response, getNext: () => undefined };
  const unsupported = () => {
    throw new Error('Only the HTTP context is available before routing');
  };
  return {
    getArgs: () => args,
    getArgByIndex: (index: number) => args[index],
    getType: () => 'http',
    switchToHttp: () => http,
    switchToRpc: unsupported,
    switchToWs: unsupported,
  } as unknown as ArgumentsHost;
}
