import http from 'node:http';
import type { Express } from 'express';
import type { Config } from '../config';

/**
 * The API's HTTP server with the slow-client limits: a request's headers must arrive within
 * HTTP_HEADERS_TIMEOUT_MS and the whole request (an upload included) within HTTP_REQUEST_TIMEOUT_MS, else
 * Node answers 408 and closes the connection, so a trickling client cannot hold a connection and an
 * upload slot for minutes. The limits are checked every second.
 */
export function createHttpServer(
  app: Express,
  config: Pick<Config, 'HTTP_HEADERS_TIMEOUT_MS' | 'HTTP_REQUEST_TIMEOUT_MS'>,
): http.Server {
  return http.createServer(
    {
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: 1000,
    },
    app,
  );
}
