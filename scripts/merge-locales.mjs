// Merges translation keys into locales/{en,id,ms}/common.json without clobbering anyone else's.
//   node scripts/merge-locales.mjs fragment.json
// fragment.json: { "en": { "pages": { ... } }, "id": { ... }, "ms": { ... } }
// Objects merge deeply; a string in the fragment replaces the same key. Files are rewritten
// sorted by key, two-space indented, through a temporary file and a rename.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const fragmentPath = process.argv[2];
if (!fragmentPath) {
  console.error('usage: node scripts/merge-locales.mjs fragment.json');
  process.exit(2);
}
const fragment = JSON.parse(fs.readFileSync(fragmentPath, 'utf8'));

function merge(target, source) {
  for (const [key, value] of Object.entries(source)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      target[key] = merge(target[key] && typeof target[key] === 'object' ? target[key] : {}, value);
    } else {
      target[key] = value;
    }
  }
  return target;
}

function sorted(value) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key])]),
  );
}

for (const lang of ['en', 'id', 'ms']) {
  if (!fragment[lang]) continue;
  const file = path.join(root, 'locales', lang, 'common.json');
  const current = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  const next = sorted(merge(current, fragment[lang]));
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`);
  fs.renameSync(tmp, file);
}
console.log(`Merged ${fragmentPath} into ${['en', 'id', 'ms'].filter((l) => fragment[l]).join(', ')}.`);
