import type { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { KeysService } from '../../src/modules/keys/keys.service';
import type { Plan } from '../../src/modules/tenants/tenant.entity';
import { TenantsService } from '../../src/modules/tenants/tenants.service';

export interface SeededTenant {
  id: string;
  slug: string;
  /** ReadWrite admin key. */
  admin: string;
  readOnly: string;
  /** ep_live_ key with access to every endpoint. */
  endpointKey: string;
}

/** A fresh tenant with one key of each kind, through the same services the CLI uses. */
export async function seedTenant(app: INestApplication, plan: Plan = 'free'): Promise<SeededTenant> {
  const slug = `t-${randomUUID().slice(0, 12)}`;
  const tenant = await app.get(TenantsService).create(slug, { plan });
  const keys = app.get(KeysService);
  const admin = await keys.create(tenant.id, { name: 'admin', type: 'admin', permission: 'ReadWrite' });
  const readOnly = await keys.create(tenant.id, { name: 'reader', type: 'admin', permission: 'ReadOnly' });
  const endpointKey = await keys.create(tenant.id, { name: 'caller', type: 'endpoint', environment: 'live' });
  return { id: tenant.id, slug, admin: admin.key, readOnly: readOnly.key, endpointKey: endpointKey.key };
}

export const auth = (key: string) => ({ 'x-api-key': key });
