import { defineSlice, matching } from '../variable';

/** The tenant and admin key created at start. */
export const tenantsSlice = defineSlice({
  variables: {
    INITIAL_ADMIN_KEY: matching(
      /^epa_[A-Za-z0-9]{32,}$/,
      'INITIAL_ADMIN_KEY must be epa_ followed by at least 32 letters or digits',
      {
        meaning:
          '`epa_` followed by at least 32 letters or digits. At start, creates `INITIAL_TENANT` (on the `free` plan) and a ReadWrite admin key with exactly this value, if they do not exist yet.',
      },
    ),
    INITIAL_TENANT: matching(
      /^[a-z0-9][a-z0-9-]{0,62}$/,
      'INITIAL_TENANT must be a slug: lower-case letters, digits and -',
      {
        default: 'default',
        meaning:
          'Slug of the tenant `INITIAL_ADMIN_KEY` belongs to: lower-case letters, digits and `-`, at most 63 characters.',
      },
    ),
  },
  config: (values) => ({
    initialAdminKey: values.INITIAL_ADMIN_KEY,
    initialTenant: values.INITIAL_TENANT,
  }),
});
