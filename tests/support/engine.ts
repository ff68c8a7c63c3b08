/** Which engine the integration tests run on: PostgreSQL when TEST_DATABASE_URL is a postgres:// URL. */
export const PG_URL = process.env.TEST_DATABASE_URL?.startsWith("postgres") ? process.env.TEST_DATABASE_URL : undefined;
export const ENGINE = PG_URL ? "postgres" : "sqlite";
export const TEST_SEED_SIZE = 240;
