'use strict';
// The reference point: a bare node:http server answering fixed JSON.
const http = require('node:http');

const body = JSON.stringify({ summary: 'A short summary.' });
const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(body));
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
