import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';

/** Cases the fuzz suite (test/fuzz) found answering 5xx or out of shape, kept as plain regression tests. */
describe('fuzz findings', () => {
  const { t, tenant } = useTestApp();

  it('an update of an input or output field that changes nothing answers the field unchanged', async () => {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', maxLength: 20 }],
      outputs: [{ name: 'answer', dataType: 'string', description: 'kept' }],
    });
    const fields = (await t.http.get(`/admin/v1/endpoints/${endpoint.id}`).set(auth(tenant.admin))).body.data;
    for (const [kind, field] of [
      ['input-fields', fields.inputFields[0]],
      ['output-fields', fields.outputFields[0]],
    ]) {
      const res = await t.http
        .put(`/admin/v1/endpoints/${endpoint.id}/${kind}/${field.id}`)
        .set(auth(tenant.admin))
        .send({});
      expect({ kind, status: res.status }).toEqual({ kind, status: 200 });
      expect(res.body).toEqual({ succeeded: true, messages: [], data: field });
    }
    const after = (await t.http.get(`/admin/v1/endpoints/${endpoint.id}`).set(auth(tenant.admin))).body.data;
    expect(after.inputFields).toEqual(fields.inputFields);
    expect(after.outputFields).toEqual(fields.outputFields);
  });

  it('an update of a key that changes nothing answers the key unchanged', async () => {
    const created = await t.http
      .post('/admin/v1/keys')
      .set(auth(tenant.admin))
      .send({ name: 'unchanged', type: 'endpoint', environment: 'live' });
    const before = (await t.http.get(`/admin/v1/keys/${created.body.data.id}`).set(auth(tenant.admin))).body.data;
    for (const body of ['{}', '']) {
      const res = await t.http
        .put(`/admin/v1/keys/${before.id}`)
        .set(auth(tenant.admin))
        .set('Content-Type', 'application/json')
        .send(body);
      expect({ body, status: res.status }).toEqual({ body, status: 200 });
      expect(res.body).toEqual({ succeeded: true, messages: [], data: before });
    }
  });

  it('logs an execution whose inputs hold lone surrogates, NUL and the text \\u0000', async () => {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [
        { name: 'text', dataType: 'string', isRequired: true },
        { name: 'meta', dataType: 'object' },
      ],
    });
    await createPrompt(t, tenant.admin, endpoint.id, { template: 'Echo {{ inputs.text }}' });
    // Raw JSON: a lone high and a lone low surrogate (one of them in a key), a NUL, and a backslash before u0000.
    const body = '{"text":"a\\ud800b \\\\u0000 c\\u0000d","meta":{"\\udc00":"x"}}';
    const res = await t.http
      .post(endpoint.path)
      .set(auth(tenant.endpointKey))
      .set('Content-Type', 'application/json')
      .send(body);
    expect(res.status).toBe(200);
    await t.app.get(ExecutionLogsService).flush();
    const list = await t.http.get(`/admin/v1/logs?endpointId=${endpoint.id}`).set(auth(tenant.admin));
    expect(list.body.data.items).toHaveLength(1);
    const log = (await t.http.get(`/admin/v1/logs/${list.body.data.items[0].id}`).set(auth(tenant.admin))).body.data;
    expect(log.inputs).toEqual({ text: 'a\ufffdb \\u0000 cd', meta: { '\ufffd': 'x' } });
  });
});
