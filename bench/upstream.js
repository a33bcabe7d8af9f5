'use strict';
// A minimal OpenAI-compatible provider for benchmarks: POST /v1/chat/completions answers a fixed completion after
// `delayMs`. Run as a child process so it can be pinned to its own core.
const http = require('node:http');

const delayMs = Number(process.env.UPSTREAM_DELAY_MS ?? 0);
const body = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1764000000,
  model: 'bench-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'A short summary.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 },
});

const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.send?.({ port: server.address().port });
});
