import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tenants, API keys, endpoints and their input/output fields. */
export class Foundation1764000000000 implements MigrationInterface {
  name = 'Foundation1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tenants (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        slug varchar(63) NOT NULL,
        name varchar(200) NOT NULL,
        plan varchar(20) NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'pro', 'enterprise')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_tenants_slug UNIQUE (slug)
      )`);
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        name varchar(200) NOT NULL DEFAULT '',
        type varchar(10) NOT NULL CHECK (type IN ('endpoint', 'admin')),
        environment varchar(10) CHECK (environment IN ('live', 'test')),
        permission varchar(10) CHECK (permission IN ('ReadWrite', 'ReadOnly')),
        key_hash char(64) NOT NULL,
        last4 char(4) NOT NULL,
        status varchar(10) NOT NULL DEFAULT 'Active' CHECK (status IN ('Active', 'Revoked')),
        endpoint_ids uuid[],
        rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0),
        rate_limit_per_hour integer CHECK (rate_limit_per_hour > 0),
        rate_limit_per_day integer CHECK (rate_limit_per_day > 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz,
        CONSTRAINT uq_api_keys_hash UNIQUE (key_hash),
        CONSTRAINT ck_api_keys_kind CHECK (
          (type = 'admin' AND permission IS NOT NULL AND environment IS NULL AND endpoint_ids IS NULL)
          OR (type = 'endpoint' AND environment IS NOT NULL AND permission IS NULL))
      )`);
    await q.query(`CREATE INDEX ix_api_keys_tenant ON api_keys (tenant_id, created_at)`);
    await q.query(`
      CREATE TABLE endpoints (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        name varchar(200) NOT NULL,
        path varchar(300) NOT NULL,
        description text NOT NULL DEFAULT '',
        visibility varchar(10) NOT NULL DEFAULT 'Public' CHECK (visibility IN ('Public', 'Private')),
        category varchar(100),
        cache_enabled boolean NOT NULL DEFAULT false,
        cache_duration_seconds integer NOT NULL DEFAULT 300 CHECK (cache_duration_seconds BETWEEN 1 AND 2592000),
        rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0),
        rate_limit_per_hour integer CHECK (rate_limit_per_hour > 0),
        rate_limit_per_day integer CHECK (rate_limit_per_day > 0),
        timeout_seconds integer NOT NULL DEFAULT 60 CHECK (timeout_seconds BETWEEN 1 AND 600),
        default_prompt_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    // A path is unique among the tenant's endpoints that are not deleted.
    await q.query(`CREATE UNIQUE INDEX uq_endpoints_tenant_path ON endpoints (tenant_id, path) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX ix_endpoints_tenant_name ON endpoints (tenant_id, name)`);
    await q.query(`
      CREATE TABLE input_fields (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        endpoint_id uuid NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        data_type varchar(10) NOT NULL
          CHECK (data_type IN ('string', 'integer', 'number', 'boolean', 'image', 'object', 'array')),
        is_required boolean NOT NULL DEFAULT false,
        description text NOT NULL DEFAULT '',
        max_length integer CHECK (max_length > 0),
        minimum double precision,
        maximum double precision,
        default_value jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_input_fields_name UNIQUE (endpoint_id, name)
      )`);
    await q.query(`
      CREATE TABLE output_fields (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        endpoint_id uuid NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        data_type varchar(10) NOT NULL
          CHECK (data_type IN ('string', 'integer', 'number', 'boolean', 'object', 'array', 'image')),
        description text NOT NULL DEFAULT '',
        example_value text,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_output_fields_name UNIQUE (endpoint_id, name)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE output_fields`);
    await q.query(`DROP TABLE input_fields`);
    await q.query(`DROP TABLE endpoints`);
    await q.query(`DROP TABLE api_keys`);
    await q.query(`DROP TABLE tenants`);
  }
}
