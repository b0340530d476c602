import { chmod, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Makes `dir` (created if missing) readable by its owner alone: the directory and every directory
 * under it 0700, every file 0600. The embedded database's files hold the registry's keys and, when
 * `AP_SIGNING_KEY_SECRET` is unset, the agents' unsealed private signing keys; PGlite writes the
 * files of a new cluster 0666 whatever the umask. Run before the database opens (the directory)
 * and after (what it wrote), on every start, so a directory made by an older version is fixed too.
 */
export async function makePrivate(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const mode = entry.isDirectory() ? 0o700 : 0o600;
    if (entry.isDirectory() || entry.isFile()) await chmod(path.join(entry.parentPath, entry.name), mode);
  }
}
