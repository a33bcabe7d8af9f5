'use strict';
// A minimal OpenAI-compatible provider for benchmarks: POST /v1/chat/completions answers a fixed completion after
// `UPSTREAM_DELAY_MS`; a request with `"stream":true` gets the same answer as chat completion chunks instead: the first
// after UPSTREAM_DELAY_MS, then UPSTREAM_CHUNKS chunks UPSTREAM_CHUNK_DELAY_MS apart, the usage and `[DONE]`. Run as
// a child process so it can be pinned to its own core. GET /calls answers the completions it was asked for so far and
// the most it had in flight at once since the last GET /calls, so a benchmark can tell how many calls a step made and
// how many ran together.
const http = require('node:http');

const delayMs = Number(process.env.UPSTREAM_DELAY_MS ?? 0);
const chunkCount = Number(process.env.UPSTREAM_CHUNKS ?? 20);
const chunkDelayMs = Number(process.env.UPSTREAM_CHUNK_DELAY_MS ?? 5);
const body = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1764000000,
  model: 'bench-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'A short summary.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 },
});

const chunk = (delta, finish) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1764000000,
    model: 'bench-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;
// Each chunk is one word of the answer, as a model streams tokens.
const pieces = Array.from({ length: chunkCount }, (_, index) => chunk({ content: `word${index} ` }, null));
const tail =
  chunk({}, 'stop') +
  `data: ${JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1764000000,
    model: 'bench-model',
    choices: [],
    usage: { prompt_tokens: 12, completion_tokens: chunkCount, total_tokens: 12 + chunkCount },
  })}\n\ndata: [DONE]\n\n`;

function stream(response) {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let index = 0;
  const next = () => {
    if (response.destroyed) return;
    if (index === 0) response.write(chunk({ role: 'assistant', content: '' }, null));
    response.write(pieces[index++]);
    if (index < pieces.length) setTimeout(next, chunkDelayMs);
    else response.end(tail);
  };
  setTimeout(next, delayMs);
}

let calls = 0;
let inFlight = 0;
let peakInFlight = 0;

const server = http.createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/calls') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ calls, peakInFlight }));
    peakInFlight = inFlight;
    return;
  }
  calls++;
  peakInFlight = Math.max(peakInFlight, ++inFlight);
  response.once('close', () => inFlight--);
  let streamed = false;
  request.on('data', (data) => {
    streamed ||= data.includes('"stream":true');
  });
  request.on('end', () => {
    if (streamed) return stream(response);
    const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.send?.({ port: server.address().port });
});
