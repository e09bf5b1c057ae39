// What testing/global-setup.ts hands to the test files through Vitest's provide()/inject().

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's PostgreSQL, for creating test databases. */
    pgAdminUrl: string;
    /** Names of this run's test databases start with it, so teardown can drop leftovers. */
    pgDatabasePrefix: string;
    /** A database migrated and seeded once per run, which each test database is copied from. */
    pgTemplateDatabase: string;
  }
}

export {};
