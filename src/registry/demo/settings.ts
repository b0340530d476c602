import { flag, reader, type Env, type Setting } from '../../settings.ts';

export interface DemoSettings {
  /** Whether a start on an empty database seeds the demo registry (default: only on embedded PGlite). */
  demo: boolean;
}

export const demoSettings = {
  AP_DEMO: {
    default: '',
    meaning:
      'seed a demo registry into an empty database at start: true or false (unset: true on embedded PGlite, false on PostgreSQL)',
  },
} as const satisfies Record<string, Setting>;

/** A production database never gets demo data unless asked; the embedded one, a newcomer's, does. */
export function loadDemoSettings(env: Env, databaseUrl: string | undefined): DemoSettings {
  const value = reader(demoSettings, env)('AP_DEMO');
  return { demo: value === '' ? databaseUrl === undefined : flag('AP_DEMO', value) };
}
