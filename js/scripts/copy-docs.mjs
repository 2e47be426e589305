// npm pack's `prepack`: the protocol docs live in the repository's docs/ (outside the package
// directory, which npm cannot reach); copy them into js/docs/ (git-ignored) so the tarball ships them.
import { readdirSync, copyFileSync, mkdirSync, existsSync, rmSync } from 'node:fs';

const from = new URL('../../docs/', import.meta.url);
const to = new URL('../docs/', import.meta.url);
rmSync(to, { recursive: true, force: true });
if (existsSync(from)) {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) if (name.endsWith('.md')) copyFileSync(new URL(name, from), new URL(name, to));
}
