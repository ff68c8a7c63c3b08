/** Licence types and the alias limit, shared by the licences page and the domain core. */
export const LICENSE_TYPES = ["permanent", "one_year", "n_days"] as const;
export const ALIAS_MAX = 30;
