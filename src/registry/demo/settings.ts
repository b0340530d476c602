import { flag, settings, type Env, type Parse } from '../../settings.ts';

export interface DemoSettings {
  /** Whether a start on an empty database seeds the demo registry (default: only on embedded PGlite). */
  demo: boolean;
}

/** Unset (blank) until the database is known: see `loadDemoSettings`. */
const optionalFlag: Parse<boolean | undefined> = (value, name) => (value === '' ? undefined : flag(value, name));

export const demoSettings = settings({
  demo: {
    env: 'AP_DEMO',
    default: '',
    meaning:
      'seed a demo registry into an empty database at start: true or false (unset: true on embedded PGlite, false on PostgreSQL)',
    parse: optionalFlag,
  },
});

/** A production database never gets demo data unless asked; the embedded one, a newcomer's, does. */
export function loadDemoSettings(env: Env, databaseUrl: string | undefined): DemoSettings {
  return { demo: demoSettings.load(env).demo ?? databaseUrl === undefined };
}
