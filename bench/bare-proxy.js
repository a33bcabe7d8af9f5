'use strict';
// The floor of any gateway written on Node: a bare node:http server passing each POST on to the provider at
// UPSTREAM_PORT over kept-alive connections and its answer back, an event stream piece by piece as it comes. No key,
// no limits, no template, no log: what a request or a stream costs before a gateway does anything of its own.
const http = require('node:http');

const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
const upstream = { host: '127.0.0.1', port: Number(process.env.UPSTREAM_PORT), path: '/v1/chat/completions' };

const server = http.createServer((request, response) => {
  const body = [];
  request.on('data', (chunk) => body.push(chunk));
  request.on('end', () => {
    const call = http.request(
      { ...upstream, method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (answer) => {
        response.writeHead(answer.statusCode, { 'content-type': answer.headers['content-type'] });
        answer.pipe(response);
      },
    );
    call.on('error', () => response.destroy());
    call.end(Buffer.concat(body));
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
