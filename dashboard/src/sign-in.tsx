import { type FormEvent, useState } from 'react';
import { api, ApiError, unwrap } from './api/client';
import { session, type SessionInfo, useSession } from './session';
import { Button, Field, Problems } from './ui/controls';

/** The calling key's tenant and permission, as the session route answers them. */
export async function fetchSessionInfo(key?: string): Promise<SessionInfo> {
  const data = await unwrap(api.GET('/admin/v1/session', key ? { headers: { 'x-api-key': key } } : {}));
  return {
    tenantName: data.tenant.name,
    tenantSlug: data.tenant.slug,
    keyName: data.key.name,
    readOnly: data.key.permission === 'ReadOnly',
  };
}

export function SignIn() {
  const { notice } = useSession();
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      session.start(key.trim(), await fetchSessionInfo(key.trim()));
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status === 401
          ? new ApiError(401, ['That key is not valid, or it was revoked.'])
          : failure instanceof ApiError && failure.status === 403
            ? new ApiError(403, ['That is an endpoint key: sign in with an admin key (epa_…).'])
            : failure,
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Promptgate</h1>
        <p>
          Sign in with an admin key of your tenant. It stays in this browser tab only and is forgotten when the tab
          closes.
        </p>
        {notice && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        <Field label="Admin key" hint="Starts with epa_. Create one with npm run cli -- key create --type admin.">
          {(id) => (
            <input
              id={id}
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={key}
              onChange={(event) => setKey(event.target.value)}
              required
            />
          )}
        </Field>
        <Problems error={error} />
        <Button type="submit" kind="primary" disabled={busy || key.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </main>
  );
}
