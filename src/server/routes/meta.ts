import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { toClientEntity } from '../../shared/descriptor/client-entity.js';
import { DescriptorError } from '../../shared/descriptor/descriptor-error.js';
import type { MetaEntitiesResponse } from '../../shared/descriptor/types.js';
import { ROLES } from '../../shared/roles.js';

/** The languages extra translations may be given in (the browser's languages). */
const LANGUAGES = ['en', 'id', 'ms'] as const;

type Tree = { [key: string]: string | Tree };

function mergeInto(target: Tree, source: Tree): Tree {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (typeof value === 'object' && value !== null && typeof current === 'object') mergeInto(current, value);
    else target[key] = typeof value === 'object' && value !== null ? mergeInto({}, value) : value;
  }
  return target;
}

/**
 * The extra translations of each language: every `<dir>/<language>/*.json` of the locales folders
 * (`LOCALES_DIR`), merged in order. A missing folder or a file that is not a JSON object stops
 * start-up with its name.
 */
export function readExtraLocales(dirs: readonly string[]): Record<string, Tree> {
  const byLanguage: Record<string, Tree> = Object.fromEntries(LANGUAGES.map((language) => [language, {}]));
  for (const dir of dirs) {
    if (!fs.existsSync(dir)) throw new DescriptorError(dir, '', 'the locales folder (LOCALES_DIR) does not exist');
    for (const language of LANGUAGES) {
      const folder = path.join(dir, language);
      if (!fs.existsSync(folder)) continue;
      for (const name of fs.readdirSync(folder).filter((n) => n.endsWith('.json')).sort()) {
        const file = path.join(folder, name);
        let tree: unknown;
        try {
          tree = JSON.parse(fs.readFileSync(file, 'utf8'));
        } catch (error) {
          throw new DescriptorError(file, '', `is not valid JSON: ${(error as Error).message}`);
        }
        if (typeof tree !== 'object' || tree === null || Array.isArray(tree)) throw new DescriptorError(file, '', 'is not a JSON object');
        mergeInto(byLanguage[language]!, tree as Tree);
      }
    }
  }
  return byLanguage;
}

/**
 * `GET /api/meta/entities`: the client-safe descriptor and schemas of every entity the caller's
 * role may do anything with, permissions resolved to booleans, in menu order. Any role may ask;
 * a juror sees only what the descriptors grant jurors.
 *
 * `GET /api/locales/:language`: the extra translations of `LOCALES_DIR` for one language (an empty
 * object without any), which the browser merges over its own; public, like the shipped ones.
 */
export async function metaRoutes(app: FastifyInstance) {
  const extra = readExtraLocales(app.config.localesDirs ?? []);
  const hasExtra = Object.values(extra).some((tree) => Object.keys(tree).length > 0);
  app.get('/meta/entities', { config: { roles: ROLES } }, async (request): Promise<MetaEntitiesResponse> => {
    const data = app.entities.entities
      .map((entity) => toClientEntity(entity, request.user?.role))
      .filter((entity) => Object.values(entity.permissions).some(Boolean))
      .sort((a, b) => a.menu.order - b.menu.order || a.name.localeCompare(b.name));
    return hasExtra ? { data, extraTranslations: true } : { data };
  });

  app.get<{ Params: { language: string } }>(
    '/locales/:language',
    {
      config: { public: true },
      schema: { params: { type: 'object', properties: { language: { type: 'string', enum: [...LANGUAGES] } }, required: ['language'] } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-cache');
      return extra[request.params.language] ?? {};
    },
  );
}
