import { MigrationInterface, QueryRunner } from 'typeorm';

/** Prompts, their immutable versions, and the endpoint's default prompt as a foreign key. */
export class Prompts1764000100000 implements MigrationInterface {
  name = 'Prompts1764000100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE prompts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        endpoint_id uuid NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
        name varchar(200) NOT NULL CHECK (length(name) > 0),
        slug varchar(200) NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
        template text NOT NULL CHECK (octet_length(template) <= 102400),
        llm_model varchar(200) NOT NULL,
        temperature double precision NOT NULL DEFAULT 0.7 CHECK (temperature BETWEEN 0 AND 2),
        max_tokens integer NOT NULL DEFAULT 1024 CHECK (max_tokens >= 1),
        custom_parameters jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(custom_parameters) = 'object'),
        status varchar(10) NOT NULL DEFAULT 'Draft' CHECK (status IN ('Draft', 'Live', 'Archived')),
        current_version integer NOT NULL CHECK (current_version >= 1),
        change_notes text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        -- Target of the endpoints' composite default-prompt key: a prompt can only be the default of its own endpoint.
        CONSTRAINT uq_prompts_id_endpoint UNIQUE (id, endpoint_id)
      )`);
    // Names and slugs are unique among the endpoint's prompts that are not archived.
    await q.query(`CREATE UNIQUE INDEX uq_prompts_endpoint_name ON prompts (endpoint_id, name) WHERE status <> 'Archived'`);
    await q.query(`CREATE UNIQUE INDEX uq_prompts_endpoint_slug ON prompts (endpoint_id, slug) WHERE status <> 'Archived'`);
    await q.query(`CREATE INDEX ix_prompts_tenant_endpoint ON prompts (tenant_id, endpoint_id, created_at)`);

    await q.query(`
      CREATE TABLE prompt_versions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        prompt_id uuid NOT NULL REFERENCES prompts (id) ON DELETE CASCADE,
        version_number integer NOT NULL CHECK (version_number >= 1),
        status varchar(10) NOT NULL CHECK (status IN ('Draft', 'Live', 'Archived')),
        template text NOT NULL CHECK (octet_length(template) <= 102400),
        llm_model varchar(200) NOT NULL,
        temperature double precision NOT NULL CHECK (temperature BETWEEN 0 AND 2),
        max_tokens integer NOT NULL CHECK (max_tokens >= 1),
        custom_parameters jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(custom_parameters) = 'object'),
        change_notes text,
        archived boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_prompt_versions_number UNIQUE (prompt_id, version_number)
      )`);
    // Versions are immutable: only the retention flag may change after insert.
    await q.query(`
      CREATE FUNCTION prompt_versions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (NEW.id, NEW.tenant_id, NEW.prompt_id, NEW.version_number, NEW.status, NEW.template, NEW.llm_model,
            NEW.temperature, NEW.max_tokens, NEW.custom_parameters, NEW.change_notes, NEW.created_at)
           IS DISTINCT FROM
           (OLD.id, OLD.tenant_id, OLD.prompt_id, OLD.version_number, OLD.status, OLD.template, OLD.llm_model,
            OLD.temperature, OLD.max_tokens, OLD.custom_parameters, OLD.change_notes, OLD.created_at) THEN
          RAISE EXCEPTION 'prompt versions are immutable' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER tr_prompt_versions_immutable BEFORE UPDATE ON prompt_versions
      FOR EACH ROW EXECUTE FUNCTION prompt_versions_immutable()`);

    // At most one default per endpoint (one column), and only one of the endpoint's own prompts.
    // NO ACTION (checked at the end of the statement) lets a permanent endpoint delete cascade through its prompts,
    // while deleting a prompt that is still some endpoint's default is refused.
    await q.query(`
      ALTER TABLE endpoints ADD CONSTRAINT fk_endpoints_default_prompt
        FOREIGN KEY (default_prompt_id, id) REFERENCES prompts (id, endpoint_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE endpoints DROP CONSTRAINT fk_endpoints_default_prompt`);
    await q.query(`DROP TABLE prompt_versions`);
    await q.query(`DROP FUNCTION prompt_versions_immutable()`);
    await q.query(`DROP TABLE prompts`);
  }
}
