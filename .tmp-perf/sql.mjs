// ../../tmp/perf/sql.ts
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";

// src/server/config.ts
import path from "node:path";
var ConfigError = class extends Error {
  name = "ConfigError";
};
var LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
function integer(env, key, fallback, min, max) {
  const raw = env[key];
  if (raw === void 0 || raw.trim() === "") return fallback;
  if (!/^\d+$/.test(raw.trim())) {
    throw new ConfigError(`${key} must be a whole number from ${min} to ${max}; got "${raw}".`);
  }
  const value = Number(raw);
  if (value < min || value > max) {
    throw new ConfigError(`${key} must be a whole number from ${min} to ${max}; got ${value}.`);
  }
  return value;
}
function boolean(env, key, fallback) {
  const raw = env[key]?.trim().toLowerCase();
  if (raw === void 0 || raw === "") return fallback;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new ConfigError(`${key} must be true or false; got "${env[key]}".`);
}
function optional(env, key) {
  const raw = env[key]?.trim();
  return raw ? raw : void 0;
}
function dirList(env, key, fallback, cwd) {
  const dirs = (optional(env, key) ?? fallback).split(path.delimiter).map((dir) => dir.trim()).filter(Boolean);
  return dirs.map((dir) => path.resolve(cwd, dir));
}
function loadConfig(env = process.env, cwd = process.cwd()) {
  const port = integer(env, "PORT", 3e3, 0, 65535);
  const host = optional(env, "HOST") ?? "127.0.0.1";
  const databaseUrl = optional(env, "DATABASE_URL");
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError("DATABASE_URL must start with postgres:// or postgresql://.");
  }
  const jwtSecret = optional(env, "JWT_SECRET");
  if (jwtSecret !== void 0 && jwtSecret.length < 32) {
    throw new ConfigError("JWT_SECRET must be at least 32 characters; leave it unset to have one generated.");
  }
  const logLevel = optional(env, "LOG_LEVEL") ?? "info";
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}; got "${env.LOG_LEVEL}".`);
  }
  const adminEmail = (optional(env, "ADMIN_EMAIL") ?? "admin@example.com").toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail)) {
    throw new ConfigError(`ADMIN_EMAIL must be an e-mail address; got "${env.ADMIN_EMAIL}".`);
  }
  const adminPassword = optional(env, "ADMIN_PASSWORD");
  if (adminPassword !== void 0 && (adminPassword.length < 8 || adminPassword.length > 128)) {
    throw new ConfigError("ADMIN_PASSWORD must be 8 to 128 characters long.");
  }
  const smtpUrl = optional(env, "SMTP_URL");
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) {
    throw new ConfigError("SMTP_URL must start with smtp:// or smtps://.");
  }
  const trustProxy = (optional(env, "TRUST_PROXY") ?? "").split(",").map((entry) => entry.trim()).filter(Boolean);
  const publicUrl = optional(env, "PUBLIC_URL") ?? `http://localhost:${port || 3e3}`;
  if (!/^https?:\/\//.test(publicUrl)) {
    throw new ConfigError("PUBLIC_URL must start with http:// or https://.");
  }
  return {
    port,
    host,
    // ':memory:' is a marker (an in-memory PGlite), not a folder name: keep it as it is.
    dataDir: optional(env, "DATA_DIR") === ":memory:" ? ":memory:" : path.resolve(cwd, optional(env, "DATA_DIR") ?? "data"),
    databaseUrl,
    jwtSecret,
    logLevel,
    adminEmail,
    adminPassword,
    trustProxy,
    smtpUrl,
    mailFrom: optional(env, "MAIL_FROM") ?? "Awards Console <no-reply@localhost>",
    publicUrl: publicUrl.replace(/\/+$/, ""),
    bodyLimit: integer(env, "BODY_LIMIT", 1024 * 1024, 1024, 50 * 1024 * 1024),
    dbConnectTimeoutMs: integer(env, "DB_CONNECT_TIMEOUT_MS", 2e3, 100, 6e4),
    backupIntervalHours: integer(env, "BACKUP_INTERVAL_HOURS", 24, 0, 24 * 365),
    demoData: boolean(env, "DEMO_DATA", true),
    publicDir: path.resolve(cwd, optional(env, "PUBLIC_DIR") ?? "dist/public"),
    entitiesDirs: dirList(env, "ENTITIES_DIR", "entities", cwd),
    schemasDirs: dirList(env, "SCHEMAS_DIR", "schemas", cwd)
  };
}

// src/server/operations/context.ts
import { sql } from "kysely";
function createRegistry(entities) {
  return {
    entities,
    byName: new Map(entities.map((entity) => [entity.descriptor.name, entity])),
    byEndpoint: new Map(entities.map((entity) => [entity.descriptor.endpoint, entity]))
  };
}
function storedFields(entity) {
  return Object.keys(entity.schema.properties ?? {}).filter(
    (field) => !entity.descriptor.virtual.includes(field) && !Object.hasOwn(entity.descriptor.computed, field)
  );
}
function selectionOf(entity, registry2, only) {
  const table = entity.descriptor.table;
  const wanted = (field) => !only || only.includes(field);
  const columns = readableFields(entity).filter(wanted);
  for (const [field, computed] of Object.entries(entity.descriptor.computed)) {
    if (!wanted(field)) continue;
    const counted = registry2.byName.get(computed.entity);
    const foreignKey = counted.descriptor.relations[computed.relation].field;
    const countedTable = counted.descriptor.table;
    columns.push(
      sql`(select count(*) from ${sql.table(countedTable)} where ${sql.ref(`${countedTable}.${foreignKey}`)} = ${sql.ref(`${table}.id`)})`.as(field)
    );
  }
  return columns;
}
function readableFields(entity) {
  return storedFields(entity).filter((field) => !entity.schema.properties?.[field]?.writeOnly);
}

// src/server/operations/count/group-counts.ts
import { sql as sql3 } from "kysely";

// src/server/operations/count.ts
import { sql as sql2 } from "kysely";
var ROW_COUNTS_TABLE = "entity_row_counts";
var exactCount = {
  async count({ query: query2, db: db2 }) {
    const row = await db2.selectFrom(query2.clearSelect().select(sql2`1`.as("one")).as("filtered")).select((eb) => eb.fn.countAll().as("total")).executeTakeFirstOrThrow();
    return Number(row.total);
  }
};
var counterThenExact = {
  async count(request) {
    if (request.filtered) return exactCount.count(request);
    const row = await request.db.selectFrom(ROW_COUNTS_TABLE).select("row_count").where("table_name", "=", request.entity.descriptor.table).executeTakeFirst();
    return row ? Number(row.row_count) : exactCount.count(request);
  }
};

// src/server/operations/count/group-counts.ts
var GROUP_COUNTS_TABLE = "entity_group_counts";
var OPERATORS = { eq: "=", ilike: "ilike", gte: ">=", lte: "<=" };
var groupedCounts = {
  async count(request) {
    const { entity, db: db2 } = request;
    const d = entity.descriptor;
    if (!request.filtered) return counterThenExact.count(request);
    const filters = request.filters ?? [];
    if (request.search !== void 0 || filters.length !== 1 || !d.counts.groupBy.includes(filters[0].column)) {
      return exactCount.count(request);
    }
    const applied = filters[0];
    const counters = db2.selectFrom(GROUP_COUNTS_TABLE).select(sql3`coalesce(sum(row_count), 0)`.as("total")).where("table_name", "=", d.table).where("column_name", "=", applied.column);
    if (!applied.relation) {
      if (applied.filter.operator !== "eq") return exactCount.count(request);
      const row2 = await counters.where("value", "=", String(applied.value)).executeTakeFirst();
      return Number(row2?.total ?? 0);
    }
    const { target, field } = applied.relation;
    const operator = OPERATORS[applied.filter.operator];
    const value = applied.filter.operator === "ilike" ? containsPattern(String(applied.value)) : applied.value;
    const matching = db2.selectFrom(target.descriptor.table).select(sql3`id::text`.as("id")).where(field, operator, value);
    const row = await counters.where(sql3`value = any(array(${matching}))`).executeTakeFirst();
    return Number(row?.total ?? 0);
  }
};

// src/server/operations/count/page-rows.ts
var flip = (direction) => direction === "asc" ? "desc" : "asc";
function planPage(entity, filtered, selection, parsed, total, ctx) {
  const offset = (parsed.page - 1) * parsed.perPage;
  const reversed = offset > 0 && offset + parsed.perPage / 2 > total / 2;
  const direction = reversed ? flip(parsed.direction) : parsed.direction;
  const limit = reversed ? Math.max(0, Math.min(parsed.perPage, total - offset)) : parsed.perPage;
  const skip = reversed ? Math.max(0, total - offset - limit) : offset;
  const ordered = (query3) => query3.orderBy(parsed.sort, direction).$if(parsed.sort !== "id", (q) => q.orderBy("id", direction));
  const pageIds = ordered(filtered.select("id")).limit(limit).offset(skip);
  const query2 = ordered(ctx.db.selectFrom(entity.descriptor.table).select(selection).where("id", "in", pageIds));
  return { query: query2, reversed };
}

// src/server/operations/includes.ts
async function attachIncludes(entity, rows, include, ctx) {
  await Promise.all(
    include.map(async (name) => {
      const relation = entity.descriptor.relations[name];
      const target = ctx.registry.byName.get(relation.entity);
      const ids = [...new Set(rows.map((row) => row[relation.field]).filter((id) => typeof id === "number"))];
      const related = ids.length ? await ctx.db.selectFrom(target.descriptor.table).select(selectionOf(target, ctx.registry, ["id", ...relation.fields])).where("id", "in", ids).execute() : [];
      const byId = new Map(related.map((record) => [record.id, record]));
      for (const row of rows) {
        const id = row[relation.field];
        row[name] = typeof id === "number" ? byId.get(id) ?? null : null;
      }
    })
  );
}

// src/shared/descriptor/schema-fields.ts
var FIELD_NAME = /^[a-z][a-z0-9_]*$/;
function baseType(property) {
  const types = Array.isArray(property.type) ? property.type : property.type ? [property.type] : [];
  const nonNull = types.filter((type) => type !== "null");
  if (nonNull.length > 1) return void 0;
  return nonNull[0] ?? (Array.isArray(property.enum) ? "string" : void 0);
}
function isNullable(property) {
  return Array.isArray(property.type) ? property.type.includes("null") : property.type === "null";
}
function fieldKind(property) {
  const type = baseType(property);
  switch (type) {
    case "string":
      if (Array.isArray(property.enum)) return "enum";
      if (property.format === "date") return "date";
      if (property.format === "date-time") return "date-time";
      return "string";
    case "integer":
      return property.format === "int64" || typeof property.maximum === "number" && property.maximum > 2147483647 ? "bigint" : "integer";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "array":
    case "object":
      return "json";
    default:
      return { unsupported: type ? `type "${type}" is not supported` : 'it needs one "type" (optionally with "null")' };
  }
}
function isTextual(property) {
  const kind = fieldKind(property);
  return kind === "string" || kind === "enum";
}
function isSortable(property) {
  const kind = fieldKind(property);
  return typeof kind === "string" && kind !== "json";
}

// src/server/errors.ts
var AppError = class extends Error {
  constructor(statusCode, code, message, errors, headers) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    this.errors = errors;
    this.headers = headers;
  }
  statusCode;
  code;
  errors;
  headers;
  name = "AppError";
};
var badRequest = (message, errors) => new AppError(400, "BAD_REQUEST", message, errors);
var conflict = (message, errors) => new AppError(409, "CONFLICT", message, errors);

// src/server/operations/list-query.ts
var MAX_PER_PAGE = 100;
var MAX_TEXT = 200;
function single(name, raw) {
  if (Array.isArray(raw)) throw badRequest(`The query parameter ${name} is given more than once.`);
  return String(raw ?? "").trim();
}
function positiveInteger(name, text, max = Number.MAX_SAFE_INTEGER) {
  if (!/^[1-9]\d*$/.test(text) || Number(text) > max) {
    throw badRequest(`The query parameter ${name} must be a whole number from 1${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ""}.`);
  }
  return Number(text);
}
function filterValue(filter, property, text) {
  if (filter.values) {
    if (!Object.hasOwn(filter.values, text)) {
      throw badRequest(`The query parameter ${filter.param} must be one of ${Object.keys(filter.values).join(", ")}.`);
    }
    return filter.values[text];
  }
  const bad = (what) => badRequest(`The query parameter ${filter.param} must be ${what}.`);
  switch (fieldKind(property)) {
    case "integer":
    case "bigint":
      if (!/^-?\d{1,15}$/.test(text)) throw bad("a whole number");
      if (typeof property.minimum === "number" && Number(text) < property.minimum) throw bad(`a whole number from ${property.minimum}`);
      return Number(text);
    case "number":
      if (!/^-?\d+(\.\d+)?$/.test(text)) throw bad("a number");
      return Number(text);
    case "boolean":
      if (["true", "1"].includes(text)) return true;
      if (["false", "0"].includes(text)) return false;
      throw bad("true or false");
    case "enum":
      if (filter.operator === "eq" && !property.enum.includes(text)) throw bad(`one of ${property.enum.join(", ")}`);
      return text;
    case "date":
      if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(text))) throw bad("a date (YYYY-MM-DD)");
      return text;
    case "date-time":
      if (Number.isNaN(Date.parse(text))) throw bad("a date and time");
      return text;
    default:
      if (text.length > MAX_TEXT) throw bad(`at most ${MAX_TEXT} characters`);
      return text;
  }
}
function parseListQuery(entity, registry2, query2) {
  const d = entity.descriptor;
  const props = entity.schema.properties ?? {};
  const filtersByParam = new Map(d.list.filters.map((filter) => [filter.param, filter]));
  const result = {
    page: 1,
    perPage: d.list.pageSize,
    sort: d.list.defaultSort.field,
    direction: d.list.defaultSort.direction,
    filters: [],
    include: []
  };
  let sortGiven = false;
  let directionGiven = false;
  for (const [name, raw] of Object.entries(query2)) {
    const text = single(name, raw);
    switch (name) {
      case "page":
        result.page = positiveInteger(name, text);
        continue;
      case "per_page":
        result.perPage = positiveInteger(name, text, MAX_PER_PAGE);
        continue;
      case "sort":
        if (!d.list.sorts.includes(text) && text !== d.list.defaultSort.field) {
          throw badRequest(`Unknown sort "${text}". Allowed: ${[.../* @__PURE__ */ new Set([...d.list.sorts, d.list.defaultSort.field])].join(", ")}.`);
        }
        result.sort = text;
        sortGiven = true;
        continue;
      case "direction": {
        const direction = text.toLowerCase();
        if (direction !== "asc" && direction !== "desc") throw badRequest("The query parameter direction must be asc or desc.");
        result.direction = direction;
        directionGiven = true;
        continue;
      }
      case "search":
        if (d.list.search.length === 0) throw badRequest(`Unknown query parameter: search. ${d.endpoint} cannot be searched.`);
        if (text.length > MAX_TEXT) throw badRequest(`The query parameter search must be at most ${MAX_TEXT} characters.`);
        if (text) result.search = text;
        continue;
      case "include":
        for (const part of text.split(",").map((p) => p.trim()).filter(Boolean)) {
          if (!d.includes.includes(part)) {
            throw badRequest(`Unknown include "${part}".${d.includes.length ? ` Allowed: ${d.includes.join(", ")}.` : ""}`);
          }
          if (!result.include.includes(part)) result.include.push(part);
        }
        continue;
    }
    const filter = filtersByParam.get(name);
    if (!filter) throw badRequest(`Unknown query parameter: ${name}.`);
    if (text === "") continue;
    const [first, second] = filter.field.split(".");
    if (second === void 0) {
      result.filters.push({ filter, column: first, value: filterValue(filter, props[first], text) });
    } else {
      const target = registry2.byName.get(d.relations[first].entity);
      const value = filterValue(filter, target.schema.properties[second], text);
      result.filters.push({ filter, relation: { name: first, target, field: second }, column: d.relations[first].field, value });
    }
  }
  if (sortGiven && !directionGiven) result.direction = "asc";
  return result;
}

// src/server/operations/list.ts
var OPERATORS2 = { eq: "=", ilike: "ilike", gte: ">=", lte: "<=" };
var containsPattern = (text) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;
function applyFilter(query2, applied, ctx) {
  const operator = OPERATORS2[applied.filter.operator];
  const value = applied.filter.operator === "ilike" ? containsPattern(String(applied.value)) : applied.value;
  if (!applied.relation) return query2.where(applied.column, operator, value);
  const subquery = ctx.db.selectFrom(applied.relation.target.descriptor.table).select("id").where(applied.relation.field, operator, value);
  return query2.where(applied.column, "in", subquery);
}
function linksFor(path3, query2, page, lastPage) {
  const at = (target) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query2)) if (key !== "page") params.append(key, String(value));
    params.set("page", String(target));
    return `${path3}?${params.toString()}`;
  };
  return {
    first: at(1),
    last: at(lastPage),
    prev: page > 1 ? at(Math.min(page - 1, lastPage)) : null,
    next: page < lastPage ? at(page + 1) : null
  };
}
async function list(entity, input, ctx) {
  const parsed = parseListQuery(entity, ctx.registry, input.query);
  const d = entity.descriptor;
  let filtered = ctx.db.selectFrom(d.table);
  for (const applied of parsed.filters) filtered = applyFilter(filtered, applied, ctx);
  if (parsed.search) {
    const pattern = containsPattern(parsed.search);
    filtered = filtered.where((eb) => eb.or(d.list.search.map((field) => eb(field, "ilike", pattern))));
  }
  const isFiltered = parsed.filters.length > 0 || parsed.search !== void 0;
  const strategy = input.countStrategy ?? groupedCounts;
  const counting = strategy.count({ entity, filtered: isFiltered, query: filtered.select("id"), db: ctx.db, filters: parsed.filters, search: parsed.search });
  const selection = selectionOf(entity, ctx.registry);
  const firstPage = parsed.page === 1 ? planPage(entity, filtered, selection, parsed, 0, ctx).query.execute() : void 0;
  const [total, early] = await Promise.all([counting, firstPage]);
  let data = [];
  if (early) {
    data = early;
  } else if (total > 0 && (parsed.page - 1) * parsed.perPage < total) {
    const page = planPage(entity, filtered, selection, parsed, total, ctx);
    data = await page.query.execute();
    if (page.reversed) data.reverse();
  }
  if (parsed.include.length > 0) await attachIncludes(entity, data, parsed.include, ctx);
  const lastPage = Math.max(1, Math.ceil(total / parsed.perPage));
  return {
    data,
    meta: { current_page: parsed.page, last_page: lastPage, total, per_page: parsed.perPage },
    links: linksFor(input.path ?? `/api/${d.endpoint}`, input.query, parsed.page, lastPage)
  };
}

// src/server/plugins/entities.ts
import fs from "node:fs";
import path2 from "node:path";
import fp from "fastify-plugin";

// src/server/auth/password.ts
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";
var CURRENT_PARAMS = { N: 2 ** 17, r: 8, p: 1 };
var SALT_BYTES = 16;
var KEY_BYTES = 64;
function scrypt(password, salt, params) {
  const options = {
    N: params.N,
    r: params.r,
    p: params.p,
    // scrypt needs 128 * N * r bytes; Node's default cap (32 MiB) is below that.
    maxmem: 128 * params.N * params.r * params.p + 32 * 1024 * 1024
  };
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize("NFC"), salt, KEY_BYTES, options, (error, key) => error ? reject(error) : resolve(key));
  });
}
async function hashPassword(password, params = CURRENT_PARAMS) {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, params);
  return ["scrypt", params.N, params.r, params.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}
var DUMMY_HASH = ["scrypt", CURRENT_PARAMS.N, CURRENT_PARAMS.r, CURRENT_PARAMS.p, randomBytes(SALT_BYTES).toString("base64url"), randomBytes(KEY_BYTES).toString("base64url")].join("$");

// src/extensions/hooks/hash-password.ts
var hashPassword2 = async ({ entity, data }) => {
  if (!entity.schema.properties?.password_hash) {
    throw new Error(`The hash-password hook needs a "password_hash" field in the schema of ${entity.descriptor.name}.`);
  }
  const password = data.password;
  delete data.password;
  if (typeof password === "string" && password.length > 0) data.password_hash = await hashPassword(password);
};

// src/extensions/hooks/lowercase-email.ts
import { sql as sql4 } from "kysely";

// src/shared/field-errors.ts
function messageKeyFor(messages, path3, keyword) {
  const field = path3.split(".")[0] ?? "";
  return messages?.[path3]?.[keyword] ?? messages?.[field]?.[keyword] ?? `validation.${keyword}`;
}

// src/extensions/hooks/lowercase-email.ts
var likeLiteral = (value) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
var lowercaseEmail = async ({ entity, data, previous, id, db: db2 }) => {
  const d = entity.descriptor;
  for (const [field, property] of Object.entries(entity.schema.properties ?? {})) {
    if (property.format !== "email" || typeof data[field] !== "string") continue;
    const email = data[field].trim().toLowerCase();
    data[field] = email;
    if (!d.unique.includes(field) || email === "" || previous?.[field] === email) continue;
    const clash = await sql4`
      select id from ${sql4.table(d.table)}
      where ${sql4.ref(field)} ilike ${likeLiteral(email)} and id <> ${id ?? 0}
      limit 1`.execute(db2);
    if (clash.rows.length > 0) {
      throw conflict(`Another ${d.label} already has this ${field}.`, [
        { path: field, keyword: "unique", messageKey: messageKeyFor(d.messages, field, "unique"), params: {} }
      ]);
    }
  }
};

// src/extensions/hooks/slug-from-name.ts
import { sql as sql5 } from "kysely";

// src/extensions/hooks/slugify.ts
function slugify(text, maxLength = 120) {
  return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/&/g, " and ").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, maxLength).replace(/-+$/g, "");
}

// src/extensions/hooks/slug-from-name.ts
var slugFromName = async ({ entity, data, previous, id, db: db2 }) => {
  if (typeof data.name !== "string") return;
  if (previous && previous.name === data.name && typeof previous.slug === "string") return;
  const maxLength = entity.schema.properties?.slug?.maxLength ?? 120;
  const base = slugify(data.name, Math.max(1, maxLength - 8)) || entity.descriptor.name;
  const table = entity.descriptor.table;
  const taken = await sql5`
    select slug from ${sql5.table(table)}
    where (slug = ${base} or slug like ${`${base}-%`}) and id <> ${id ?? 0}`.execute(db2);
  const used = new Set(taken.rows.map((row) => row.slug));
  let slug = base;
  for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
  data.slug = slug;
};

// src/extensions/hooks/index.ts
var beforeWriteHooks = Object.freeze({
  "slug-from-name": slugFromName,
  "hash-password": hashPassword2,
  "lowercase-email": lowercaseEmail
});

// src/shared/descriptor/descriptor-error.ts
var DescriptorError = class extends Error {
  constructor(file, jsonPath, reason) {
    super(`${file}${jsonPath ? ` at ${jsonPath}` : ""}: ${reason}`);
    this.file = file;
    this.jsonPath = jsonPath;
    this.reason = reason;
  }
  file;
  jsonPath;
  reason;
  name = "DescriptorError";
};

// schemas/descriptor.schema.json
var descriptor_schema_default = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "descriptor",
  title: "Entity descriptor",
  description: "How the console shows, guards and stores one entity. The record's shape is its JSON Schema (schemas/<schema>.schema.json); this file says which fields appear where, who may do what and which server hooks run. Field names are the schema's property names. Keys with a default may be left out. The server checks this file at start-up and refuses to start, naming the file, the JSON path and the reason, when something is wrong.",
  type: "object",
  additionalProperties: false,
  required: [
    "name",
    "endpoint",
    "routes",
    "titleField",
    "permissions",
    "list",
    "forms"
  ],
  definitions: {
    field: {
      type: "string",
      pattern: "^[a-z][a-z0-9_]*$",
      description: "A property name of the entity's schema (snake_case)."
    },
    i18nKey: {
      type: "string",
      pattern: "^[a-z][a-zA-Z0-9_]*(\\.[a-zA-Z0-9_]+)+$",
      description: "A translation key in the common namespace, present in locales/en, id and ms (for example entities.category.fields.name)."
    },
    roles: {
      type: "array",
      description: "Roles allowed to perform the action. An empty list means nobody: the route answers 405 and the client hides the action.",
      items: {
        type: "string",
        minLength: 1
      },
      uniqueItems: true
    },
    badge: {
      type: "object",
      description: "How one value shows as a badge.",
      additionalProperties: false,
      required: [
        "label",
        "color"
      ],
      properties: {
        label: {
          $ref: "#/definitions/i18nKey",
          description: "Translation key of the badge text."
        },
        color: {
          type: "string",
          description: "Badge colour (a Radix Themes accent).",
          enum: [
            "gray",
            "green",
            "red",
            "yellow",
            "amber",
            "blue",
            "orange",
            "purple",
            "cyan"
          ]
        }
      }
    },
    display: {
      type: "object",
      description: "How one field is displayed in a list cell or on the detail page.",
      additionalProperties: false,
      required: [
        "field"
      ],
      properties: {
        field: {
          $ref: "#/definitions/field",
          description: "The field shown (for a relation cell, the foreign key field)."
        },
        label: {
          $ref: "#/definitions/i18nKey",
          description: "Translation key of the label or column header. Default entities.<name>.fields.<field>."
        },
        cell: {
          type: "string",
          description: "How the value renders. text: as is. truncate: cut at 'truncate' characters, full text on hover. badge: through 'badges'. status-badge: Active/Inactive from 'active'/'inactive' or true/false. date: long date. relative-date: long date and time ago. image: round thumbnail of an http(s) URL. link: an http(s) link opening a new tab. email: a mailto link. phone: a tel link. number: a formatted number. relation: a field ('display') of the included related record ('relation'). presence: whether the value is set, as the badge 'badges.set' (followed by the value as a long date) or 'badges.unset' (Verified 5 Jan 2025 / Not Verified). money: an amount with its currency (an object {amount, currency} or a number) in the reader's language with the currency code and the currency's decimals (MYR 25,000.50, JPY 25,000); 'Not provided' without an amount. Default text.",
          enum: [
            "text",
            "truncate",
            "badge",
            "status-badge",
            "date",
            "relative-date",
            "image",
            "link",
            "email",
            "phone",
            "number",
            "money",
            "relation",
            "presence"
          ]
        },
        truncate: {
          type: "integer",
          minimum: 5,
          maximum: 1e3,
          description: "For the truncate cell: how many characters show before the ellipsis."
        },
        badges: {
          type: "object",
          description: "For the badge cell: the badge of each value (key: the stored value).",
          additionalProperties: {
            $ref: "#/definitions/badge"
          }
        },
        fallbackBadge: {
          $ref: "#/definitions/badge",
          description: "For the badge cell: the badge of a value not listed in 'badges' (for example grey 'Unknown')."
        },
        relation: {
          type: "string",
          description: "For the relation cell: the name of a relation in 'relations'."
        },
        display: {
          $ref: "#/definitions/field",
          description: "For the relation cell: the related record's field shown (it must be among the relation's 'fields')."
        },
        empty: {
          $ref: "#/definitions/i18nKey",
          description: "Translation key shown when the value is empty (for example 'No strategy'); {{id}} is the raw value, useful for a relation not included ('Category #{{id}}'). Default: the detail page's 'empty' text, or nothing in a list."
        },
        linkLabel: {
          $ref: "#/definitions/i18nKey",
          description: "For the link cell: translation key of the link text (for example 'View Video'). Default: the URL."
        },
        relationCell: {
          type: "string",
          enum: [
            "text",
            "truncate",
            "badge",
            "status-badge",
            "date",
            "relative-date",
            "image",
            "link",
            "email",
            "phone",
            "number",
            "money",
            "presence"
          ],
          description: "For the relation cell: how the related value renders (badge, date, email, link...; the display's badges, linkLabel and truncate apply). Default text."
        },
        secondary: {
          type: "array",
          items: {
            $ref: "#/definitions/field"
          },
          uniqueItems: true,
          description: "For the relation cell: further fields of the related record shown under the main one, muted (a customer's email and id under the name). Each must be among the relation's 'fields' (id always is). Default: none."
        },
        notes: {
          type: "object",
          additionalProperties: {
            $ref: "#/definitions/i18nKey"
          },
          description: `Text shown after the value when it equals the key (as text: true, active, approved...), for example {"true": "entities.customer.can_access"} adds 'Can access system' to an active status. Default: none.`
        }
      }
    },
    column: {
      type: "object",
      description: "A column of the list table: a displayed field, optionally sortable.",
      additionalProperties: false,
      required: [
        "field"
      ],
      properties: {
        field: {
          $ref: "#/definitions/field",
          description: "The field shown (for a relation cell, the foreign key field)."
        },
        label: {
          $ref: "#/definitions/i18nKey",
          description: "Translation key of the label or column header. Default entities.<name>.fields.<field>."
        },
        cell: {
          type: "string",
          description: "How the value renders. text: as is. truncate: cut at 'truncate' characters, full text on hover. badge: through 'badges'. status-badge: Active/Inactive from 'active'/'inactive' or true/false. date: long date. relative-date: long date and time ago. image: round thumbnail of an http(s) URL. link: an http(s) link opening a new tab. email: a mailto link. phone: a tel link. number: a formatted number. relation: a field ('display') of the included related record ('relation'). presence: whether the value is set, as the badge 'badges.set' (followed by the value as a long date) or 'badges.unset' (Verified 5 Jan 2025 / Not Verified). money: an amount with its currency (an object {amount, currency} or a number) in the reader's language with the currency code and the currency's decimals (MYR 25,000.50, JPY 25,000); 'Not provided' without an amount. Default text.",
          enum: [
            "text",
            "truncate",
            "badge",
            "status-badge",
            "date",
            "relative-date",
            "image",
            "link",
            "email",
            "phone",
            "number",
            "money",
            "relation",
            "presence"
          ]
        },
        truncate: {
          type: "integer",
          minimum: 5,
          maximum: 1e3,
          description: "For the truncate cell: how many characters show before the ellipsis."
        },
        badges: {
          type: "object",
          description: "For the badge cell: the badge of each value (key: the stored value).",
          additionalProperties: {
            $ref: "#/definitions/badge"
          }
        },
        fallbackBadge: {
          $ref: "#/definitions/badge",
          description: "For the badge cell: the badge of a value not listed in 'badges' (for example grey 'Unknown')."
        },
        relation: {
          type: "string",
          description: "For the relation cell: the name of a relation in 'relations'."
        },
        display: {
          $ref: "#/definitions/field",
          description: "For the relation cell: the related record's field shown (it must be among the relation's 'fields')."
        },
        empty: {
          $ref: "#/definitions/i18nKey",
          description: "Translation key shown when the value is empty (for example 'No strategy'); {{id}} is the raw value, useful for a relation not included ('Category #{{id}}'). Default: the detail page's 'empty' text, or nothing in a list."
        },
        linkLabel: {
          $ref: "#/definitions/i18nKey",
          description: "For the link cell: translation key of the link text (for example 'View Video'). Default: the URL."
        },
        sortable: {
          type: "boolean",
          description: "Whether the header sorts the list by this field. The field must be in list.sorts (it is added when 'sorts' is not given). Default false."
        },
        linkToDetail: {
          type: "boolean",
          description: "Whether the cell links to the record's detail page. Default false."
        },
        relationCell: {
          type: "string",
          enum: [
            "text",
            "truncate",
            "badge",
            "status-badge",
            "date",
            "relative-date",
            "image",
            "link",
            "email",
            "phone",
            "number",
            "money",
            "presence"
          ],
          description: "For the relation cell: how the related value renders (badge, date, email, link...; the display's badges, linkLabel and truncate apply). Default text."
        },
        secondary: {
          type: "array",
          items: {
            $ref: "#/definitions/field"
          },
          uniqueItems: true,
          description: "For the relation cell: further fields of the related record shown under the main one, muted (a customer's email and id under the name). Each must be among the relation's 'fields' (id always is). Default: none."
        },
        notes: {
          type: "object",
          additionalProperties: {
            $ref: "#/definitions/i18nKey"
          },
          description: `Text shown after the value when it equals the key (as text: true, active, approved...), for example {"true": "entities.customer.can_access"} adds 'Can access system' to an active status. Default: none.`
        }
      }
    },
    form: {
      type: "object",
      description: "One form (create or edit).",
      additionalProperties: false,
      required: [
        "fields"
      ],
      properties: {
        fields: {
          type: "array",
          description: "The fields of the form, in order. They are exactly the fields the API accepts for this write: anything else in a request body is refused with 422. Read-only schema fields cannot be listed.",
          items: {
            $ref: "#/definitions/field"
          },
          uniqueItems: true
        },
        uiSchema: {
          type: "object",
          description: "RJSF uiSchema per field. 'ui:widget' names a widget of the console's theme (text, textarea, email, password, number, select, searchable-select, radio, switch, active-switch, checkbox, date, datetime, url, currency, hidden); 'ui:title', 'ui:description' and 'ui:placeholder' are translation keys. Default: none.",
          additionalProperties: {
            type: "object"
          }
        },
        defaults: {
          type: "object",
          description: "Initial values of the form's fields beyond the schema's 'default'. Default: none."
        }
      }
    },
    filter: {
      type: "object",
      description: "A filter of the list endpoint and the list screen's filter bar.",
      additionalProperties: false,
      required: [
        "param",
        "field",
        "operator",
        "input"
      ],
      properties: {
        param: {
          type: "string",
          pattern: "^([a-z][a-z0-9_]*|q\\[[a-z][a-z0-9_]*\\])$",
          description: "The query parameter: a plain name such as status, or q[name] such as q[customer_id]. Any query parameter that is not a filter, page, per_page, sort, direction, search or include is refused with 400."
        },
        field: {
          type: "string",
          pattern: "^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)?$",
          description: "The field filtered: a field of this entity, or relation.field through a belongsTo relation (customer.company)."
        },
        operator: {
          type: "string",
          enum: [
            "eq",
            "ilike",
            "gte",
            "lte"
          ],
          description: "eq: equal. ilike: case-insensitive substring (a trigram index is created for it). gte / lte: at least / at most."
        },
        input: {
          type: "string",
          enum: [
            "text",
            "number",
            "select",
            "date",
            "boolean"
          ],
          description: "How the filter is entered on the list screen. select offers the schema's enum values or the keys of 'values'."
        },
        label: {
          $ref: "#/definitions/i18nKey",
          description: "Translation key of the filter's label. Default entities.<name>.filters.<param name>."
        },
        values: {
          type: "object",
          description: "Accepted parameter values and the stored value each means (status: active \u2192 true). When given, any other value is refused with 400.",
          additionalProperties: {
            type: [
              "string",
              "number",
              "boolean"
            ]
          }
        }
      }
    }
  },
  properties: {
    $schema: {
      type: "string",
      description: "Path of this schema, so editors can check and complete the file."
    },
    name: {
      type: "string",
      pattern: "^[a-z][a-z0-9_]*$",
      description: "The entity's singular name in snake_case (category). Translation keys default to entities.<name>.*."
    },
    schema: {
      type: "string",
      pattern: "^[a-z][a-z0-9_-]*$",
      description: "The schema file's name without .schema.json, in the schemas folder. Default: name."
    },
    endpoint: {
      type: "string",
      pattern: "^[a-z][a-z0-9-]*$",
      description: "The API path under /api (categories gives /api/categories and /api/categories/{id})."
    },
    table: {
      type: "string",
      pattern: "^[a-z][a-z0-9_]*$",
      description: "The database table. Default: endpoint with - replaced by _."
    },
    label: {
      type: "string",
      minLength: 1,
      description: "English singular noun used in API messages (Invalid category ID). Default: name with _ as spaces."
    },
    routes: {
      type: "object",
      description: "Browser paths of the entity's screens, without the leading slash.",
      additionalProperties: false,
      required: [
        "list",
        "create"
      ],
      properties: {
        list: {
          type: "string",
          pattern: "^[a-z][a-z0-9-]*$",
          description: "The list screen (manage-category)."
        },
        create: {
          type: "string",
          pattern: "^[a-z][a-z0-9-]*$",
          description: "The create screen (create-category)."
        },
        detail: {
          type: "string",
          pattern: "^[a-z][a-z0-9-/]*/:id$",
          description: "The detail screen. Default <list>/:id."
        },
        edit: {
          type: "string",
          pattern: "^[a-z][a-z0-9-/]*/:id$",
          description: "The edit screen. Default <list>/edit/:id."
        }
      }
    },
    titleField: {
      $ref: "#/definitions/field",
      description: "The field that names a record in headings and confirmations (name)."
    },
    texts: {
      type: "object",
      description: "Translation keys of the entity's own texts. Each defaults to entities.<name>.<key in snake_case> (listTitle \u2192 entities.category.list_title), so list one only to share a key with another entity.",
      additionalProperties: false,
      properties: {
        title: {
          $ref: "#/definitions/i18nKey",
          description: "Page title of the list (Manage Category)."
        },
        listTitle: {
          $ref: "#/definitions/i18nKey",
          description: "Heading of the list (Category List)."
        },
        detailTitle: {
          $ref: "#/definitions/i18nKey",
          description: "Title of the detail page."
        },
        createTitle: {
          $ref: "#/definitions/i18nKey",
          description: "Title of the create page."
        },
        editTitle: {
          $ref: "#/definitions/i18nKey",
          description: "Title of the edit page; {{title}} is the record's title field."
        },
        createButton: {
          $ref: "#/definitions/i18nKey",
          description: "The list's create button (Create Category)."
        },
        submitCreate: {
          $ref: "#/definitions/i18nKey",
          description: "The create form's submit button."
        },
        submitUpdate: {
          $ref: "#/definitions/i18nKey",
          description: "The edit form's submit button."
        },
        empty: {
          $ref: "#/definitions/i18nKey",
          description: "Shown when the list has no rows (No categories found.)."
        },
        loadError: {
          $ref: "#/definitions/i18nKey",
          description: "The list's load error; {{message}} is the reason."
        },
        loadOneError: {
          $ref: "#/definitions/i18nKey",
          description: "The detail or edit page's load error; {{message}} is the reason."
        },
        notFound: {
          $ref: "#/definitions/i18nKey",
          description: "Shown when the record does not exist (Category not found.)."
        },
        backToList: {
          $ref: "#/definitions/i18nKey",
          description: "Link back to the list (Back to Category List)."
        },
        deleteTitle: {
          $ref: "#/definitions/i18nKey",
          description: "Title of the delete confirmation (Delete Company)."
        },
        deleteConfirm: {
          $ref: "#/definitions/i18nKey",
          description: "Question of the delete confirmation; {{name}} is the record's title field."
        },
        invalidId: {
          $ref: "#/definitions/i18nKey",
          description: "Shown for an id in the address that is not a positive integer (Invalid category ID)."
        },
        created: {
          $ref: "#/definitions/i18nKey",
          description: "Toast after a create."
        },
        updated: {
          $ref: "#/definitions/i18nKey",
          description: "Toast after an update."
        },
        deleted: {
          $ref: "#/definitions/i18nKey",
          description: "Toast after a delete."
        },
        createFailed: {
          $ref: "#/definitions/i18nKey",
          description: "Toast when a create fails without a server message."
        },
        updateFailed: {
          $ref: "#/definitions/i18nKey",
          description: "Toast when an update fails without a server message."
        },
        deleteFailed: {
          $ref: "#/definitions/i18nKey",
          description: "Toast when a delete fails without a server message."
        }
      }
    },
    menu: {
      type: "object",
      description: "The entity's sidebar entry.",
      additionalProperties: false,
      properties: {
        show: {
          type: "boolean",
          description: "Whether the sidebar links to the list. Default true."
        },
        order: {
          type: "integer",
          description: "Position in the sidebar, lower first. Default 100."
        },
        icon: {
          type: "string",
          description: "Name of a Radix icon for the entry. Default: none."
        },
        label: {
          $ref: "#/definitions/i18nKey",
          description: "Translation key of the entry. Default: texts.title."
        }
      }
    },
    permissions: {
      type: "object",
      description: "Which roles may do what; checked on the server for every request, and sent to the browser as yes/no for the signed-in user.",
      additionalProperties: false,
      required: [
        "list",
        "read",
        "create",
        "update",
        "delete"
      ],
      properties: {
        list: {
          $ref: "#/definitions/roles",
          description: "Roles that may list records (GET /api/<endpoint>)."
        },
        read: {
          $ref: "#/definitions/roles",
          description: "Roles that may read one record (GET /api/<endpoint>/{id})."
        },
        create: {
          $ref: "#/definitions/roles",
          description: "Roles that may create (POST). Empty: the entity cannot be created through the API."
        },
        update: {
          $ref: "#/definitions/roles",
          description: "Roles that may update (PUT). Empty: read-only."
        },
        delete: {
          $ref: "#/definitions/roles",
          description: "Roles that may delete (DELETE). Empty: records cannot be deleted."
        }
      }
    },
    list: {
      type: "object",
      description: "The list screen and the list endpoint.",
      additionalProperties: false,
      required: [
        "columns"
      ],
      properties: {
        columns: {
          type: "array",
          description: "The table's columns, in order.",
          minItems: 1,
          items: {
            $ref: "#/definitions/column"
          }
        },
        actions: {
          type: "array",
          description: "Row actions (each shown only when the user has its permission). Default: view, edit, delete.",
          items: {
            type: "string",
            enum: [
              "view",
              "edit",
              "delete"
            ]
          },
          uniqueItems: true
        },
        sorts: {
          type: "array",
          description: "Fields the list may be sorted by (the sort parameter's allow-list; anything else is a 400). An index is created for each. Default: the sortable columns.",
          items: {
            $ref: "#/definitions/field"
          },
          uniqueItems: true
        },
        defaultSort: {
          type: "object",
          description: "Order of the list when no sort is asked for. Default: id ascending.",
          additionalProperties: false,
          required: [
            "field"
          ],
          properties: {
            field: {
              $ref: "#/definitions/field",
              description: "The field sorted by."
            },
            direction: {
              type: "string",
              enum: [
                "asc",
                "desc"
              ],
              description: "Ascending or descending. Default asc."
            }
          }
        },
        pageSize: {
          type: "integer",
          minimum: 1,
          maximum: 100,
          description: "Rows per page when per_page is not given. Default 10."
        },
        pageSizeParam: {
          type: [
            "string",
            "null"
          ],
          pattern: "^[a-z][a-z_]*$",
          description: "The browser address's page-size parameter (size for companies); null when the page size is the server's and not in the address. Default per_page."
        },
        filters: {
          type: "array",
          description: "The filters the list accepts. An index is created for each filtered field. Default: none.",
          items: {
            $ref: "#/definitions/filter"
          }
        },
        search: {
          type: "array",
          description: "Fields the search parameter matches, as case-insensitive substrings of any of them (trigram indexes are created). Default: none, and search is refused.",
          items: {
            $ref: "#/definitions/field"
          },
          uniqueItems: true
        },
        refetchOnFocus: {
          type: "boolean",
          description: "Whether the list reloads when the browser window regains focus. Default true (spec: false for customers and companies)."
        },
        filterPanel: {
          type: "object",
          additionalProperties: false,
          description: "Shows the list's filters in a card above the table, applied together with an Apply button and cleared with Reset (back to page 1, the default sort and page size), optionally with Sort By and direction choices. It replaces the list's search box and filter selects (the toolbar); filters not offered in it still work from the address. Default: none (the toolbar).",
          properties: {
            title: {
              $ref: "#/definitions/i18nKey",
              description: "Translation key of the card's heading (Filters & Sorting). Default common.filters.title."
            },
            filters: {
              type: "array",
              items: {
                type: "string"
              },
              uniqueItems: true,
              description: "Parameters of the filters offered, in order (each one of list.filters). Default: every filter."
            },
            sort: {
              type: "boolean",
              description: "Whether the card offers Sort By (the list's sorts, labelled entities.<name>.sorts.<field>, else the field's label) and a direction (ASC/DESC). Default false."
            }
          }
        },
        texts: {
          type: "object",
          additionalProperties: false,
          description: "Optional texts of the list screen. Default: none of them shown.",
          properties: {
            total: {
              $ref: "#/definitions/i18nKey",
              description: "Shown under the heading with {{total}} ({{total}} total contests)."
            },
            loading: {
              $ref: "#/definitions/i18nKey",
              description: "Shown while the first page loads (Loading contests...). Default common.loading."
            },
            emptyHint: {
              $ref: "#/definitions/i18nKey",
              description: "Under the empty text when no filter is active (Get started by creating your first contest.)."
            },
            emptyFilteredHint: {
              $ref: "#/definitions/i18nKey",
              description: "Under the empty text when a filter is active (Try adjusting your filters...); a 'Clear all filters' link follows."
            },
            errorTitle: {
              $ref: "#/definitions/i18nKey",
              description: "Shows a failed load as this heading (Error loading contests) with the server's message under it, or errorFallback when it gave none, instead of the one-line texts.loadError (Error loading companies: {{message}}). Default: the one-line text."
            },
            errorFallback: {
              $ref: "#/definitions/i18nKey",
              description: "With errorTitle: the text under the heading when the error carries no message. Default errors.somethingWentWrongTryAgain (Something went wrong. Please try again.)."
            }
          }
        }
      }
    },
    detail: {
      type: "object",
      description: "The detail page.",
      additionalProperties: false,
      properties: {
        sections: {
          type: "array",
          description: "Groups of fields, in order. Default: one section with every non-write-only field.",
          items: {
            type: "object",
            additionalProperties: false,
            required: [
              "title",
              "fields"
            ],
            properties: {
              title: {
                $ref: "#/definitions/i18nKey",
                description: "Translation key of the section's heading."
              },
              fields: {
                type: "array",
                description: "The fields shown, in order.",
                items: {
                  $ref: "#/definitions/display"
                }
              },
              showIf: {
                type: "string",
                description: "Show the section only when this field or included relation has a value."
              }
            }
          }
        },
        empty: {
          $ref: "#/definitions/i18nKey",
          description: "Shown for an empty value. Default common.not_provided (Not provided)."
        }
      }
    },
    forms: {
      type: "object",
      description: "The create and edit forms. Their fields are also what POST and PUT accept.",
      additionalProperties: false,
      required: [
        "create",
        "edit"
      ],
      properties: {
        create: {
          $ref: "#/definitions/form",
          description: "The create form (POST /api/<endpoint>); required fields are the schema's required fields among these. Schema defaults fill what is left out."
        },
        edit: {
          $ref: "#/definitions/form",
          description: "The edit form (PUT /api/<endpoint>/{id}); required fields are the schema's required fields among these."
        }
      }
    },
    messages: {
      type: "object",
      description: "Per field and validation keyword (required, minLength, maxLength, enum, format, minimum, maximum, type, pattern, const), the translation key of the message (name \u2192 minLength \u2192 validation.name.min). A keyword not listed uses validation.<keyword> with the limit as {{limit}}. A blank text counts as missing, so 'required' fires for it.",
      additionalProperties: {
        type: "object",
        additionalProperties: {
          $ref: "#/definitions/i18nKey"
        }
      }
    },
    relations: {
      type: "object",
      description: "Records this entity points to (a foreign key, with an index, is created for each). The key is the relation's name, used by include and by relation cells and filters.",
      additionalProperties: {
        type: "object",
        additionalProperties: false,
        required: [
          "kind",
          "field",
          "entity"
        ],
        properties: {
          kind: {
            type: "string",
            enum: [
              "belongsTo"
            ],
            description: "belongsTo: this record holds the related record's id."
          },
          field: {
            $ref: "#/definitions/field",
            description: "The field holding the related id (category_id); an integer in the schema."
          },
          entity: {
            type: "string",
            description: "The related entity's name (category)."
          },
          fields: {
            type: "array",
            description: "Fields of the related record an include returns (id is always returned). Default: its title field.",
            items: {
              $ref: "#/definitions/field"
            },
            uniqueItems: true
          },
          onDelete: {
            type: "string",
            enum: [
              "restrict",
              "set-null"
            ],
            description: "What deleting the related record does: restrict refuses with 409 while records use it; set-null empties the field. Default restrict."
          }
        }
      }
    },
    includes: {
      type: "array",
      description: "Relations the include parameter may ask for (include=category,customer). Default: every relation.",
      items: {
        type: "string"
      },
      uniqueItems: true
    },
    hooks: {
      type: "object",
      description: "Server behaviour that is not data, by name (see src/extensions/hooks).",
      additionalProperties: false,
      properties: {
        beforeWrite: {
          type: "array",
          description: "Run in order after validation and before a create or update is stored: slug-from-name (a unique slug from the name), hash-password (stores the password as a hash), lowercase-email (trims and lower-cases every format-email field so e-mails are unique case-insensitively; 409 on the field when a stored one differs only in case). Default: none.",
          items: {
            type: "string"
          }
        }
      }
    },
    unique: {
      type: "array",
      description: "Fields, or lists of fields taken together, no two records may share. A clash answers 409 naming the field. Default: none.",
      items: {
        oneOf: [
          {
            $ref: "#/definitions/field"
          },
          {
            type: "array",
            items: {
              $ref: "#/definitions/field"
            },
            minItems: 2,
            uniqueItems: true
          }
        ]
      }
    },
    virtual: {
      type: "array",
      description: "Form fields that are checked but never stored and have no column (password_confirmation). Default: none.",
      items: {
        $ref: "#/definitions/field"
      },
      uniqueItems: true
    },
    comparisons: {
      type: "array",
      description: "Rules between two fields of a create or update, checked in the browser and on the server whenever both fields have a value: field must be (operator) other. A failure is shown under 'field' with the rule's message (keyword compare). Default: none.",
      items: {
        type: "object",
        additionalProperties: false,
        required: [
          "field",
          "operator",
          "other",
          "message"
        ],
        properties: {
          field: {
            $ref: "#/definitions/field",
            description: "The field checked; the message shows under it (password_confirmation, end_date)."
          },
          operator: {
            type: "string",
            enum: [
              "eq",
              "gt",
              "gte",
              "lt",
              "lte"
            ],
            description: "eq: equal (a confirmation). gt / gte / lt / lte: after / not before / before / not after (numbers, dates, times)."
          },
          other: {
            $ref: "#/definitions/field",
            description: "The field compared with (password, start_date)."
          },
          message: {
            $ref: "#/definitions/i18nKey",
            description: "Translation key of the message when the rule fails (validation.password_confirmation.match)."
          }
        }
      }
    },
    computed: {
      type: "object",
      description: "Read-only fields whose value is computed whenever a record is read, never stored (no column). The key is a read-only integer property of the schema. count: the number of records of 'entity' whose relation 'relation' points at this record (a campaign's contest_count). Computed fields can be shown and included, not sorted or filtered. Default: none.",
      additionalProperties: {
        type: "object",
        additionalProperties: false,
        required: [
          "kind",
          "entity",
          "relation"
        ],
        properties: {
          kind: {
            type: "string",
            enum: [
              "count"
            ],
            description: "count: how many related records point here."
          },
          entity: {
            type: "string",
            description: "The entity whose records are counted (contest)."
          },
          relation: {
            type: "string",
            description: "That entity's belongsTo relation pointing at this entity (campaign)."
          }
        }
      }
    },
    counts: {
      type: "object",
      description: "Exact list totals kept by the database, for entities with many records. The table's row count is always kept; each field in groupBy also gets one count per value (kept by statement-level triggers), so a list filtered by that field, or through a relation whose foreign key is that field (contests by the customer's company via customer_id), reads its exact total from the counters instead of counting rows. Covering indexes (field, sort, id) are created for every allowed sort so deep pages of a filtered list read only an index. Default: no per-value counts.",
      additionalProperties: false,
      properties: {
        groupBy: {
          type: "array",
          description: "Fields counted per value (status, customer_id): exact-match filters or foreign keys of relation filters.",
          items: {
            $ref: "#/definitions/field"
          },
          uniqueItems: true
        }
      }
    }
  }
};

// src/shared/descriptor/types.ts
var WIDGET_NAMES = [
  "text",
  "textarea",
  "email",
  "password",
  "number",
  "select",
  "searchable-select",
  "radio",
  "switch",
  "active-switch",
  "checkbox",
  "date",
  "datetime",
  "url",
  "currency",
  "hidden"
];
var ENTITY_TEXT_KEYS = [
  "title",
  "listTitle",
  "detailTitle",
  "createTitle",
  "editTitle",
  "createButton",
  "submitCreate",
  "submitUpdate",
  "empty",
  "loadError",
  "loadOneError",
  "notFound",
  "backToList",
  "deleteTitle",
  "deleteConfirm",
  "invalidId",
  "created",
  "updated",
  "deleted",
  "createFailed",
  "updateFailed",
  "deleteFailed"
];

// src/shared/descriptor/apply-defaults.ts
var snake = (key) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
function form(raw) {
  return { fields: [...raw?.fields ?? []], uiSchema: { ...raw?.uiSchema ?? {} }, defaults: { ...raw?.defaults ?? {} } };
}
function applyDefaults(raw, schema) {
  const name = raw.name;
  const texts = Object.fromEntries(
    ENTITY_TEXT_KEYS.map((key) => [key, raw.texts?.[key] ?? `entities.${name}.${snake(key)}`])
  );
  const columns = raw.list.columns.map((column) => ({ ...column }));
  const sorts = raw.list.sorts ?? columns.filter((c) => c.sortable).map((c) => c.field);
  const relations = {};
  for (const [key, relation] of Object.entries(raw.relations ?? {})) {
    relations[key] = {
      kind: relation.kind,
      field: relation.field,
      entity: relation.entity,
      fields: [...relation.fields ?? []],
      onDelete: relation.onDelete ?? "restrict"
    };
  }
  const virtual = [...raw.virtual ?? []];
  const shown = Object.keys(schema.properties ?? {}).filter(
    (field) => !schema.properties?.[field]?.writeOnly && !virtual.includes(field)
  );
  return {
    name,
    schema: raw.schema ?? name,
    endpoint: raw.endpoint,
    table: raw.table ?? String(raw.endpoint).replace(/-/g, "_"),
    routes: {
      list: raw.routes.list,
      create: raw.routes.create,
      detail: raw.routes.detail ?? `${raw.routes.list}/:id`,
      edit: raw.routes.edit ?? `${raw.routes.list}/edit/:id`
    },
    titleField: raw.titleField,
    label: raw.label ?? name.replace(/_/g, " "),
    texts,
    menu: {
      show: raw.menu?.show ?? true,
      order: raw.menu?.order ?? 100,
      ...raw.menu?.icon ? { icon: raw.menu.icon } : {},
      label: raw.menu?.label ?? texts.title
    },
    permissions: {
      list: [...raw.permissions.list],
      read: [...raw.permissions.read],
      create: [...raw.permissions.create],
      update: [...raw.permissions.update],
      delete: [...raw.permissions.delete]
    },
    list: {
      columns,
      actions: [...raw.list.actions ?? ["view", "edit", "delete"]],
      sorts: [...sorts],
      defaultSort: {
        field: raw.list.defaultSort?.field ?? "id",
        direction: raw.list.defaultSort?.direction ?? "asc"
      },
      pageSize: raw.list.pageSize ?? 10,
      pageSizeParam: raw.list.pageSizeParam === void 0 ? "per_page" : raw.list.pageSizeParam,
      filters: (raw.list.filters ?? []).map((filter) => ({ ...filter })),
      search: [...raw.list.search ?? []],
      refetchOnFocus: raw.list.refetchOnFocus ?? true,
      ...raw.list.filterPanel ? { filterPanel: { ...raw.list.filterPanel, ...raw.list.filterPanel.filters ? { filters: [...raw.list.filterPanel.filters] } : {} } } : {},
      texts: { ...raw.list.texts ?? {} }
    },
    detail: {
      sections: raw.detail?.sections?.map((section) => ({ ...section, fields: section.fields.map((f) => ({ ...f })) })) ?? [
        { title: `entities.${name}.sections.details`, fields: shown.map((field) => ({ field })) }
      ],
      empty: raw.detail?.empty ?? "common.not_provided"
    },
    forms: { create: form(raw.forms.create), edit: form(raw.forms.edit) },
    messages: Object.fromEntries(Object.entries(raw.messages ?? {}).map(([field, keys]) => [field, { ...keys }])),
    relations,
    includes: [...raw.includes ?? Object.keys(relations)],
    hooks: { beforeWrite: [...raw.hooks?.beforeWrite ?? []] },
    unique: (raw.unique ?? []).map((entry) => Array.isArray(entry) ? [...entry] : entry),
    virtual,
    comparisons: (raw.comparisons ?? []).map((rule) => ({ ...rule })),
    computed: Object.fromEntries(Object.entries(raw.computed ?? {}).map(([field, spec]) => [field, { ...spec }])),
    counts: { groupBy: [...raw.counts?.groupBy ?? []] }
  };
}

// src/shared/descriptor/check-descriptor.ts
var RESERVED_PARAMS = ["page", "per_page", "sort", "direction", "search", "include"];
function checkSchema(schema) {
  const problems = [];
  const add = (path3, reason) => problems.push({ file: "schema", path: path3, reason });
  if (schema.type !== "object") add("/type", 'an entity schema must have "type": "object"');
  const properties = schema.properties;
  if (!properties || typeof properties !== "object") {
    add("/properties", 'an entity schema must list its fields under "properties"');
    return problems;
  }
  for (const [field, property] of Object.entries(properties)) {
    if (!FIELD_NAME.test(field)) add(`/properties/${field}`, `field names must be lower snake_case (a-z, 0-9, _), not "${field}"`);
    const kind = fieldKind(property);
    if (typeof kind === "object") add(`/properties/${field}`, `cannot be stored: ${kind.unsupported}`);
  }
  const id = properties.id;
  if (!id || id.type !== "integer" || !id.readOnly) add("/properties/id", 'every entity needs "id": {"type": "integer", "readOnly": true}');
  (schema.required ?? []).forEach((field, i) => {
    if (!properties[field]) add(`/required/${i}`, `"${field}" is required but is not a property`);
  });
  return problems;
}
function checkDescriptor(d, schema, knownHooks) {
  const problems = [];
  const add = (path3, reason) => problems.push({ file: "descriptor", path: path3, reason });
  const props = schema.properties ?? {};
  const has = (field2) => Object.hasOwn(props, field2);
  const field = (path3, name) => {
    if (!has(name)) add(path3, `"${name}" is not a field of the schema "${d.schema}"`);
    return has(name);
  };
  field("/titleField", d.titleField);
  d.list.columns.forEach((column, i) => {
    const at = `/list/columns/${i}`;
    if (!field(`${at}/field`, column.field)) return;
    if (column.cell === "relation") {
      if (!column.relation || !d.relations[column.relation]) add(`${at}/relation`, 'a relation cell needs "relation" naming one of "relations"');
      if (!column.display) add(`${at}/display`, 'a relation cell needs "display", the related field shown');
    }
    if (column.sortable && !d.list.sorts.includes(column.field)) add(`${at}/sortable`, `"${column.field}" is sortable but not in list.sorts`);
    if (column.cell === "badge" && !column.badges) add(`${at}/badges`, 'a badge cell needs "badges"');
  });
  d.list.sorts.forEach((sort, i) => {
    if (field(`/list/sorts/${i}`, sort) && !isSortable(props[sort])) add(`/list/sorts/${i}`, `"${sort}" holds JSON and cannot be sorted`);
  });
  if (field("/list/defaultSort/field", d.list.defaultSort.field) && !isSortable(props[d.list.defaultSort.field])) {
    add("/list/defaultSort/field", "the default sort field cannot be sorted");
  }
  const params = /* @__PURE__ */ new Set();
  d.list.filters.forEach((filter, i) => {
    const at = `/list/filters/${i}`;
    if (RESERVED_PARAMS.includes(filter.param)) add(`${at}/param`, `"${filter.param}" is a reserved list parameter`);
    if (params.has(filter.param)) add(`${at}/param`, `"${filter.param}" is used by two filters`);
    params.add(filter.param);
    const [first, second] = filter.field.split(".");
    if (second !== void 0) {
      if (!d.relations[first]) add(`${at}/field`, `"${first}" is not one of "relations"`);
      return;
    }
    if (!field(`${at}/field`, first)) return;
    if (filter.operator === "ilike" && !isTextual(props[first])) add(`${at}/operator`, `ilike needs a text field; "${first}" is not`);
    if (fieldKind(props[first]) === "json") add(`${at}/field`, `"${first}" holds JSON and cannot be filtered`);
  });
  d.list.filterPanel?.filters?.forEach((param, i) => {
    if (!params.has(param)) add(`/list/filterPanel/filters/${i}`, `"${param}" is not the param of one of list.filters`);
  });
  d.list.search.forEach((name, i) => {
    if (field(`/list/search/${i}`, name) && !isTextual(props[name])) add(`/list/search/${i}`, `search needs text fields; "${name}" is not`);
  });
  d.detail.sections.forEach(
    (section, i) => section.fields.forEach((display, j) => {
      const at = `/detail/sections/${i}/fields/${j}`;
      if (display.cell === "relation" && (!display.relation || !d.relations[display.relation])) {
        add(`${at}/relation`, 'a relation cell needs "relation" naming one of "relations"');
      }
      if (field(`${at}/field`, display.field) && props[display.field]?.writeOnly) add(`${at}/field`, `"${display.field}" is write-only and never shown`);
    })
  );
  ["create", "edit"].forEach((which) => {
    const form2 = d.forms[which];
    form2.fields.forEach((name, i) => {
      if (field(`/forms/${which}/fields/${i}`, name) && props[name].readOnly) {
        add(`/forms/${which}/fields/${i}`, `"${name}" is read-only in the schema and cannot be in a form`);
      }
    });
    for (const [name, ui] of Object.entries(form2.uiSchema)) {
      if (name.startsWith("ui:")) continue;
      if (!form2.fields.includes(name)) add(`/forms/${which}/uiSchema/${name}`, `"${name}" is not a field of this form`);
      const widget = ui["ui:widget"];
      if (widget !== void 0 && !WIDGET_NAMES.includes(widget)) {
        add(`/forms/${which}/uiSchema/${name}/ui:widget`, `unknown widget "${String(widget)}"; known: ${WIDGET_NAMES.join(", ")}`);
      }
    }
    for (const name of Object.keys(form2.defaults)) {
      if (!form2.fields.includes(name)) add(`/forms/${which}/defaults/${name}`, `"${name}" is not a field of this form`);
    }
  });
  if (d.permissions.create.length > 0) {
    for (const name of schema.required ?? []) {
      const property = props[name];
      if (!property || property.readOnly || d.forms.create.fields.includes(name) || property.default !== void 0) continue;
      add("/forms/create/fields", `"${name}" is required, has no default and is not in the create form`);
    }
  }
  for (const name of Object.keys(d.messages)) field(`/messages/${name}`, name);
  for (const [name, relation] of Object.entries(d.relations)) {
    const at = `/relations/${name}`;
    if (has(name)) add(at, `a relation cannot share its name with the field "${name}"`);
    if (field(`${at}/field`, relation.field) && fieldKind(props[relation.field]) !== "integer") {
      add(`${at}/field`, `"${relation.field}" must be an integer field to hold an id`);
    }
  }
  d.includes.forEach((name, i) => {
    if (!d.relations[name]) add(`/includes/${i}`, `"${name}" is not one of "relations"`);
  });
  d.unique.forEach((entry, i) => {
    (Array.isArray(entry) ? entry : [entry]).forEach((name) => field(`/unique/${i}`, name));
  });
  d.virtual.forEach((name, i) => {
    field(`/virtual/${i}`, name);
    if (!d.forms.create.fields.includes(name) && !d.forms.edit.fields.includes(name)) add(`/virtual/${i}`, `"${name}" is in no form`);
  });
  d.comparisons.forEach((rule, i) => {
    field(`/comparisons/${i}/field`, rule.field);
    field(`/comparisons/${i}/other`, rule.other);
    if (rule.field === rule.other) add(`/comparisons/${i}/other`, "a field cannot be compared with itself");
  });
  for (const [name, computed] of Object.entries(d.computed)) {
    const at = `/computed/${name}`;
    if (!field(at, name)) continue;
    if (!props[name].readOnly || fieldKind(props[name]) !== "integer") add(at, `"${name}" must be a read-only integer field to hold a ${computed.kind}`);
    if (d.list.sorts.includes(name) || d.list.defaultSort.field === name) add(at, `"${name}" is computed and cannot be sorted`);
    if (d.list.filters.some((filter) => filter.field === name) || d.list.search.includes(name)) add(at, `"${name}" is computed and cannot be filtered`);
    if (d.unique.some((entry) => (Array.isArray(entry) ? entry : [entry]).includes(name))) add(at, `"${name}" is computed and cannot be unique`);
  }
  d.counts.groupBy.forEach((name, i) => {
    if (field(`/counts/groupBy/${i}`, name) && (fieldKind(props[name]) === "json" || Object.hasOwn(d.computed, name))) {
      add(`/counts/groupBy/${i}`, `"${name}" cannot be counted by value (a JSON or computed field)`);
    }
  });
  if (knownHooks) {
    d.hooks.beforeWrite.forEach((hook, i) => {
      if (!knownHooks.includes(hook)) add(`/hooks/beforeWrite/${i}`, `unknown hook "${hook}"; known: ${knownHooks.join(", ") || "none"}`);
    });
  }
  return problems;
}

// src/shared/descriptor/create-ajv.ts
import Ajv from "ajv";
import addFormats from "ajv-formats";
function createAjv(options = {}) {
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, ...options });
  addFormats(ajv);
  return ajv;
}

// src/shared/descriptor/derive-schemas.ts
var clone = (value) => JSON.parse(JSON.stringify(value));
function formSchema(schema, fields) {
  const properties = {};
  for (const field of fields) {
    const property = clone(schema.properties?.[field] ?? {});
    delete property.readOnly;
    properties[field] = property;
  }
  const required = (schema.required ?? []).filter((field) => fields.includes(field));
  return {
    type: "object",
    additionalProperties: false,
    properties,
    ...required.length > 0 ? { required } : {}
  };
}
function deriveCreateSchema(descriptor, schema) {
  return formSchema(schema, descriptor.forms.create.fields);
}
function deriveUpdateSchema(descriptor, schema) {
  return formSchema(schema, descriptor.forms.edit.fields);
}

// src/shared/descriptor/load-entities.ts
function deepFreeze(value) {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
function raise(source, problem) {
  throw new DescriptorError(problem.file === "schema" ? source.schemaFile : source.file, problem.path, problem.reason);
}
function loadEntities(sources, options = {}) {
  const ajv = createAjv();
  const validateDescriptor = ajv.compile(descriptor_schema_default);
  const loaded = [];
  for (const source of sources) {
    if (!validateDescriptor(source.descriptor)) {
      const error = validateDescriptor.errors[0];
      const detail = error.keyword === "additionalProperties" ? ` ("${String(error.params.additionalProperty)}")` : "";
      raise(source, { file: "descriptor", path: error.instancePath || "/", reason: `${error.message ?? error.keyword}${detail}` });
    }
    if (source.schema === void 0) {
      raise(source, { file: "schema", path: "", reason: "the schema file does not exist" });
    }
    const schema = source.schema;
    const schemaProblem = checkSchema(schema)[0];
    if (schemaProblem) raise(source, schemaProblem);
    try {
      createAjv().compile(schema);
    } catch (error) {
      raise(source, { file: "schema", path: "", reason: `does not compile: ${error.message}` });
    }
    const descriptor = applyDefaults(source.descriptor, schema);
    const problem = checkDescriptor(descriptor, schema, options.knownHooks)[0];
    if (problem) raise(source, problem);
    loaded.push({ descriptor, schema, createSchema: {}, updateSchema: {}, file: source.file });
  }
  checkAcrossEntities(loaded, sources);
  for (const entity of loaded) {
    entity.createSchema = deriveCreateSchema(entity.descriptor, entity.schema);
    entity.updateSchema = deriveUpdateSchema(entity.descriptor, entity.schema);
  }
  return loaded.map((entity) => deepFreeze(entity));
}
function checkAcrossEntities(loaded, sources) {
  const byName = /* @__PURE__ */ new Map();
  const seen = { name: /* @__PURE__ */ new Map(), endpoint: /* @__PURE__ */ new Map(), table: /* @__PURE__ */ new Map(), route: /* @__PURE__ */ new Map() };
  loaded.forEach((entity, index2) => {
    const d = entity.descriptor;
    const source = sources[index2];
    const unique = (kind, value, path3) => {
      const other = seen[kind].get(value);
      if (other) raise(source, { file: "descriptor", path: path3, reason: `${kind} "${value}" is already used by ${other}` });
      seen[kind].set(value, entity.file);
    };
    unique("name", d.name, "/name");
    unique("endpoint", d.endpoint, "/endpoint");
    unique("table", d.table, "/table");
    unique("route", d.routes.list, "/routes/list");
    unique("route", d.routes.create, "/routes/create");
    byName.set(d.name, entity);
  });
  loaded.forEach((entity, index2) => {
    const d = entity.descriptor;
    const source = sources[index2];
    const fail = (path3, reason) => raise(source, { file: "descriptor", path: path3, reason });
    for (const [name, relation] of Object.entries(d.relations)) {
      const target = byName.get(relation.entity);
      if (!target) fail(`/relations/${name}/entity`, `no entity is named "${relation.entity}"`);
      if (relation.fields.length === 0) relation.fields.push(target.descriptor.titleField);
      relation.fields.forEach((field, i) => {
        if (!target.schema.properties?.[field] || target.schema.properties[field].writeOnly) {
          fail(`/relations/${name}/fields/${i}`, `"${field}" is not a readable field of "${relation.entity}"`);
        }
      });
    }
    for (const [name, computed] of Object.entries(d.computed)) {
      const counted = byName.get(computed.entity);
      if (!counted) fail(`/computed/${name}/entity`, `no entity is named "${computed.entity}"`);
      const relation = counted.descriptor.relations[computed.relation];
      if (!relation || relation.entity !== d.name) {
        fail(`/computed/${name}/relation`, `"${computed.relation}" is not a relation of "${computed.entity}" pointing at "${d.name}"`);
      }
    }
    const displays = [
      ...d.list.columns.map((c, i) => ({ c, at: `/list/columns/${i}` })),
      ...d.detail.sections.flatMap((s, i) => s.fields.map((c, j) => ({ c, at: `/detail/sections/${i}/fields/${j}` })))
    ];
    for (const { c, at } of displays) {
      if (c.cell !== "relation" || !c.relation || !c.display) continue;
      if (c.display !== "id" && !d.relations[c.relation].fields.includes(c.display)) {
        fail(`${at}/display`, `"${c.display}" is not among the fields relation "${c.relation}" returns`);
      }
      (c.secondary ?? []).forEach((field, i) => {
        if (field !== "id" && !d.relations[c.relation].fields.includes(field)) {
          fail(`${at}/secondary/${i}`, `"${field}" is not among the fields relation "${c.relation}" returns`);
        }
      });
    }
    d.list.filters.forEach((filter, i) => {
      const [relationName, field] = filter.field.split(".");
      if (!field) return;
      const target = byName.get(d.relations[relationName].entity);
      const property = target.schema.properties?.[field];
      if (!property) fail(`/list/filters/${i}/field`, `"${field}" is not a field of "${target.descriptor.name}"`);
      if (filter.operator === "ilike" && !isTextual(property)) fail(`/list/filters/${i}/operator`, `ilike needs a text field; "${filter.field}" is not`);
    });
  });
}

// src/server/db/sync/sync-entity-tables.ts
import { sql as sql10 } from "kysely";

// src/server/db/sync/desired-schema.ts
import { createHash } from "node:crypto";
import { sql as sql6 } from "kysely";
var TYPES = {
  string: ["text", "text"],
  enum: ["text", "text"],
  date: ["date", "date"],
  "date-time": ["timestamptz", "timestamp with time zone"],
  integer: ["integer", "integer"],
  bigint: ["bigint", "bigint"],
  number: ["double precision", "double precision"],
  boolean: ["boolean", "boolean"],
  json: ["jsonb", "jsonb"]
};
var MANAGED_PREFIXES = ["ck_", "uq_", "fk_", "ix_"];
function objectName(prefix, table, columns, definition) {
  const hash = createHash("sha256").update(definition).digest("hex").slice(0, 8);
  return `${`${prefix}${table}_${columns.join("_")}`.slice(0, 52)}_${hash}`;
}
function kindOf(property) {
  return fieldKind(property);
}
function defaultOf(name, property) {
  if ((name === "created_at" || name === "updated_at") && kindOf(property) === "date-time") return sql6`now()`;
  if (property.default === void 0) return void 0;
  if (kindOf(property) === "json") return sql6`${sql6.lit(JSON.stringify(property.default))}::jsonb`;
  const value = property.default;
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value === null ? sql6.lit(value) : void 0;
}
function desiredTable(entity) {
  const props = entity.schema.properties ?? {};
  const required = new Set(entity.schema.required ?? []);
  const columns = [];
  for (const [name, property] of Object.entries(props)) {
    if (entity.descriptor.virtual.includes(name) || Object.hasOwn(entity.descriptor.computed, name)) continue;
    const [sqlType, dataType] = TYPES[kindOf(property)];
    const managed = name === "id" || name === "created_at" || name === "updated_at";
    columns.push({
      name,
      sqlType: name === "id" ? "serial" : sqlType,
      dataType,
      notNull: managed || required.has(name) && !isNullable(property),
      default: name === "id" ? void 0 : defaultOf(name, property),
      serial: name === "id"
    });
  }
  return { entity, table: entity.descriptor.table, columns };
}

// src/server/db/sync/managed-objects.ts
import { sql as sql8 } from "kysely";

// src/server/db/sync/counters.ts
import { createHash as createHash2 } from "node:crypto";
import { sql as sql7 } from "kysely";
async function ensureGroupCounterFunctions(db2) {
  await sql7`create table if not exists ${sql7.table(GROUP_COUNTS_TABLE)} (
    table_name text not null,
    column_name text not null,
    value text not null,
    row_count bigint not null,
    primary key (table_name, column_name, value)
  )`.execute(db2);
  const t = GROUP_COUNTS_TABLE;
  await sql7.raw(`create or replace function entity_group_counts_apply() returns trigger language plpgsql as $$
declare col text;
begin
  if TG_OP = 'TRUNCATE' then
    delete from ${t} where table_name = TG_TABLE_NAME;
    return null;
  end if;
  foreach col in array TG_ARGV loop
    if TG_OP in ('DELETE', 'UPDATE') then
      execute format('update ${t} g set row_count = g.row_count - s.n
        from (select %I::text as v, count(*) as n from old_rows where %I is not null group by 1) s
        where g.table_name = %L and g.column_name = %L and g.value = s.v', col, col, TG_TABLE_NAME, col);
    end if;
    if TG_OP in ('INSERT', 'UPDATE') then
      execute format('insert into ${t} as g (table_name, column_name, value, row_count)
        select %L, %L, v, n from (select %I::text as v, count(*) as n from new_rows where %I is not null group by 1) s order by v
        on conflict (table_name, column_name, value) do update set row_count = g.row_count + excluded.row_count', TG_TABLE_NAME, col, col, col);
    end if;
  end loop;
  return null;
end $$`).execute(db2);
}
function groupCounterTriggerNames(table, columns) {
  const hash = createHash2("sha256").update(columns.join(",")).digest("hex").slice(0, 8);
  return ["ins", "upd", "del", "trn"].map((op) => `tg_${table}`.slice(0, 40) + `_gc_${op}_${hash}`);
}
async function syncGroupCounters(db2, entity, existingTriggers) {
  const table = entity.descriptor.table;
  const columns = entity.descriptor.counts.groupBy;
  const wanted = columns.length ? groupCounterTriggerNames(table, columns) : [];
  const prefix = `tg_${table}`.slice(0, 40) + "_gc_";
  const stale = existingTriggers.filter((name) => name.startsWith(prefix) && !wanted.includes(name));
  if (stale.length === 0 && wanted.every((name) => existingTriggers.includes(name))) return;
  const t = sql7.table(table);
  for (const name of [...stale, ...wanted]) await sql7`drop trigger if exists ${sql7.id(name)} on ${t}`.execute(db2);
  await sql7`delete from ${sql7.table(GROUP_COUNTS_TABLE)} where table_name = ${table}`.execute(db2);
  if (columns.length === 0) return;
  const args = sql7.join(columns.map((column) => sql7.lit(column)));
  const [ins, upd, del, trn] = wanted.map((name) => sql7.id(name));
  await sql7`create trigger ${ins} after insert on ${t} referencing new table as new_rows for each statement execute function entity_group_counts_apply(${args})`.execute(db2);
  await sql7`create trigger ${upd} after update on ${t} referencing old table as old_rows new table as new_rows for each statement execute function entity_group_counts_apply(${args})`.execute(db2);
  await sql7`create trigger ${del} after delete on ${t} referencing old table as old_rows for each statement execute function entity_group_counts_apply(${args})`.execute(db2);
  await sql7`create trigger ${trn} after truncate on ${t} for each statement execute function entity_group_counts_apply()`.execute(db2);
  for (const column of columns) {
    await sql7`insert into ${sql7.table(GROUP_COUNTS_TABLE)} (table_name, column_name, value, row_count)
      select ${table}, ${column}, ${sql7.ref(column)}::text, count(*) from ${t} where ${sql7.ref(column)} is not null group by 3`.execute(db2);
  }
  await sql7`analyze ${sql7.table(GROUP_COUNTS_TABLE)}`.execute(db2);
}
function groupCountIndexes(entity) {
  const d = entity.descriptor;
  const objects = [];
  for (const field of d.counts.groupBy) {
    for (const sort of /* @__PURE__ */ new Set([...d.list.sorts, d.list.defaultSort.field, "id"])) {
      const columns = sort === field || sort === "id" ? [field, "id"] : [field, sort, "id"];
      const name = objectName("ix_", d.table, columns, `${d.table}(${columns.join(",")}) btree`);
      if (objects.some((o) => o.name === name)) continue;
      objects.push({ kind: "index", table: d.table, name, create: sql7`create index ${sql7.id(name)} on ${sql7.table(d.table)} (${sql7.join(columns.map((c) => sql7.ref(c)))})` });
    }
  }
  return objects;
}

// src/server/db/sync/managed-objects.ts
function check(table, column, label, condition) {
  const definition = `${table}.${column}.${label}`;
  const name = objectName("ck_", table, [column], definition);
  return {
    kind: "constraint",
    table,
    name,
    create: sql8`alter table ${sql8.table(table)} add constraint ${sql8.id(name)} check (${condition})`
  };
}
function index(table, columns, method) {
  const name = objectName("ix_", table, columns, `${table}(${columns.join(",")}) ${method}`);
  const body = method === "trgm" ? sql8`using gin (${sql8.ref(columns[0])} gin_trgm_ops)` : sql8`(${sql8.join(columns.map((column) => sql8.ref(column)))})`;
  return { kind: "index", table, name, create: sql8`create index ${sql8.id(name)} on ${sql8.table(table)} ${body}` };
}
function managedObjects(entities) {
  const objects = /* @__PURE__ */ new Map();
  const add = (object) => objects.set(object.name, object);
  const byName = new Map(entities.map((entity) => [entity.descriptor.name, entity]));
  for (const entity of entities) {
    const { table, virtual } = entity.descriptor;
    const d = entity.descriptor;
    for (const [column, property] of Object.entries(entity.schema.properties ?? {})) {
      if (virtual.includes(column) || Object.hasOwn(d.computed, column)) continue;
      const ref = sql8.ref(column);
      if (Array.isArray(property.enum) && fieldKind(property) === "enum") {
        const values = property.enum.filter((value) => value !== null);
        add(check(table, column, `in ${JSON.stringify(values)}`, sql8`${ref} in (${sql8.join(values.map((v) => sql8.lit(String(v))))})`));
      }
      if (typeof property.maxLength === "number") add(check(table, column, `max ${property.maxLength}`, sql8`char_length(${ref}) <= ${sql8.lit(property.maxLength)}`));
      if (typeof property.minLength === "number") add(check(table, column, `min ${property.minLength}`, sql8`char_length(${ref}) >= ${sql8.lit(property.minLength)}`));
      if (typeof property.minimum === "number") add(check(table, column, `gte ${property.minimum}`, sql8`${ref} >= ${sql8.lit(property.minimum)}`));
      if (typeof property.maximum === "number") add(check(table, column, `lte ${property.maximum}`, sql8`${ref} <= ${sql8.lit(property.maximum)}`));
    }
    for (const entry of d.unique) {
      const columns = Array.isArray(entry) ? entry : [entry];
      const name = objectName("uq_", table, columns, `${table} unique (${columns.join(",")})`);
      add({
        kind: "constraint",
        table,
        name,
        create: sql8`alter table ${sql8.table(table)} add constraint ${sql8.id(name)} unique (${sql8.join(columns.map((c) => sql8.ref(c)))})`
      });
    }
    for (const relation of Object.values(d.relations)) {
      const target = byName.get(relation.entity).descriptor.table;
      const onDelete = relation.onDelete === "set-null" ? sql8`set null` : sql8`restrict`;
      const name = objectName("fk_", table, [relation.field], `${table}.${relation.field} -> ${target}.id ${relation.onDelete}`);
      add({
        kind: "constraint",
        table,
        name,
        late: true,
        create: sql8`alter table ${sql8.table(table)} add constraint ${sql8.id(name)} foreign key (${sql8.ref(relation.field)}) references ${sql8.table(target)} (id) on delete ${onDelete}`
      });
      add(index(table, [relation.field], "btree"));
    }
    for (const sort of /* @__PURE__ */ new Set([...d.list.sorts, d.list.defaultSort.field])) {
      if (sort !== "id") add(index(table, [sort, "id"], "btree"));
    }
    for (const filter of d.list.filters) {
      const [first, second] = filter.field.split(".");
      const method = filter.operator === "ilike" ? "trgm" : "btree";
      if (second === void 0) {
        add(index(table, [first], method));
      } else {
        const relation = d.relations[first];
        add(index(table, [relation.field], "btree"));
        add(index(byName.get(relation.entity).descriptor.table, [second], method));
      }
    }
    for (const field of d.list.search) add(index(table, [field], "trgm"));
    groupCountIndexes(entity).forEach(add);
  }
  return [...objects.values()];
}

// src/server/db/sync/row-counters.ts
import { sql as sql9 } from "kysely";
async function ensureRowCounterFunctions(db2) {
  await sql9`create table if not exists ${sql9.table(ROW_COUNTS_TABLE)} (
    table_name text primary key,
    row_count bigint not null
  )`.execute(db2);
  const bodies = {
    insert: `update ${ROW_COUNTS_TABLE} set row_count = row_count + (select count(*) from new_rows) where table_name = TG_TABLE_NAME;`,
    delete: `update ${ROW_COUNTS_TABLE} set row_count = row_count - (select count(*) from old_rows) where table_name = TG_TABLE_NAME;`,
    truncate: `update ${ROW_COUNTS_TABLE} set row_count = 0 where table_name = TG_TABLE_NAME;`
  };
  for (const [event, body] of Object.entries(bodies)) {
    await sql9.raw(`create or replace function entity_row_counts_${event}() returns trigger language plpgsql as $$ begin ${body} return null; end $$`).execute(db2);
  }
}
var counterTriggerNames = (table) => [`tg_${table}_count_ins`, `tg_${table}_count_del`, `tg_${table}_count_trunc`].map((n) => n.slice(0, 63));
async function installRowCounter(db2, table) {
  const [ins, del, trunc] = counterTriggerNames(table);
  const t = sql9.table(table);
  await sql9`drop trigger if exists ${sql9.id(ins)} on ${t}`.execute(db2);
  await sql9`drop trigger if exists ${sql9.id(del)} on ${t}`.execute(db2);
  await sql9`drop trigger if exists ${sql9.id(trunc)} on ${t}`.execute(db2);
  await sql9`create trigger ${sql9.id(ins)} after insert on ${t} referencing new table as new_rows for each statement execute function entity_row_counts_insert()`.execute(db2);
  await sql9`create trigger ${sql9.id(del)} after delete on ${t} referencing old table as old_rows for each statement execute function entity_row_counts_delete()`.execute(db2);
  await sql9`create trigger ${sql9.id(trunc)} after truncate on ${t} for each statement execute function entity_row_counts_truncate()`.execute(db2);
  await sql9`insert into ${sql9.table(ROW_COUNTS_TABLE)} (table_name, row_count) values (${table}, (select count(*) from ${t}))
    on conflict (table_name) do update set row_count = excluded.row_count`.execute(db2);
}

// src/server/db/sync/sync-entity-tables.ts
var SchemaSyncError = class extends Error {
  constructor(problems) {
    super(`The database tables do not match the entity schemas, and fixing that would lose data:
  - ${problems.join("\n  - ")}
Nothing was changed. Restore the schema, or migrate the column by hand (rename or copy the data), then start again.`);
    this.problems = problems;
  }
  problems;
  name = "SchemaSyncError";
};
var LOCK_KEY = 7301947221;
async function hasRows(db2, table) {
  const result = await sql10`select 1 as one from ${sql10.table(table)} limit 1`.execute(db2);
  return result.rows.length > 0;
}
async function syncEntityTables(db2, entities) {
  const report = { createdTables: [], addedColumns: [], createdObjects: [], droppedObjects: [] };
  await db2.transaction().execute(async (trx) => {
    await sql10`select pg_advisory_xact_lock(${LOCK_KEY})`.execute(trx);
    const desired = entities.map(desiredTable);
    const tables = desired.map((t) => t.table);
    const existing = tables.length ? (await sql10`select table_name, column_name, data_type from information_schema.columns
            where table_schema = current_schema() and table_name in (${sql10.join(tables)})`.execute(trx)).rows : [];
    const columnsOf = (table) => new Map(existing.filter((c) => c.table_name === table).map((c) => [c.column_name, c.data_type]));
    const problems = [];
    const additions = [];
    for (const table of desired) {
      const current = columnsOf(table.table);
      if (current.size === 0) continue;
      const file = `${table.entity.descriptor.schema}.schema.json`;
      for (const [name, dataType] of current) {
        const wanted = table.columns.find((c) => c.name === name);
        if (!wanted) {
          problems.push(`entity "${table.entity.descriptor.name}": column "${name}" (${dataType}) of table "${table.table}" is no longer in ${file}; dropping it is not done automatically`);
        } else if (wanted.dataType !== dataType) {
          problems.push(`entity "${table.entity.descriptor.name}": column "${name}" of table "${table.table}" is ${dataType} but ${file} now makes it ${wanted.dataType}; retyping is not done automatically`);
        }
      }
      for (const column of table.columns) {
        if (current.has(column.name)) continue;
        if (column.notNull && !column.default && await hasRows(trx, table.table)) {
          problems.push(`entity "${table.entity.descriptor.name}": new required column "${column.name}" needs a "default" in ${file}, because table "${table.table}" already has rows`);
        }
        additions.push({ table, column });
      }
    }
    if (problems.length > 0) throw new SchemaSyncError(problems);
    await ensureRowCounterFunctions(trx);
    for (const table of desired) {
      if (columnsOf(table.table).size > 0) continue;
      let create = trx.schema.createTable(table.table);
      for (const column of table.columns) {
        create = create.addColumn(column.name, sql10.raw(column.sqlType), (c) => {
          let col = column.serial ? c.primaryKey() : c;
          if (column.notNull && !column.serial) col = col.notNull();
          if (column.default) col = col.defaultTo(column.default);
          return col;
        });
      }
      await create.execute();
      report.createdTables.push(table.table);
    }
    for (const { table, column } of additions) {
      await trx.schema.alterTable(table.table).addColumn(column.name, sql10.raw(column.sqlType), (c) => {
        let col = column.notNull ? c.notNull() : c;
        if (column.default) col = col.defaultTo(column.default);
        return col;
      }).execute();
      report.addedColumns.push(`${table.table}.${column.name}`);
    }
    await syncManagedObjects(trx, entities, tables, report);
    const triggers = (await sql10`select t.tgname from pg_trigger t join pg_class c on c.oid = t.tgrelid
        join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and not t.tgisinternal`.execute(trx)).rows.map((r) => r.tgname);
    for (const table of tables) {
      if (!counterTriggerNames(table).every((name) => triggers.includes(name))) await installRowCounter(trx, table);
    }
    await ensureGroupCounterFunctions(trx);
    for (const entity of entities) await syncGroupCounters(trx, entity, triggers);
  });
  return report;
}
async function syncManagedObjects(trx, entities, tables, report) {
  const wanted = managedObjects(entities);
  const constraints = (await sql10`select con.conname as name, c.relname as table from pg_constraint con
      join pg_class c on c.oid = con.conrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema()`.execute(trx)).rows;
  const indexes = (await sql10`select indexname as name, tablename as table from pg_indexes
      where schemaname = current_schema()`.execute(trx)).rows;
  const isManaged = (name) => MANAGED_PREFIXES.some((prefix) => name.startsWith(prefix));
  const wantedNames = new Set(wanted.map((o) => o.name));
  const stale = [
    ...constraints.filter((c) => tables.includes(c.table) && isManaged(c.name) && !wantedNames.has(c.name)).map((c) => ({ ...c, kind: "constraint" })),
    ...indexes.filter((i) => tables.includes(i.table) && isManaged(i.name) && !wantedNames.has(i.name) && !constraints.some((c) => c.name === i.name)).map((i) => ({ ...i, kind: "index" }))
  ].sort((a, b) => Number(b.name.startsWith("fk_")) - Number(a.name.startsWith("fk_")));
  for (const object of stale) {
    if (object.kind === "constraint") await sql10`alter table ${sql10.table(object.table)} drop constraint ${sql10.id(object.name)}`.execute(trx);
    else await sql10`drop index ${sql10.id(object.name)}`.execute(trx);
    report.droppedObjects.push(object.name);
  }
  const present = /* @__PURE__ */ new Set([...constraints.map((c) => c.name), ...indexes.map((i) => i.name)]);
  for (const object of [...wanted.filter((o) => !o.late), ...wanted.filter((o) => o.late)]) {
    if (present.has(object.name)) continue;
    await object.create.execute(trx);
    report.createdObjects.push(object.name);
  }
}

// src/server/plugins/entities.ts
function parseJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new DescriptorError(file, "", `is not valid JSON: ${error.message}`);
  }
}
function readEntitySources(config) {
  const sources = [];
  for (const dir of config.entitiesDirs) {
    if (!fs.existsSync(dir)) throw new DescriptorError(dir, "", "the entities folder (ENTITIES_DIR) does not exist");
    for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".json")).sort()) {
      const file = path2.join(dir, name);
      const descriptor = parseJson(file);
      const schemaName = descriptor?.schema ?? descriptor?.name;
      const base = typeof schemaName === "string" && /^[a-z][a-z0-9_-]*$/.test(schemaName) ? schemaName : path2.basename(name, ".json");
      const candidates = config.schemasDirs.map((schemasDir) => path2.join(schemasDir, `${base}.schema.json`));
      const schemaFile = candidates.find((candidate) => fs.existsSync(candidate)) ?? candidates[0] ?? `${base}.schema.json`;
      sources.push({ file, descriptor, schemaFile, schema: fs.existsSync(schemaFile) ? parseJson(schemaFile) : void 0 });
    }
  }
  return sources;
}
function loadConfiguredEntities(config) {
  return loadEntities(readEntitySources(config), { knownHooks: Object.keys(beforeWriteHooks) });
}
var entitiesPlugin = fp(async function entitiesPlugin2(app) {
  const entities = loadConfiguredEntities(app.config);
  const report = await syncEntityTables(app.db, entities);
  if (report.createdTables.length || report.addedColumns.length) {
    app.log.info({ createdTables: report.createdTables, addedColumns: report.addedColumns }, "entity tables synced");
  }
  app.decorate("entities", createRegistry(entities));
});

// ../../tmp/perf/sql.ts
var url = "postgres://postgres@127.0.0.1:5432/ac_bench";
var compiled = [];
var pool = new pg.Pool({ connectionString: url, max: 1 });
var db = new Kysely({ dialect: new PostgresDialect({ pool }), log: (e) => void compiled.push(e.query) });
var registry = createRegistry(loadConfiguredEntities(loadConfig({})));
var query = Object.fromEntries(new URLSearchParams(process.argv[2] ?? "page=1&per_page=15&include=customer,category"));
await list(registry.byName.get("contest"), { query }, { db, registry });
for (const q of compiled) {
  console.log(q.sql, JSON.stringify(q.parameters).slice(0, 120));
  for (let i = 0; i < 3; i++) await pool.query(`explain (analyze) ${q.sql}`, q.parameters);
  const r = await pool.query(`explain (analyze) ${q.sql}`, q.parameters);
  console.log("   ", r.rows.slice(-2).map((x) => x["QUERY PLAN"]).join(" | "));
}
await db.destroy();
