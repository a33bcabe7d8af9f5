/**
 * Swagger UI for a tenant's document, at `/api/v1/docs`. The page itself holds no tenant data and needs no key: it
 * asks for one, fetches `openapi.json` with it, and hands it to Swagger UI's Authorize so that "Try it out" sends it.
 * The key stays in the page's memory (nothing is stored). Swagger UI's files are the ones the admin API's own
 * documentation serves at `/docs/`. URLs are relative, so a proxy may mount the service under any path. Its
 * Content-Security-Policy is Swagger UI's (common/http/security-headers.ts).
 */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Promptgate endpoints</title>
<link rel="stylesheet" href="../../docs/swagger-ui.css">
<link rel="stylesheet" href="docs/tenant-docs.css">
</head>
<body>
<main>
<form id="key-form" class="key-form">
<h1>Promptgate endpoints</h1>
<p>Enter an API key of the tenant to see the endpoints it may call.</p>
<label for="api-key">API key</label>
<input id="api-key" name="api-key" type="password" autocomplete="off" spellcheck="false" required>
<button type="submit">Show endpoints</button>
<p id="key-status" role="status"></p>
</form>
<div id="swagger-ui"></div>
</main>
<script src="../../docs/swagger-ui-bundle.js"></script>
<script src="docs/tenant-docs.js"></script>
</body>
</html>
`;

export const DOCS_SCRIPT = `'use strict';
(function () {
  var form = document.getElementById('key-form');
  var input = document.getElementById('api-key');
  var status = document.getElementById('key-status');
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var key = input.value.trim();
    status.textContent = 'Loading…';
    fetch('openapi.json', { headers: { 'x-api-key': key }, cache: 'no-cache' })
      .then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) throw new Error(body && body.message ? body.message : 'HTTP ' + response.status);
          return body;
        });
      })
      .then(function (spec) {
        var count = Object.keys(spec.paths || {}).length;
        // "Try it out" calls this page's own host first: a key is accepted on any host of its tenant.
        spec.servers = [{ url: window.location.origin, description: 'This host' }].concat(spec.servers || []);
        var ui = SwaggerUIBundle({
          spec: spec,
          dom_id: '#swagger-ui',
          validatorUrl: null,
          onComplete: function () {
            ui.preauthorizeApiKey('apiKey', key);
          },
        });
        status.textContent = count === 1 ? '1 endpoint' : count + ' endpoints';
      })
      .catch(function (error) {
        status.textContent = error.message;
      });
  });
})();
`;

export const DOCS_STYLE = `.key-form { max-width: 1400px; margin: 24px auto 0; padding: 0 20px; font-family: sans-serif; }
.key-form h1 { font-size: 1.5rem; }
.key-form input { width: 28rem; max-width: 100%; padding: 6px; font-family: monospace; }
.key-form button { padding: 6px 12px; margin-left: 6px; }
`;
