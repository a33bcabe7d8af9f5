import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';

// The dashboard's endpoint list filters by category on the server, so the filtered list pages like any other.
describe('GET /admin/v1/endpoints?category=', () => {
  const { t, tenant } = useTestApp();

  beforeAll(async () => {
    const endpoints = [
      { name: 'Summarize', path: '/api/v1/summarize', category: 'text' },
      { name: 'Translate', path: '/api/v1/translate', category: 'text', visibility: 'Private' },
      { name: 'Draw', path: '/api/v1/draw', category: 'images' },
      { name: 'Loose', path: '/api/v1/loose' },
      { name: 'Text upper', path: '/api/v1/text-upper', category: 'Text' },
    ];
    for (const body of endpoints)
      await t.http.post('/admin/v1/endpoints').set(auth(tenant.admin)).send(body).expect(201);
  });

  const names = async (query: string) => {
    const res = await t.http.get(`/admin/v1/endpoints${query}`).set(auth(tenant.admin)).expect(200);
    return res.body.data.map((e: { name: string }) => e.name);
  };

  it('lists the endpoints of exactly that category', async () => {
    expect(await names('?category=text')).toEqual(['Summarize', 'Translate']);
    expect(await names('?category=Text')).toEqual(['Text upper']);
    expect(await names('?category=images')).toEqual(['Draw']);
    expect(await names('?category=none-such')).toEqual([]);
  });

  it('combines with search, visibility and paging', async () => {
    expect(await names('?category=text&visibility=Private')).toEqual(['Translate']);
    expect(await names('?category=text&search=sum')).toEqual(['Summarize']);
    const first = await t.http.get('/admin/v1/endpoints?category=text&pageSize=1').set(auth(tenant.admin)).expect(200);
    expect(first.body.data.map((e: { name: string }) => e.name)).toEqual(['Summarize']);
    expect(first.headers.link).toBe('</admin/v1/endpoints?category=text&pageSize=1&page=2>; rel="next"');
    expect(await names('?category=text&pageSize=1&page=2')).toEqual(['Translate']);
  });

  it('refuses a category longer than a category may be', async () => {
    const res = await t.http
      .get(`/admin/v1/endpoints?category=${'c'.repeat(101)}`)
      .set(auth(tenant.admin))
      .expect(400);
    expect(res.body.messages).toEqual(['category must be shorter than or equal to 100 characters']);
  });
});
